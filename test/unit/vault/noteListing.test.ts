import fc from "fast-check";
import type { HostFile } from "../../../src/host/Host";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NOTE_LISTING_FILTER_CHECK_MASK } from "../../../src/config/limits";
import { NodeHost } from "../../../src/headless/NodeHost";
import { inModifiedOrder, inPathOrder, insertListed, isListed, NoteListing, removeListed, type ListedNote } from "../../../src/vault/noteListing";
import { decodeCursor, pageAfter, type KeyedOrder } from "../../../src/vault/pageCursor";
import { CallBudget } from "../../../src/vault/workBudget";
import { makeVault, removeDir } from "../../helpers/vault";

function note(path: string, mtime: number): ListedNote {
	const file: HostFile = { path, name: path, basename: path, extension: "md", stat: { ctime: 0, mtime, size: 0 } };
	return { file, path, mtime };
}

describe("notes kept in order", () => {
	test("inserting and removing one at a time keeps the order a full sort gives, in both orders", () => {
		const paths = fc.stringMatching(/^[aAäb/ 1-9]{1,6}$/);
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.tuple(paths, fc.integer({ min: 0, max: 3 })), { selector: ([path]) => path, maxLength: 30 }),
				fc.nat(),
				(drawn, cut) => {
					const notes = drawn.map(([path, mtime]) => note(path, mtime));
					for (const order of [inPathOrder, inModifiedOrder]) {
						const kept: ListedNote[] = [];
						for (const entry of notes) insertListed(kept, entry, order);
						expect(kept).toEqual([...notes].sort(order));
						const gone = notes.slice(0, cut % (notes.length + 1));
						for (const entry of gone) removeListed(kept, entry, order);
						expect(kept).toEqual(notes.filter((entry) => !gone.includes(entry)).sort(order));
					}
				},
			),
		);
	});

	test("path order is the collator's, with code units only between paths it calls equal", () => {
		const sorted = ["b.md", "Ä.md", "a.md", "10.md", "9.md"].map((path) => note(path, 0)).sort(inPathOrder);
		expect(sorted.map((entry) => entry.path)).toEqual(["10.md", "9.md", "a.md", "Ä.md", "b.md"]);
		expect(inModifiedOrder(note("a.md", 1), note("b.md", 2))).toBeGreaterThan(0);
	});

	test("a folder's listing holds the folder's notes, deeper ones only when recursive", () => {
		expect(isListed("A/x.md", { folder: "A", recursive: false })).toBe(true);
		expect(isListed("A/B/x.md", { folder: "A", recursive: false })).toBe(false);
		expect(isListed("A/B/x.md", { folder: "A", recursive: true })).toBe(true);
		expect(isListed("AB/x.md", { folder: "A", recursive: true })).toBe(false);
		expect(isListed("x.md", { recursive: false })).toBe(true);
		expect(isListed("A/x.md", { recursive: false })).toBe(false);
	});
});

describe("a listing newest first while a note is edited", () => {
	test("a note edited while the listing is made leaves the next page where the cursor says: none skipped, none repeated", async () => {
		// More notes than the filter walks between two looks at the clock: the listing pauses once, mid-walk.
		const COUNT = NOTE_LISTING_FILTER_CHECK_MASK + 200;
		const files: Record<string, string> = {};
		for (let n = 0; n < COUNT; n++) files[`n${String(n).padStart(5, "0")}.md`] = `note ${n}\n`;
		// Written with distinct times (an hour apart, oldest first), then the host opened on them.
		const root = await makeVault(files);
		await Promise.all(Object.keys(files).map((path, n) => fs.utimes(nodePath.join(root, path), 1_000_000 + n * 3600, 1_000_000 + n * 3600)));
		const host = await NodeHost.open(root);
		const scope = { configDir: host.vault.configDir, excludedFolders: [] };
		const listing = new NoteListing(host);
		listing.start();
		const keyed: KeyedOrder<ListedNote> = { tool: "list_notes", parts: ["descending", "path"], keyOf: (note) => [note.mtime, note.path] };
		try {
			const all = await listing.list(scope, { recursive: true }, "modified", new CallBudget());
			const order = all.map((note) => note.path);
			const first = pageAfter(all, undefined, 10, keyed);
			const cursor = decodeCursor(first.nextCursor, "list_notes", keyed.parts);
			if (!cursor.ok) throw new Error(cursor.error);
			// The second page's listing pauses once; meanwhile the person edits a note far down the list (the first one its seek looks at).
			const edited = host.vault.getFileByPath(order[order.length >>> 1] as string) as HostFile;
			let edits = 0;
			const budget = new CallBudget(
				async () => {
					if (edits++ === 0) await host.vault.process(edited, (text) => `${text}edited\n`);
				},
				0,
				60_000,
			);
			// A note created first, so the kept listing is made again (in the walk that pauses).
			await host.vault.create("new.md", "new\n");
			const second = await listing.list(scope, { recursive: true }, "modified", budget);
			expect(edits).toBeGreaterThan(0);
			const page = pageAfter(second, cursor.value, 10, keyed).items.map((note) => note.path);
			expect(page).toEqual(order.slice(10, 20));
		} finally {
			listing.stop();
			await host.close();
			await removeDir(root);
		}
	}, 120_000);

	test("a note edited while the listing is first sorted, then deleted, is listed no more", async () => {
		const files: Record<string, string> = {};
		for (let n = 0; n < 3_000; n++) files[`n${String(n).padStart(5, "0")}.md`] = `note ${n}\n`;
		const root = await makeVault(files);
		const host = await NodeHost.open(root);
		const scope = { configDir: host.vault.configDir, excludedFolders: [] };
		const listing = new NoteListing(host);
		listing.start();
		try {
			const edited = host.vault.getFileByPath("n01500.md") as HostFile;
			let edits = 0;
			// The first listing by path sorts every note, pausing; meanwhile the person edits a note.
			const budget = new CallBudget(
				async () => {
					if (edits++ === 0) await host.vault.process(edited, (text) => `${text}edited\n`);
				},
				0,
				60_000,
			);
			await listing.list(scope, { recursive: true }, "path", budget);
			expect(edits).toBeGreaterThan(0);
			await host.fileManager.trashFile(edited);
			const listed = (await listing.list(scope, { recursive: true }, "path", new CallBudget())).map((note) => note.path);
			expect(listed).toHaveLength(2_999);
			expect(listed).not.toContain("n01500.md");
		} finally {
			listing.stop();
			await host.close();
			await removeDir(root);
		}
	}, 120_000);
});
