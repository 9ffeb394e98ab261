import fc from "fast-check";
import { FindingMarkers, linkpathOf, scanInline } from "../../../src/markdown/inline";

describe("linkpathOf", () => {
	test("keeps the path part of a link", () => {
		expect(linkpathOf("Note#Heading")).toBe("Note");
		expect(linkpathOf("#Heading")).toBe("");
		expect(linkpathOf("Folder/Note")).toBe("Folder/Note");
	});
});

describe("FindingMarkers: a stretch of text with no marker finds nothing", () => {
	// Characters that start, hide or end findings, so random texts hold every kind of near miss.
	const piece = fc.constantFrom("#", "[", "]", "(", ")", "!", "`", "\\", "<", ">", "-", "a", "b", " ", "\n", "[[", "]]", "](", "<!--", "-->", "x.md", "%%");
	test("scanInline of any stretch the markers call empty finds no link, embed or tag", () => {
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(), fc.nat(), (pieces, a, b) => {
				const text = pieces.join("");
				const start = a % (text.length + 1);
				const end = start + (b % (text.length - start + 1));
				// Asked in increasing order from a fresh start, then once backwards, as blocks of a note are.
				const markers = new FindingMarkers(text);
				for (const [from, to] of [
					[0, start],
					[start, end],
					[0, end],
				] as const) {
					if (markers.mayFind(from, to)) continue;
					const found = scanInline(text.slice(from, to));
					expect([...found.links, ...found.embeds, ...found.tags]).toEqual([]);
				}
			}),
			{ numRuns: 3000 },
		);
	});

	test("a stretch holding a link, an embed or a tag may find it", () => {
		for (const text of ["a #tag", "[[Note]]", "![[image.png]]", "[text](Note.md)", "![alt](image.png)", "[](Note.md)", "![](image.png)"]) {
			expect(scanInline(text).links.length + scanInline(text).embeds.length + scanInline(text).tags.length).toBe(1);
			expect(new FindingMarkers(`plain\n${text}\nplain`).mayFind(6, 6 + text.length)).toBe(true);
		}
		expect(new FindingMarkers("- [ ] t 📅 2026-01-01 (a) [b]").mayFind(0, 30)).toBe(false);
	});
});
