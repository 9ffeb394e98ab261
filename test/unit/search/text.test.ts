import {
	bitCount,
	derivedWholes,
	foldText,
	identifierParts,
	isVersionWord,
	type Token,
	tokenChunks,
	TokenReader,
	tokenize,
	tokenizeInChunks,
	utf8Length,
} from "../../../src/search/text";
import fc from "fast-check";
import { MAX_WORD_CHARS, TOKENIZE_CHUNK_CHARS } from "../../../src/config/limits";
import { replaceMethod } from "../../helpers/replaceMethod";

const values = (text: string) => tokenize(text).map((token) => token.value);

describe("identifiers in camel case or with underscores", () => {
	test("give the whole word, then each part, with the parts' own offsets", () => {
		expect(tokenize("set peerDependencies").map((token) => [token.value, token.start, token.end])).toEqual([
			["set", 0, 3],
			["peerdependencies", 4, 20],
			["peer", 4, 8],
			["dependencies", 8, 20],
		]);
		expect(values("XMLHttpRequest")).toEqual(["xmlhttprequest", "xml", "http", "request"]);
		expect(values("no_unused_vars")).toEqual(["no_unused_vars", "no", "unused", "vars"]);
		expect(values("http2Server")).toEqual(["http2server", "http2", "server"]);
	});

	test("plain words, capitalised words, acronyms and their plurals stay one token", () => {
		expect(values("Plain Word HTML URLs IDs iOS eBay")).toEqual(["plain", "word", "html", "urls", "ids", "ios", "ebay"]);
		expect(identifierParts("Word")).toEqual([]);
		expect(identifierParts("URLs")).toEqual([]);
	});

	test("a word outside ASCII is never split", () => {
		expect(values("ÉcoleNormale")).toEqual(["ecolenormale"]);
	});

	test("the chunked tokenizer gives the same tokens", () => {
		const text = "use peerDependencies and XMLHttpRequest or snake_case_words ".repeat(40);
		const chunked = [...tokenChunks(text, 0, 37)].flat();
		expect(chunked).toEqual(tokenize(text));
	});
});

describe("versions written with a v", () => {
	test("give the word, then its number, with the number's own offsets", () => {
		expect(tokenize("Migration-Guide-V5 and v2.0")).toEqual([
			{ value: "migration", start: 0, end: 9 },
			{ value: "guide", start: 10, end: 15 },
			{ value: "v5", start: 16, end: 18 },
			{ value: "5", start: 17, end: 18 },
			{ value: "and", start: 19, end: 22 },
			{ value: "v2", start: 23, end: 25 },
			{ value: "2", start: 24, end: 25 },
			{ value: "0", start: 26, end: 27 },
		]);
	});

	test("only a v followed by digits alone is a version", () => {
		expect(["v5", "V20", "v0"].map(isVersionWord)).toEqual([true, true, true]);
		expect(["v", "vv5", "v5a", "via", "5", "ev5"].map(isVersionWord)).toEqual([false, false, false, false, false, false]);
		expect(tokenize("v5a via").map((token) => token.value)).toEqual(["v5a", "via"]);
	});
});

describe("a name's words: an identifier is its parts", () => {
	test("marks the identifier or version word the tokenizer also gave in parts, nothing else", () => {
		// mockagent, mock, agent, tools: the first is the whole of the next two.
		expect(derivedWholes(tokenize("MockAgent tools"))).toBe(0b1);
		// migration, guide, v5, 5: the version word before its number.
		expect(derivedWholes(tokenize("Migration-Guide-V5"))).toBe(0b100);
		// club, macstories? no: clubmacstories, club, mac, stories, then macos, mac, os.
		expect(derivedWholes(tokenize("ClubMacStories MacOS"))).toBe(0b10001);
		expect(derivedWholes(tokenize("Mock agent for tests"))).toBe(0);
		expect(derivedWholes(tokenize("URLs and iOS"))).toBe(0);
		expect(derivedWholes([])).toBe(0);
	});

	test("counts the words a name has once its wholes are left out", () => {
		const words = (name: string) => tokenize(name).length - bitCount(derivedWholes(tokenize(name)));
		expect(words("MockAgent")).toBe(2);
		expect(words("EnvHttpProxyAgent")).toBe(4);
		expect(words("MacOS Tools")).toBe(3);
		expect(words("Mock Agent")).toBe(2);
		// The mask holds 32 tokens (11 wholes of fooBar, foo, bar): a longer name's later wholes count as words, never fewer words than it has.
		expect(words(Array.from({ length: 40 }, () => "fooBar").join(" "))).toBe(40 * 3 - 11);
		expect(bitCount(0xffffffff)).toBe(32);
	});
});

describe("text as search sees it", () => {
	test("folding drops case, diacritics and compatibility forms", () => {
		expect(foldText("Café ÉLAN naïve ＡＢＣ ﬁ")).toBe("cafe elan naive abc fi");
	});

	test("words, numbers and snake_case are tokens (an identifier's parts and a version's number follow it); punctuation and spaces are not", () => {
		expect(values("Meeting notes: snake_case, v2 (draft)!")).toEqual(["meeting", "notes", "snake_case", "snake", "case", "v2", "2", "draft"]);
		expect(values("   ... --- !!! ")).toEqual([]);
	});

	test("characters of unspaced scripts are one token each", () => {
		expect(values("東京")).toEqual(["東", "京"]);
	});

	test("each token's offsets point at its original spelling, in text order (an identifier's parts inside it)", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (text) => {
				let lastStart = 0;
				for (const token of tokenize(text)) {
					expect(token.start).toBeGreaterThanOrEqual(lastStart);
					expect(token.end).toBeGreaterThan(token.start);
					expect(foldText(text.slice(token.start, token.end))).toBe(token.value);
					lastStart = token.start;
				}
			}),
		);
	});

	test("tokenizing in chunks gives exactly the tokens of tokenizing at once, whatever the chunk size", () => {
		const piece = fc.constantFrom("word", " ", "é", "東", "-", ".", "_", "\n", "naïve", "x1", "\u200B", "🚀", "\uD83D", "\uDE80", "Ab", "v2");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 1, max: 20 }), (pieces, chunkChars) => {
				const text = pieces.join("");
				expect([...tokenChunks(text, 0, chunkChars)].flat()).toEqual(tokenize(text));
			}),
		);
		// The index's reading, a token at a time in chunks of TOKENIZE_CHUNK_CHARS: texts of several chunks, words across their ends.
		fc.assert(
			fc.property(fc.array(piece, { minLength: 1, maxLength: 30 }), (pieces) => {
				const text = pieces.join("").repeat(Math.ceil((2.5 * TOKENIZE_CHUNK_CHARS) / pieces.join("").length) || 1);
				const read: Token[] = [];
				const steps = tokenizeInChunks(text, (value, start, end) => read.push({ value, start, end }));
				while (!steps.next().done);
				expect(read).toEqual(tokenize(text));
			}),
			{ numRuns: 30 },
		);
		const text = "alpha beta ".repeat(5000);
		const chunked: Token[] = [];
		const steps = tokenizeInChunks(text, (value, start, end) => chunked.push({ value, start, end }));
		while (!steps.next().done);
		expect(chunked).toEqual(tokenize(text));
	});

	test("text with no ASCII between its words, or one long word, is still read a chunk at a time", () => {
		// Chunks used to end only before ASCII that is not a word: a megabyte of `a` and zero-width
		// spaces, of CJK, or one long accented word was tokenized in one piece (0.3 s and more).
		for (const text of ["a\u200B".repeat(5000), "東".repeat(10_000), "é".repeat(10_000), "🚀".repeat(5000)]) {
			const chunks = [...tokenChunks(text, 0, 100)];
			expect(chunks.length).toBeGreaterThanOrEqual(text.length / 101);
			expect(chunks.flat()).toEqual(tokenize(text));
		}
	});

	test("folding works character by character: every character of a non-zero combining class is a mark, and marks decompose only into marks", () => {
		// foldText drops marks before decomposing on these two facts of Unicode (and of the engine's ICU).
		const mark = /\p{M}/u;
		const outOfPlace: string[] = [];
		for (let code = 0; code < 0x110000; code++) {
			if (code >= 0xd800 && code <= 0xdfff) continue;
			const char = String.fromCodePoint(code);
			const decomposed = char.normalize("NFD");
			// A character of combining class c > 0 swaps with U+0345 (class 240) before it when c < 240, and with U+0334 (class 1) after it when c > 1.
			const combining =
				[...decomposed].length === 1 &&
				(`\u0345${decomposed}`.normalize("NFD") !== `\u0345${decomposed}` || `${decomposed}\u0334`.normalize("NFD") !== `${decomposed}\u0334`);
			if (combining && !mark.test(char)) outOfPlace.push(code.toString(16));
			if (mark.test(char) && char.normalize("NFKD").replace(/\p{M}/gu, "") !== "") outOfPlace.push(code.toString(16));
		}
		expect(outOfPlace).toEqual([]);
		const piece = fc.constantFrom("e", "É", "\u0301", "\u0316", "\u0345", "Σ", "ﬁ", "İ", "ǅ", "\u0F73", "\u0344", "한", "Å", "ʰ", " ");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
				const text = pieces.join("");
				expect(foldText(text)).toBe(text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase());
			}),
		);
	});

	/** The lengths of the texts handed to `normalize` while `run` runs. */
	function normalizedLengths(run: () => void): number[] {
		const lengths: number[] = [];
		const original = Object.getOwnPropertyDescriptor(String.prototype, "normalize")?.value as (this: string, form?: string) => string;
		const spy = replaceMethod(String.prototype, "normalize", function (this: string, form?: string) {
			lengths.push(this.length);
			return Reflect.apply(original, this, [form]);
		});
		try {
			run();
		} finally {
			spy.restore();
		}
		return lengths;
	}

	test("a word of a megabyte is read as words of MAX_WORD_CHARS, each folded on its own", () => {
		// Folding one 500,000-letter word at its end was one piece of 0.1-0.7 s; stemming and hashing it, 3-4 s.
		const word = "é".repeat(100_000);
		const lengths = normalizedLengths(() => {
			const tokens = [...tokenChunks(`${word} é`, 0, 1000)].flat();
			expect(tokens).toHaveLength(Math.ceil(100_000 / MAX_WORD_CHARS) + 1);
			expect(tokens.slice(0, 2)).toEqual([
				{ value: "e".repeat(MAX_WORD_CHARS), start: 0, end: MAX_WORD_CHARS },
				{ value: "e".repeat(MAX_WORD_CHARS), start: MAX_WORD_CHARS, end: 2 * MAX_WORD_CHARS },
			]);
			expect(tokens.at(-2)).toEqual({ value: "e".repeat(100_000 % MAX_WORD_CHARS), start: 100_000 - (100_000 % MAX_WORD_CHARS), end: 100_000 });
			expect(tokens.at(-1)).toEqual({ value: "e", start: 100_001, end: 100_002 });
		});
		expect(Math.max(...lengths)).toBeLessThanOrEqual(MAX_WORD_CHARS);
	});

	test("no token is longer than MAX_WORD_CHARS, and a word cuts the same way wherever it stands", () => {
		const piece = fc.constantFrom("x", "X", "_", "1", "é", "\u0301", "🚀", "東", " ", "-", "ǅ", "ß");
		fc.assert(
			fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 200 }), (pieces, repeat) => {
				const word = pieces.join("").repeat(repeat);
				const alone = tokenize(word);
				for (const token of alone) expect(token.end - token.start).toBeLessThanOrEqual(MAX_WORD_CHARS + 1);
				const shifted = tokenize(`garden ${word}`).slice(1);
				expect(shifted.map((token) => [token.value, token.start - 7, token.end - 7])).toEqual(
					alone.map((token) => [token.value, token.start, token.end]),
				);
			}),
			{ numRuns: 200 },
		);
	});

	test("a run of marks never reaches the decomposition", () => {
		// ICU puts 500,000 marks of two alternating classes in order in quadratic time (155 s in one piece).
		const lengths = normalizedLengths(() => expect(values(`e${"\u0301\u0316".repeat(50_000)} x`)).toEqual(["e", "x"]));
		expect(Math.max(...lengths)).toBeLessThanOrEqual(1);
	});

	test("a long word read in chunks gives the tokens it gives read whole, whatever its letters and the chunk size", () => {
		const piece = fc.constantFrom(
			"é",
			"Σ",
			"σ",
			"A",
			"a",
			"\u0301",
			"\u0316",
			"ʰ",
			"'",
			"İ",
			"ß",
			"ǅ",
			"ﬁ",
			"_",
			"1",
			"한",
			"ª",
			"ω",
			"\u0345",
			"🚀",
			"\uD83D",
		);
		fc.assert(
			fc.property(
				fc.array(piece, { minLength: 1, maxLength: 12 }),
				fc.integer({ min: 1, max: 500 }),
				fc.integer({ min: 1, max: 400 }),
				(pieces, repeat, chunkChars) => {
					const text = `${pieces.join("").repeat(repeat)}Σ ${pieces.join("").repeat(3)}`;
					expect([...tokenChunks(text, 0, chunkChars)].flat()).toEqual(tokenize(text));
				},
			),
			{ numRuns: 300 },
		);
	});

	test("utf8Length counts the bytes UTF-8 would take, astral characters and lone surrogates included", () => {
		fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => expect(utf8Length(text)).toBe(Buffer.byteLength(text))));
		expect(utf8Length("a€🚀")).toBe(1 + 3 + 4);
	});
});

describe("TokenReader", () => {
	/** Every token a reader gives, read `chars` at a time, with `firstCodes` for the letters wanted. */
	function readAll(text: string, chars: number, wanted: string | null): Token[] {
		const codes = wanted === null ? null : new Uint8Array(128);
		for (const letter of wanted ?? "") codes?.fill(1, letter.charCodeAt(0), letter.charCodeAt(0) + 1);
		const reader = new TokenReader(text, 0, codes);
		const tokens: Token[] = [];
		while (!reader.done) reader.read(chars, (value, start, end) => tokens.push({ value, start, end }));
		return tokens;
	}

	test("gives tokenize's tokens, a plain word starting with a letter not wanted with an empty value in its place", () => {
		const text = "Garden plans, peerDependencies v5 café 東 gardening xY_z Plan";
		const all = tokenize(text);
		expect(readAll(text, 7, null)).toEqual(all);
		expect(readAll(text, 7, "gp")).toEqual(
			all.map((token) => {
				// Identifiers, version words and words with a letter beyond ASCII are read whole, as tokenize reads them.
				const whole = /^(peer|dependencies|peerdependencies|v5|5|cafe|東|xy_z|xy|z)$/u.test(token.value);
				return whole || "gp".includes(token.value[0] ?? "") ? token : { ...token, value: "" };
			}),
		);
	});

	test("empties exactly the plain ASCII words starting with a letter not wanted, whatever the text and the read's length", () => {
		// Words and what ends them: capitals inside a word, `_`, version words, letters beyond ASCII, words cut at MAX_WORD_CHARS.
		const piece = fc.constantFrom(
			"garden",
			"Plan",
			"sun",
			"kiwi",
			"peerDependencies",
			"xY_z",
			"v5",
			"V2",
			"9lives",
			"café",
			"éclair",
			"東",
			"🚀",
			"s".repeat(MAX_WORD_CHARS + 3),
			"Gx".repeat(140),
			" ",
			"  ",
			"\n",
			"-",
			".",
			"_",
			"\u200B",
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 1, max: 300 }), fc.subarray([..."gpsk9"]), (pieces, chars, wanted) => {
				const text = pieces.join("");
				let previousEnd = -1;
				const expected = tokenize(text).map((token) => {
					// An identifier's parts and a version's number start inside the word before them: never emptied.
					const part = token.start < previousEnd;
					previousEnd = Math.max(previousEnd, token.end);
					const spelled = text.slice(token.start, token.end);
					const plain = !part && /^[A-Za-z0-9][a-z0-9]*$/u.test(spelled) && !/^[vV]/u.test(spelled);
					return plain && !wanted.includes(spelled[0]?.toLowerCase() ?? "") ? { ...token, value: "" } : token;
				});
				expect(readAll(text, chars, wanted.join(""))).toEqual(expected);
			}),
			{ numRuns: 300, seed: 118 },
		);
	});

	test("reads any text as tokenize does when every letter is wanted", () => {
		const every = "abcdefghijklmnopqrstuvwxyz0123456789_";
		fc.assert(
			fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 50 }), (text, chars) => {
				expect(readAll(text, chars, every)).toEqual(tokenize(text));
			}),
			{ numRuns: 300, seed: 36 },
		);
	});
});

describe("characters of unspaced scripts (CJK, kana, Hangul syllables and jamo) are each a token, folded", () => {
	test("each token is the character folded, as foldText folds it, the first time and every time after", () => {
		const characters = ["漢", "字", "か", "カ", "ｶ", "한", "가", "\u1100", "\u1161", "\u11a8", "\u3131", "ก", "a", " ", "é"];
		fc.assert(
			fc.property(fc.array(fc.constantFrom(...characters), { maxLength: 200 }), (chars) => {
				const text = chars.join("");
				const expected: string[] = [];
				for (const word of text.split(/([漢字かカｶ한가\u1100\u1161\u11a8\u3131ก]| )/u)) {
					if (word === "" || word === " " || word === undefined) continue;
					// An unspaced character alone, or a run of other letters: either is folded whole.
					expected.push(foldText(word));
				}
				expect(values(text)).toEqual(expected.filter((value) => value !== ""));
			}),
		);
	});
});
