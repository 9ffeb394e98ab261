import { generateToken } from "../../../src/auth/tokens";
import { defaultSettings, normalizeFolderList, parseSettings, UnreadableSettingsError } from "../../../src/config/settings";
import { effectiveRight, WRITE_TOOLS_BEFORE_RIGHTS } from "../../../src/auth/rights";
import { ALL_TOOLS } from "../../../src/mcp/tools";

describe("parseSettings", () => {
	test("nothing saved yet gives the defaults: server off, writing off, port 27150", () => {
		expect(parseSettings(null)).toEqual({ settings: defaultSettings(), warnings: [] });
		expect(defaultSettings()).toMatchObject({ serverEnabled: false, writeEnabled: false, port: 27150, rateLimitPerMinute: 240, tokens: [] });
	});

	test("a token's folders are kept in their one spelling; folders that are not a list of folders inside the vault drop the token, never widen it", () => {
		const { record } = generateToken("scoped", "read", {}, new Date(), ["Projects"]);
		expect(parseSettings({ tokens: [{ ...record, folders: ["./Projects/", "Areas"] }] }).settings.tokens[0]?.folders).toEqual(["Projects", "Areas"]);
		expect(parseSettings({ tokens: [{ ...record, folders: [] }] }).settings.tokens[0]?.folders).toBeUndefined();
		for (const folders of ["Projects", [1], ["../Elsewhere"], [".obsidian"], null]) {
			const parsed = parseSettings({ tokens: [{ ...record, folders }] });
			expect([folders, parsed.settings.tokens]).toEqual([folders, []]);
			expect(parsed.warnings.join("\n")).toMatch(/token record 0/u);
		}
	});

	test("an excluded folder typed with `..` parts excludes the folder it names; one that names none inside the vault is ignored with a warning that does not quote it", () => {
		const parsed = parseSettings({ excludedFolders: ["Notes/../Private", "Work/Old/..", "../Elsewhere-SECRET", ""] });
		expect(parsed.settings.excludedFolders).toEqual(["Private", "Work"]);
		expect(parsed.warnings).toEqual(["settings: 1 excluded folder entry names no folder inside the vault; ignored"]);
	});

	test("with the vault's path, an excluded or token folder given as an absolute path inside the vault names that folder (the tab, the token window and the CLI read it so)", () => {
		const { record } = generateToken("scoped", "read", {}, new Date(), ["Projects"]);
		const raw = { excludedFolders: ["/home/ann/Vault/Private", "/home/ann/Vault"], tokens: [{ ...record, folders: ["/home/ann/Vault/Projects"] }] };
		const parsed = parseSettings(raw, "/home/ann/Vault");
		expect(parsed.settings.excludedFolders).toEqual(["Private"]);
		expect(parsed.settings.tokens[0]?.folders).toEqual(["Projects"]);
		expect(parsed.warnings).toEqual(["settings: 1 excluded folder entry names no folder inside the vault; ignored"]);
	});

	/**
	 * A home folder (`~`), a `file:` address or a Win32 device path pasted for one of the vault's folders names a folder of
	 * that name inside the vault, never there: the settings tab said "No such folder yet", data.json nothing (285ac856), so
	 * `~/Vault/Private` excluded nothing, untold. Now data.json's reader says so, without the entries' text; a token limited
	 * to such an entry keeps that limit (it sees nothing there), never the folder meant nor more.
	 */
	test("entries spelt as a home folder, a file: address or a device path are told of, and never widen a token", () => {
		const { record } = generateToken("scoped", "read", {}, new Date(), ["Projects"]);
		const elsewhere = ["~/Vault/Private-SECRET", "file:///home/ann/Vault/Private", "\\\\?\\GLOBALROOT\\Device\\HarddiskVolume2\\Vault\\Private"];
		const raw = {
			excludedFolders: [...elsewhere, "./~/Inbox", "~Archive", "profile:x", "\\\\?\\C:\\Vault\\Archive", "Private"],
			tokens: [{ ...record, folders: ["~\\Vault\\Work"] }],
		};
		const parsed = parseSettings(raw, "C:\\Vault");
		expect(parsed.settings.excludedFolders).toEqual([
			"~/Vault/Private-SECRET",
			"file:/home/ann/Vault/Private",
			"GLOBALROOT/Device/HarddiskVolume2/Vault/Private",
			"~/Inbox",
			"~Archive",
			"profile:x",
			"Archive",
			"Private",
		]);
		expect(parsed.settings.tokens[0]?.folders).toEqual(["~/Vault/Work"]);
		expect(parsed.warnings).toEqual([
			'settings: token record 0\'s folders hold an entry starting with "~", "file:", a Windows drive or device path: read as a folder of that name inside the vault, never there (the token sees only that); give the folder\'s path inside the vault',
			'settings: 3 excluded folder entries start with "~", "file:", a Windows drive or device path: read as a folder of that name inside the vault, never there; give the folder\'s path inside the vault',
		]);
		expect(parsed.warnings.join("\n")).not.toContain("SECRET");
	});

	/**
	 * A Linux vault's folder `C:` (typed `./C:/x`, accepted, saved as `C:/x`): on 285ac856 and lead11 read back as drive C:
	 * at the next load, so the exclusion was dropped (the folder shown again) and a token limited to `C:/Work` dropped.
	 * A Windows path pasted as Windows spells it (backslashes) still names no folder of a vault without drives.
	 */
	test("a Linux vault's folder named like a drive keeps its exclusion and its token's limit across a save and a load", () => {
		const onLinux = { spellings: ["/home/ann/Vault"], caseSensitive: true };
		const saved = normalizeFolderList(["./C:/x"], onLinux);
		expect(saved).toEqual(["C:/x"]);
		const { record } = generateToken("scoped", "read", {}, new Date(), ["C:/Work"]);
		const parsed = parseSettings({ excludedFolders: [...saved, "C:\\Users\\ann\\Vault\\Private"], tokens: [{ ...record, folders: ["C:/Work"] }] }, onLinux);
		expect(parsed.settings.excludedFolders).toEqual(["C:/x"]);
		expect(parsed.settings.tokens.map((token) => token.folders)).toEqual([["C:/Work"]]);
		expect(parsed.warnings).toEqual([
			expect.stringContaining("token record 0's folders hold an entry starting with"),
			"settings: 1 excluded folder entry names no folder inside the vault; ignored",
			expect.stringContaining("1 excluded folder entry starts with"),
		]);
	});

	test("a vault on a network share: an excluded folder given in the long form of its path (\\\\?\\UNC\\…) names that folder", () => {
		const parsed = parseSettings({ excludedFolders: ["\\\\?\\UNC\\nas\\home\\Vault\\Private"] }, "\\\\nas\\home\\Vault");
		expect(parsed.settings.excludedFolders).toEqual(["Private"]);
		expect(parsed.warnings).toEqual([]);
	});

	test("a token whose folders list holds only blanks is dropped, never read as the whole vault", () => {
		const { record } = generateToken("scoped", "read", {}, new Date(), ["Projects"]);
		for (const folders of [[""], ["  ", ""]]) {
			const parsed = parseSettings({ tokens: [{ ...record, folders }] });
			expect([folders, parsed.settings.tokens]).toEqual([folders, []]);
			expect(parsed.warnings).toEqual(["settings: token record 0's folders are not valid and the token was dropped"]);
		}
	});

	test("valid values are kept", () => {
		const { record } = generateToken("a", "write", { create_note: "ask" });
		const raw = {
			serverEnabled: true,
			port: 3000,
			writeEnabled: true,
			excludedFolders: ["Private", "Work/Secret"],
			rateLimitPerMinute: 10,
			tokens: [record],
		};
		expect(parseSettings(raw)).toEqual({ settings: { ...defaultSettings(), ...raw }, warnings: [] });
	});

	test("a token saved before tokens had rights keeps the write tools it had allowed; write tools added since ask", () => {
		const { record } = generateToken("old", "write");
		const [token] = parseSettings({ tokens: [record] }).settings.tokens;
		const rights = ALL_TOOLS.map((tool) => [tool.name, effectiveRight(token!, tool, true)]);
		expect(Object.fromEntries(rights)).toEqual(
			Object.fromEntries(ALL_TOOLS.map((tool) => [tool.name, tool.access === "read" || WRITE_TOOLS_BEFORE_RIGHTS.includes(tool.name) ? "allow" : "ask"])),
		);
		expect(rights.filter(([, right]) => right === "ask").map(([name]) => name)).toEqual(
			expect.arrayContaining(["complete_task", "set_property", "rename_note"]),
		);
	});

	test("each broken field falls back alone, with a warning naming the field but not its value", () => {
		const { record } = generateToken("good", "read", {});
		const parsed = parseSettings({
			serverEnabled: true,
			port: "27150",
			writeEnabled: 1,
			excludedFolders: ["Private"],
			tokens: [record, { name: "bad", hash: "SECRET-ISH" }],
		});
		expect(parsed.settings).toEqual({ ...defaultSettings(), serverEnabled: true, excludedFolders: ["Private"], tokens: [record] });
		expect(parsed.warnings).toHaveLength(3);
		expect(parsed.warnings.join("\n")).not.toContain("SECRET-ISH");
	});

	test.each([["Ask"], ["ALLOW"], [""], [null], [1], [["allow"]]])(
		"a hand-edited right that is not allow, ask or deny (%p) denies that tool alone: the token and its other rights are kept",
		(bad) => {
			const { record } = generateToken("laptop", "write", { read_note: "allow", create_note: "ask", append_to_note: "allow" });
			const parsed = parseSettings({ tokens: [{ ...record, rights: { ...record.rights, append_to_note: bad } }] });
			expect(parsed.settings.tokens).toEqual([{ ...record, rights: { read_note: "allow", create_note: "ask", append_to_note: "deny" } }]);
			expect(parsed.warnings).toEqual([expect.stringContaining("append_to_note")]);
		},
	);

	test.each([["a string"], [42], [[1, 2]], [true]])("a data.json that is %p is refused, never read as defaults", (raw) => {
		expect(() => parseSettings(raw)).toThrow(UnreadableSettingsError);
	});

	test.each([["Private"], [[1]], [{ 0: "Private" }], [null]])(
		"excluded folders that are not a list of names (%p) are refused: exclusions fail closed",
		(excludedFolders) => {
			expect(() => parseSettings({ serverEnabled: true, excludedFolders })).toThrow(/excludedFolders/);
		},
	);

	test("excluded folders are normalised: slashes, ./, blanks, repeats, trailing spaces, look-alike spaces, Unicode forms", () => {
		expect(
			parseSettings({
				excludedFolders: ["/Private/", "Private", "Work\\Secret", " ", "a//b", "./Notes/", "Trail ", "Private\u00a0Journal", "Cafe\u0301", ".", ".."],
			}).settings.excludedFolders,
		).toEqual(["Private", "Work/Secret", "a/b", "Notes", "Trail", "Private Journal", "Café"]);
	});

	test("searchLanguage: a known language is kept; an unknown one falls back to english with a warning; none is a choice", () => {
		expect(defaultSettings().searchLanguage).toBe("english");
		expect(parseSettings({ searchLanguage: "french" }).settings.searchLanguage).toBe("french");
		expect(parseSettings({ searchLanguage: "none" }).settings.searchLanguage).toBe("none");
		const unknown = parseSettings({ searchLanguage: "klingon" });
		expect(unknown.settings.searchLanguage).toBe("english");
		expect(unknown.warnings).toEqual(['settings: "searchLanguage" is not valid; using the default']);
	});

	test("an unknown older field is ignored, not fatal", () => {
		expect(parseSettings({ legacyThing: true, port: 1234 }).settings.port).toBe(1234);
	});
});
