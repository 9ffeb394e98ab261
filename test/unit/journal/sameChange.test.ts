import { runSteps } from "../../../src/markdown/steps";
import { isSameNoteChange } from "../../../src/journal/sameChange";

const same = (approvedBefore: string, approvedAfter: string, againBefore: string, againAfter: string) =>
	runSteps(isSameNoteChange(approvedBefore, approvedAfter, againBefore, againAfter));
const note = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("isSameNoteChange", () => {
	const before = note("# Log", "", "## Shopping", "- apples", "", "## Later", "- bread");
	const approved = note("# Log", "", "## Shopping", "- apples", "- milk", "", "## Later", "- bread");

	test("the same lines added at another place (the section moved by another writer) are another change", () => {
		const moved = note("# Log", "", "## Later", "- bread", "", "## Shopping", "- apples");
		const again = note("# Log", "", "## Later", "- bread", "", "## Shopping", "- apples", "- milk");
		expect(same(before, approved, moved, again)).toBe(false);
	});

	test("a replacement that now hits another occurrence of the same line is another change", () => {
		const text = note("a", "TODO", "b", "c", "d", "e", "f", "g");
		const replaced = note("a", "DONE", "b", "c", "d", "e", "f", "g");
		// Another writer added a TODO above: the replacement, planned again, hits that one.
		const edited = note("TODO", "a", "TODO", "b", "c", "d", "e", "f", "g");
		expect(same(text, replaced, edited, note("DONE", "a", "TODO", "b", "c", "d", "e", "f", "g"))).toBe(false);
		expect(same(text, replaced, edited, note("TODO", "a", "DONE", "b", "c", "d", "e", "f", "g"))).toBe(true);
	});

	test("the approved change where it was, over lines another writer added elsewhere, is the same change", () => {
		const edited = note("# Log", "Written elsewhere", "", "## Shopping", "- apples", "", "## Later", "- bread", "- eggs");
		const again = note("# Log", "Written elsewhere", "", "## Shopping", "- apples", "- milk", "", "## Later", "- bread", "- eggs");
		expect(same(before, approved, edited, again)).toBe(true);
	});

	test("two appends at the end: the other writer's lines first, then the approved ones, is the same change; the other way round is not", () => {
		const text = note("# Log", "first");
		expect(same(text, note("# Log", "first", "mine"), note("# Log", "first", "theirs"), note("# Log", "first", "theirs", "mine"))).toBe(true);
		expect(same(text, note("# Log", "first", "mine"), note("# Log", "first", "theirs"), note("# Log", "first", "mine", "theirs"))).toBe(false);
	});

	test("lines another writer put next to the approved change are kept; a line the change replaces, taken by the other writer, makes it another change", () => {
		const text = note("a", "b", "c");
		expect(same(text, note("a", "B", "c"), note("a", "b", "x", "c"), note("a", "B", "x", "c"))).toBe(true);
		expect(same(text, note("a", "B", "c"), note("a", "x", "b", "c"), note("a", "x", "B", "c"))).toBe(true);
		expect(same(text, note("a", "B", "c"), note("a", "b", "x", "c"), note("a", "b", "B", "c"))).toBe(false);
		expect(same(text, note("a", "B", "c"), note("a", "c"), note("a", "c"))).toBe(false);
	});
});
