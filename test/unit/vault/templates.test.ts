import { dailyNotePath } from "../../../src/vault/dailyNotes";
import { fillTemplate, noteFromTemplate } from "../../../src/vault/templates";
import { dayjs } from "../../../src/vault/moment";
import { MAX_EDITED_NOTE_CHARS, MAX_EDITED_NOTE_LINES, TEMPLATE_MAX_DATE_FORMAT_CHARS, TEMPLATE_MAX_TITLE_CHARS } from "../../../src/config/limits";

// 2026-12-01 09:05:07 local time: templates fill in local time, as Obsidian does.
const WHEN = new Date(2026, 11, 1, 9, 5, 7);
const DEFAULTS = { dateFormat: "YYYY-MM-DD", timeFormat: "HH:mm" };

describe("fillTemplate", () => {
	test.each<[string, string, { dateFormat: string; timeFormat: string }, string]>([
		["{{title}}", "# {{title}}", DEFAULTS, "# Planting meeting"],
		["{{date}} in the default format", "Day: {{date}}", DEFAULTS, "Day: 2026-12-01"],
		["{{time}} in the default format", "At {{time}}", DEFAULTS, "At 09:05"],
		["{{date}} in the plugin's date format", "{{date}}", { dateFormat: "DD/MM/YYYY", timeFormat: "HH:mm" }, "01/12/2026"],
		["{{time}} in the plugin's time format", "{{time}}", { dateFormat: "YYYY-MM-DD", timeFormat: "h:mm A" }, "9:05 AM"],
		["{{date:FORMAT}}", "{{date:dddd D MMMM YYYY}}", DEFAULTS, "Tuesday 1 December 2026"],
		["{{time:FORMAT}}", "{{time:HH:mm:ss}}", DEFAULTS, "09:05:07"],
		["moment-style ordinals and week numbers", "{{date:Do [of] MMMM, [week] w}}", DEFAULTS, "1st of December, week 49"],
		["spaces and case inside the braces", "{{ Title }} {{ DATE }} {{ date : YYYY }}", DEFAULTS, "Planting meeting 2026-12-01 2026"],
		[
			"every variable, several times",
			"{{title}}/{{title}} {{date}} {{time}} {{date:YY}}",
			DEFAULTS,
			"Planting meeting/Planting meeting 2026-12-01 09:05 26",
		],
		["a $ in the title is written as it is", "{{title}}", DEFAULTS, "Price $& $1"],
		["unknown variables are left alone", "{{author}} {{date", DEFAULTS, "{{author}} {{date"],
	])("%s", (_name, template, formats, expected) => {
		const title = expected.startsWith("Price") ? "Price $& $1" : "Planting meeting";
		expect(fillTemplate(template, formats, WHEN, title)).toEqual({ ok: true, value: expected });
	});
});

describe("a title holding U+FFFE or U+FFFF (red171: a strict YAML reader refuses the whole frontmatter holding one plain)", () => {
	const template = "---\ntags: [idea]\ntitle: {{title}}\n---\n# {{title}}\n";
	test.each([
		["after", "Idea\uFFFE"],
		["before", "\uFFFFIdea"],
	])(
		"put in the frontmatter by {{title}} (the noncharacter %s the name), it is refused, saying why and what to do (it was copied plain); in the body only, filled as before",
		(_where, title) => {
			expect(fillTemplate(template, DEFAULTS, WHEN, title)).toEqual({
				ok: false,
				error: expect.stringMatching(/^Filled in, the template's frontmatter would not read back as written: .*Choose a name without it/u) as unknown,
			});
			expect(fillTemplate(template.replace("title: {{title}}", 'title: "{{ Title }}"'), DEFAULTS, WHEN, title).ok).toBe(false);
			expect(fillTemplate("---\ntags: [idea]\n---\n# {{title}}\n", DEFAULTS, WHEN, title)).toEqual({
				ok: true,
				value: `---\ntags: [idea]\n---\n# ${title}\n`,
			});
			expect(fillTemplate(template, DEFAULTS, WHEN, "Idea\uFFFD")).toEqual({
				ok: true,
				value: "---\ntags: [idea]\ntitle: Idea\uFFFD\n---\n# Idea\uFFFD\n",
			});
		},
	);
});

describe("a fill into the frontmatter that would not read back as written is refused, whatever the character (review178)", () => {
	const template = "---\ntags: [idea]\ntitle: {{title}}\nyear: {{date:YYYY}}\n---\n# {{title}}\n";
	test.each([
		["a comment", "Notes #1"],
		["a second key", "Plan: B"],
		["a CR", "a\rb"],
		["a line break and a key", "a\nb: c"],
		["U+2028", "a\u2028b"],
		["a lone surrogate", "x\uD800y"],
	])("a title holding %s is refused (it was written, read otherwise or refused by a strict reader)", (_what, title) => {
		expect(fillTemplate(template, DEFAULTS, WHEN, title)).toEqual({
			ok: false,
			error: expect.stringMatching(/^Filled in, the template's frontmatter would not read back/u) as unknown,
		});
		// In the body only, or quoted where quotes read it back, filled as before.
		expect(fillTemplate("---\ntags: [idea]\n---\n# {{title}}\n", DEFAULTS, WHEN, title).ok).toBe(true);
	});
	test.each([
		["a noncharacter in a date format", "---\nday: {{date:[\uFFFE]YYYY}}\n---\n"],
		["a ': ' in a date format", "---\nday: {{date:[at: ]YYYY}}\n---\n"],
	])("%s is refused too (it was written)", (_what, dated) => {
		expect(fillTemplate(dated, DEFAULTS, WHEN, "Idea").ok).toBe(false);
	});
	test("what reads back as written is filled: plain titles, a year YAML types as a number, a quoted title with ': ' and ' #'", () => {
		expect(fillTemplate(template, DEFAULTS, WHEN, "Planting")).toEqual({
			ok: true,
			value: "---\ntags: [idea]\ntitle: Planting\nyear: 2026\n---\n# Planting\n",
		});
		expect(fillTemplate('---\ntitle: "{{title}}"\n---\n', DEFAULTS, WHEN, "Plan: B #1")).toEqual({ ok: true, value: '---\ntitle: "Plan: B #1"\n---\n' });
	});
});

describe("hostile templates are filled in linear time, or refused", () => {
	test(`date and time variables weighing more than ${TEMPLATE_MAX_DATE_FORMAT_CHARS} format characters are refused before any is formatted`, () => {
		const formatted = jest.spyOn(dayjs.prototype, "format");
		try {
			// 100,000 {{date}} held the server 0.8 s in one piece.
			const many = fillTemplate("{{date}} ".repeat(100_000), DEFAULTS, WHEN, "");
			expect(many).toEqual({ ok: false, error: expect.stringContaining(`over ${TEMPLATE_MAX_DATE_FORMAT_CHARS} characters of formats`) as unknown });
			const long = fillTemplate(`{{date:${"[".repeat(TEMPLATE_MAX_DATE_FORMAT_CHARS)}}}`, DEFAULTS, WHEN, "");
			expect(long.ok).toBe(false);
			expect(formatted).not.toHaveBeenCalled();
			// Within the bound, every variable is filled.
			const within = fillTemplate("{{date}}".repeat(TEMPLATE_MAX_DATE_FORMAT_CHARS / 12), DEFAULTS, WHEN, "");
			expect(within).toEqual({ ok: true, value: "2026-12-01".repeat(TEMPLATE_MAX_DATE_FORMAT_CHARS / 12) });
		} finally {
			formatted.mockRestore();
		}
	});

	test(`titles weighing more than ${TEMPLATE_MAX_TITLE_CHARS} characters are refused before any is copied; an empty title counts too`, () => {
		const title = "t".repeat(198);
		// Each {{title}} counts the title and two more: 500 copies of 198 characters weigh exactly the bound.
		const copies = TEMPLATE_MAX_TITLE_CHARS / (title.length + 2);
		expect(fillTemplate("{{title}}".repeat(copies), DEFAULTS, WHEN, title)).toEqual({ ok: true, value: title.repeat(copies) });
		const refusal = { ok: false, error: expect.stringContaining(`over ${TEMPLATE_MAX_TITLE_CHARS} characters of titles`) as unknown };
		expect(fillTemplate(`${"{{title}}".repeat(copies)}{{ TITLE }}`, DEFAULTS, WHEN, title)).toEqual(refusal);
		// 500,000 copies of a 200-character title made 96 MiB of text; with no title they are still as many callbacks.
		expect(fillTemplate("{{title}}".repeat(100_000), DEFAULTS, WHEN, `${title}tt`)).toEqual(refusal);
		expect(fillTemplate("{{title}}".repeat(TEMPLATE_MAX_TITLE_CHARS), DEFAULTS, WHEN, "")).toEqual(refusal);
	});

	test("the dates' bound and the titles' are each their own: a template near both is filled", () => {
		const title = "t".repeat(198);
		const dates = Math.floor(TEMPLATE_MAX_DATE_FORMAT_CHARS / 12);
		const titles = TEMPLATE_MAX_TITLE_CHARS / (title.length + 2);
		expect(fillTemplate(`${"{{date}}".repeat(dates)}${"{{title}}".repeat(titles)}`, DEFAULTS, WHEN, title)).toEqual({
			ok: true,
			value: `${"2026-12-01".repeat(dates)}${title.repeat(titles)}`,
		});
	});

	test("a template longer than a note the write tools change is refused, by characters or by lines", () => {
		expect(fillTemplate("x".repeat(MAX_EDITED_NOTE_CHARS + 1), DEFAULTS, WHEN, "")).toEqual({
			ok: false,
			error: expect.stringContaining(`The template is over ${MAX_EDITED_NOTE_CHARS} characters`) as unknown,
		});
		expect(fillTemplate("- b\n".repeat(MAX_EDITED_NOTE_LINES + 1), DEFAULTS, WHEN, "")).toEqual({
			ok: false,
			error: expect.stringContaining(`The template is over ${MAX_EDITED_NOTE_LINES} lines`) as unknown,
		});
		expect(fillTemplate("- b\n".repeat(MAX_EDITED_NOTE_LINES - 1), DEFAULTS, WHEN, "")).toEqual({
			ok: true,
			value: "- b\n".repeat(MAX_EDITED_NOTE_LINES - 1),
		});
	});
});

describe("noteFromTemplate", () => {
	test.each<[string, string, string, "outliner" | "freeform" | undefined, string]>([
		["content goes after the template as a paragraph", "# Meeting\n\n## Notes\n", "Agreed.", undefined, "# Meeting\n\n## Notes\n\nAgreed.\n"],
		["no content: the template as it is", "# Meeting\n", "", undefined, "# Meeting\n"],
		[
			"an outline template gets bullets in its own marker and indentation",
			"- Agenda\n\t- Budget\n",
			"Decisions\n\tNone yet",
			undefined,
			"- Agenda\n\t- Budget\n- Decisions\n\t- None yet\n",
		],
		[
			"frontmatter mode: outliner makes it an outline",
			"---\nmode: outliner\n---\n* Start\n",
			"Next",
			undefined,
			"---\nmode: outliner\n---\n* Start\n* Next\n",
		],
		[
			"mode overrides what the template looks like, and outliner sets mode: outliner",
			"# Log\n",
			"Item",
			"outliner",
			"---\nmode: outliner\n---\n# Log\n- Item\n",
		],
		[
			"outliner with no content still sets mode: outliner",
			"---\nstatus: draft\n---\n# Log\n",
			"",
			"outliner",
			"---\nstatus: draft\nmode: outliner\n---\n# Log\n",
		],
		["CRLF templates stay CRLF", "# Meeting\r\n", "Agreed.", undefined, "# Meeting\r\n\r\nAgreed.\r\n"],
	])("%s", (_name, filled, content, mode, expected) => {
		expect(noteFromTemplate(filled, content, {}, mode)).toEqual({ ok: true, value: expected });
	});
});

describe("week formats, in templates and daily note names", () => {
	test("a week token formats as moment does instead of throwing", () => {
		expect(dailyNotePath({ folder: "Weekly", format: "gggg-[W]ww", template: "" }, WHEN)).toBe("Weekly/2026-W49.md");
		expect(fillTemplate("{{date:GGGG-[W]WW}}", DEFAULTS, WHEN, "")).toEqual({ ok: true, value: "2026-W49" });
	});
});
