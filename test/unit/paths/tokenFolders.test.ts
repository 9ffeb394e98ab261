import { MAX_PATH_LENGTH, MAX_TOKEN_FOLDERS } from "../../../src/config/limits";
import { parseTokenFolders } from "../../../src/paths/tokenFolders";

describe("parseTokenFolders: the folders a token is limited to, as a person types them", () => {
	test("typed folders come back in the vault's spelling: slashes, ./, blanks and repeats tidied", () => {
		expect(parseTokenFolders(["Projects", " ./Areas/Work/ ", "", "Areas\\Work", "Projects"])).toEqual({ folders: ["Projects", "Areas/Work"] });
	});

	test("the vault's own absolute path in front of a folder is taken off", () => {
		expect(parseTokenFolders(["/home/ann/Vault/Projects"], "/home/ann/Vault")).toEqual({ folders: ["Projects"] });
	});

	test("no entries (or only blank ones) means no limit: an empty list", () => {
		expect(parseTokenFolders([])).toEqual({ folders: [] });
		expect(parseTokenFolders(["  ", ""])).toEqual({ folders: [] });
	});

	test("an entry naming nothing inside the vault is an error, never dropped (dropping it could widen the token to the whole vault)", () => {
		for (const entry of ["..", "../Other", "Projects/../..", "/home/ann/Vault", "C:\\Elsewhere"]) {
			const answer = parseTokenFolders(["Projects", entry], "/home/ann/Vault");
			expect(answer).toEqual({ error: expect.stringContaining("names no folder inside the vault") });
		}
	});

	test("a hidden folder is refused: it is never part of the vault", () => {
		expect(parseTokenFolders([".obsidian"])).toEqual({ error: expect.stringContaining("hidden folder") });
		expect(parseTokenFolders(["Projects/.trash"])).toEqual({ error: expect.stringContaining("hidden folder") });
	});

	test(`limits: a folder up to ${MAX_PATH_LENGTH} characters, at most ${MAX_TOKEN_FOLDERS} folders`, () => {
		expect(parseTokenFolders(["a".repeat(MAX_PATH_LENGTH)])).toEqual({ folders: ["a".repeat(MAX_PATH_LENGTH)] });
		expect(parseTokenFolders(["a".repeat(MAX_PATH_LENGTH + 1)])).toEqual({ error: expect.stringContaining(`${MAX_PATH_LENGTH} characters`) });
		const many = Array.from({ length: MAX_TOKEN_FOLDERS + 1 }, (_, index) => `Folder ${index}`);
		expect(parseTokenFolders(many.slice(0, MAX_TOKEN_FOLDERS))).toEqual({ folders: many.slice(0, MAX_TOKEN_FOLDERS) });
		expect(parseTokenFolders(many)).toEqual({ error: expect.stringContaining(`at most ${MAX_TOKEN_FOLDERS} folders`) });
		// Repeats count once.
		expect(parseTokenFolders([...many.slice(0, MAX_TOKEN_FOLDERS), "Folder 0"])).toEqual({ folders: many.slice(0, MAX_TOKEN_FOLDERS) });
	});
});
