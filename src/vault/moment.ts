/**
 * dayjs with the plugins that make it format like moment, which Obsidian's date settings and
 * templates use: `Do`, `Q`, `X` (advancedFormat), `w`/`ww`/`wo` and `gggg` (week of year, week
 * year), `W`/`WW` and `GGGG` (ISO week), `L`…`LLLL`, `LT`, `LTS` (localizedFormat), the moment
 * tokens dayjs has no plugin for (below), and strict parsing (customParseFormat). Without the week
 * plugins, advancedFormat throws on a week token.
 *
 * One known difference stays: dayjs builds dates with `new Date(year, …)`, which reads years 0–99
 * as 1900–1999, so a strict parse of a name dated 0000–0099 fails where moment's succeeds. No one
 * keeps daily notes from the first century; the tests pin the difference.
 */
import dayjs, { type PluginFunc } from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat";
import customParseFormat from "dayjs/plugin/customParseFormat";
import isoWeek from "dayjs/plugin/isoWeek";
import localizedFormat from "dayjs/plugin/localizedFormat";
import weekOfYear from "dayjs/plugin/weekOfYear";
import weekYear from "dayjs/plugin/weekYear";

const DAY_MS = 86_400_000;

function dayOfYear(date: dayjs.Dayjs): number {
	// Rounded: a day that crosses a daylight saving change is 23 or 25 hours long.
	return Math.round((date.startOf("day").valueOf() - date.startOf("year").valueOf()) / DAY_MS) + 1;
}

/** `1st`, `2nd`… in the date's locale, as a bracketed literal (the form the locale gives it). */
function ordinal(date: dayjs.Dayjs, value: number): string {
	return String(dayjs.Ls[date.locale()]?.ordinal?.(value) ?? `[${value}]`);
}

const twoDigits = (value: number) => `[${String(value % 100).padStart(2, "0")}]`;

/**
 * moment's tokens that dayjs, left to itself, prints wrong (`DDDD` as two `DD`, `Mo` as `1o`, `E`
 * as `E`), each as its value for the date, bracketed so dayjs keeps it as written.
 */
const MOMENT_ONLY: Readonly<Record<string, (date: dayjs.Dayjs) => string>> = {
	DDDD: (date) => `[${String(dayOfYear(date)).padStart(3, "0")}]`,
	DDDo: (date) => ordinal(date, dayOfYear(date)),
	DDD: (date) => `[${dayOfYear(date)}]`,
	Mo: (date) => ordinal(date, date.month() + 1),
	Qo: (date) => ordinal(date, Math.ceil((date.month() + 1) / 3)),
	Wo: (date) => ordinal(date, date.isoWeek()),
	do: (date) => ordinal(date, date.day()),
	gg: (date) => twoDigits(date.weekYear()),
	GG: (date) => twoDigits(date.isoWeekYear()),
	// The locale's weekday number; dayjs's English week, like moment's, starts on Sunday.
	e: (date) => `[${date.day()}]`,
	E: (date) => `[${date.isoWeekday()}]`,
};

/**
 * A format's tokens as moment reads them, longest first, so `MMMo` is `MMM` then `o` and `gggg`
 * stays whole; only the tokens in MOMENT_ONLY are replaced, the rest go to dayjs as they were.
 */
const MOMENT_TOKENS = /\[[^[]*\]|DDDo|DDDD?|D{1,2}|Mo|M{1,4}|Qo|Q|Wo|W{1,2}|wo|w{1,2}|do|d{1,4}|g{4}|gg|G{4}|GG|e|E/g;

/**
 * `template` with each `[` after its last `]` written as the bracketed literal `[[]`, which prints
 * the same `[`. dayjs and its plugins read `[…]` as `\[([^\]]+)]`: from a `[` with no `]` after
 * it, that scans to the end of the format and fails, so a format of 100,000 `[` took 5 s in one
 * piece (a template's `{{date:…}}`, a base's `format()`). Before the last `]`, every `[` tried
 * either matches (and its text is passed over) or fails on the next character.
 */
export function withClosedBrackets(template: string): string {
	const lastClose = template.lastIndexOf("]");
	const open = template.indexOf("[", lastClose + 1);
	return open === -1 ? template : template.slice(0, open) + template.slice(open).replaceAll("[", "[[]");
}

const momentOnlyTokens: PluginFunc = (_option, dayjsClass) => {
	// eslint-disable-next-line @typescript-eslint/unbound-method -- always called with the instance, by .call
	const format = dayjsClass.prototype.format;
	dayjsClass.prototype.format = function (this: dayjs.Dayjs, template?: string) {
		if (template === undefined || !this.isValid()) return format.call(this, template);
		return format.call(this, withClosedBrackets(template.replace(MOMENT_TOKENS, (token) => MOMENT_ONLY[token]?.(this) ?? token)));
	};
};

dayjs.extend(advancedFormat);
dayjs.extend(customParseFormat);
dayjs.extend(weekOfYear);
dayjs.extend(weekYear);
dayjs.extend(isoWeek);
dayjs.extend(localizedFormat);
dayjs.extend(momentOnlyTokens);

export { dayjs };
