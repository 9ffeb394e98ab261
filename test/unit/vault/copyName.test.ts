import { MAX_NOTE_NAME_BYTES } from "../../../src/config/limits";
import { copyNameBeside } from "../../../src/vault/copyName";

/** Names of the copies kept beside a note (undo's conflict copies, another program's raced version). */
describe("copyNameBeside", () => {
	const time = new Date(2026, 11, 5, 9, 7);

	test("puts the label and the local time before the extension, in the note's folder", () => {
		expect(copyNameBeside("Notes/Plan.md", "before set_property", time)).toBe("Notes/Plan (before set_property 2026-12-05 09-07).md");
		expect(copyNameBeside("Plan.md", "another program's version", time)).toBe("Plan (another program's version 2026-12-05 09-07).md");
	});

	test("numbers the second and later copies of the same minute from 2", () => {
		expect(copyNameBeside("Notes/Plan.md", "label", time, 1)).toBe("Notes/Plan (label 2026-12-05 09-07 2).md");
		expect(copyNameBeside("Notes/Plan.md", "label", time, 2)).toBe("Notes/Plan (label 2026-12-05 09-07 3).md");
	});

	test("a name without an extension, or starting with a dot, keeps all of it as the base", () => {
		expect(copyNameBeside("Notes/README", "label", time)).toBe("Notes/README (label 2026-12-05 09-07)");
		expect(copyNameBeside(".hidden", "label", time)).toBe(".hidden (label 2026-12-05 09-07)");
	});

	test("shortens a long name to fit the file-name limit, never cutting a character in two", () => {
		const copy = copyNameBeside(`Folder/${"é".repeat(200)}.md`, "label", time);
		const name = copy.slice("Folder/".length);
		expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_NOTE_NAME_BYTES);
		expect(name.endsWith(" (label 2026-12-05 09-07).md")).toBe(true);
		expect(name).toMatch(/^é+ \(/u);
	});
});
