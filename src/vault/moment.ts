/**
 * dayjs with the plugins that make it format like moment, which Obsidian's date settings and
 * templates use: `Do`, `Q`, `X` (advancedFormat), `w`/`ww`/`wo` and `gggg` (week of year, week
 * year), `W`/`WW` and `GGGG` (ISO week), and strict parsing (customParseFormat). Without the week
 * plugins, advancedFormat throws on a week token.
 */
import dayjs from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat";
import customParseFormat from "dayjs/plugin/customParseFormat";
import isoWeek from "dayjs/plugin/isoWeek";
import weekOfYear from "dayjs/plugin/weekOfYear";
import weekYear from "dayjs/plugin/weekYear";

dayjs.extend(advancedFormat);
dayjs.extend(customParseFormat);
dayjs.extend(weekOfYear);
dayjs.extend(weekYear);
dayjs.extend(isoWeek);

export { dayjs };
