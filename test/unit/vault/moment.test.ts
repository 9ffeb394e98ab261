import fc from "fast-check";
import type obsidianMoment from "moment";
import { dayjs, withClosedBrackets } from "../../../src/vault/moment";
import { expectEqual } from "../../helpers/plainEqual";

/**
 * The expected values come from moment, which Obsidian formats dates with, never from dayjs: the
 * copy the obsidian package installs (its pinned version). Plugins take it from `obsidian`; the
 * test double has none, so it is loaded here directly.
 */
const moment = jest.requireActual<typeof obsidianMoment>("moment");

/** A name whose year is 0000–0099: dayjs reads it as 1900–1999, so a strict parse fails (see below). */
const FIRST_CENTURY = /^00\d\d-/;

/** Tokens people put in Obsidian's daily note and template formats that this module promises to format as moment does. */
const TOKENS = [
	"YYYY",
	"YY",
	"M",
	"MM",
	"MMM",
	"MMMM",
	"D",
	"DD",
	"Do",
	"DDD",
	"DDDD",
	"d",
	"dd",
	"ddd",
	"dddd",
	"H",
	"HH",
	"h",
	"hh",
	"k",
	"kk",
	"m",
	"mm",
	"s",
	"ss",
	"SSS",
	"A",
	"a",
	"Q",
	"X",
	"x",
	"w",
	"ww",
	"wo",
	"gggg",
	"W",
	"WW",
	"GGGG",
	"L",
	"LL",
	"LLL",
	"LLLL",
	"l",
	"ll",
	"LT",
	"LTS",
	"Mo",
	"Qo",
	"do",
	"DDDo",
	"Wo",
	"e",
	"E",
	"gg",
	"GG",
] as const;
const SEPARATORS = ["-", "/", " ", ", ", ".", "_", ":"] as const;
const LITERALS = ["[W]", "[Week ]", "[Journal/]", "[Q]"] as const;

/** Any moment between 1970 and 2100, in the machine's local time, as Obsidian would format it. */
const anyDate = fc.date({ min: new Date(1970, 0, 1), max: new Date(2100, 11, 31), noInvalidDate: true });
/** Tokens with a separator or bracketed text between them, as formats are written (`YYYYYYYY` reads differently to each). */
const anyFormat = fc
	.array(fc.tuple(fc.constantFrom(...TOKENS), fc.oneof(fc.constantFrom(...SEPARATORS), fc.constantFrom(...LITERALS))), { minLength: 1, maxLength: 4 })
	.map((pairs) => pairs.flat().join(""));

describe("dates format as moment (and so Obsidian) formats them", () => {
	test.each([
		["YYYY-MM-DD", new Date(2026, 11, 1), "2026-12-01"],
		["dddd, MMMM Do YYYY", new Date(2026, 11, 1), "Tuesday, December 1st 2026"],
		// Locale weeks (en: the week holding January 1 is week 1) against ISO weeks, on the same day.
		["gggg-[W]ww", new Date(2027, 0, 1), "2027-W01"],
		["GGGG-[W]WW", new Date(2027, 0, 1), "2026-W53"],
		["GGGG-[W]WW", new Date(2026, 11, 28), "2026-W53"],
		["YYYY-[Q]Q", new Date(2026, 7, 15), "2026-Q3"],
		["YYYY-DDDD", new Date(2026, 0, 9), "2026-009"],
		["YYYY-DDDD", new Date(2024, 11, 31), "2024-366"],
		["DDD [days in]", new Date(2026, 1, 1), "32 days in"],
		["[DDDD is literal]", new Date(2026, 1, 1), "DDDD is literal"],
		["LL", new Date(2026, 11, 1), "December 1, 2026"],
		["LT", new Date(2026, 11, 1, 13, 5), "1:05 PM"],
		["Mo [month], Qo [quarter], do [weekday]", new Date(2026, 1, 3), "2nd month, 1st quarter, 2nd weekday"],
		["DDDo [day], Wo [ISO week]", new Date(2026, 0, 22), "22nd day, 4th ISO week"],
		["[ISO weekday] E, [weekday] e", new Date(2026, 11, 6), "ISO weekday 7, weekday 0"],
		["gg-ww / GG-WW", new Date(2027, 0, 1), "27-01 / 26-53"],
		["MMMo", new Date(2026, 1, 3), "Febo"],
	])("%j on %s is %j", (format, date, expected) => {
		expect(moment(date).format(format)).toBe(expected);
		expect(dayjs(date).format(format)).toBe(expected);
	});

	test("every supported token, alone or combined, formats every date as moment does", () => {
		fc.assert(
			fc.property(anyDate, anyFormat, (date, format) => {
				expectEqual(dayjs(date).format(format), moment(date).format(format));
			}),
			{ numRuns: 2000 },
		);
	});

	test("each token on the days around a year's turn, where week years and day numbers change", () => {
		for (let year = 2019; year <= 2028; year++) {
			for (let offset = -7; offset <= 7; offset++) {
				const date = new Date(year, 0, 1 + offset, 9, 30);
				for (const token of TOKENS) expect(`${token}: ${dayjs(date).format(token)}`).toBe(`${token}: ${moment(date).format(token)}`);
			}
		}
	});
});

describe("strict parsing tells a date name from any other name as moment does", () => {
	// Not "dddd, MMMM Do YYYY": dayjs cannot parse a weekday name followed by a comma (a known gap, see the README).
	const DAILY_FORMATS = ["YYYY-MM-DD", "YYYYMMDD", "DD.MM.YYYY", "YYYY/MM/DD", "MMMM D, YYYY", "MMMM Do YYYY", "YYYY-MM-DD dddd", "ddd YYYY-MM-DD"];

	test.each(DAILY_FORMATS)("a day's own name in %j is a date, in both", (format) => {
		fc.assert(
			fc.property(anyDate, (date) => {
				const name = moment(date).format(format);
				expect(dayjs(name, format, true).isValid()).toBe(true);
				expect(dayjs(name, format, true).format(format)).toBe(name);
			}),
			{ numRuns: 200 },
		);
	});

	test.each<[string, string, boolean]>([
		["2026-12-01", "YYYY-MM-DD", true],
		["2024-02-29", "YYYY-MM-DD", true],
		["2026-02-29", "YYYY-MM-DD", false],
		["2026-13-01", "YYYY-MM-DD", false],
		["2026-12-1", "YYYY-MM-DD", false],
		["2026-12-01 notes", "YYYY-MM-DD", false],
		["Shopping", "YYYY-MM-DD", false],
		["01.12.2026", "DD.MM.YYYY", true],
		["December 1, 2026", "MMMM D, YYYY", true],
		["Dec 1, 2026", "MMMM D, YYYY", false],
	])("%j in %j: %s", (name, format, expected) => {
		expect(moment(name, format, true).isValid()).toBe(expected);
		expect(dayjs(name, format, true).isValid()).toBe(expected);
	});

	test("years before 100 are not dates to dayjs, the one place it parts from moment", () => {
		expect(moment("0050-01-01", "YYYY-MM-DD", true).isValid()).toBe(true);
		expect(dayjs("0050-01-01", "YYYY-MM-DD", true).isValid()).toBe(false);
		expect(dayjs("0100-01-01", "YYYY-MM-DD", true).isValid()).toBe(true);
	});

	test("names made of digits and dashes are dates to both or to neither", () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom("0", "1", "2", "3", "9", "-"), minLength: 8, maxLength: 11 }), (name) => {
				fc.pre(!FIRST_CENTURY.test(name));
				expectEqual(dayjs(name, "YYYY-MM-DD", true).isValid(), moment(name, "YYYY-MM-DD", true).isValid());
			}),
			{ numRuns: 3000 },
		);
	});
});

describe("a format's brackets are read in linear time", () => {
	test("a `[` after the last `]` is made a closed literal, so no `[` scans to the end of the format (100,000 took 5 s)", () => {
		const hostile = "[".repeat(100_000);
		const closed = withClosedBrackets(hostile);
		// dayjs reads `[…]` as /\[([^\]]+)]/: every `[` now has a `]` two characters on.
		expect(closed).toBe("[[]".repeat(100_000));
		expect(dayjs(new Date(2026, 11, 1)).format(`YYYY ${hostile}`)).toBe(`2026 ${hostile}`);
	});

	test("what a format prints does not change, and no `[` is left after the last `]`", () => {
		// dayjs alone, without this module's plugins (which close the brackets themselves).
		let bare: typeof dayjs = dayjs;
		jest.isolateModules(() => {
			bare = jest.requireActual<typeof dayjs>("dayjs");
		});
		const plain = bare(new Date(2026, 11, 1, 9, 5, 7));
		fc.assert(
			fc.property(fc.array(fc.constantFrom("[", "]", "Y", "M", "a", " ", "[]", "[x]"), { maxLength: 30 }), (parts) => {
				const format = parts.join("");
				const closed = withClosedBrackets(format);
				expect(closed.indexOf("[", closed.lastIndexOf("]") + 1)).toBe(-1);
				expect(plain.format(closed)).toBe(plain.format(format));
			}),
		);
	});
});
