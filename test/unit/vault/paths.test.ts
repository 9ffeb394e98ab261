import { CHECKED_PATHS_REMEMBERED } from "../../../src/config/limits";
import { checkNewNamePath, checkVaultPath } from "../../../src/vault/paths";

const scope = { configDir: ".obsidian", excludedFolders: ["Private"] };
const customConfig = { configDir: "_config", excludedFolders: [] };

describe("checkVaultPath", () => {
	test.each([
		["Note.md", "Note.md"],
		["Folder/Sub/Note", "Folder/Sub/Note"],
		["Folder/", "Folder"],
		["Café.md", "Café.md"],
		["Cafe\u0301.md", "Café.md"],
		["100% done.md", "100% done.md"],
		["日本語/ノート.md", "日本語/ノート.md"],
	])("accepts %j as %j", (input, expected) => {
		expect(checkVaultPath(input, scope)).toEqual({ ok: true, value: expected });
	});

	test.each([
		["", "empty"],
		["   ", "empty"],
		["../outside.md", "'..'"],
		["Folder/../../outside.md", "'..'"],
		["./Note.md", "'.'"],
		["Folder//Note.md", "empty"],
		["/etc/passwd", "leading slash"],
		["C:/Windows/win.ini", "drive"],
		["C:", "drive"],
		["\\\\server\\share\\x.md", "forward slashes"],
		["Folder\\Note.md", "forward slashes"],
		["Note\u0000.md", "control"],
		["Note\n.md", "control"],
		["%2e%2e/outside.md", "percent-encoded"],
		["Folder%2fNote.md", "percent-encoded"],
		["..%5cwin.ini", "percent-encoded"],
		[".obsidian/app.json", "Hidden"],
		[".trash/Old.md", "Hidden"],
		["Folder/.secret.md", "Hidden"],
		["Note.md.", "dot or a space"],
		["Note.md ", "dot or a space"],
		["Folder./Note.md", "dot or a space"],
		["a".repeat(300) + ".md", "255 bytes"],
		["x/".repeat(600) + "y.md", "longer than"],
	])("refuses %j (%s)", (input, reason) => {
		const checked = checkVaultPath(input, scope);
		expect(checked.ok).toBe(false);
		expect(checked.ok ? "" : checked.error).toContain(reason);
	});

	/**
	 * `x:name` is a folder name where the system has no drives (Linux and macOS allow it): on 285ac856 `a:b/x.md` was
	 * refused as a drive path, so a note there could not be read. On Windows it stays a drive: `C:Private/x.md` is
	 * resolved inside a vault on C: to its Private, which the exclusions (comparing `C:Private`) never saw.
	 */
	test("`x:name` is a folder name on Linux and a drive on Windows", () => {
		expect(checkVaultPath("a:b/x.md", scope)).toEqual({ ok: true, value: "a:b/x.md" });
		expect(checkVaultPath("c:relative.md", scope)).toEqual({ ok: true, value: "c:relative.md" });
		const platform = Object.getOwnPropertyDescriptor(process, "platform");
		Object.defineProperty(process, "platform", { value: "win32" });
		try {
			jest.isolateModules(() => {
				// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded again as on Windows
				const onWindows = (require("../../../src/vault/paths") as typeof import("../../../src/vault/paths")).checkVaultPath;
				for (const path of ["a:b/x.md", "C:Private/x.md", "c:relative.md", "c:../x.md", "C:Private"])
					expect(onWindows(path, scope)).toEqual({ ok: false, error: expect.stringContaining("drive") });
				expect(onWindows("Notes/a.md", scope)).toEqual({ ok: true, value: "Notes/a.md" });
				expect(onWindows("c:..\\x.md", scope)).toEqual({ ok: false, error: expect.stringContaining("forward slashes") });
			});
		} finally {
			if (platform) Object.defineProperty(process, "platform", platform);
		}
	});

	test("refuses the config folder under a custom name", () => {
		expect(checkVaultPath("_config/plugins/vault-mcp/data.json", customConfig)).toMatchObject({
			ok: false,
			error: expect.stringContaining("configuration folder"),
		});
	});

	// A path that passed is remembered; these show that the answer is still the check's, whatever was asked before.
	test("a path that passed in one vault is refused as the config folder of another, asked right after", () => {
		expect(checkVaultPath("_config/app.json", scope)).toEqual({ ok: true, value: "_config/app.json" });
		expect(checkVaultPath("_config/app.json", customConfig)).toEqual({ ok: false, error: expect.stringContaining("configuration folder") });
		expect(checkVaultPath("_config/app.json", scope)).toEqual({ ok: true, value: "_config/app.json" });
	});

	test("asked again, a path gets the same answer, in an object of its own", () => {
		const first = checkVaultPath("Cafe\u0301.md", scope);
		if (first.ok) first.value = "../outside.md";
		expect(checkVaultPath("Cafe\u0301.md", scope)).toEqual({ ok: true, value: "Café.md" });
		expect(checkVaultPath("Cafe\u0301.md", scope)).not.toBe(checkVaultPath("Cafe\u0301.md", scope));
	});

	test("a path named call after call stays remembered past a walk of many other paths (the oldest was forgotten, and checked again)", () => {
		const checks = jest.spyOn(String.prototype, "normalize");
		try {
			checkVaultPath("Daily/Hot.md", scope);
			let checkedAgain = 0;
			for (let index = 0; index < 3 * CHECKED_PATHS_REMEMBERED; index++) {
				expect(checkVaultPath(`Walk/Note ${index}.md`, scope)).toEqual({ ok: true, value: `Walk/Note ${index}.md` });
				const before = checks.mock.calls.length;
				expect(checkVaultPath("Daily/Hot.md", scope)).toEqual({ ok: true, value: "Daily/Hot.md" });
				checkedAgain += checks.mock.calls.length - before;
			}
			expect(checkedAgain).toBe(0);
		} finally {
			checks.mockRestore();
		}
	});

	test("past the paths it remembers, every path still gets its own answer", () => {
		for (let round = 0; round < 2; round++) {
			for (let index = 0; index < 3 * CHECKED_PATHS_REMEMBERED; index++) {
				expect(checkVaultPath(`Folder ${index}/Note.md`, scope)).toEqual({ ok: true, value: `Folder ${index}/Note.md` });
				expect(checkVaultPath(`Folder ${index}/../x.md`, scope)).toEqual({ ok: false, error: expect.stringContaining("'..'") });
			}
		}
	});
});

describe("checkNewNamePath", () => {
	// On an NTFS volume making short names (Windows' system drive, by default) these open the file or folder of the long name.
	test.each(["PRIVAT~1/x.md", "privat~1/x.md", "Notes/OBSIDI~1/x.md", "NOTESA~1.md", "AB12CD~1.md", "X~1", "PRIV~123/x.md", "~PRIVA~1/x.md", "~$DOC~1.md"])(
		"%j, a Windows short name, is refused",
		(path) => {
			expect(checkNewNamePath(path, scope)).toEqual({ ok: false, error: expect.stringContaining("Windows short name") });
		},
	);

	// With NtfsAllowExtendedCharacterIn8dot3Name set, Windows keeps the code page's letters, upper-cased, in six bytes before the
	// `~` (a double-byte code page's letter takes two): `Privé notes` is `PRIVÉN~1`, `日記の下書き` on a Japanese Windows `日記~1`.
	// On the base each of these was let through (the shape held ASCII only).
	test.each([
		"PRIV\u00c9N~1/x.md",
		"Priv\u00e9n~1/x.md",
		"Caf\u00e9~1.md",
		"\u00dcBER~2.md",
		"\u0421\u0415\u041a\u0420\u0415~1/x.md",
		"\u65e5\u8a18~1.md",
		"\u65e5\u8a18\u5e33~1.md",
		"Caf\u00e9~1.\u00e9d",
	])("%j, a short name Windows makes with the code page's letters, is refused", (path) => {
		expect(checkNewNamePath(path, scope)).toEqual({ ok: false, error: expect.stringContaining("Windows short name") });
	});

	// More than six bytes before the `~` in any code page: four letters of a double-byte code page, seven of another.
	test.each(["\u65e5\u8a18\u5e33\u30e1~1.md", "\u65e5\u8a18\u5e33\u30e1\u30e2~1/x.md", "Caf\u00e9s\u00e9s~1.md", "\u00a3~1.md"])(
		"%j is not a short name Windows makes",
		(path) => {
			expect(checkNewNamePath(path, scope)).toEqual({ ok: true, value: path });
		},
	);

	test.each(["Notes~1 old.md", "PRIVATE~1/x.md", "Long~1.markdown", "~1.md", "a~b.md", "Plan~draft.md", "Draft~0.md", "Idea~01.md"])(
		"%j is not a short name's shape",
		(path) => {
			expect(checkNewNamePath(path, scope)).toEqual({ ok: true, value: path });
		},
	);

	test("the refusal says what to write instead", () => {
		expect(checkNewNamePath("Draft~2.md", scope)).toEqual({ ok: false, error: expect.stringContaining("'-' or a space in place of the '~'") });
	});
});
