import fc from "fast-check";
import { DISPLAY_TEXT_STEP_CHARS } from "../../../src/config/limits";
import { FindingMarkers, linkpathOf, scanInline, scanInlineSteps } from "../../../src/markdown/inline";

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

describe("a wikilink of megabytes", () => {
	/** The scan's findings, and the most characters of one link's subpaths read between two pauses. */
	function scanCountingPauses(text: string): { found: ReturnType<typeof scanInline>; pauses: number } {
		const steps = scanInlineSteps(text);
		let pauses = 0;
		for (let step = steps.next(); ; step = steps.next()) {
			if (step.done) return { found: step.value, pauses };
			pauses++;
		}
	}

	test("`[[a#a#…]]` of 800,000 characters is read into its display text with a pause at least every 2 × DISPLAY_TEXT_STEP_CHARS", () => {
		const link = "a#".repeat(400_000);
		const { found, pauses } = scanCountingPauses(`[[${link}]]`);
		expect(found.links).toHaveLength(1);
		expect(found.links[0]?.displayText).toBe(
			link
				.split("#")
				.filter((part) => part !== "")
				.join(" > "),
		);
		// Before, the whole link was split in one piece (500 ms at four megabytes): no pause at all.
		expect(pauses).toBeGreaterThanOrEqual(Math.floor(link.length / (2 * DISPLAY_TEXT_STEP_CHARS)));
	});

	test("display texts read in pieces are the ones read whole: subpaths joined with ' > ', empty ones left out", () => {
		const piece = fc.constantFrom("#", "##", "a", "bc", " ", "^x", "d".repeat(DISPLAY_TEXT_STEP_CHARS - 1), "e".repeat(DISPLAY_TEXT_STEP_CHARS));
		fc.assert(
			fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (pieces) => {
				const link = pieces.join("");
				const [found] = scanInline(`[[${link}]]`).links;
				const expected = link
					.split("#")
					.filter((part) => part !== "")
					.join(" > ");
				expect(found?.displayText).toBe(expected);
			}),
			{ numRuns: 200 },
		);
	});
});
