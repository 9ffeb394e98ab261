import fc from "fast-check";
import { FilesByPath } from "../../../src/headless/filesByPath";

describe("FilesByPath", () => {
	test("holds a folder exactly while some file lies in it at any depth, through sets, deletes, case-only renames and clears", () => {
		const paths = ["A.md", "Sub/a.md", "Sub/Inner/b.md", "Sub2/c.md", "sub/d.md", "Sub/Inner", "Su/b.md", "Sub/Inner/Deep/e.md"];
		const folders = ["Sub", "Sub2", "sub", "Su", "Sub/Inner", "Sub/Inner/Deep", "A.md", "Sub/a.md", "Sub/Inn", ""];
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.constantFrom("set", "delete", "clear"), fc.constantFrom(...paths)), { maxLength: 60 }), (steps) => {
				const files = new FilesByPath<string>();
				const reference = new Map<string, string>();
				for (const [step, path] of steps) {
					if (step === "set") {
						files.set(path, path);
						reference.set(path, path);
					} else if (step === "delete") expect(files.delete(path)).toBe(reference.delete(path));
					else if (path === "A.md") {
						files.clear();
						reference.clear();
					}
					for (const folder of folders) {
						const prefix = folder === "" ? "" : `${folder}/`;
						expect([folder, files.holdsUnder(folder)]).toEqual([folder, [...reference.keys()].some((key) => key.startsWith(prefix))]);
					}
				}
				expect([...files]).toEqual([...reference]);
			}),
			{ numRuns: 300 },
		);
	});
});
