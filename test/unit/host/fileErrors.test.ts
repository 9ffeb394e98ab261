import { fileExistsError, fileMissingError } from "../../../src/host/fileErrors";
import { fixableMessageFor } from "../../../src/mcp/vaultErrors";

describe("fileErrors", () => {
	test("word a missing file and a taken path as Obsidian's vault does, by the vault path, coded as Node's", () => {
		expect([fileMissingError("Notes/a.md").message, fileMissingError("Notes/a.md").code]).toEqual(["File does not exist: Notes/a.md", "ENOENT"]);
		expect([fileExistsError("Notes/a.md").message, fileExistsError("Notes/a.md").code]).toEqual(["File already exists: Notes/a.md", "EEXIST"]);
	});

	test("a missing file reaches a client as a note gone; a taken path's raw message never does", () => {
		expect(fixableMessageFor(fileMissingError("a.md"))).toMatch(/^That note is gone/);
		expect(fixableMessageFor(fileExistsError("a.md"))).toBeNull();
	});
});
