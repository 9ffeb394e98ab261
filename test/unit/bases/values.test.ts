import { addDuration, DateValue, formatDate, LinkValue, namingOf, parseDateText, parseDurationText } from "../../../src/bases/values";

describe("dates and durations", () => {
	test("reads the date forms Bases writes, and refuses impossible dates", () => {
		expect(formatDate(parseDateText("2025-01-01") as DateValue)).toBe("2025-01-01");
		expect(formatDate(parseDateText("2025-01-01 12:00:00") as DateValue)).toBe("2025-01-01 12:00:00");
		expect(formatDate(parseDateText("2025-01-01T08:30") as DateValue)).toBe("2025-01-01 08:30:00");
		expect(parseDateText("2025-02-30")).toBeNull();
		expect(parseDateText("soon")).toBeNull();
	});

	test("reads every unit spelling the syntax page lists; M is months and m minutes", () => {
		const date = parseDateText("2024-12-01") as DateValue;
		const cases: Array<[string, string]> = [
			["1y", "2025-12-01"],
			["2 years", "2026-12-01"],
			["1M", "2025-01-01"],
			["1 month", "2025-01-01"],
			["3 days", "2024-12-04"],
			["1w", "2024-12-08"],
			["2 weeks", "2024-12-15"],
			["4h", "2024-12-01 04:00:00"],
			["3m", "2024-12-01 00:03:00"],
			["30s", "2024-12-01 00:00:30"],
			["1 hour", "2024-12-01 01:00:00"],
			["1d 4h", "2024-12-02 04:00:00"],
		];
		for (const [text, expected] of cases) expect([text, formatDate(addDuration(date, parseDurationText(text) ?? fail(text), 1))]).toEqual([text, expected]);
		expect(parseDurationText("1 fortnight")).toBeNull();
		expect(parseDurationText("D")).toBeNull();
	});

	test("a month after 31 January is the end of February; subtracting goes back by the calendar", () => {
		const end = parseDateText("2025-01-31") as DateValue;
		expect(formatDate(addDuration(end, parseDurationText("1M") ?? fail("1M"), 1))).toBe("2025-02-28");
		expect(formatDate(addDuration(parseDateText("2025-03-01") as DateValue, parseDurationText("1d") ?? fail("1d"), -1))).toBe("2025-02-28");
	});
});

function fail(text: string): never {
	throw new Error(`not a duration: ${text}`);
}

describe("namingOf: which values of a cell name files", () => {
	const isVisiblePath = (text: string) => text === "Projects/Plan.md";

	test("a text names a file only when it is, exactly, a visible file's path: cut to a prefix it could name another note", () => {
		expect(namingOf("Projects/Plan.md", isVisiblePath)).toBe("path");
		expect(namingOf("Projects/Plan", isVisiblePath)).toBeNull();
		expect(namingOf("projects/plan.md", isVisiblePath)).toBeNull();
		expect(namingOf(["text", "Projects/Plan.md", 3], isVisiblePath)).toEqual(new Map([[1, "path"]]));
	});

	test("a link names its note as link text, whatever its text", () => {
		expect(namingOf(new LinkValue("Projects/Plan.md", null), () => false)).toBe("link");
	});
});
