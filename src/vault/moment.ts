/**
 * dayjs with the plugins that make it format like moment, which Obsidian's date settings and
 * templates use: `Do`, `Q`, `X` (advancedFormat), `w`/`ww`/`wo` and `gggg` (week of year, week
 * year), `W`/`WW` and `GGGG` (ISO week), `L`…`LLLL`, `LT`, `LTS` (localizedFormat), `DDD`/`DDDD`
 * (day of year, below), and strict parsing (customParseFormat). Without the week plugins,
 * advancedFormat throws on a week token.
 */
import dayjs, { type PluginFunc } from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat";
import customParseFormat from "dayjs/plugin/customParseFormat";
import isoWeek from "dayjs/plugin/isoWeek";
import localizedFormat from "dayjs/plugin/localizedFormat";
import weekOfYear from "dayjs/plugin/weekOfYear";
import weekYear from "dayjs/plugin/weekYear";

const DAY_MS = 86_400_000;

/**
 * moment's day of the year, `DDD` (1–366) and `DDDD` (001–366). dayjs has no such token: left to
 * it, `DDDD` reads as two `DD` and names the day of the month twice. Bracketed text stays literal.
 */
const dayOfYearFormat: PluginFunc = (_option, dayjsClass) => {
	// eslint-disable-next-line @typescript-eslint/unbound-method -- always called with the instance, by .call
	const format = dayjsClass.prototype.format;
	dayjsClass.prototype.format = function (this: dayjs.Dayjs, template?: string) {
		if (template === undefined || !this.isValid()) return format.call(this, template);
		// Rounded: a day that crosses a daylight saving change is 23 or 25 hours long.
		const day = Math.round((this.startOf("day").valueOf() - this.startOf("year").valueOf()) / DAY_MS) + 1;
		const filled = template.replace(/\[[^\]]*\]|DDDD|DDD/g, (token) => (token === "DDDD" ? `[${String(day).padStart(3, "0")}]` : token === "DDD" ? `[${day}]` : token));
		return format.call(this, filled);
	};
};

dayjs.extend(advancedFormat);
dayjs.extend(customParseFormat);
dayjs.extend(weekOfYear);
dayjs.extend(weekYear);
dayjs.extend(isoWeek);
dayjs.extend(localizedFormat);
dayjs.extend(dayOfYearFormat);

export { dayjs };
