import fc from "fast-check";
import { getAllTags, isTagChar, isValidTag, parseFrontMatterTags, tagBodyLength } from "../../../src/markdown/tags";

describe("Obsidian's tag syntax", () => {
	test("valid tags: letters, digits with a letter, _, -, nested /, non-ASCII letters and emoji", () => {
		for (const tag of ["#project", "project", "#y2026", "#to_do", "#to-do", "#area/work", "#café", "#日本語", "#🚀launch"])
			expect(isValidTag(tag)).toBe(true);
	});

	test("invalid tags: empty, digits only (nested too), spaces or ASCII punctuation inside", () => {
		for (const tag of ["#", "", "#2026", "#12/34", "#two words", "#a,b", "#a.b", "#what?", "#a#b", "#[x]"]) expect(isValidTag(tag)).toBe(false);
	});

	test("tagBodyLength stops at the first space or ASCII punctuation, in UTF-16 units", () => {
		const text = "see #idea/next, then #🚀go!";
		expect(tagBodyLength(text, text.indexOf("#idea") + 1)).toBe("idea/next".length);
		expect(tagBodyLength(text, text.indexOf("#🚀") + 1)).toBe("🚀go".length);
		expect(tagBodyLength("#123 ", 1)).toBe(0);
	});

	test("tagBodyLength takes the run of characters isTagChar takes, read a code point at a time, from any character", () => {
		const reference = (text: string, start: number) => {
			let end = start;
			while (end < text.length) {
				const char = String.fromCodePoint(text.codePointAt(end) ?? 0);
				if (!isTagChar(char)) break;
				end += char.length;
			}
			return /^[\d/]*$/u.test(text.slice(start, end)) ? 0 : end - start;
		};
		const piece = fc.oneof(
			fc.constantFrom(
				"a",
				"1",
				"/",
				"_",
				"-",
				" ",
				"\u00A0",
				"\u2028",
				"\uFEFF",
				"\u200B",
				"🚀",
				"\uD83D",
				"\uDE80",
				"é",
				"#",
				",",
				"\\",
				"]",
				"`",
				"\n",
			),
			fc.string({ unit: "binary", maxLength: 3 }),
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 30 }), fc.nat(), (pieces, at) => {
				const text = pieces.join("");
				let start = text.length === 0 ? 0 : at % text.length;
				// Callers start just after a `#` (or at 0): never inside a surrogate pair.
				if (start > 0 && /[\uD800-\uDBFF]/.test(text[start - 1] ?? "") && /[\uDC00-\uDFFF]/.test(text[start] ?? "")) start++;
				expect(tagBodyLength(text, start)).toBe(reference(text, start));
			}),
		);
	});

	test("every whitespace character ends a tag", () => {
		fc.assert(fc.property(fc.constantFrom(" ", "\t", "\n", "\u00A0", "\u3000"), (space) => expect(isTagChar(space)).toBe(false)));
	});

	test("parseFrontMatterTags: a list or one value, each given a #, invalid ones dropped; a text is one tag, not split at commas", () => {
		expect(parseFrontMatterTags({ tags: ["a", "#b", 2026, "c d", null, "x/y"] })).toEqual(["#a", "#b", "#x/y"]);
		expect(parseFrontMatterTags({ tags: "solo" })).toEqual(["#solo"]);
		expect(parseFrontMatterTags({ tags: "a, b" })).toEqual([]);
		expect(parseFrontMatterTags({ tags: "y2k" })).toEqual(["#y2k"]);
	});

	test("parseFrontMatterTags: null without frontmatter or without a tags property", () => {
		expect(parseFrontMatterTags(undefined)).toBeNull();
		expect(parseFrontMatterTags({})).toBeNull();
		expect(parseFrontMatterTags({ tags: null })).toBeNull();
	});

	test("getAllTags: frontmatter tags first, then the body's in order, repeats kept", () => {
		expect(getAllTags({ frontmatter: { tags: ["meta"] }, tags: [{ tag: "#body" }, { tag: "#meta" }] })).toEqual(["#meta", "#body", "#meta"]);
		expect(getAllTags({})).toEqual([]);
	});
});
