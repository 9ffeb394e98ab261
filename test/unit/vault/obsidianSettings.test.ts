import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { DAILY_NOTE_MAX_FORMAT_CHARS, OBSIDIAN_SETTINGS_MAX_BYTES, OBSIDIAN_SETTINGS_MAX_CHARS } from "../../../src/config/limits";
import {
	dailyNoteSettings,
	logUnusedSettings,
	newLinkFormat,
	obsidianUpdatesLinks,
	taskDateFormat,
	templateSettings,
} from "../../../src/vault/obsidianSettings";
import { openVault, type OpenVault } from "../../helpers/hostVault";

describe("Obsidian's settings, read from the vault's config folder", () => {
	let vault: OpenVault | null = null;
	const open = async (files: Record<string, string>) => (vault = await openVault(files));
	afterEach(async () => {
		await vault?.close();
		vault = null;
	});

	test("the Daily Notes and Templates settings are read with each text trimmed and the folder's slashes trimmed", async () => {
		const { host } = await open({
			".obsidian/daily-notes.json": JSON.stringify({ folder: "/Journal/", format: " YYYY-MM-DD ", template: "Templates/Day" }),
			".obsidian/templates.json": JSON.stringify({ folder: "Templates/", dateFormat: "DD.MM.YYYY", timeFormat: " H:mm " }),
		});
		expect(await dailyNoteSettings(host)).toEqual({ folder: "Journal", format: "YYYY-MM-DD", template: "Templates/Day" });
		expect(await templateSettings(host)).toEqual({ folder: "Templates", dateFormat: "DD.MM.YYYY", timeFormat: "H:mm" });
	});

	test.each([
		["no settings files", {}],
		[
			"empty, blank or mistyped fields",
			{
				".obsidian/daily-notes.json": JSON.stringify({ folder: 3, format: "  ", template: null }),
				".obsidian/templates.json": JSON.stringify({ folder: "", dateFormat: "", timeFormat: false }),
				".obsidian/app.json": JSON.stringify({ newLinkFormat: "nearest", alwaysUpdateLinks: "yes" }),
			},
		],
	])("%s give Obsidian's defaults", async (_kind, files) => {
		const { host } = await open(files);
		expect(await dailyNoteSettings(host)).toEqual({ folder: "", format: "YYYY-MM-DD", template: "" });
		expect(await templateSettings(host)).toEqual({ folder: "", dateFormat: "YYYY-MM-DD", timeFormat: "HH:mm" });
		expect(await newLinkFormat(host)).toBe("shortest");
		expect(await obsidianUpdatesLinks(host)).toBe(false);
		expect(await taskDateFormat(host)).toBe("emoji");
	});

	test("files that are not JSON or not an object give Obsidian's defaults, and say why", async () => {
		const { host } = await open({ ".obsidian/daily-notes.json": '{"folder": "Journal"', ".obsidian/templates.json": "[1]", ".obsidian/app.json": "null" });
		expect(await dailyNoteSettings(host)).toEqual({
			folder: "",
			format: "YYYY-MM-DD",
			template: "",
			unused: "Obsidian's daily-notes.json settings file is not valid JSON, so it is not used: its defaults apply.",
		});
		expect(await templateSettings(host)).toEqual({
			folder: "",
			dateFormat: "YYYY-MM-DD",
			timeFormat: "HH:mm",
			unused: "Obsidian's templates.json settings file is not a JSON object, so it is not used: its defaults apply.",
		});
		expect(await newLinkFormat(host)).toBe("shortest");
		expect(await obsidianUpdatesLinks(host)).toBe(false);
	});

	test("a settings file over its bound is not used, says which bound, and is logged once per file per change, by name only (it was taken as missing, said nowhere)", async () => {
		const folder = `Private ${"x".repeat(20)}`;
		const padded = (chars: number) => {
			const text = JSON.stringify({ folder, pad: "" });
			return `${text.slice(0, -2)}${" ".repeat(chars - text.length)}"}`;
		};
		const { host, root } = await open({
			".obsidian/templates.json": padded(OBSIDIAN_SETTINGS_MAX_CHARS + 1),
			".obsidian/daily-notes.json": JSON.stringify({ folder }),
		});
		const warnings: string[] = [];
		logUnusedSettings(host, { info: () => undefined, warn: (message) => warnings.push(message), error: () => undefined });
		const overChars = await templateSettings(host);
		expect(overChars.folder).toBe("");
		expect(overChars.unused).toBe(
			`Obsidian's templates.json settings file is over ${OBSIDIAN_SETTINGS_MAX_CHARS} characters, so it is not used: its defaults apply.`,
		);
		await templateSettings(host);
		expect(warnings).toEqual([`obsidian settings: templates.json is over ${OBSIDIAN_SETTINGS_MAX_CHARS} characters; its settings are not used`]);
		// Changed: told again; a file over the bytes the adapter reads, by that bound.
		await fs.writeFile(nodePath.join(root, ".obsidian/templates.json"), padded(OBSIDIAN_SETTINGS_MAX_BYTES + 1));
		expect((await templateSettings(host)).unused).toContain(`over ${OBSIDIAN_SETTINGS_MAX_BYTES} bytes`);
		await fs.writeFile(nodePath.join(root, ".obsidian/daily-notes.json"), "{");
		expect((await dailyNoteSettings(host)).unused).toContain("not valid JSON");
		await dailyNoteSettings(host);
		// Mended, then broken the same way: told again.
		await fs.writeFile(nodePath.join(root, ".obsidian/templates.json"), JSON.stringify({ folder }));
		expect(await templateSettings(host)).toEqual({ folder, dateFormat: "YYYY-MM-DD", timeFormat: "HH:mm" });
		await fs.writeFile(nodePath.join(root, ".obsidian/templates.json"), padded(OBSIDIAN_SETTINGS_MAX_CHARS + 1));
		await templateSettings(host);
		expect(warnings).toEqual([
			`obsidian settings: templates.json is over ${OBSIDIAN_SETTINGS_MAX_CHARS} characters; its settings are not used`,
			`obsidian settings: templates.json is over ${OBSIDIAN_SETTINGS_MAX_BYTES} bytes; its settings are not used`,
			"obsidian settings: daily-notes.json is not valid JSON; its settings are not used",
			`obsidian settings: templates.json is over ${OBSIDIAN_SETTINGS_MAX_CHARS} characters; its settings are not used`,
		]);
		expect(warnings.join("\n")).not.toContain("Private");
	});

	test("a Daily Notes date format over its bound leaves the file unused, says why and is logged once; one at the bound is used", async () => {
		const atBound = `[${"Y".repeat(DAILY_NOTE_MAX_FORMAT_CHARS - 2)}]`;
		const { host, root } = await open({ ".obsidian/daily-notes.json": JSON.stringify({ folder: "Journal", format: ` ${atBound}Y `, template: "Day" }) });
		const warnings: string[] = [];
		logUnusedSettings(host, { info: () => undefined, warn: (message) => warnings.push(message), error: () => undefined });
		const why = `over ${DAILY_NOTE_MAX_FORMAT_CHARS} characters in its date format`;
		expect(await dailyNoteSettings(host)).toEqual({
			folder: "",
			format: "YYYY-MM-DD",
			template: "",
			unused: `Obsidian's daily-notes.json settings file is ${why}, so it is not used: its defaults apply.`,
		});
		await dailyNoteSettings(host);
		expect(warnings).toEqual([`obsidian settings: daily-notes.json is ${why}; its settings are not used`]);
		await fs.writeFile(nodePath.join(root, ".obsidian/daily-notes.json"), JSON.stringify({ folder: "Journal", format: atBound, template: "Day" }));
		expect(await dailyNoteSettings(host)).toEqual({ folder: "Journal", format: atBound, template: "Day" });
	});

	test("the link format, automatic link updates and the Tasks plugin's date format are read as set", async () => {
		const { host } = await open({
			".obsidian/app.json": JSON.stringify({ newLinkFormat: "relative", alwaysUpdateLinks: true }),
			".obsidian/plugins/obsidian-tasks-plugin/data.json": JSON.stringify({ taskFormat: "dataview" }),
		});
		expect(await newLinkFormat(host)).toBe("relative");
		expect(await obsidianUpdatesLinks(host)).toBe(true);
		expect(await taskDateFormat(host)).toBe("dataview");
	});
});
