import type { EventRef } from "obsidian";
import type { NodeHost } from "../../../src/headless/NodeHost";
import type { Host } from "../../../src/host/Host";
import { NoteMemo } from "../../../src/vault/noteMemo";
import type { Scope } from "../../../src/vault/scope";
import { mergeInSlices, TagNotes } from "../../../src/vault/tagNotes";
import { notesWithTag } from "../../../src/vault/tags";
import { CallBudget, CallOverBudget } from "../../../src/vault/workBudget";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { seededRandom } from "../../../bench/syntheticVault";
import { SLICED_TAGS } from "../../../src/config/limits";
import { countSetAdds, countWorkPerPiece } from "../../helpers/workPieces";

const FOLDERS = ["", "A/", "B/", "Private/"];
const TAGS = ["#alpha", "#Alpha/beta", "#gamma", "#project/x", "#project", "#projects", "#project/x/deep"];
const ASKED = ["project", "alpha", "Alpha/Beta", "gamma", "project/x", "nothing"];

/** A note with a random mix of tags in its body and frontmatter. */
function noteText(random: () => number): string {
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
	const lines: string[] = [];
	if (random() < 0.4) lines.push("---", `tags: [${pick(TAGS).slice(1)}]`, "---");
	const count = Math.floor(random() * 4);
	for (let index = 0; index < count; index++) lines.push(random() < 0.6 ? `words and ${pick(TAGS)}` : "plain line");
	return lines.join("\n") + "\n";
}

/**
 * Resolves once the metadata cache has taken in every change made so far (the watcher's reports
 * too): awaited after the change. A moment of quiet (60 ms without `resolved`) came before a
 * created note's parse had begun under load: the next call left it out (2 of 3 runs alone, load 13).
 */
function settled(host: NodeHost): Promise<void> {
	return host.metadataCache.caughtUpWithDisk();
}

/** A budget that never runs out and pauses for nothing (a microtask), counting its pauses. */
function countingBudget(sliceMs = 1_000_000): CallBudget & { pauses: () => number } {
	let pauses = 0;
	const budget = new CallBudget(
		() => {
			pauses++;
			return Promise.resolve();
		},
		sliceMs,
		Number.POSITIVE_INFINITY,
	);
	return Object.assign(budget, { pauses: () => pauses });
}

/** The kept answer against a full walk made just before and after it (equal walks: nothing changed meanwhile). */
async function expectKeptEqualsWalk(vault: OpenVault, kept: TagNotes, scope: Scope, tag: string): Promise<void> {
	for (;;) {
		const before = await notesWithTag(vault.host, scope, tag, undefined, new NoteMemo());
		const fromKept = await kept.notesWith(scope, tag, countingBudget());
		const after = await notesWithTag(vault.host, scope, tag, undefined, new NoteMemo());
		if (JSON.stringify(before) !== JSON.stringify(after)) {
			await settled(vault.host);
			continue;
		}
		expect(fromKept).toEqual(after);
		return;
	}
}

describe("notes by tag, kept while the server runs", () => {
	let vault: OpenVault;
	const random = seededRandom(36);

	beforeEach(async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < 40; index++) files[`${FOLDERS[index % FOLDERS.length] ?? ""}Note ${index}.md`] = noteText(random);
		vault = await openVault(files);
	});
	afterEach(() => vault.close());

	test("after random edits, creates, renames and deletes, every tag's notes equal a walk of every note, nested tags and exclusions included", async () => {
		const kept = new TagNotes(vault.host, new NoteMemo());
		kept.start();
		const scopes = [vault.scope(), vault.scope("Private"), vault.scope("A", "B")];
		let fresh = 0;
		try {
			for (let step = 0; step < 30; step++) {
				const notes = vault.host.vault.getMarkdownFiles().filter((file) => !file.path.startsWith(".trash/"));
				const target = notes[Math.floor(random() * notes.length)];
				const roll = random();
				if (roll < 0.3 || !target)
					await vault.host.vault.create(`${FOLDERS[Math.floor(random() * FOLDERS.length)] ?? ""}New ${fresh++}.md`, noteText(random));
				else if (roll < 0.65) await vault.host.vault.process(target, () => noteText(random));
				else if (roll < 0.85)
					await vault.host.fileManager.renameFile(target, `${FOLDERS[Math.floor(random() * FOLDERS.length)] ?? ""}Moved ${fresh++}.md`);
				else await vault.host.fileManager.trashFile(target);
				await settled(vault.host);
				for (const scope of scopes) for (const tag of ASKED) await expectKeptEqualsWalk(vault, kept, scope, tag);
			}
		} finally {
			kept.stop();
		}
	}, 120_000);

	test("a call asked again reads no note's metadata; after one note changed, only that note's", async () => {
		const kept = new TagNotes(vault.host, new NoteMemo());
		kept.start();
		const scope = vault.scope();
		const read = jest.spyOn(vault.host.metadataCache, "getFileCache");
		try {
			const first = (await kept.notesWith(scope, "project", countingBudget())) ?? [];
			expect(first.length).toBeGreaterThan(3);
			expect(read.mock.calls.length).toBeGreaterThanOrEqual(40);
			read.mockClear();
			expect(await kept.notesWith(scope, "project", countingBudget())).toEqual(first);
			expect(read).not.toHaveBeenCalled();
			const file = vault.host.vault.getFileByPath(first[0] ?? "");
			if (!file) throw new Error("the first note is gone");
			await vault.host.vault.process(file, () => "no tags left\n");
			await settled(vault.host);
			read.mockClear();
			const after = await kept.notesWith(scope, "project", countingBudget());
			expect([...new Set(read.mock.calls.map(([asked]) => asked.path))]).toEqual([file.path]);
			expect(after).toEqual(first.slice(1));
		} finally {
			read.mockRestore();
			kept.stop();
		}
	});

	test("the first call over every note is split into steps: it pauses at least once a note", async () => {
		const kept = new TagNotes(vault.host, new NoteMemo());
		kept.start();
		try {
			const budget = countingBudget(0);
			const found = await kept.notesWith(vault.scope(), "alpha", budget);
			expect(found).toEqual(await notesWithTag(vault.host, vault.scope(), "alpha", undefined, new NoteMemo()));
			expect(budget.pauses()).toBeGreaterThanOrEqual(40);
		} finally {
			kept.stop();
		}
	});

	test("calls stopped over their budget part-way leave nothing wrong: a later call still answers as a walk does", async () => {
		const kept = new TagNotes(vault.host, new NoteMemo());
		kept.start();
		try {
			const target = vault.host.vault.getMarkdownFiles()[0];
			if (!target) throw new Error("no note");
			for (let round = 0; round < 6; round++) {
				// Each pause after the first few throws, as a call out of budget does.
				let pauses = 0;
				const stopping = new CallBudget(
					() => (++pauses > round * 7 ? Promise.reject(new CallOverBudget(0)) : Promise.resolve()),
					0,
					Number.POSITIVE_INFINITY,
				);
				await kept.notesWith(vault.scope(), "project", stopping).catch((error: unknown) => expect(error).toBeInstanceOf(CallOverBudget));
				await vault.host.vault.process(target, () => noteText(random));
				await settled(vault.host);
			}
			for (const tag of ASKED) await expectKeptEqualsWalk(vault, kept, vault.scope(), tag);
		} finally {
			kept.stop();
		}
	});
});

/**
 * The vault as Obsidian shows it to the index, with folder events the test sends: a folder made, and a
 * folder renamed or deleted whose notes moved or went without an event each (the files' own events are
 * kept from the index while `quietFiles` is set; the metadata cache still follows them).
 */
function withFolderEvents(host: NodeHost): {
	host: Host;
	folderEvent: (name: "create" | "delete" | "rename", path: string, oldPath?: string) => void;
	quietFiles: { on: boolean };
} {
	const listeners: Array<{ name: string; callback: (...args: never[]) => unknown }> = [];
	const quietFiles = { on: false };
	const on = (name: string, callback: (...args: never[]) => unknown): EventRef => {
		listeners.push({ name, callback });
		return host.vault.on(name as "create", ((...args: never[]) => (quietFiles.on ? undefined : callback(...args))) as () => unknown);
	};
	const vault = new Proxy(host.vault, {
		get: (target, key) => (key === "on" ? on : (Reflect.get(target, key, target) as unknown)),
	});
	return {
		host: { vault, metadataCache: host.metadataCache } as unknown as Host,
		folderEvent: (name, path, oldPath) => {
			const folder = { path, name: path.slice(path.lastIndexOf("/") + 1), children: [] };
			for (const listener of listeners) if (listener.name === name) (listener.callback as (file: unknown, oldPath?: string) => unknown)(folder, oldPath);
		},
		quietFiles,
	};
}

describe("notes by tag, folder events", () => {
	let vault: OpenVault;

	beforeEach(async () => {
		vault = await openVault({
			"A/One.md": "#project\n",
			"A/Deep/Two.md": "#project #alpha\n",
			"A/Plain.md": "no tags\n",
			"AB/Three.md": "#project\n",
			"B/Four.md": "#alpha\n",
			"Five.md": "#project\n",
		});
	});
	afterEach(() => vault.close());

	test("a folder made: the next call reads only the note created in it, not every note again", async () => {
		const events = withFolderEvents(vault.host);
		const kept = new TagNotes(events.host, new NoteMemo());
		kept.start();
		const read = jest.spyOn(vault.host.metadataCache, "getFileCache");
		try {
			expect(await kept.notesWith(vault.scope(), "project", countingBudget())).toEqual(["A/Deep/Two.md", "A/One.md", "AB/Three.md", "Five.md"]);
			read.mockClear();
			events.folderEvent("create", "New");
			await vault.host.vault.create("New/Six.md", "#project\n");
			await settled(vault.host);
			expect(await kept.notesWith(vault.scope(), "project", countingBudget())).toEqual([
				"A/Deep/Two.md",
				"A/One.md",
				"AB/Three.md",
				"Five.md",
				"New/Six.md",
			]);
			expect([...new Set(read.mock.calls.map(([file]) => file.path))]).toEqual(["New/Six.md"]);
		} finally {
			read.mockRestore();
			kept.stop();
		}
	});

	test("a folder renamed or deleted, its notes moved or gone without an event each: the answer follows, reading only the notes that were under it", async () => {
		const events = withFolderEvents(vault.host);
		const kept = new TagNotes(events.host, new NoteMemo());
		kept.start();
		const read = jest.spyOn(vault.host.metadataCache, "getFileCache");
		try {
			const scope = vault.scope();
			expect(await kept.notesWith(scope, "alpha", countingBudget())).toEqual(["A/Deep/Two.md", "B/Four.md"]);
			read.mockClear();
			events.quietFiles.on = true;
			for (const path of ["A/One.md", "A/Deep/Two.md", "A/Plain.md"]) {
				const file = vault.host.vault.getFileByPath(path);
				if (!file) throw new Error(`${path} is missing`);
				await vault.host.vault.rename(file, `C/${path.slice("A/".length)}`);
			}
			await settled(vault.host);
			events.quietFiles.on = false;
			events.folderEvent("rename", "C", "A");
			const moved = await kept.notesWith(scope, "project", countingBudget());
			// The tagged notes that were under the folder, where they went; not AB/, nor the rest of the vault.
			expect([...new Set(read.mock.calls.map(([file]) => file.path))].sort()).toEqual(["C/Deep/Two.md", "C/One.md"]);
			expect(moved).toEqual(["AB/Three.md", "C/Deep/Two.md", "C/One.md", "Five.md"]);
			expect(moved).toEqual(await notesWithTag(vault.host, scope, "project", undefined, new NoteMemo()));
			read.mockClear();
			events.quietFiles.on = true;
			for (const path of ["C/One.md", "C/Deep/Two.md", "C/Plain.md"]) {
				const file = vault.host.vault.getFileByPath(path);
				if (!file) throw new Error(`${path} is missing`);
				await vault.host.fileManager.trashFile(file);
			}
			await settled(vault.host);
			events.quietFiles.on = false;
			events.folderEvent("delete", "C");
			expect(await kept.notesWith(scope, "project", countingBudget())).toEqual(["AB/Three.md", "Five.md"]);
			expect(await kept.notesWith(scope, "alpha", countingBudget())).toEqual(["B/Four.md"]);
			expect(read.mock.calls.filter(([file]) => !file.path.startsWith("C/"))).toEqual([]);
			expect(await kept.notesWith(scope, "alpha", countingBudget())).toEqual(await notesWithTag(vault.host, scope, "alpha", undefined, new NoteMemo()));
		} finally {
			read.mockRestore();
			kept.stop();
		}
	});
});

describe("mergeInSlices", () => {
	test("merges two path-sorted lists into one, each path once", async () => {
		expect(await mergeInSlices(["A/a.md", "b.md", "c.md"], ["a.md", "b.md", "d.md"], countingBudget())).toEqual(["a.md", "A/a.md", "b.md", "c.md", "d.md"]);
		expect(await mergeInSlices([], ["x.md"], countingBudget())).toEqual(["x.md"]);
	});
});

describe("notes by tag, a call that waited behind another", () => {
	let vault: OpenVault;

	beforeEach(async () => {
		const many = Array.from({ length: 1_100 }, (_, index) => `#k${index}`).join(" ");
		vault = await openVault({ "Many.md": `${many}\n`, "One.md": "#project\n", "Two.md": "#project #alpha\n", "Three.md": "#alpha\n" });
	});
	afterEach(() => vault.close());

	test("a note deleted while a call paused, brought up to date by the call waiting behind it, is not kept in later answers", async () => {
		const kept = new TagNotes(vault.host, new NoteMemo());
		kept.start();
		try {
			const scope = vault.scope();
			// Indexes every note.
			expect(await kept.notesWith(scope, "gamma", countingBudget())).toEqual([]);
			const waiting: { call: Promise<readonly string[] | null> | null } = { call: null };
			const pausing = new CallBudget(
				async () => {
					if (waiting.call) return;
					const gone = vault.host.vault.getFileByPath("One.md");
					if (!gone) throw new Error("One.md is missing");
					await vault.host.fileManager.trashFile(gone);
					await settled(vault.host);
					// Another call arrives while this one is paused: it waits, then brings the index up to date.
					waiting.call = kept.notesWith(scope, "alpha", countingBudget());
				},
				0,
				Number.POSITIVE_INFINITY,
			);
			await kept.notesWith(scope, "project", pausing);
			expect(waiting.call).not.toBeNull();
			expect(await waiting.call).toEqual(["Three.md", "Two.md"]);
			// Asked again with nothing changed since: the deleted note is not answered.
			expect(await kept.notesWith(scope, "project", countingBudget())).toEqual(["Two.md"]);
		} finally {
			kept.stop();
		}
	});
});

describe("notes by tag, a note of hundreds of thousands of different tags", () => {
	test("its tags go into the index in slices (one piece before: 0.2–1 s at 800,000 tags), and it is found by each", async () => {
		const TAGS = 200_000;
		const vault = await openVault({ "Many tags.md": `${Array.from({ length: TAGS }, (_, index) => `#t${index}`).join(" ")}\n`, "One.md": "#t5 #other\n" });
		await vault.host.metadataCache.settled();
		const kept = new TagNotes(vault.host, new NoteMemo());
		kept.start();
		const pieces = countWorkPerPiece();
		// Keys added to sets between two pauses.
		const stopCountingAdds = countSetAdds(pieces);
		try {
			const budget = new CallBudget(undefined, 10, Number.POSITIVE_INFINITY);
			expect(await kept.notesWith(vault.scope(), "t5", budget)).toEqual(["Many tags.md", "One.md"]);
			// Its tags read (each key into a set once); a note new to the index is filed without sets since.
			expect(pieces.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(TAGS);
			// Before: the note's keys added to its sets in one piece (403,392). Now a pause at least every SLICED_TAGS (its tags read) or 1,024 keys.
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(SLICED_TAGS + 3 * 1024);
		} finally {
			stopCountingAdds();
			pieces.restore();
		}
		try {
			// Every one of its tags was filed, and none it does not hold.
			expect(await kept.notesWith(vault.scope(), `t${TAGS - 1}`, countingBudget())).toEqual(["Many tags.md"]);
			expect(await kept.notesWith(vault.scope(), `t${TAGS}`, countingBudget())).toEqual([]);
			expect(await kept.notesWith(vault.scope(), "other", countingBudget())).toEqual(["One.md"]);
		} finally {
			kept.stop();
			await vault.close();
		}
	});
});
