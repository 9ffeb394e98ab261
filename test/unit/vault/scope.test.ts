import fc from "fast-check";
import { isExcludedPath, isHiddenPath, isInFolder, isNoteInScope, isPathVisible, mayNameHidden, scopeKey, type Scope } from "../../../src/vault/scope";
import { expectEqual } from "../../helpers/plainEqual";

const SCOPE: Scope = { configDir: ".obsidian", excludedFolders: ["Private Journal", "Work/Secret"] };

describe("isInFolder", () => {
	test.each<[string, string, boolean]>([
		["Work/a.md", "Work", true],
		["Work", "Work", true],
		["Workshop/a.md", "Work", false],
		["work/a.md", "Work", false],
	])("%s in %s: %s", (path, folder, expected) => {
		expect(isInFolder(path, folder)).toBe(expected);
	});
});

describe("what a tool may see", () => {
	test.each<[string, string, boolean, boolean]>([
		["a note at the root", "Inbox.md", true, true],
		["a note in a folder", "Work/Plan.md", true, true],
		["an attachment is visible but not a note", "Work/photo.png", true, false],
		["an excluded folder's note", "Private Journal/Day.md", false, false],
		["the excluded folder in another case", "private journal/Day.md", false, false],
		["the excluded folder with a no-break space", "Private\u00a0Journal/Day.md", false, false],
		["the excluded folder with a figure space", "Private\u2007Journal/Day.md", false, false],
		["the excluded folder with a zero-width space inside", "Private\u200b Journal/Day.md", false, false],
		["the excluded folder with two plain spaces", "Private  Journal/Day.md", false, false],
		["the excluded folder with a space before the slash", "Private Journal /Day.md", false, false],
		["a folder that only begins like an excluded one", "Private Journals/Day.md", true, true],
		["a nested excluded folder", "Work/Secret/Pay.md", false, false],
		["the nested one's parent stays visible", "Work/Secrets.md", true, true],
		["the config folder", ".obsidian/app.json", false, false],
		["Obsidian's trash", ".trash/Old.md", false, false],
		["a hidden file in a folder", "Work/.draft.md", false, false],
		["an uppercase .MD is not a note to Obsidian", "Work/Plan.MD", true, false],
	])("%s", (_name, path, visible, note) => {
		expect(isPathVisible(path, SCOPE)).toBe(visible);
		expect(isNoteInScope(path, SCOPE)).toBe(note);
	});

	test("the config folder is out of scope by name, whatever it is called", () => {
		const renamed: Scope = { configDir: "_config", excludedFolders: [] };
		expect(isExcludedPath("_config/app.json", renamed)).toBe(true);
		expect(isExcludedPath("_Config/app.json", renamed)).toBe(true);
		expect(isExcludedPath("_configs/app.json", renamed)).toBe(false);
	});

	test.each<[string, boolean]>([
		["a/.b/c.md", true],
		[".a", true],
		["a/b.c/d.md", false],
	])("isHiddenPath(%s) is %s", (path, expected) => {
		expect(isHiddenPath(path)).toBe(expected);
	});

	test("isHiddenPath holds exactly when some part of the path starts with a dot", () => {
		const part = fc.stringMatching(/^[.a-z ]{0,4}$/);
		fc.assert(
			fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), (parts) => {
				const path = parts.join("/");
				expectEqual(
					isHiddenPath(path),
					parts.some((one) => one.startsWith(".")),
				);
			}),
			{ numRuns: 2000 },
		);
	});
});

describe("a token's folders", () => {
	const limited: Scope = { configDir: ".obsidian", excludedFolders: ["Projects/Private"], tokenFolders: ["Projects", "Areas/Work"] };

	test.each([
		["Projects/Plan.md", true],
		["Projects/Deep/Plan.md", true],
		["Areas/Work/Log.md", true],
		["Projects", true],
		["Plan.md", false],
		["Projectsx/Plan.md", false],
		["Areas/Home/Log.md", false],
		["projects/Plan.md", false],
		["Projects/Private/Diary.md", false],
		["Projects/.hidden/Note.md", false],
	])("%s visible: %s", (path, visible) => {
		expect(isPathVisible(path, limited)).toBe(visible);
	});

	test("none, or an empty list, is the whole vault; the memo key tells the scopes apart", () => {
		const whole: Scope = { configDir: ".obsidian", excludedFolders: [] };
		expect(isPathVisible("Plan.md", whole)).toBe(true);
		expect(isPathVisible("Plan.md", { ...whole, tokenFolders: [] })).toBe(true);
		expect(scopeKey(whole)).toBe(scopeKey({ ...whole, tokenFolders: [] }));
		expect(scopeKey(whole)).not.toBe(scopeKey({ ...whole, tokenFolders: ["Projects"] }));
	});
});

describe("scopeKey: made once per scope, made again when the scope shows other paths", () => {
	afterEach(() => jest.restoreAllMocks());

	test("a scope asked for its key again (as every read call does twice) is not serialised again", () => {
		const scope: Scope = { configDir: ".obsidian", excludedFolders: ["Private"], tokenFolders: ["Projects"] };
		const first = scopeKey(scope);
		const stringify = jest.spyOn(JSON, "stringify");
		for (let call = 0; call < 10; call++) expect(scopeKey(scope)).toBe(first);
		expect(stringify).not.toHaveBeenCalled();
	});

	test("the same scope object with another folder list, config folder or token folders gets the key those give", () => {
		const scope: Scope = { configDir: ".obsidian", excludedFolders: ["Private"] };
		const before = scopeKey(scope);
		scope.excludedFolders = ["Private", "Work"];
		expect(scopeKey(scope)).toBe(scopeKey({ configDir: ".obsidian", excludedFolders: ["Private", "Work"] }));
		expect(scopeKey(scope)).not.toBe(before);
		scope.tokenFolders = ["Projects"];
		expect(scopeKey(scope)).toBe(scopeKey({ configDir: ".obsidian", excludedFolders: ["Private", "Work"], tokenFolders: ["Projects"] }));
		scope.configDir = ".config";
		expect(scopeKey(scope)).toBe(scopeKey({ configDir: ".config", excludedFolders: ["Private", "Work"], tokenFolders: ["Projects"] }));
	});
});

describe("mayNameHidden: a setting's path that would name what is hidden, however the path rules read it", () => {
	const scope: Scope = { configDir: ".obsidian", excludedFolders: ["Private"] };
	test.each([
		"Private/CON",
		"./Private/Templates",
		"Notes/../Private/Daily",
		"Private\\Daily",
		"../vault/Private/x.md",
		"PRIVATE/Daily/AUX.md",
		"Private/..",
		"Private/../Notes",
		"Private/Hush/../../Notes",
		"../Private/../x",
	])("%s names Private", (path) => expect(mayNameHidden(path, scope)).toBe(true));
	test.each(["Daily/CON", "Notes/../Daily", "../elsewhere", "Templates\\Work"])("%s names nothing hidden", (path) =>
		expect(mayNameHidden(path, scope)).toBe(false),
	);
	test("outside the token's folders is hidden too", () => {
		expect(mayNameHidden("Daily/CON", { ...scope, tokenFolders: ["Work"] })).toBe(true);
		expect(mayNameHidden("Work/CON", { ...scope, tokenFolders: ["Work"] })).toBe(false);
		expect(mayNameHidden("../vault/Work/CON", { ...scope, tokenFolders: ["Work"] })).toBe(true);
		// A part a `..` takes away is still written there: named only when it is hidden.
		expect(mayNameHidden("Work/Templates/../Templates", { ...scope, tokenFolders: ["Work/Templates"] })).toBe(false);
		expect(mayNameHidden("Notes/../Work/CON", { ...scope, tokenFolders: ["Work"] })).toBe(true);
	});
});

describe("isExcludedPath: each excluded folder's key made once per list", () => {
	afterEach(() => jest.restoreAllMocks());

	test("paths checked against many excluded folders do not work out each folder's key again for every path", () => {
		// get_note_links on a hub of 3,000 links with 600 excluded folders made 3.6 million keys: 570 ms of its 2 s budget.
		const scope: Scope = { configDir: ".obsidian", excludedFolders: Array.from({ length: 200 }, (_, index) => `Private ${index}`) };
		expect(isExcludedPath("Private 7/a.md", scope)).toBe(true);
		const lowered = jest.spyOn(String.prototype, "toLowerCase");
		for (let index = 0; index < 1_000; index++) expect(isExcludedPath(`Notes/N${index}.md`, scope)).toBe(false);
		// The path's key and the config folder's: two a path, not one per excluded folder.
		expect(lowered.mock.calls.length).toBeLessThanOrEqual(2_000);
	});

	test("a new list of excluded folders, or one spelt as a person would read the same, decides at once", () => {
		const scope: Scope = { configDir: ".obsidian", excludedFolders: ["Private"] };
		expect(isExcludedPath("Work/a.md", scope)).toBe(false);
		expect(isExcludedPath("Work/a.md", { ...scope, excludedFolders: ["Work"] })).toBe(true);
		expect(isExcludedPath("work /a.md", { ...scope, excludedFolders: ["Work"] })).toBe(true);
		expect(isExcludedPath("Workshop/a.md", { ...scope, excludedFolders: ["Work"] })).toBe(false);
		expect(isExcludedPath("Private/a.md", scope)).toBe(true);
	});
});
