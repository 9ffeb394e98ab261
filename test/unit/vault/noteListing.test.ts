import fc from "fast-check";
import type { HostFile } from "../../../src/host/Host";
import { inModifiedOrder, inPathOrder, insertListed, isListed, NoteListing, removeListed, type ListedNote } from "../../../src/vault/noteListing";
import { decodeCursor, pageAfter, type KeyedOrder } from "../../../src/vault/pageCursor";
import { CallBudget } from "../../../src/vault/workBudget";
import { openVault } from "../../helpers/hostVault";

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

	test("path order is the collator's, with code points only between paths it calls equal", () => {
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

describe("a listing made while a note changes", () => {
	/** More notes than the listing's filter looks at between two looks at the clock, so it pauses once. */
	const NOTES = 4_200;
	const NEWEST_FIRST: KeyedOrder<ListedNote> = { tool: "list_notes", parts: ["descending", "path"], keyOf: (entry) => [entry.mtime, entry.path] };

	test("stays in the order it was made in, so the next page after a cursor skips no note (it skipped half the vault)", async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < NOTES; index++) files[`N/${String(index).padStart(4, "0")}.md`] = "a note\n";
		const vault = await openVault(files);
		const listing = new NoteListing(vault.host);
		listing.start();
		try {
			const touch = async (path: string) => {
				const file = vault.host.vault.getFileByPath(path);
				if (!file) throw new Error(`no ${path}`);
				await new Promise((resolve) => setTimeout(resolve, 5));
				await vault.host.vault.process(file, () => `changed ${path}\n`);
			};
			const filter = { recursive: true };
			const first = [...(await listing.list(vault.scope(), filter, "modified", new CallBudget()))];
			const cursor = pageAfter(first, undefined, 5, NEWEST_FIRST).nextCursor;
			const after = decodeCursor(cursor, "list_notes", NEWEST_FIRST.parts);
			if (!after.ok || after.value === undefined) throw new Error("no cursor");
			// Another client edits the oldest note between the pages: it comes first now, and the listing is made again.
			const oldest = first.at(-1) as ListedNote;
			await touch(oldest.path);
			const nowInOrder = [oldest, ...first.slice(0, -1)];
			// While it is made (at its pause), a note halfway down is edited: the one a binary search looks at first.
			const halfway = (nowInOrder[nowInOrder.length >>> 1] as ListedNote).path;
			let edited = false;
			const budget = new CallBudget(
				async () => {
					if (edited) return;
					edited = true;
					await touch(halfway);
				},
				0,
				60_000,
			);
			const second = await listing.list(vault.scope(), filter, "modified", budget);
			expect(edited).toBe(true);
			const page = pageAfter(second, after.value, 5, NEWEST_FIRST);
			expect(page.items.map((entry) => entry.path)).toEqual(first.slice(5, 10).map((entry) => entry.path));
		} finally {
			listing.stop();
			await vault.close();
		}
	}, 120_000);
});
