import { dailyNoteSettings } from "../../../src/vault/obsidianSettings";
import { dailyNotePath, isDailyNotePath, readDailyTemplate } from "../../../src/vault/dailyNotes";
import { ensureParentFolder } from "../../../src/vault/writes";
import { openVault, type OpenVault } from "../../helpers/hostVault";

// 2026-12-01, local time: daily notes are named by the local day, as Obsidian names them.
const DAY = new Date(2026, 11, 1, 23, 30);

describe("dailyNotePath", () => {
	test.each<[string, { folder: string; format: string }, string]>([
		["Obsidian's default: the vault root, YYYY-MM-DD", { folder: "", format: "YYYY-MM-DD" }, "2026-12-01.md"],
		["in a folder", { folder: "Journal", format: "YYYY-MM-DD" }, "Journal/2026-12-01.md"],
		["a format with folders of its own", { folder: "Journal", format: "YYYY/MM/YYYY-MM-DD ddd" }, "Journal/2026/12/2026-12-01 Tue.md"],
		["a spelled-out format", { folder: "", format: "dddd, MMMM Do YYYY" }, "Tuesday, December 1st 2026.md"],
	])("%s", (_name, settings, expected) => {
		expect(dailyNotePath({ ...settings, template: "" }, DAY)).toBe(expected);
	});
});

describe("isDailyNotePath", () => {
	const journal = { folder: "Journal", format: "YYYY-MM-DD", template: "" };
	test.each<[string, string, boolean]>([
		["today's note", "Journal/2026-12-01.md", true],
		["another day's note", "Journal/2020-02-29.md", true],
		["a date that does not exist", "Journal/2021-02-29.md", false],
		["a dated name outside the folder", "2026-12-01.md", false],
		["a name that is not in the format", "Journal/Shopping.md", false],
		["a date with more after it", "Journal/2026-12-01 notes.md", false],
		["not a note", "Journal/2026-12-01.pdf", false],
	])("%s", (_name, path, expected) => {
		expect(isDailyNotePath(journal, path)).toBe(expected);
	});
});

describe("daily notes in a vault", () => {
	let vault: OpenVault;
	beforeEach(async () => {
		vault = await openVault({
			".obsidian/daily-notes.json": JSON.stringify({ folder: "/Journal/", format: "YYYY-MM-DD", template: "Templates/Day" }),
			"Templates/Day.md": "# {{date}}\n\n## Tasks\n",
			"Private/Day.md": "private template",
		});
	});
	afterEach(() => vault.close());

	test("ensureParentFolder makes the folders a new note needs, and is content when they exist", async () => {
		await ensureParentFolder(vault.host, "Journal/2026/12/2026-12-01.md");
		expect(vault.host.vault.getFolderByPath("Journal/2026/12")).not.toBeNull();
		await expect(ensureParentFolder(vault.host, "Journal/2026/12/2026-12-02.md")).resolves.toBeUndefined();
		await expect(ensureParentFolder(vault.host, "AtTheRoot.md")).resolves.toBeUndefined();
	});

	test("the template named in the settings is read", async () => {
		const settings = await dailyNoteSettings(vault.host);
		expect(await readDailyTemplate(vault.host, vault.scope(), settings)).toBe("# {{date}}\n\n## Tasks\n");
	});

	test.each([
		["no template set", ""],
		["a template that does not exist", "Templates/Missing"],
		["a template in an excluded folder", "Private/Day"],
		["a template outside the vault", "../Day"],
	])("%s gives an empty template", async (_kind, template) => {
		expect(await readDailyTemplate(vault.host, vault.scope("Private"), { folder: "Journal", format: "YYYY-MM-DD", template })).toBe("");
	});
});
