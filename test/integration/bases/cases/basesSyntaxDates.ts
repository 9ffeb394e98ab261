import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { BaseCase } from "../docsVault";

const TWO_WEEKS_AGO = new Date(Date.now() - 14 * 86_400_000);

/** "Date arithmetic" and "Dates and durations" in "Bases syntax": durations added to dates, dates subtracted, recent files. */
export const basesSyntaxDates: BaseCase = {
	page: "Bases/Bases syntax.md",
	example: 'date arithmetic (date + "1M" + "4h" + "3m", now() + "1d" - now(), file.mtime > now() - "1 week")',
	files: { "Archive/Old.md": "Old.\n" },
	// Obsidian reads a file's times from the disk: the archived note was last changed two weeks ago.
	setup: (root) => fs.utimes(nodePath.join(root, "Archive/Old.md"), TWO_WEEKS_AGO, TWO_WEEKS_AGO),
	base: `formulas:
  shifted: 'date("2024-12-01") + "1M" + "4h" + "3m"'
  one_day: '(now() + "1d") - now()'
  date_only: 'date("2025-01-01 12:00:00").date()'
  formatted: 'date("2025-05-27").format("YYYY-MM-DD")'
  hour: 'date("2025-01-01 12:34:56").hour'
  time: 'date("2025-01-01 12:34:56").time()'
  twice: 'date("2025-01-01") + (duration("1d") * 2)'
  month_end: 'date("2025-01-31") + "1 month"'
views:
  - type: table
    name: Arithmetic
    filters: 'file.name == "Textbook.md"'
    order: [formula.shifted, formula.one_day, formula.date_only, formula.formatted, formula.hour, formula.time, formula.twice, formula.month_end]
  - type: table
    name: Modified this week
    filters:
      and:
        - 'file.mtime > now() - "1 week"'
        - 'file.ext == "md"'
    order: [file.name]
`,
	calls: [
		{
			args: { view: "Arithmetic" },
			expect: {
				rows: [
					{
						path: "Textbook.md",
						values: {
							"formula.shifted": "2025-01-01 04:03:00",
							"formula.one_day": 86400000,
							"formula.date_only": "2025-01-01",
							"formula.formatted": "2025-05-27",
							"formula.hour": 12,
							"formula.time": "12:34:56",
							"formula.twice": "2025-01-03",
							"formula.month_end": "2025-02-28",
						},
					},
				],
			},
		},
		// Every note was just written except the archived one.
		{ args: { view: "Modified this week" }, expect: { total: 10 } },
	],
};
