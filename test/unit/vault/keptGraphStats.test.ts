import fc from "fast-check";
import type { HostFile } from "../../../src/host/Host";
import { KeptGraphStats } from "../../../src/vault/keptGraphStats";
import { graphStats } from "../../../src/vault/links";
import { NoteMemo } from "../../../src/vault/noteMemo";
import type { Scope } from "../../../src/vault/scope";
import type { CallBudget } from "../../../src/vault/workBudget";
import { openVault, type OpenVault } from "../../helpers/hostVault";

const TOP = 10;
const PLAIN_NOTES = 300;

function files(): Record<string, string> {
	const files: Record<string, string> = {
		"Hub.md": "# Hub\n",
		"A/One.md": "[[Hub]] [[Missing]]\n",
		"A/Two.md": "[[Hub]] [[One]]\n",
		"Hidden/Secret.md": "[[Hub]] [[Hub]] [[Two]]\n",
	};
	for (let index = 0; index < PLAIN_NOTES; index++) files[`Plain/${String(index).padStart(3, "0")}.md`] = `plain ${index}\n`;
	return files;
}

/** A budget that never pauses and counts how often the call looked at its clock: once per note walked, at least. */
function countingBudget(): { budget: CallBudget; looks: () => number } {
	let looks = 0;
	const budget = {
		due: () => {
			looks++;
			return false;
		},
		checkpoint: async () => undefined,
	} as unknown as CallBudget;
	return { budget, looks: () => looks };
}

/** The vault's files and every note's links as the host holds them now: the same string while nothing the graph counts read has moved. */
function linkState(vault: OpenVault): string {
	const { resolvedLinks, unresolvedLinks } = vault.host.metadataCache;
	// Which notes are read too: a note's metadata is set a few turns before its links are resolved, and a count made
	// between the two (a note not read counts nowhere) differs from one made after.
	const files = vault.host.vault.getFiles().map((file) => [file.path, vault.host.metadataCache.getFileCache(file) !== null]);
	return JSON.stringify([files, resolvedLinks, unresolvedLinks]);
}

describe("KeptGraphStats: get_graph_stats answers again without a walk until a note changes", () => {
	let vault: OpenVault;
	let kept: KeptGraphStats;
	beforeEach(async () => {
		vault = await openVault(files());
		await vault.host.metadataCache.settled();
		kept = new KeptGraphStats(vault.host);
		kept.start();
	});
	afterEach(async () => {
		kept.stop();
		await vault.close();
	});

	/**
	 * The kept answer, which must be what a count from nothing gives now; and the notes the kept call
	 * walked. The host reads and resolves notes between the awaits of the two counts: asked again
	 * until no note's links and no file moved between them.
	 */
	async function stats(scope: Scope) {
		for (;;) {
			const before = linkState(vault);
			const { budget, looks } = countingBudget();
			const answer = await kept.stats(scope, TOP, budget);
			const fresh = await graphStats(vault.host, scope, TOP, undefined, new NoteMemo());
			if (linkState(vault) !== before) continue;
			expect(JSON.stringify(answer)).toBe(JSON.stringify(fresh));
			return { answer, walked: looks() };
		}
	}

	/** Asked at once after a change (before its metadata is read, when the host reads it later), and again once it is read. */
	async function settled(): Promise<void> {
		await stats(vault.scope("Hidden"));
		await vault.host.metadataCache.settled();
	}

	test(`asked again with nothing changed, the call walks none of the ${PLAIN_NOTES + 3} notes`, async () => {
		const first = await stats(vault.scope("Hidden"));
		expect(first.walked).toBeGreaterThan(PLAIN_NOTES);
		expect(first.answer).toMatchObject({ notes: PLAIN_NOTES + 3, links: 3, unresolved_links: 1 });
		const again = await stats(vault.scope("Hidden"));
		expect(again.walked).toBe(0);
		expect(again.answer).toEqual(first.answer);
	});

	test(`one note edited: the next call works out that note again, not the ${PLAIN_NOTES + 3} notes`, async () => {
		await stats(vault.scope("Hidden"));
		await vault.host.vault.process(vault.host.vault.getFileByPath("Plain/001.md") as HostFile, () => "[[Hub]] [[Two]]\n");
		await vault.host.metadataCache.settled();
		const after = await stats(vault.scope("Hidden"));
		expect(after.answer).toMatchObject({
			links: 5,
			top_linked: [
				{ path: "Hub.md", backlinks: 3 },
				{ path: "A/One.md", backlinks: 1 },
				{ path: "A/Two.md", backlinks: 1 },
			],
		});
		expect(after.walked).toBeLessThan(10);
	});

	test("a note edited to link elsewhere: counted again", async () => {
		await stats(vault.scope("Hidden"));
		await vault.host.vault.process(vault.host.vault.getFileByPath("Plain/001.md") as HostFile, () => "[[Hub]] [[Two]] [[Nowhere]]\n");
		await settled();
		expect((await stats(vault.scope("Hidden"))).answer).toMatchObject({ links: 5, unresolved_links: 2 });
	});

	test("a note created or renamed: counted again", async () => {
		await stats(vault.scope("Hidden"));
		await vault.host.vault.create("New.md", "[[Hub]]\n");
		await settled();
		expect((await stats(vault.scope("Hidden"))).answer).toMatchObject({ notes: PLAIN_NOTES + 4, links: 4 });
		await vault.host.vault.rename(vault.host.vault.getFileByPath("Hub.md") as HostFile, "Moved/Hub.md");
		await settled();
		expect((await stats(vault.scope("Hidden"))).answer.top_linked[0]).toEqual({ path: "Moved/Hub.md", backlinks: 3 });
		await vault.host.vault.rename(vault.host.vault.getFileByPath("Moved/Hub.md") as HostFile, "Hidden/Hub.md");
		await settled();
		expect((await stats(vault.scope("Hidden"))).answer.top_linked.map((entry) => entry.path)).not.toContain("Hidden/Hub.md");
	});

	test("a note renamed or deleted: the notes linking to it are counted again though the host sends no `resolve` for them (Obsidian may remap its links in place)", async () => {
		// A host that says nothing of A/Two.md's links being resolved again: they change all the same.
		const { metadataCache } = vault.host;
		const quiet = new Proxy(metadataCache, {
			get: (target, name, receiver) =>
				name === "on"
					? (event: string, callback: (file: HostFile) => void) =>
							target.on(event as "resolve", event === "resolve" ? (file: HostFile) => file.path !== "A/Two.md" && callback(file) : callback)
					: (Reflect.get(target, name, receiver) as unknown),
		});
		kept.stop();
		kept = new KeptGraphStats(
			new Proxy(vault.host, { get: (target, name, receiver) => (name === "metadataCache" ? quiet : (Reflect.get(target, name, receiver) as unknown)) }),
		);
		kept.start();
		await stats(vault.scope("Hidden"));
		// A/Two.md's `[[One]]` points nowhere once One is renamed, and its `[[Hub]]` once Hub is deleted.
		await vault.host.vault.rename(vault.host.vault.getFileByPath("A/One.md") as HostFile, "A/First.md");
		await metadataCache.settled();
		expect((await stats(vault.scope("Hidden"))).answer).toMatchObject({ unresolved_links: 2 });
		await vault.host.fileManager.trashFile(vault.host.vault.getFileByPath("Hub.md") as HostFile);
		await metadataCache.settled();
		expect((await stats(vault.scope("Hidden"))).answer).toMatchObject({ links: 0, unresolved_links: 4 });
	});

	test("a note that comes to exist is counted for the links asking for it though the host sends no `resolve` for them (Obsidian documents only `resolved`)", async () => {
		// A host that sends no `resolve` at all: the links asking for Missing are resolved again all the same.
		const { metadataCache } = vault.host;
		const quiet = new Proxy(metadataCache, {
			get: (target, name, receiver) =>
				name === "on"
					? (event: string, callback: (file: HostFile) => void) => target.on(event as "resolve", event === "resolve" ? () => undefined : callback)
					: (Reflect.get(target, name, receiver) as unknown),
		});
		kept.stop();
		kept = new KeptGraphStats(
			new Proxy(vault.host, { get: (target, name, receiver) => (name === "metadataCache" ? quiet : (Reflect.get(target, name, receiver) as unknown)) }),
		);
		kept.start();
		expect((await stats(vault.scope("Hidden"))).answer).toMatchObject({ links: 3, unresolved_links: 1 });
		// A/One.md's `[[Missing]]` leads to the new note; asked at once, then once the host has read it.
		await vault.host.vault.create("Missing.md", "# Missing\n");
		await stats(vault.scope("Hidden"));
		await metadataCache.settled();
		expect((await stats(vault.scope("Hidden"))).answer).toMatchObject({ notes: PLAIN_NOTES + 4, links: 4, unresolved_links: 0 });
		// And by a rename: A/Two.md's `[[One]]` points nowhere, then to the note renamed back.
		await vault.host.vault.rename(vault.host.vault.getFileByPath("A/One.md") as HostFile, "A/First.md");
		await metadataCache.settled();
		await stats(vault.scope("Hidden"));
		await vault.host.vault.rename(vault.host.vault.getFileByPath("A/First.md") as HostFile, "A/One.md");
		await metadataCache.settled();
		expect((await stats(vault.scope("Hidden"))).answer).toMatchObject({ links: 4, unresolved_links: 0 });
	});

	test("a note deleted: counted again", async () => {
		await stats(vault.scope("Hidden"));
		await vault.host.fileManager.trashFile(vault.host.vault.getFileByPath("A/Two.md") as HostFile);
		await settled();
		expect((await stats(vault.scope("Hidden"))).answer).toMatchObject({ notes: PLAIN_NOTES + 2, links: 1 });
	});

	test("excluded folders or token folders changed: each scope has its own answer, never another's", async () => {
		const hidden = (await stats(vault.scope("Hidden"))).answer;
		const all = (await stats(vault.scope())).answer;
		expect(all.links).toBeGreaterThan(hidden.links);
		expect((await stats(vault.scope("Hidden"))).answer).toEqual(hidden);
		const tokenA = (await stats({ ...vault.scope("Hidden"), tokenFolders: ["A"] })).answer;
		expect(tokenA).toMatchObject({ notes: 2, links: 1 });
		expect((await stats(vault.scope("Hidden", "A"))).answer.notes).toBe(PLAIN_NOTES + 1);
	});
});

// Names shared by several folders, so a link's target moves as notes come, go and move (the nearest, or the first by path, wins).
const NAMES = ["One", "Two", "Three"];
const FOLDERS = ["", "A/", "B/", "Hidden/"];
const notePath = fc.tuple(fc.constantFrom(...FOLDERS), fc.constantFrom(...NAMES)).map(([folder, name]) => `${folder}${name}.md`);
const linkText = fc.oneof(
	fc.constantFrom(...NAMES, "Missing", "pic.png"),
	notePath.map((path) => path.slice(0, -3)),
);
const noteText = fc.array(linkText, { maxLength: 4 }).map((links) => links.map((link) => `[[${link}]]`).join(" ") + "\n");
const vaultEvent = fc.oneof(
	fc.record({ kind: fc.constant("write" as const), path: notePath, text: noteText }),
	fc.record({ kind: fc.constant("move" as const), from: notePath, to: fc.oneof(notePath, fc.constant("pic.png")) }),
	fc.record({ kind: fc.constant("delete" as const), path: fc.oneof(notePath, fc.constant("pic.png")) }),
);
/** Every kind of scope: the whole vault, a folder excluded, a token's folders, both. */
const SCOPES: Scope[] = [
	{ configDir: ".obsidian", excludedFolders: [] },
	{ configDir: ".obsidian", excludedFolders: ["Hidden"] },
	{ configDir: ".obsidian", excludedFolders: [], tokenFolders: ["A", "B"] },
	{ configDir: ".obsidian", excludedFolders: ["B"], tokenFolders: ["A", "B"] },
];

describe("KeptGraphStats over a random vault and random changes: what a count from nothing gives, in every scope", () => {
	test("notes written, moved, renamed into and out of hidden folders, deleted: asked at once and once read, the kept counts are the fresh ones", async () => {
		await fc.assert(
			fc.asyncProperty(fc.dictionary(notePath, noteText, { maxKeys: 8 }), fc.array(vaultEvent, { minLength: 1, maxLength: 8 }), async (start, events) => {
				const vault = await openVault({ ...start, "pic.png": "png" });
				const kept = new KeptGraphStats(vault.host);
				kept.start();
				try {
					const { vault: files, metadataCache } = vault.host;
					/** Every scope's kept counts against a count from nothing, asked until no note moved between the two. */
					const compare = async () => {
						for (const scope of SCOPES)
							for (;;) {
								const before = linkState(vault);
								const answer = await kept.stats(scope, 3);
								const fresh = await graphStats(vault.host, scope, 3, undefined, new NoteMemo());
								if (linkState(vault) !== before) continue;
								expect(JSON.stringify(answer)).toBe(JSON.stringify(fresh));
								break;
							}
					};
					await compare();
					for (const event of events) {
						if (event.kind === "write") {
							const file = files.getFileByPath(event.path);
							if (file) await files.process(file, () => event.text);
							else await files.create(event.path, event.text);
						} else if (event.kind === "move") {
							const file = files.getFileByPath(event.from);
							if (!file || files.getFileByPath(event.to)) continue;
							await files.rename(file, event.to);
						} else {
							const file = files.getFileByPath(event.path);
							if (!file) continue;
							await vault.host.fileManager.trashFile(file);
						}
						await compare();
						await metadataCache.settled();
						await compare();
					}
				} finally {
					kept.stop();
					await vault.close();
				}
			}),
			{ numRuns: 12 },
		);
	});
});
