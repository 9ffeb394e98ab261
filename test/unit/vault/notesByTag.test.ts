import { SLICED_TAGS } from "../../../src/config/limits";
import { NotesByTag } from "../../../src/vault/notesByTag";
import type { NoteTags } from "../../../src/vault/tags";

/** NoteTags of these keys: key, spelling, key, spelling, … */
const tags = (...keys: string[]): NoteTags => keys.flatMap((key) => [key, key]);
const carrying = (notes: NotesByTag, tag: string): string[] => [...new Set(notes.carrying(tag))].sort();

describe("the indexed notes by tag", () => {
	test("a tag names the notes carrying it or a tag nested under it, whatever its case or `#`", () => {
		const notes = new NotesByTag();
		notes.set("a.md", tags("project"));
		notes.set("b.md", tags("project/alpha", "status"));
		notes.set("c.md", tags("projects"));
		notes.set("d.md", tags("status"));
		expect(carrying(notes, "#Project")).toEqual(["a.md", "b.md"]);
		expect(carrying(notes, "project/alpha")).toEqual(["b.md"]);
		expect(carrying(notes, "proj")).toEqual([]);
		expect(carrying(notes, "status")).toEqual(["b.md", "d.md"]);
	});

	test("a changed note is under its new tags only, a forgotten one under none", () => {
		const notes = new NotesByTag();
		notes.set("a.md", tags("project", "status"));
		notes.set("b.md", tags("project/alpha"));
		notes.set("a.md", tags("status"));
		expect(carrying(notes, "project")).toEqual(["b.md"]);
		notes.delete("b.md");
		notes.set("a.md", []);
		expect(carrying(notes, "project")).toEqual([]);
		expect(carrying(notes, "status")).toEqual([]);
		notes.set("c.md", tags("project/beta"));
		notes.clear();
		expect(carrying(notes, "project")).toEqual([]);
	});

	test("a note of SLICED_TAGS tags or more is found by them too, without filing each one", () => {
		const notes = new NotesByTag();
		const many = Array.from({ length: SLICED_TAGS }, (_, index) => `t${index}`);
		notes.set("crowded.md", tags(...many, "project/omega"));
		notes.set("a.md", tags("t1"));
		expect(carrying(notes, "project")).toEqual(["crowded.md"]);
		expect(carrying(notes, "t1")).toEqual(["a.md", "crowded.md"]);
		notes.set("crowded.md", tags("status"));
		expect(carrying(notes, "project")).toEqual([]);
		expect(carrying(notes, "status")).toEqual(["crowded.md"]);
	});
});
