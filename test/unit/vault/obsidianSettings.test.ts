import { dailyNoteSettings, newLinkFormat, obsidianUpdatesLinks, taskDateFormat, templateSettings } from "../../../src/vault/obsidianSettings";
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
		["files that are not JSON", { ".obsidian/daily-notes.json": "{", ".obsidian/templates.json": "[1]", ".obsidian/app.json": "null" }],
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
