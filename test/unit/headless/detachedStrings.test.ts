import { detachStrings } from "../../../src/headless/detachedStrings";

describe("detachStrings: parsed values that keep no note text alive", () => {
	test("returns the same value, with equal contents: headings, links, tags, frontmatter", () => {
		const value = {
			headings: [{ heading: "A heading long enough to be sliced", level: 1, position: { start: { line: 0, col: 0, offset: 0 } } }],
			links: [{ link: "Some/Linked note", original: "[[Some/Linked note]]" }],
			frontmatter: { title: "Short", nested: { list: ["a value long enough to copy", 3, null] } },
		};
		const before = structuredClone(value);
		expect(detachStrings(value)).toBe(value);
		expect(value).toEqual(before);
	});

	test("values without long strings, and non-objects, pass through", () => {
		expect(detachStrings(null)).toBeNull();
		expect(detachStrings("text")).toBe("text");
		const small = { tag: "#a" };
		expect(detachStrings(small)).toEqual({ tag: "#a" });
	});
});
