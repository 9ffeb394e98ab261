import { MAX_RECURRENCE_DAYS_CHECKED, MAX_RECURRENCE_RULE_CHARS, MAX_RECURRENCE_SEARCH_YEARS } from "../../../src/config/limits";
import {
	BEYOND_SEARCH,
	droppedWords,
	nextOccurrence,
	parseRecurrence,
	SEARCH_TOO_LONG,
	type OccurrenceDates,
	type SearchWork,
} from "../../../src/markdown/recurrence";
import { changeTaskStatus } from "../../../src/markdown/taskCompletion";
import { workClock } from "../../helpers/threadCpu";

function next(
	rule: string,
	dates: OccurrenceDates,
	today: string,
	removeScheduled = false,
): OccurrenceDates | null | typeof BEYOND_SEARCH | typeof SEARCH_TOO_LONG {
	const parsed = parseRecurrence(rule);
	if (!parsed) throw new Error(`unreadable rule ${rule}`);
	return nextOccurrence(parsed, dates, today, removeScheduled);
}

describe("parseRecurrence", () => {
	test.each([
		["every day", "every day"],
		["every week", "every week"],
		["every weekday", "every weekday"],
		["every week on Monday", "every week on Monday"],
		["every 2 weeks on Monday, Friday", "every 2 weeks on Monday, Friday"],
		["every month on the 1st", "every month on the 1st"],
		["every month on the last", "every month on the last"],
		["Every Week when done", "every week when done"],
		["every 3 days when done", "every 3 days when done"],
		["every year", "every year"],
	])("%s is written back as %s", (rule, text) => {
		expect(parseRecurrence(rule)?.text).toBe(text);
	});

	test.each(["every blue moon", "sometimes", "", "every week; rm -rf", "when done"])("%j is not a rule", (rule) => {
		expect(parseRecurrence(rule)).toBeNull();
	});

	test.each([
		"every weekend",
		"every year on February 14",
		"every minute for 999999999 times on the 29th in February",
		"every 1439 minutes at 23 on the 29th in February",
		"every day on the 1st, 1st",
		"every 2 months from the 31st",
		// rrule stops at `on`: read as `every 4 years in February`, from the 10th it fell on the 10th.
		"every 4 years in February on the 29th",
		"every year in February on the 29th",
	])("%j, which rrule reads only in part, is not read as the shorter rule it would be written back as", (rule) => {
		expect(parseRecurrence(rule)).toBeNull();
	});

	test.each([
		["every 1 week", "every 1 week"],
		["every Monday", "every week on Monday"],
		["every week on Mon", "every week on Monday"],
		["every month on the 31st in April", "every month on the 31st in April"],
		["every year on the 29th in February", "every February on the 29th"],
		["every week on Tuesday and Thursday", "every week on Tuesday, Thursday"],
		["every day for 1 time", "every day for 1 time"],
		["every 2 weeks on Monday, Friday when done", "every 2 weeks on Monday, Friday when done"],
	])("%j is read whole and written back as %j (rrule's words when they read back as the same rule)", (rule, text) => {
		expect(parseRecurrence(rule)?.text).toBe(text);
	});

	test("a rule longer than any Tasks writes is not read, and the error quotes only its start (a planted one ran rrule 170–250 ms in one piece)", () => {
		const planted = `every week on ${"Monday, ".repeat(20_000)}Friday`;
		expect(parseRecurrence(planted)).toBeNull();
		expect(parseRecurrence("every week on Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday when done")?.text).toBe(
			"every week on Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday when done",
		);
		const result = changeTaskStatus(`- [ ] Planted 🔁 ${planted} 📅 2026-11-30`, "x", "2026-11-30", "emoji");
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error.length).toBeLessThan(MAX_RECURRENCE_RULE_CHARS + 500);
	});

	test("droppedWords names what the reading left out, never units, filler or a word it completed", () => {
		expect(droppedWords("every weekend", "every week")).toEqual(["weekend"]);
		expect(droppedWords("every year on February 14", "every February")).toEqual(["14"]);
		expect(droppedWords("every 1 week on Mon", "every week on Monday")).toEqual([]);
	});
});

describe("nextOccurrence", () => {
	test.each<[string, string, OccurrenceDates, string, OccurrenceDates | null]>([
		["daily", "every day", { due: "2022-09-04" }, "2022-09-04", { due: "2022-09-05" }],
		["every 3 days, counted from the due date not today", "every 3 days", { due: "2026-11-20" }, "2026-11-30", { due: "2026-11-23" }],
		["weekly", "every week", { due: "2026-12-01" }, "2026-11-30", { due: "2026-12-08" }],
		["weekly on a weekday (Tuesday → next Monday)", "every week on Monday", { due: "2026-12-01" }, "2026-11-30", { due: "2026-12-07" }],
		["every weekday from a Friday", "every weekday", { due: "2026-12-04" }, "2026-12-04", { due: "2026-12-07" }],
		["monthly", "every month", { due: "2026-03-15" }, "2026-03-15", { due: "2026-04-15" }],
		["monthly from the 31st lands at the end of a short month", "every month", { due: "2026-01-31" }, "2026-01-31", { due: "2026-02-28" }],
		["every 2 months from the 31st", "every 2 months", { due: "2026-12-31" }, "2026-12-31", { due: "2027-02-28" }],
		["monthly on the 1st", "every month on the 1st", { due: "2026-12-01" }, "2026-11-30", { due: "2027-01-01" }],
		["monthly on the 1st from another day", "every month on the 1st", { due: "2026-11-20" }, "2026-11-30", { due: "2026-12-01" }],
		["yearly from 29 February", "every year", { due: "2024-02-29" }, "2024-02-29", { due: "2025-02-28" }],
		["when done: from today, not the due date", "every week when done", { due: "2026-01-01" }, "2026-11-30", { due: "2026-12-07" }],
		["when done without dates", "every day when done", {}, "2026-11-30", {}],
		[
			"start and scheduled keep their distance to the due date",
			"every week",
			{ start: "2026-11-25", scheduled: "2026-11-28", due: "2026-12-01" },
			"2026-11-30",
			{ start: "2026-12-02", scheduled: "2026-12-05", due: "2026-12-08" },
		],
		[
			"scheduled is the reference without a due date",
			"every month on the 1st",
			{ start: "2026-11-28", scheduled: "2026-12-01" },
			"2026-11-30",
			{ start: "2026-12-29", scheduled: "2027-01-01" },
		],
		[
			"when done moves every date by the same distance",
			"every 2 days when done",
			{ start: "2026-11-01", due: "2026-11-03" },
			"2026-11-30",
			{ start: "2026-11-30", due: "2026-12-02" },
		],
		["across a daylight saving change", "every week", { due: "2026-03-25" }, "2026-03-25", { due: "2026-04-01" }],
	])("%s", (_name, rule, dates, today, expected) => {
		expect(next(rule, dates, today)).toEqual(expected);
	});

	test("with Tasks' 'remove scheduled date on recurrence', the new occurrence has no scheduled date and the start date leads", () => {
		expect(next("every week", { start: "2026-11-24", scheduled: "2026-11-26", due: "2026-12-01" }, "2026-11-30", true)).toEqual({
			start: "2026-12-01",
			due: "2026-12-08",
		});
		expect(next("every month on the 1st", { scheduled: "2026-11-20", start: "2026-11-25" }, "2026-11-30", true)).toEqual({ start: "2026-12-01" });
		// Only a scheduled date: nothing else to keep, so it stays.
		expect(next("every week", { scheduled: "2026-11-26" }, "2026-11-30", true)).toEqual({ scheduled: "2026-12-03" });
	});

	test("a rule that ends has no next occurrence after its last", () => {
		expect(next("every day for 1 time", { due: "2026-11-30" }, "2026-11-30")).toBeNull();
	});
});

describe("a rule with no next date is an error after a bounded search, never rewritten", () => {
	test.each([
		"every hour on the 31st in February",
		"every minute on the 31st in February",
		"every week on the 30th in February",
		"every month on the 31st in April",
		"every year on the 30th in February",
		"every month on the 6th Monday",
		// rrule's next date is past the year 9999: the recurrence has no end, so it is not over.
		"every 999999999 days",
		"every 999999999 weeks",
	])("%s: no next date within the search", (rule) => {
		expect(next(rule, { due: "2026-11-30" }, "2026-11-30")).toBe(BEYOND_SEARCH);
		const result = changeTaskStatus(`- [ ] Hostile 🔁 ${rule} 📅 2026-11-30`, "x", "2026-11-30", "emoji");
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).toContain(`has no next date within ${MAX_RECURRENCE_SEARCH_YEARS} years`);
	});

	test("a rule whose words in rrule read back as another rule keeps its words as written", () => {
		expect(parseRecurrence("every hour on the 31st in February")?.text).toBe("every hour on the 31st in February");
	});

	test.each<[string, string, string]>([
		["every year on the 29th in February", "2026-11-30", "2028-02-29"],
		["every month on the 31st", "2026-11-30", "2026-12-31"],
		["every 2 weeks on Monday, Friday", "2026-11-30", "2026-12-04"],
		["every hour", "2026-11-30", "2026-12-01"],
		["every 3 days", "2026-11-30", "2026-12-03"],
	])("%s from %s is found: %s", (rule, due, expected) => {
		expect(next(rule, { due }, due)).toEqual({ due: expected });
	});
});

describe("a rule that names its days lands on the next of them, in a bounded search", () => {
	// Tasks steps a yearly rule back a day at a time until it lands within its interval; a rule
	// naming its days (2044-02-29 is the next 29 February on a Monday, 18 years on) never did, and
	// after 366 steps answered "search too long" for a date the rule has.
	test.each<[string, string, string]>([
		["every 3 years on the 29th in February on Monday", "2026-11-30", "2044-02-29"],
		["every 3 years on the 29th in February on Monday", "2045-03-01", "2072-02-29"],
		// 39 years on: the search is bounded by the days of the years its interval reaches, not by 30 years.
		["every 3 years on the 29th in February on Monday", "2073-01-01", "2112-02-29"],
		["every 3 years on the 5th Monday in February", "2026-12-04", "2044-02-29"],
		["every 7 years on the 29th in February", "2026-12-04", "2040-02-29"],
		["every 2 years on Monday in February", "2026-02-23", "2028-02-07"],
	])("%s from %s is %s", (rule, due, expected) => {
		const parsed = parseRecurrence(rule);
		if (!parsed) throw new Error(`unreadable rule ${rule}`);
		const search: SearchWork = { daysChecked: 0 };
		expect(nextOccurrence(parsed, { due }, due, false, search)).toEqual({ due: expected });
		expect(search.daysChecked).toBeLessThanOrEqual(MAX_RECURRENCE_DAYS_CHECKED);
		const result = changeTaskStatus(`- [ ] Leap 🔁 ${rule} 📅 ${due}`, "x", due, "emoji");
		expect(result.ok && result.value.lines[0]).toContain(`📅 ${expected}`);
	});

	test.each<[string, OccurrenceDates]>([
		// rrule reads a year before 100 as 19xx: its 1908-02-29 is not a date this rule has.
		["every 7 years on the 29th in February", { due: "0001-01-01" }],
		["every 2 days", { due: "0010-01-01" }],
	])("%s from %j: no date it cannot vouch for", (rule, dates) => {
		const parsed = parseRecurrence(rule);
		if (!parsed) throw new Error(`unreadable rule ${rule}`);
		const search: SearchWork = { daysChecked: 0 };
		expect(nextOccurrence(parsed, dates, "2026-12-04", false, search)).toBe(BEYOND_SEARCH);
		expect(search.daysChecked).toBeLessThanOrEqual(MAX_RECURRENCE_DAYS_CHECKED);
	});

	test.each<[string, string, string]>([
		["every month", "2026-01-31", "2026-02-28"],
		["every year", "2028-02-29", "2029-02-28"],
		["every 10 years", "2028-02-29", "2038-02-28"],
	])("a rule that steps back to land still lands: %s from %s is %s", (rule, due, expected) => {
		expect(next(rule, { due }, due)).toEqual({ due: expected });
	});
});

describe("a rule of hours or minutes whose next day is years away", () => {
	// rrule walked every day from the reference date to the one found: 27 years, 105-120 ms of CPU
	// per completion in one piece (these 5 rules: 335-397 ms on 285ac856; 106-127 ms asked from the day found).
	const RULES: Array<[string, string]> = [
		["every hour on the 29th in February on Monday", "2045-03-01"],
		["every minute on the 29th in February on Monday", "2045-03-01"],
		["every 5 hours on the 29th in February on Monday for 3 times", "2045-03-01"],
		["every 2 minutes on the 29th in February on Monday until 2090", "2045-03-01"],
		// Its first day has occurrences, which count: rrule walked on to the next one to stop counting them.
		["every hour on the 29th in February on Monday for 30 times", "2044-02-29"],
	];

	test("is asked of rrule from the day the bounded check found, not walked from the reference date", () => {
		// Warmed first (compiled code), so the pieces timed are the rules' work.
		next("every hour on the 29th in February on Monday", { due: "2026-12-01" }, "2026-12-01");
		const clock = workClock();
		const started = clock();
		for (const [rule, due] of RULES) expect(next(rule, { due }, due)).toEqual({ due: "2072-02-29" });
		expect(clock() - started).toBeLessThan(220);
	});

	test.each<[string, string, string]>([
		// The check found the due day itself, so rrule's next date, past 30 years from it, was refused as not vouched for.
		["every 31 years", "2026-06-19", "2057-06-19"],
		// rrule skips 2037-2063 (no 29 February), then steps back as Tasks does: 28 February 2037.
		["every 13 years for 5 times", "2024-02-29", "2037-02-28"],
	])("%s due %s: %s, as Tasks answers", (rule, due, expected) => {
		expect(next(rule, { due }, due)).toEqual({ due: expected });
	});

	test("due on a day it falls on: asked of rrule from the next day it falls on, not walked from the due date", () => {
		// The bounded check started at the due day, which the rule falls on (its hours all up to the due day's end), so rrule
		// was asked from it: 28 years of hours, 3-5 times the check's own work. Compared with the same rule due a day later
		// (the same check, the same answer). The fastest of three of each, in turn, after one not counted, so a collection or a
		// busy machine landing in one run weighs on neither side (one run of each had a margin of 2: 14-16 ms against 11-13).
		// Here 1.0 times the day after (11-18 ms); 4.4-5 times with the check started on the due day (53 against 12 ms).
		const rule = "every hour on the 29th in February on Monday";
		const cpu = (due: string) => {
			const clock = workClock();
			const started = clock();
			expect(next(rule, { due }, due)).toEqual({ due: "2044-02-29" });
			return clock() - started;
		};
		cpu("2016-03-01");
		let dayAfter = Infinity;
		let onDay = Infinity;
		for (let run = 0; run < 3; run++) {
			dayAfter = Math.min(dayAfter, cpu("2016-03-01"));
			onDay = Math.min(onDay, cpu("2016-02-29"));
		}
		expect(onDay).toBeLessThan(2 * dayAfter + 5);
	});

	test.each<[string, string, string | null]>([
		// The interval still counts from the reference date (the same answers as rrule walking from it).
		["every 7 hours on the 29th in February on Monday", "2026-12-01", "2044-02-29"],
		["every 25 hours on the 13th", "2026-12-01", "2026-12-13"],
		["every 3 minutes on Monday", "2026-12-01", "2026-12-07"],
		// A count counts from the reference date: its first day's occurrences use it up.
		["every hour on Monday for 24 times", "2016-02-29", null],
		["every hour on Monday for 25 times", "2016-02-29", "2016-03-07"],
		["every hour on the 29th in February on Monday for 30 times", "2016-02-29", "2044-02-29"],
		["every 5 hours on the 29th in February on Monday for 5 times", "2016-02-29", null],
		["every 5 hours on the 29th in February on Monday for 6 times", "2016-02-29", "2044-02-29"],
		["every 3 minutes on the 29th in February for 480 times", "2028-02-29", null],
		["every 3 minutes on the 29th in February for 481 times", "2028-02-29", "2032-02-29"],
	])("%s from %s: %s", (rule, due, expected) => {
		expect(next(rule, { due }, due)).toEqual(expected === null ? null : { due: expected });
	});
});
