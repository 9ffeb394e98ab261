/**
 * Recurring tasks as the Tasks plugin reads and moves them on: a rule in words (`every week`,
 * `every month on the 1st`, `every weekday`, `… when done`) read by the `rrule` package, as
 * Tasks does, and the next occurrence's due, scheduled and start dates kept at the same distance
 * from the reference date (due, else scheduled, else start). Dates are YYYY-MM-DD strings and all
 * arithmetic is on UTC midnights, so no time zone or daylight saving change can shift a day. Pure.
 */
import { Frequency, RRule, Weekday, type Options } from "rrule";
import { MAX_RECURRENCE_DAYS_CHECKED, MAX_RECURRENCE_RULE_CHARS, MAX_RECURRENCE_SEARCH_YEARS, MAX_RECURRENCE_STEP_BACK_DAYS } from "../config/limits";

/** The dates a recurrence moves on. */
export interface OccurrenceDates {
	due?: string;
	scheduled?: string;
	start?: string;
}

/** A rule Tasks can read: rrule's options, and whether it counts from the day it is done. */
export interface RecurrenceRule {
	options: Partial<Options>;
	whenDone: boolean;
	/** The rule as Tasks writes it back (rrule's own wording, then ` when done`). */
	text: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A YYYY-MM-DD date as the Date of its UTC midnight. */
function utcDay(date: string): Date {
	return new Date(`${date}T00:00:00Z`);
}

/** The YYYY-MM-DD of a Date's UTC day. */
function isoDay(date: Date): string {
	return date.toISOString().slice(0, 10);
}

/** The last millisecond of a UTC day. */
function endOfDay(day: Date): Date {
	return new Date(day.getTime() + DAY_MS - 1);
}

/** Reads a rule the way Tasks does (its character set, an optional ` when done`); null when rrule cannot read it, or it is longer than any rule Tasks writes. */
export function parseRecurrence(ruleText: string): RecurrenceRule | null {
	if (ruleText.length > MAX_RECURRENCE_RULE_CHARS) return null;
	const match = /^([a-zA-Z0-9, !]+?)( when done)?$/i.exec(ruleText.trim());
	if (!match?.[1]) return null;
	try {
		const options = RRule.parseText(match[1].trim());
		if (!options || options.freq === undefined) return null;
		const whenDone = match[2] !== undefined;
		// rrule's words for a rule, as Tasks writes it back, unless they read back as another rule
		// (`every hour on the 31st in February` would become `every hour`): then the words as written.
		const words = new RRule(options).toText();
		const rewritten = sameOptions(RRule.parseText(words), options);
		// rrule skips words it has no use for (`every weekend` reads as `every week`, `… for 9 times
		// on the 29th in February` as `… for 9 times`): a rule read in part would be completed, and
		// written back, as a different rule, so it is not read at all.
		if (rewritten && droppedWords(match[1], words).length > 0) return null;
		if (!readsLastWord(match[1].trim(), options)) return null;
		const text = (rewritten ? words : match[1].trim()) + (whenDone ? " when done" : "");
		return { options, whenDone, text };
	} catch {
		return null;
	}
}

/** Words of a rule rrule may say in other words (`every Monday` is `every week on Monday`) or leave out (`every 1 week`). */
const REPHRASED_WORDS = new Set(["every", "on", "the", "in", "at", "for", "and", "of", "a", "an", "1"]);
const UNIT_WORD = /^(minute|hour|day|week|month|year)s?$/;

/**
 * The words of `written` that rrule's own wording `read` does not hold: each must start a word of
 * it (`Mon` → `Monday`, `14` → `14th`), except units and filler, which rrule rephrases.
 */
export function droppedWords(written: string, read: string): string[] {
	const readWords = read.toLowerCase().split(/[^a-z0-9]+/);
	return written
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((word) => word !== "" && !REPHRASED_WORDS.has(word) && !UNIT_WORD.test(word))
		.filter((word) => !readWords.some((each) => each.startsWith(word)));
}

/**
 * Whether rrule's reading of `written` uses its last word. rrule reads a rule left to right and
 * stops, without a word, at the first clause it does not expect, so the words it ignored are the
 * rule's end: `every 4 years in February on the 29th` is read as `every 4 years in February`, which
 * from the 31st of a month has no next date, and from the 10th falls on the 10th, not the 29th.
 * The last word counts when the rule without it reads otherwise (or not at all).
 */
function readsLastWord(written: string, options: Partial<Options>): boolean {
	const words = written.split(/\s+/);
	let last = words.length - 1;
	// Filler, and `times` after a count (rrule reads `for 3` as `for 3 times`), say nothing by themselves.
	const saysNothing = (word: string) => REPHRASED_WORDS.has(word) || word === "time" || word === "times";
	while (last > 0 && saysNothing(words[last]?.toLowerCase().replace(/[^a-z0-9]/g, "") ?? "")) last--;
	if (last <= 0) return true;
	try {
		return !sameOptions(RRule.parseText(words.slice(0, last).join(" ")), options);
	} catch {
		return true;
	}
}

/** Whether two rule option sets say the same (rrule's Weekday objects compared by their text). */
function sameOptions(first: Partial<Options> | null, second: Partial<Options>): boolean {
	const key = (options: Partial<Options> | null) =>
		JSON.stringify(
			Object.entries(options ?? {})
				.filter(([, value]) => value !== undefined && value !== null)
				.sort(([a], [b]) => a.localeCompare(b)),
			(_name, value: unknown) => (value instanceof Weekday ? value.toString() : value),
		);
	return key(first) === key(second);
}

const asList = <T>(value: T | T[] | null | undefined): T[] => (value === null || value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Day of the week of a UTC date, rrule's way: 0 is Monday. */
const weekdayOf = (day: Date) => (day.getUTCDay() + 6) % 7;
const daysInMonth = (day: Date) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0)).getUTCDate();
const dayOfYear = (day: Date) => Math.round((day.getTime() - Date.UTC(day.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
const daysInYear = (day: Date) => (new Date(Date.UTC(day.getUTCFullYear(), 1, 29)).getUTCMonth() === 1 ? 366 : 365);
/** ISO week number: weeks start on Monday, week 1 holds the year's first Thursday. */
function isoWeekNumber(day: Date): { week: number; year: number } {
	const thursday = new Date(day.getTime() + (3 - weekdayOf(day)) * DAY_MS);
	return { week: Math.floor((thursday.getTime() - Date.UTC(thursday.getUTCFullYear(), 0, 1)) / DAY_MS / 7) + 1, year: thursday.getUTCFullYear() };
}

/** A day's ISO week, and how many weeks its ISO year has (the week of 28 December). */
function isoWeek(day: Date): { week: number; weeks: number } {
	const { week, year } = isoWeekNumber(day);
	return { week, weeks: isoWeekNumber(new Date(Date.UTC(year, 11, 28))).week };
}

/**
 * Whether a day passes a rule's day filters (month, day of month, ISO week, weekday with its
 * ordinal), with rrule's defaults taken from the start date when a rule names no day.
 */
function dayPasses(options: Partial<Options>, dtstart: Date, day: Date): boolean {
	const freq = options.freq ?? Frequency.DAILY;
	const months = asList(options.bymonth);
	let monthDays = asList(options.bymonthday);
	let weekdays = asList(options.byweekday).map((each) =>
		typeof each === "number" ? new Weekday(each) : typeof each === "string" ? Weekday.fromStr(each) : each,
	);
	const weeks = asList(options.byweekno);
	const namesNoDay = monthDays.length === 0 && weekdays.length === 0 && weeks.length === 0;
	if (namesNoDay && freq === Frequency.YEARLY) {
		if (months.length === 0 && day.getUTCMonth() !== dtstart.getUTCMonth()) return false;
		monthDays = [dtstart.getUTCDate()];
	} else if (namesNoDay && freq === Frequency.MONTHLY) monthDays = [dtstart.getUTCDate()];
	else if (namesNoDay && freq === Frequency.WEEKLY) weekdays = [new Weekday(weekdayOf(dtstart))];
	if (months.length > 0 && !months.includes(day.getUTCMonth() + 1)) return false;
	const date = day.getUTCDate();
	const monthLength = daysInMonth(day);
	if (monthDays.length > 0 && !monthDays.some((each) => each === date || each === date - monthLength - 1)) return false;
	if (weeks.length > 0) {
		const { week, weeks: inYear } = isoWeek(day);
		if (!weeks.some((each) => each === week || each === week - inYear - 1)) return false;
	}
	if (weekdays.length > 0) {
		const inMonth = freq === Frequency.MONTHLY || (freq === Frequency.YEARLY && months.length > 0);
		const ordinalsCount = freq === Frequency.MONTHLY || freq === Frequency.YEARLY;
		const [position, length] = inMonth ? [date, monthLength] : [dayOfYear(day), daysInYear(day)];
		const passes = weekdays.some((each) => {
			if (each.weekday !== weekdayOf(day)) return false;
			if (!ordinalsCount || !each.n) return true;
			return each.n > 0 ? Math.ceil(position / 7) === each.n : Math.floor((length - position) / 7) + 1 === -each.n;
		});
		if (!passes) return false;
	}
	return true;
}

/** Whether the rule's interval, counted from its start, reaches some moment of a day (and an hour it names). */
function intervalReaches(options: Partial<Options>, dtstart: Date, day: Date): boolean {
	const interval = Math.max(1, options.interval ?? 1);
	const days = Math.round((day.getTime() - dtstart.getTime()) / DAY_MS);
	const hours = asList(options.byhour);
	const allowedHours = hours.length > 0 ? hours : Array.from({ length: 24 }, (_unused, hour) => hour);
	const reaches = (unitsBefore: number, unitsInHour: number) =>
		allowedHours.some((hour) => ((-(unitsBefore + hour * unitsInHour) % interval) + interval) % interval < unitsInHour);
	switch (options.freq) {
		case Frequency.YEARLY:
			return (day.getUTCFullYear() - dtstart.getUTCFullYear()) % interval === 0;
		case Frequency.MONTHLY:
			return ((day.getUTCFullYear() - dtstart.getUTCFullYear()) * 12 + day.getUTCMonth() - dtstart.getUTCMonth()) % interval === 0;
		case Frequency.WEEKLY:
			return Math.floor((days + weekdayOf(dtstart)) / 7) % interval === 0;
		case Frequency.HOURLY:
			return reaches(days * 24, 1);
		case Frequency.MINUTELY:
			return reaches(days * 24 * 60, 60);
		case Frequency.SECONDLY:
			return reaches(days * 24 * 3600, 3600);
		default:
			return days % interval === 0;
	}
}

/** Days of a rule's own periods one search checks: rrule's work to reach a date follows them. */
const SEARCH_DAYS = Math.ceil(MAX_RECURRENCE_SEARCH_YEARS * 365.25);
/** The last day rrule can answer (it stops at the year 9999). */
const LAST_DAY = Date.UTC(9999, 11, 31);

/** The UTC midnight (in ms) of the first of a month; unlike Date.UTC, a year before 100 is not read as 19xx. */
function firstOfMonth(year: number, month: number): number {
	const day = new Date(0);
	day.setUTCFullYear(year, month, 1);
	return day.getTime();
}

/**
 * The start of the next period of a yearly, monthly or weekly rule that its interval reaches, when
 * the period of `day` is one it skips; null when `day`'s period is reached or the rule has no such
 * periods. rrule steps from one reached period to the next, so the skipped ones cost it nothing.
 */
function nextReachedPeriod(options: Partial<Options>, dtstart: Date, day: Date): number | null {
	const interval = Math.max(1, options.interval ?? 1);
	const skipped = (passed: number) => (interval - (passed % interval)) % interval;
	const year = day.getUTCFullYear();
	switch (options.freq) {
		case Frequency.YEARLY: {
			const ahead = skipped(year - dtstart.getUTCFullYear());
			return ahead === 0 ? null : firstOfMonth(year + ahead, 0);
		}
		case Frequency.MONTHLY: {
			const ahead = skipped((year - dtstart.getUTCFullYear()) * 12 + day.getUTCMonth() - dtstart.getUTCMonth());
			return ahead === 0 ? null : firstOfMonth(year, day.getUTCMonth() + ahead);
		}
		case Frequency.WEEKLY: {
			const weeks = Math.floor((Math.round((day.getTime() - dtstart.getTime()) / DAY_MS) + weekdayOf(dtstart)) / 7);
			const ahead = skipped(weeks);
			return ahead === 0 ? null : day.getTime() + (ahead * 7 - weekdayOf(day)) * DAY_MS;
		}
		default:
			return null;
	}
}

/**
 * The first day (its UTC midnight, in ms) after `after` on which a rule has an occurrence, checked
 * day by day before rrule is asked: rrule looks for the next occurrence up to the year 9999 and
 * cannot be stopped, so a rule with none (`every hour on the 31st in February`) held the server for
 * seconds. The search is bounded by work, SEARCH_DAYS days of the periods the rule's interval
 * reaches (30 years of an `every hour` rule, 90 of an `every 3 years` one), not by a span of
 * years: `every 3 years on the 29th in February on Monday` from 2073 falls in 2112. The check may
 * say yes to a rule rrule then finds nothing for nearby (a count or an end date): rrule stops at
 * those by itself.
 */
function firstOccurrenceDay(options: Partial<Options>, dtstart: Date, after: Date, search: SearchWork): number | null | typeof SEARCH_TOO_LONG {
	let time = Math.floor(after.getTime() / DAY_MS) * DAY_MS;
	for (let checked = 0; checked < SEARCH_DAYS && time <= LAST_DAY; checked++) {
		if (search.daysChecked >= MAX_RECURRENCE_DAYS_CHECKED) return SEARCH_TOO_LONG;
		search.daysChecked++;
		const day = new Date(time);
		const skipTo = nextReachedPeriod(options, dtstart, day);
		if (skipTo !== null) time = skipTo;
		else if (dayPasses(options, dtstart, day) && intervalReaches(options, dtstart, day)) return time;
		else time += DAY_MS;
	}
	return null;
}

/** Days one completion's search has checked, against MAX_RECURRENCE_DAYS_CHECKED. */
export interface SearchWork {
	daysChecked: number;
}

/** What nextOccurrence answers for a rule with no occurrence within its bounded search (at least MAX_RECURRENCE_SEARCH_YEARS). */
export const BEYOND_SEARCH = "beyond search";
/** What nextOccurrence answers for a rule whose search checked MAX_RECURRENCE_DAYS_CHECKED days without an answer (stepping back, each step finding an occurrence years away). */
export const SEARCH_TOO_LONG = "search too long";

/** Whether a rule names the days it falls on (a day of the month, of the year, a weekday, a week), rather than taking its start date's. */
function namesItsDays(options: Partial<Options>): boolean {
	return [options.bymonthday, options.byweekday, options.byweekno, options.byyearday, options.bysetpos].some((each) => asList(each).length > 0);
}

/**
 * The first occurrence after `after` (exclusive). A monthly rule without a fixed day (`every
 * month` from the 31st) or a yearly one (from 29 February) would skip a short month or year: as
 * in Tasks, `after` then steps back a day at a time until the occurrence lands in the month or
 * year the interval names.
 */
function nextAfter(rule: RecurrenceRule, dtstart: Date, after: Date, search: SearchWork): Date | null | typeof BEYOND_SEARCH | typeof SEARCH_TOO_LONG {
	const build = (start: Date) => new RRule({ ...rule.options, dtstart: start });
	// `after` is the last millisecond of its day (the reference day, whose occurrences are all up to it), so the check
	// starts the next day: from that day, a task due on a day its rule falls on (`every hour on the 29th in February on
	// Monday`, due 2016-02-29) found that day and rrule was asked from it, walking 28 years of hours to 2044.
	const within = firstOccurrenceDay(rule.options, dtstart, new Date(after.getTime() + 1), search);
	if (within === null || within === SEARCH_TOO_LONG) return within ?? BEYOND_SEARCH;
	const nextFrom = (start: Date, from: Date) => {
		const found = firstOccurrenceDay(rule.options, start, from, search);
		return found === null ? false : found === SEARCH_TOO_LONG ? found : build(start).after(from);
	};
	// A rule without a count or an end date never ends: rrule finding nothing means nothing before
	// the year 9999 (`every 999999999 days`), not that the recurrence is over.
	const endless = !rule.options.count && !rule.options.until;
	let next = firstAfterFrom(rule, dtstart, after, within);
	if (!next) return endless ? BEYOND_SEARCH : null;
	// rrule reads a year before 100 as 19xx (`every 2 days` from 0010-01-01 answered 1910-01-01): a
	// date past both the day the check found and 30 years is not one it vouches for, so not written.
	const vouchedUntil = Math.max(within, Math.floor(after.getTime() / DAY_MS) * DAY_MS + SEARCH_DAYS * DAY_MS);
	if (next.getTime() > vouchedUntil + DAY_MS) return BEYOND_SEARCH;
	// The step back gives a rule that names no day the day its month or year lacks (the 31st, 29
	// February). A rule that names its days already falls on days that exist, so stepping back only
	// moves its interval off the reference date: `every 3 years on the 29th in February on Monday`
	// stepped back 366 times and answered "search too long", though 2044-02-29 is a Monday 18 years on.
	if (namesItsDays(rule.options)) return next;
	const interval = rule.options.interval ?? 1;
	const monthly = /every( \d+)? months?/.test(rule.text) && !rule.text.includes(" on ");
	const yearly = /every( \d+)? years?/.test(rule.text);
	const monthsBetween = (from: Date, to: Date) => (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
	const tooFar = (from: Date, to: Date) =>
		monthly ? monthsBetween(from, to) > interval : yearly ? to.getUTCFullYear() - from.getUTCFullYear() > interval : false;
	let from = after;
	for (let step = 0; next && tooFar(from, next); step++) {
		if (step >= MAX_RECURRENCE_STEP_BACK_DAYS) return null;
		// Tasks compares against the start of the day before, and asks for the first occurrence after it.
		from = new Date(Math.floor(from.getTime() / DAY_MS) * DAY_MS - DAY_MS);
		const found = nextFrom(from, from);
		if (found === SEARCH_TOO_LONG) return found;
		next = found === false ? null : found;
	}
	return next ?? (endless ? BEYOND_SEARCH : null);
}

/** A period of each rule that counts in days or less, in ms: rrule steps through every one of them. */
const PERIOD_MS: Partial<Record<Frequency, number>> = {
	[Frequency.DAILY]: DAY_MS,
	[Frequency.HOURLY]: 60 * 60 * 1000,
	[Frequency.MINUTELY]: 60 * 1000,
	[Frequency.SECONDLY]: 1000,
};

/** The day filters a rule read from words may have: `dayPasses` checks exactly these. */
const NO_DAY_FILTERS: Partial<Options> = { bymonth: null, bymonthday: null, byweekday: null, byweekno: null };

/**
 * rrule's first occurrence after `after`, asked from the day the bounded check found (`within`).
 * rrule walks every period from the rule's start, days it filters out included: `every hour on the
 * 29th in February on Monday` from 2045 walked 27 years to 2072, 105–120 ms of CPU in one piece. A
 * rule counted in days or less is started instead at its last moment on or before `within` that its
 * interval reaches from `dtstart` (a whole number of intervals on, so it has the same occurrences
 * from there), and no day before `within` has one. A count counts from `dtstart`: the occurrences of
 * its first day (up to `after`) are taken off it, counted by rrule without the day filters, which
 * that day passes (else it has none); with them rrule walked on to the next occurrence to stop.
 */
function firstAfterFrom(rule: RecurrenceRule, dtstart: Date, after: Date, within: number): Date | null {
	const build = (options: Partial<Options>) => new RRule({ ...rule.options, ...options });
	const period = rule.options.freq === undefined ? undefined : PERIOD_MS[rule.options.freq];
	if (period === undefined) return build({ dtstart }).after(after);
	const step = period * Math.max(1, rule.options.interval ?? 1);
	const start = new Date(dtstart.getTime() + Math.floor((within - dtstart.getTime()) / step) * step);
	const count = rule.options.count;
	if (count && dayPasses(rule.options, dtstart, dtstart) && intervalReaches(rule.options, dtstart, dtstart)) {
		const firstDay = build({ ...NO_DAY_FILTERS, dtstart, count: null }).between(dtstart, after, true).length;
		if (firstDay >= count) return null;
	}
	return build({ dtstart: start, count: null }).after(after);
}

/**
 * The dates of the occurrence after the one with `dates`, completed on `today` (YYYY-MM-DD):
 * counted from the reference date, or from `today` for a `when done` rule or a task without
 * dates. Each date keeps its distance in days from the reference date; a task without dates gets
 * none. `removeScheduled` is the Tasks setting that drops the scheduled date of the new occurrence
 * (when it has a due or start date) and so prefers the start date as reference. Null when the rule
 * has no further occurrence (a count or an end date reached); BEYOND_SEARCH when it has none within
 * MAX_RECURRENCE_SEARCH_YEARS; SEARCH_TOO_LONG when finding it would check more than
 * MAX_RECURRENCE_DAYS_CHECKED days (`search` counts them, for a caller that wants to know).
 */
export function nextOccurrence(
	rule: RecurrenceRule,
	dates: OccurrenceDates,
	today: string,
	removeScheduled = false,
	search: SearchWork = { daysChecked: 0 },
): OccurrenceDates | null | typeof BEYOND_SEARCH | typeof SEARCH_TOO_LONG {
	const reference = removeScheduled ? (dates.due ?? dates.start ?? dates.scheduled) : (dates.due ?? dates.scheduled ?? dates.start);
	const base = utcDay(rule.whenDone || reference === undefined ? today : reference);
	const next = nextAfter(rule, base, endOfDay(base), search);
	if (next === null || next === BEYOND_SEARCH || next === SEARCH_TOO_LONG) return next;
	if (reference === undefined) return {};
	const referenceDay = utcDay(reference);
	const moved = (date: string | undefined) =>
		date === undefined ? undefined : isoDay(new Date(next.getTime() + Math.round((utcDay(date).getTime() - referenceDay.getTime()) / DAY_MS) * DAY_MS));
	const dropScheduled = removeScheduled && (dates.due !== undefined || dates.start !== undefined);
	const result: OccurrenceDates = {};
	if (dates.due !== undefined) result.due = moved(dates.due);
	if (dates.scheduled !== undefined && !dropScheduled) result.scheduled = moved(dates.scheduled);
	if (dates.start !== undefined) result.start = moved(dates.start);
	return result;
}
