import fc from "fast-check";
import { NESTED_TAG_PARENTS_INDEXED, SLICED_TAGS, V8_HASHED_STRING_MAX_CHARS } from "../../../src/config/limits";
import { NotesByTag } from "../../../src/vault/notesByTag";
import { isTagOrNested, tagKey, type NoteTags } from "../../../src/vault/tags";
import { workClock } from "../../helpers/threadCpu";

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

	test("a note's first tag is one it carries now (a crowded note's too), a tag filter naming it again; none for a note without tags or changed to none", () => {
		const notes = new NotesByTag();
		notes.set("a.md", tags("project/alpha", "status"));
		notes.set("b.md", tags("status"));
		notes.set("b.md", []);
		const crowded = Array.from({ length: SLICED_TAGS }, (_, index) => `tag${index}`);
		notes.set("c.md", tags(...crowded));
		expect(notes.firstTagOf("a.md")).toBe("project/alpha");
		expect(carrying(notes, notes.firstTagOf("a.md") ?? "")).toEqual(["a.md"]);
		expect(notes.firstTagOf("b.md")).toBeUndefined();
		expect(notes.firstTagOf("nowhere.md")).toBeUndefined();
		expect(notes.firstTagOf("c.md")).toBe("tag0");
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

	test("any nested tags, changed and forgotten, any tag asked (deeper than the parents indexed too): the notes a walk of every note's tags names", () => {
		const segment = fc.constantFrom("a", "b", "", "Ab");
		const key = fc.array(segment, { minLength: 1, maxLength: NESTED_TAG_PARENTS_INDEXED + 3 }).map((parts) => parts.join("/"));
		const change = fc.record({ path: fc.constantFrom("1.md", "2.md", "3.md", "4.md"), keys: fc.array(key, { maxLength: 6 }) });
		fc.assert(
			fc.property(fc.array(change, { maxLength: 12 }), fc.array(key, { minLength: 1, maxLength: 8 }), (changes, asked) => {
				const notes = new NotesByTag();
				const walked = new Map<string, string[]>();
				for (const { path, keys } of changes) {
					const distinct = [...new Set(keys.map((entry) => tagKey(entry)))];
					notes.set(path, tags(...distinct));
					if (distinct.length > 0) walked.set(path, distinct);
					else walked.delete(path);
				}
				for (const tag of asked) {
					const wanted = tagKey(tag);
					const expected = [...walked].filter(([, keys]) => keys.some((entry) => isTagOrNested(entry, wanted))).map(([path]) => path);
					expect(carrying(notes, tag)).toEqual(expected.sort());
				}
			}),
		);
	});

	test("a tag looks only at the nested tags under it, not at all of them (over 1,000,000 nested tags a tag matching none was one piece of about 50 ms)", () => {
		const notes = new NotesByTag();
		for (let note = 0; note < 100; note++) notes.set(`${note}.md`, tags(...Array.from({ length: 1_000 }, (_, index) => `p/q${note}x${index}`)));
		notes.set("deep.md", tags("a/b/c/d/e/f/g", "a/b/c/d/x"));
		// Nested keys compared with the one asked (isTagOrNested's startsWith), per answer.
		const startsWith = jest.spyOn(String.prototype, "startsWith");
		try {
			expect(carrying(notes, "nothere")).toEqual([]);
			expect(carrying(notes, "p/q1x1")).toEqual(["1.md"]);
			expect(carrying(notes, "a/b/c/d/e")).toEqual(["deep.md"]);
			// Before: each of the 100,002 nested keys compared for each answer.
			expect(startsWith.mock.calls.length).toBeLessThan(100);
			expect(carrying(notes, "p")).toHaveLength(100);
		} finally {
			startsWith.mockRestore();
		}
	});

	test("tags longer than V8 hashes whole, alike but at their end, cost what such tags alike but at their start do; each found with its notes, nested ones under their parent", () => {
		// A key over V8_HASHED_STRING_MAX_CHARS is hashed by its length alone: in plain Maps each look compared it with every
		// key as long, up to where they differ. Filed in plain Maps, 600 such tags alike but at their end cost 9–13 times 600
		// alike but at their start; here 1.4–1.7 times (a seeded hash reads every character of either). The main thread's CPU time
		// (not the process's: GC's helper threads run beside it, and vary), both in one test.
		const KEYS = 600;
		const longest = V8_HASHED_STRING_MAX_CHARS + 1;
		const file = (alikeBut: "end" | "start"): { cpu: number; keys: string[] } => {
			const number = (index: number) => String(index).padStart(8, "0");
			// Of one length, their parents (before the `/`) too: the end's share one parent, the start's have one each.
			const keys = Array.from({ length: KEYS }, (_, index) =>
				alikeBut === "end" ? `${"x".repeat(longest)}/${number(index)}` : `${number(index)}${"x".repeat(longest - 8)}/${number(0)}`,
			);
			const notes = new NotesByTag();
			const clock = workClock();
			const started = clock();
			for (let note = 0; note < KEYS; note++) notes.set(`${note}.md`, tags(keys[note] as string));
			const cpu = clock() - started;
			for (const note of [0, 7, KEYS - 1]) expect(carrying(notes, keys[note] as string)).toEqual([`${note}.md`]);
			const parentOf7 = (keys[7] as string).slice(0, longest);
			expect(carrying(notes, parentOf7)).toHaveLength(alikeBut === "end" ? KEYS : 1);
			notes.delete("7.md");
			expect(carrying(notes, keys[7] as string)).toEqual([]);
			expect(carrying(notes, parentOf7)).toHaveLength(alikeBut === "end" ? KEYS - 1 : 0);
			return { cpu, keys };
		};
		const start = file("start");
		const end = file("end");
		expect(end.keys[0]?.length).toBe(start.keys[0]?.length);
		expect(end.cpu).toBeLessThan(2.5 * start.cpu + 20);
	});
});
