import fc from "fast-check";
import { DISPLAY_TEXT_STEP_CHARS, INLINE_PASS_STEP_CHARS, INLINE_SCAN_PAUSE_STEPS } from "../../../src/config/limits";
import { FindingMarkers, linkpathOf, scanInline, scanInlineSteps, trailingBlockId } from "../../../src/markdown/inline";
import { runSteps } from "../../../src/markdown/steps";
import { expectEqual } from "../../helpers/plainEqual";

/** The scan's findings, and how many times it paused. */
function scanCountingPauses(text: string): { found: ReturnType<typeof scanInline>; pauses: number } {
	const steps = scanInlineSteps(text);
	let pauses = 0;
	for (let step = steps.next(); ; step = steps.next()) {
		if (step.done) return { found: step.value, pauses };
		pauses++;
	}
}

describe("linkpathOf", () => {
	test("keeps the path part of a link", () => {
		expect(linkpathOf("Note#Heading")).toBe("Note");
		expect(linkpathOf("#Heading")).toBe("");
		expect(linkpathOf("Folder/Note")).toBe("Folder/Note");
	});
});

describe("trailingBlockId", () => {
	/** Obsidian's rule for a block id at a line's end, as a regular expression (the one the code used before it read the line backwards). */
	const BLOCK_ID_AT_END = /(?:^|\s)\^([A-Za-z0-9-]+)\s*$/;

	test("finds the id a line ends with, and nothing when the caret is glued to a word or the id holds another character", () => {
		expect(trailingBlockId("text ^my-id")).toBe("my-id");
		expect(trailingBlockId("^id  \t")).toBe("id");
		expect(trailingBlockId("text\u00a0^id\u3000")).toBe("id");
		expect(trailingBlockId("text^id")).toBeNull();
		expect(trailingBlockId("text ^id_x")).toBeNull();
		expect(trailingBlockId("text ^")).toBeNull();
		expect(trailingBlockId("")).toBeNull();
	});

	test("any line: the id the regular expression finds", () => {
		const unit = fc.constantFrom("^", " ", "\t", "\u00a0", "\u2028", "\ufeff", "\u001f", "a", "Z", "7", "-", "_", "x", "é", "😀", "[", "\n");
		fc.assert(
			fc.property(
				fc.array(unit, { maxLength: 12 }).map((parts) => parts.join("")),
				(line) => {
					// A string or null: expectEqual is toBe here, without an expect() (an Error and its matchers) for each of 20,000 runs.
					expectEqual(trailingBlockId(line), BLOCK_ID_AT_END.exec(line)?.[1] ?? null);
				},
			),
			{ numRuns: 20_000 },
		);
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
					// expectEqual, not expect(): each expect() builds an Error and its matchers, most of this property's own CPU.
					expectEqual([...found.links, ...found.embeds, ...found.tags], []);
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

describe("a Markdown link of megabytes", () => {
	test.each([
		["a destination", `[t](/${"x%41".repeat(250_000)})`, `/${"xA".repeat(250_000)}`],
		["a link text", `[${"x ".repeat(500_000)}](Home.md)`, "Home.md"],
	])(
		"%s of a million characters is matched and decoded with a pause at least every 2 × INLINE_PASS_STEP_CHARS (one piece of 460 ms at 4 MB)",
		(_, text, link) => {
			const { found, pauses } = scanCountingPauses(text);
			expect(found.links.map((found) => found.link)).toEqual([link]);
			// Before, the brackets and parentheses of the whole text were matched, and the destination decoded, in one piece: no pause at all.
			expect(pauses).toBeGreaterThanOrEqual(Math.floor(text.length / (2 * INLINE_PASS_STEP_CHARS)));
		},
	);

	test("a destination of a million characters that cannot decode (only continuation bytes) is kept as written, looked through a piece at a time", () => {
		const destination = `/${"%80".repeat(350_000)}`;
		const steps = scanInlineSteps(`[t](${destination})`);
		// The strings sliced between two pauses (finding a place to cut the destination slices three characters at every `%`).
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with a string as `this`
		const slice = String.prototype.slice;
		let sliced = 0;
		let mostSliced = 0;
		let found: ReturnType<typeof scanInline>;
		try {
			String.prototype.slice = function (this: string, ...args: Parameters<string["slice"]>) {
				sliced++;
				return slice.apply(this, args);
			};
			for (let step = steps.next(); ; step = steps.next()) {
				mostSliced = Math.max(mostSliced, sliced);
				sliced = 0;
				if (step.done) {
					found = step.value;
					break;
				}
			}
		} finally {
			String.prototype.slice = slice;
		}
		expect(found.links.map((link) => link.link)).toEqual([destination]);
		// Before: a place to cut was looked for to the destination's end, 350,000 slices in one piece (160-190 ms at 4 MB).
		expect(mostSliced).toBeLessThan(INLINE_PASS_STEP_CHARS);
	});

	test("a destination decoded in pieces is the one decoded whole, or kept as written when it does not decode", () => {
		// Escapes of one, two, three and four bytes, continuation bytes alone, broken and literal `%`, around the pieces' length.
		const piece = fc.constantFrom(
			"%41",
			"%C3%A9",
			"%E2%82%AC",
			"%F0%9F%98%80",
			"%80",
			"%E2%82",
			"%",
			"%4",
			"%%",
			"a",
			"é",
			"\uD83D",
			"x".repeat(INLINE_PASS_STEP_CHARS - 2),
		);
		fc.assert(
			fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (pieces) => {
				const destination = `/${pieces.join("")}`;
				let whole: string;
				try {
					whole = decodeURIComponent(destination);
				} catch {
					whole = destination;
				}
				expect(scanInline(`[t](${destination})`).links.map((found) => found.link)).toEqual([whole]);
			}),
			{ numRuns: 300 },
		);
	});
});

/**
 * The most work the scan does between two pauses, counted, not timed: characters String methods
 * pass over (`indexOf` to what it finds, `charCodeAt` one, `startsWith` its search) and elements read
 * from the typed arrays the scanner lists a text's marks in (every Int32Array made meanwhile is
 * watched through a Proxy). Stops at the first piece over `cap`: the scans this catches took minutes.
 */
function longestPiece(text: string, passStepChars: number, cap: number): number {
	let work = 0;
	const proto = String.prototype;
	// eslint-disable-next-line @typescript-eslint/unbound-method -- put back below, and called with a string as `this`
	const { indexOf, charCodeAt, startsWith } = proto;
	const RealInt32Array = Int32Array;
	// An element's key opens with a digit (or `-`), a method's or `length` with a letter: the first character tells them
	// apart. Every read of the arrays, `length` too, comes through here: a regular expression and `Reflect.get` over each
	// key were about 40% of the CPU of the tests below (13.5 → 7.8 s, the same counts).
	const isIndex = (key: string | symbol): boolean => {
		if (typeof key !== "string") return false;
		const first = charCodeAt.call(key, 0);
		return (first >= 48 && first <= 57) || first === 45;
	};
	try {
		proto.indexOf = function (this: string, search: string, position?: number) {
			const found = indexOf.call(this, search, position);
			work += (found === -1 ? this.length : found + search.length) - Math.max(0, position ?? 0);
			return found;
		};
		proto.charCodeAt = function (this: string, index: number) {
			work++;
			return charCodeAt.call(this, index);
		};
		proto.startsWith = function (this: string, search: string, position?: number) {
			work += search.length;
			return startsWith.call(this, search, position);
		};
		globalThis.Int32Array = new Proxy(RealInt32Array, {
			construct: (target, args: unknown[]) =>
				new Proxy(Reflect.construct(target, args) as Int32Array, {
					get: (array, key) => {
						if (isIndex(key)) work++;
						const value = (array as unknown as Record<string | symbol, unknown>)[key];
						return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(array) : value;
					},
					set: (array, key, value) => Reflect.set(array, key, value, array),
				}),
		});
		const steps = scanInlineSteps(text, passStepChars);
		let longest = 0;
		for (let step = steps.next(); ; step = steps.next()) {
			longest = Math.max(longest, work);
			work = 0;
			if (step.done || longest > cap) return longest;
		}
	} finally {
		Object.assign(proto, { indexOf, charCodeAt, startsWith });
		globalThis.Int32Array = RealInt32Array;
	}
}

describe("the scanner's memos (backtick runs, brackets, parentheses) are built and asked in pieces", () => {
	// Each shape long enough for three of the scan's pieces (INLINE_SCAN_PAUSE_STEPS places it stops at), then four
	// times that: the longest piece may grow by the binary searches' one more step, not with the note.
	test.each([
		// Each inner link fails where its outer one failed first, so it asks about brackets behind the last asked.
		["nested link openers", (count: number) => "[ [a]( ](".repeat(count), 2],
		["nested link openers with a title", (count: number) => "[ [a](b c ](b c".repeat(count), 2],
		// Links nested `count` deep, each destination in angle brackets: each inner link asks for a `>` behind the last asked.
		["deeply nested links with angle destinations", (count: number) => `${"[ ".repeat(count)}a${"](< ".repeat(count)}>`, 2],
		["backtick runs of two lengths", (count: number) => "`a ``b ".repeat(count), 1],
		["unclosed link destinations", (count: number) => "[a](".repeat(count), 1],
	])("%s: the longest piece does not grow with the note", (_, make, stopsPerUnit) => {
		const passStepChars = 256;
		const count = Math.ceil((3 * INLINE_SCAN_PAUSE_STEPS) / stopsPerUnit);
		// A scan stop costs a few dozen reads (two binary searches); a pass piece, a few per character read.
		const bound = 100 * INLINE_SCAN_PAUSE_STEPS + 8 * passStepChars;
		const small = longestPiece(make(count), passStepChars, bound);
		expect(small).toBeLessThan(bound);
		// Before, a cursor over the openers walked back from the start for each inner link (`[ [a]( ](` ×40,000: 10 s
		// in pieces of up to 1.1 s), `>` and `)` were searched again from behind to the note's end, and the backtick
		// runs were listed in one piece.
		expect(longestPiece(make(4 * count), passStepChars, 2 * small)).toBeLessThan(1.5 * small);
	});

	// Near misses of every kind the memos answer: runs of 1-3 backticks, escapes, nested and unclosed
	// brackets and parentheses, angle destinations, titles, line breaks inside a destination.
	const piece = fc.constantFrom(
		"[",
		"]",
		"(",
		")",
		"<",
		">",
		"`",
		"``",
		"```",
		"\\",
		"!",
		"#",
		" ",
		"\n",
		"a",
		"[[",
		"]]",
		"](",
		"<!--",
		"-->",
		"%20",
		"%",
		"|",
		'"t"',
	);
	test("random texts: the findings are the same whatever the number of characters read between pauses", () => {
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 80 }), (pieces) => {
				const text = pieces.join("");
				const whole = scanInline(text);
				for (const passStepChars of [1, 2, 3, 5, 8]) expectEqual(runSteps(scanInlineSteps(text, passStepChars)), whole);
			}),
			{ numRuns: 3000 },
		);
	});
});
