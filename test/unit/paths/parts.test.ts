import { folderOf } from "../../../src/paths/parts";

describe("folderOf", () => {
	test.each([
		["Note.md", ""],
		["Folder/Note.md", "Folder"],
		["Folder/Sub/Note.md", "Folder/Sub"],
		["Folder/Sub", "Folder"],
		["A folder with spaces/Note with.dots.md", "A folder with spaces"],
	])("%j is in %j", (path, folder) => {
		expect(folderOf(path)).toBe(folder);
	});
});
