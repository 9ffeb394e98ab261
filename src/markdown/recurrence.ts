/**
 * Recurring tasks as the Tasks plugin reads and moves them on: a rule in words (`every week`,
 * `every month on the 1st`, `every weekday`, `… when done`) read by the `rrule` package, as
 * Tasks does, and the next occurrence's due, scheduled and start dates kept at the same distance
 * from the reference date (due, else scheduled, else start). Dates are YYYY-MM-DD strings and all
 * arithmetic is on UTC midnights, so no time zone or daylight saving change can shift a day. Pure.
 */
import { RRule, type Options } from "rrule";
import { MAX_RECURRENCE_STEP_BACK_DAYS } from "../config/limits";

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

/** Reads a rule the way Tasks does (its character set, an optional ` when done`); null when rrule cannot read it. */
export function parseRecurrence(ruleText: string): RecurrenceRule | null {
	const match = /^([a-zA-Z0-9, !]+?)( when done)?$/i.exec(ruleText.trim());
	if (!match?.[1]) return null;
	try {
		const options = RRule.parseText(match[1].trim());
		if (!options || options.freq === undefined) return null;
		const whenDone = match[2] !== undefined;
		const text = new RRule(options).toText() + (whenDone ? " when done" : "");
		return { options, whenDone, text };
	} catch {
		return null;
	}
}

/**
 * The first occurrence after `after` (exclusive). A monthly rule without a fixed day (`every
 * month` from the 31st) or a yearly one (from 29 February) would skip a short month or year: as
 * in Tasks, `after` then steps back a day at a time until the occurrence lands in the month or
 * year the interval names.
 */
function nextAfter(rule: RecurrenceRule, dtstart: Date, after: Date): Date | null {
	const build = (start: Date) => new RRule({ ...rule.options, dtstart: start });
	let next = build(dtstart).after(after);
	if (!next) return null;
	const interval = rule.options.interval ?? 1;
	const monthly = /every( \d+)? months?/.test(rule.text) && !rule.text.includes(" on ");
	const yearly = /every( \d+)? years?/.test(rule.text);
	const monthsBetween = (from: Date, to: Date) => (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
	const tooFar = (from: Date, to: Date) => (monthly ? monthsBetween(from, to) > interval : yearly ? to.getUTCFullYear() - from.getUTCFullYear() > interval : false);
	let from = after;
	for (let step = 0; next && tooFar(from, next); step++) {
		if (step >= MAX_RECURRENCE_STEP_BACK_DAYS) return null;
		// Tasks compares against the start of the day before, and asks for the first occurrence after it.
		from = new Date(Math.floor(from.getTime() / DAY_MS) * DAY_MS - DAY_MS);
		next = build(from).after(from);
	}
	return next;
}

/**
 * The dates of the occurrence after the one with `dates`, completed on `today` (YYYY-MM-DD):
 * counted from the reference date, or from `today` for a `when done` rule or a task without
 * dates. Each date keeps its distance in days from the reference date; a task without dates gets
 * none. `removeScheduled` is the Tasks setting that drops the scheduled date of the new occurrence
 * (when it has a due or start date) and so prefers the start date as reference. Null when the rule
 * has no further occurrence.
 */
export function nextOccurrence(rule: RecurrenceRule, dates: OccurrenceDates, today: string, removeScheduled = false): OccurrenceDates | null {
	const reference = removeScheduled ? (dates.due ?? dates.start ?? dates.scheduled) : (dates.due ?? dates.scheduled ?? dates.start);
	const base = utcDay(rule.whenDone || reference === undefined ? today : reference);
	const next = nextAfter(rule, base, endOfDay(base));
	if (!next) return null;
	if (reference === undefined) return {};
	const referenceDay = utcDay(reference);
	const moved = (date: string | undefined) => (date === undefined ? undefined : isoDay(new Date(next.getTime() + Math.round((utcDay(date).getTime() - referenceDay.getTime()) / DAY_MS) * DAY_MS)));
	const dropScheduled = removeScheduled && (dates.due !== undefined || dates.start !== undefined);
	const result: OccurrenceDates = {};
	if (dates.due !== undefined) result.due = moved(dates.due);
	if (dates.scheduled !== undefined && !dropScheduled) result.scheduled = moved(dates.scheduled);
	if (dates.start !== undefined) result.start = moved(dates.start);
	return result;
}
