import { NodeHost } from "../../../src/headless/NodeHost";
import type { LinkMap } from "../../../src/host/Host";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { seededRandom } from "../../../bench/syntheticVault";

const FOLDERS = ["", "A/", "A/B/", "C/"];
const NAMES = ["Alpha", "Beta", "Gamma", "Delta.md", "Epsilon"];

/** Links of every shape resolution treats apart (file names differ in more than case: two such files are one path to Obsidian): by name, any case, by path, relative, with `.md`, to attachments, to nowhere, to itself. */
function linkText(random: () => number): string {
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
	const name = pick(NAMES);
	return pick([
		`[[${name}]]`,
		`[[${name.toUpperCase()}]]`,
		`[[${pick(FOLDERS)}${name}]]`,
		`[[./${name}]]`,
		`[[../${name}|shown]]`,
		`[[${name}.md#Heading]]`,
		`![[image.png]]`,
		`[[A/image.png]]`,
		`[[Nowhere ${Math.floor(random() * 3)}]]`,
		`[[#Heading]]`,
	]);
}

function noteText(random: () => number): string {
	const lines = random() < 0.3 ? ["---", `related: "${linkText(random)}"`, "---"] : [];
	const count = Math.floor(random() * 5);
	for (let index = 0; index < count; index++) lines.push(`see ${linkText(random)} and ${linkText(random)}`);
	return lines.join("\n") + "\n";
}

/** A link map as a plain value, its keys sorted, so two caches built in different orders compare equal. */
function sorted(map: LinkMap): Record<string, Record<string, number>> {
	const result: Record<string, Record<string, number>> = {};
	for (const source of Object.keys(map).sort()) result[source] = Object.fromEntries(Object.entries(map[source] ?? {}).sort());
	return result;
}

async function linksOf(host: NodeHost): Promise<unknown> {
	await host.metadataCache.settled();
	return { resolved: sorted(host.metadataCache.resolvedLinks), unresolved: sorted(host.metadataCache.unresolvedLinks) };
}

describe("links kept resolved as files come, go and move", () => {
	let vault: OpenVault;
	const random = seededRandom(28);

	beforeAll(async () => {
		const files: Record<string, string> = {};
		for (const [index, name] of NAMES.entries()) files[`${FOLDERS[index % FOLDERS.length] ?? ""}${name}.md`] = noteText(random);
		vault = await openVault(files);
	});
	afterAll(() => vault.close());

	test("after random creates, edits, renames and deletes, every note's resolved and unresolved links equal a cache built afresh", async () => {
		let fresh = 0;
		for (let step = 0; step < 60; step++) {
			const files = vault.host.vault.getFiles().filter((file) => !file.path.startsWith("."));
			const target = files[Math.floor(random() * files.length)];
			const roll = random();
			const folder = FOLDERS[Math.floor(random() * FOLDERS.length)] ?? "";
			const name = `${NAMES[Math.floor(random() * NAMES.length)] ?? ""}`;
			if (roll < 0.3 || !target) {
				// Names repeat across folders, so a new file can be nearer, shorter, or the first of its name.
				const path = random() < 0.2 ? `${folder}image.png` : random() < 0.2 ? `${folder}${name} ${fresh++}.canvas` : `${folder}${name}.md`;
				const data = path.endsWith(".canvas") ? JSON.stringify({ nodes: [{ id: "a", type: "text", text: noteText(random) }] }) : noteText(random);
				if (!vault.host.vault.getFileByPath(path)) await vault.host.vault.create(path, data);
			} else if (roll < 0.5 && target.extension === "md") {
				await vault.host.vault.process(target, () => noteText(random));
			} else if (roll < 0.8) {
				const path = `${folder}${random() < 0.5 ? name : target.basename}.${target.extension}`;
				if (!vault.host.vault.getFileByPath(path)) await vault.host.vault.rename(target, path);
			} else {
				await vault.host.fileManager.trashFile(target);
			}
			const kept = await linksOf(vault.host);
			const rebuilt = await NodeHost.open(vault.root);
			try {
				expect(kept).toEqual(await linksOf(rebuilt));
			} finally {
				await rebuilt.close();
			}
		}
	}, 120_000);
});

describe("a file renamed to its name plus or minus .md, then deleted", () => {
	test.each([
		["Plan.md", "Plan.md.md", "see [[Plan.md]]"],
		["Plan", "Plan.md", "see [[Plan]]"],
		["Plan.md", "Plan", "see [[Plan]]"],
	])("%s renamed %s and deleted: a link no longer reaches it, and a file of that name made later does", async (first, renamed, text) => {
		const vault = await openVault({ [first]: "plan\n", "Home.md": `${text}\n` });
		try {
			const files = vault.host.vault;
			await files.rename(files.getFileByPath(first)!, renamed);
			await vault.host.fileManager.trashFile(files.getFileByPath(renamed)!);
			expect(await linksOf(vault.host)).toEqual({ resolved: { "Home.md": {} }, unresolved: { "Home.md": { [text.slice(6, -2)]: 1 } } });
			await files.create(`Deep/${renamed}`, "again\n");
			const rebuilt = await NodeHost.open(vault.root);
			try {
				expect(await linksOf(vault.host)).toEqual(await linksOf(rebuilt));
				expect(vault.host.metadataCache.resolvedLinks["Home.md"]).toEqual({ [`Deep/${renamed}`]: 1 });
			} finally {
				await rebuilt.close();
			}
		} finally {
			await vault.close();
		}
	});
});
