import { NodeHost } from "../../../src/headless/NodeHost";
import type { LinkMap } from "../../../src/host/Host";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { seededRandom } from "../../../bench/syntheticVault";
import { SliceClock } from "../../../src/markdown/steps";
import { NodeMetadataCache } from "../../../src/headless/NodeMetadataCache";
import { LinkFileIndex } from "../../../src/paths/linkResolution";
import { RESOLVE_CHECK_INTERVAL } from "../../../src/config/limits";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { replaceMethod } from "../../helpers/replaceMethod";

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

/** Enough links that the cache keeps the note's asked names in a list of their own (NodeMetadataCache's HUGE_NOTE_LINKS). */
const HUGE_NOTE_LINK_LINES = 8_500;

describe.each([
	{ kind: "notes of a few links", huge: false },
	{ kind: "notes of a few links and one of 17,000", huge: true },
])("links kept resolved as files come, go and move, $kind", ({ huge }) => {
	let vault: OpenVault;
	const random = seededRandom(28);

	beforeAll(async () => {
		const files: Record<string, string> = {};
		for (const [index, name] of NAMES.entries()) files[`${FOLDERS[index % FOLDERS.length] ?? ""}${name}.md`] = noteText(random);
		if (huge) files["C/Huge.md"] = Array.from({ length: HUGE_NOTE_LINK_LINES }, (_, index) => `${linkText(random)} [[Far ${index}]]`).join("\n") + "\n";
		vault = await openVault(files);
	});
	afterAll(() => vault.close());

	test("after random creates, edits, renames and deletes, every note's resolved and unresolved links equal a cache built afresh", async () => {
		let fresh = 0;
		for (let step = 0; step < (huge ? 30 : 60); step++) {
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
			} else if (roll < 0.5 && target.extension === "md" && target.basename !== "Huge") {
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

describe("a note that links 20,000 names", () => {
	let vault: OpenVault;

	beforeAll(async () => {
		vault = await openVault({ "Huge.md": Array.from({ length: 20_000 }, (_, index) => `[[T${index}]]`).join("\n") + "\n", "Small.md": "x\n" });
	});
	afterAll(() => vault.close());

	test("a file created under a name it links to resolves it again without listing its 20,000 unresolved links in one piece", async () => {
		// Reading the note's asked names back from its records listed all 20,000 keys before the first pause.
		const cache = vault.host.metadataCache;
		await cache.settled();
		let listed = 0;
		cache.unresolvedLinks["Huge.md"] = new Proxy(cache.unresolvedLinks["Huge.md"] ?? {}, {
			ownKeys: (record) => {
				listed++;
				return Reflect.ownKeys(record);
			},
		});
		await vault.host.vault.create("T7.md", "new\n");
		await cache.settled();
		expect(listed).toBe(0);
		expect(cache.resolvedLinks["Huge.md"]).toEqual({ "T7.md": 1 });
		expect(Object.keys(cache.unresolvedLinks["Huge.md"] ?? {})).toHaveLength(19_999);
		await vault.host.vault.create("T8.md", "new\n");
		await cache.settled();
		expect(cache.resolvedLinks["Huge.md"]).toEqual({ "T7.md": 1, "T8.md": 1 });
		// Its names are still known after resolving it again with the same links: a file going or moving finds it.
		const created = vault.host.vault.getFileByPath("T7.md");
		if (created) await vault.host.fileManager.trashFile(created);
		const moved = vault.host.vault.getFileByPath("T8.md");
		if (moved) await vault.host.vault.rename(moved, "T9.md");
		await cache.settled();
		expect(cache.resolvedLinks["Huge.md"]).toEqual({ "T9.md": 1 });
		expect(cache.unresolvedLinks["Huge.md"]?.T7).toBe(1);
	});
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

describe("a note of 40,000 links changed", () => {
	test("its link texts are read for resolving in pieces, as its parse is (a rename's move re-read 100,000 in one piece of 45 ms)", async () => {
		const LINKS = 40_000;
		const vault = await openVault({ "Huge.md": Array.from({ length: LINKS }, (_, index) => `[[Far ${index}]]`).join("\n") + "\n" });
		try {
			await vault.host.metadataCache.settled();
			// Every look at the clock finds the slice used up: pieces are counted, not timed.
			let now = performance.now();
			const clock = jest.spyOn(performance, "now").mockImplementation(() => (now += 1_000));
			// Pushes (a link text read is one) in each piece of the note's link resolution, once it is parsed.
			const perPiece: number[] = [0];
			let resolving = false;
			const cache = NodeMetadataCache.prototype as unknown as { resolveSource: (path: string) => Promise<void> };
			const resolveSource = cache.resolveSource;
			const resolves = jest.spyOn(cache, "resolveSource").mockImplementation(async function (this: unknown, path: string): Promise<void> {
				resolving = true;
				try {
					await resolveSource.call(this, path);
				} finally {
					resolving = false;
				}
			});
			const push = Object.getOwnPropertyDescriptor(Array.prototype, "push")?.value as (this: unknown[], ...items: unknown[]) => number;
			const pushes = replaceMethod(Array.prototype, "push", function (this: unknown[], ...items: unknown[]): number {
				if (resolving) perPiece[perPiece.length - 1] = (perPiece.at(-1) ?? 0) + 1;
				return push.apply(this, items);
			});
			const checkpoint = Object.getOwnPropertyDescriptor(SliceClock.prototype, "checkpoint")?.value as (this: SliceClock) => Promise<void>;
			const pauses = jest.spyOn(SliceClock.prototype, "checkpoint").mockImplementation(function (this: SliceClock): Promise<void> {
				if (resolving) perPiece.push(0);
				return checkpoint.call(this);
			});
			try {
				await vault.host.vault.process(vault.host.vault.getFileByPath("Huge.md") ?? missing(), (text) => `${text}[[Far ${LINKS}]]\n`);
				await vault.host.metadataCache.settled();
			} finally {
				pauses.mockRestore();
				pushes.restore();
				resolves.mockRestore();
				clock.mockRestore();
			}
			expect(Object.keys(vault.host.metadataCache.unresolvedLinks["Huge.md"] ?? {})).toHaveLength(LINKS + 1);
			// Before: the 40,001 link texts in one piece.
			expect(perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(LINKS);
			expect(Math.max(...perPiece)).toBeLessThan(LINKS / 4);
		} finally {
			await vault.close();
		}
	});
});

function missing(): never {
	throw new Error("missing from the test vault");
}

describe("a note renamed that many notes link, each with many links", () => {
	test("a note's links to one path are resolved once between two pauses, each still counted (1,500 notes of 81 such links were resolved link by link)", async () => {
		// 300 links to one note, through headings, aliases and embeds, and 3 to a name no file has.
		const linker = Array.from({ length: 100 }, (_, index) => `[[Target#Part ${index}|part ${index}]] ![[Target#Part ${index}]] [[target]]`).join("\n");
		const vault = await openVault({ "Target.md": "# Target\n", "Linker.md": `${linker}\n[[Nowhere]] [[Nowhere#a]] [[Nowhere|b]]\n` });
		let calls = 0;
		const resolve = Object.getOwnPropertyDescriptor(LinkFileIndex.prototype, "resolve")?.value as LinkFileIndex<never>["resolve"];
		const counting = replaceMethod(LinkFileIndex.prototype as LinkFileIndex<never>, "resolve", function (this: LinkFileIndex<never>, ...args) {
			calls++;
			return resolve.apply(this, args);
		});
		try {
			await vault.host.metadataCache.settled();
			calls = 0;
			// A file of the name it asks for: the note's links are resolved again.
			await vault.host.vault.create("Nowhere.md", "here now");
			await vault.host.metadataCache.settled();
			// Before, one call a link: 303. Now one a link path (2), a few more if a pause fell inside the note.
			expect(calls).toBeLessThan(20);
			expect(vault.host.metadataCache.resolvedLinks["Linker.md"]).toEqual({ "Target.md": 300, "Nowhere.md": 3 });
		} finally {
			counting.restore();
			await vault.close();
		}
	});

	test("the notes linking it are resolved again with pauses between them, and their links follow it", async () => {
		// 120 notes each linking all 120: renaming one resolved the 119 others' 14,280 links in one piece
		// (300 notes of 300 embeds each held the server 0.3-0.5 s in one piece over HTTP).
		const NOTES = 120;
		const files: Record<string, string> = {};
		for (let index = 0; index < NOTES; index++) files[`E/N${index}.md`] = Array.from({ length: NOTES }, (_, other) => `![[N${other}]]`).join(" ") + "\n";
		const pieces = countWorkPerPiece();
		let vault: OpenVault | undefined;
		let resolved: jest.SpyInstance | undefined;
		try {
			vault = await openVault(files);
			await vault.host.metadataCache.settled();
			const resolve = Object.getOwnPropertyDescriptor(LinkFileIndex.prototype, "resolve")?.value as LinkFileIndex<never>["resolve"];
			resolved = jest.spyOn(LinkFileIndex.prototype, "resolve").mockImplementation(function (this: LinkFileIndex<never>, ...args) {
				pieces.count();
				return resolve.apply(this, args) as never;
			});
			const before = pieces.perPiece.length;
			await vault.host.vault.rename(vault.host.vault.getFileByPath("E/N0.md") ?? missing(), "E/Moved.md");
			await vault.host.metadataCache.settled();
			const counted = pieces.perPiece.slice(before - 1);
			// Every other note's links were resolved again.
			expect(counted.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual((NOTES - 1) * NOTES);
			expect(Math.max(...counted)).toBeLessThanOrEqual(RESOLVE_CHECK_INTERVAL);
			expect(vault.host.metadataCache.resolvedLinks["E/N7.md"]?.["E/Moved.md"]).toBeUndefined();
			expect(vault.host.metadataCache.unresolvedLinks["E/N7.md"]?.N0).toBe(1);
		} finally {
			resolved?.mockRestore();
			pieces.restore();
			await vault?.close();
		}
	});
});
