import fc from "fast-check";
import type { HostFile } from "../../../src/host/Host";
import { inModifiedOrder, inPathOrder, insertListed, isListed, removeListed, type ListedNote } from "../../../src/vault/noteListing";

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
