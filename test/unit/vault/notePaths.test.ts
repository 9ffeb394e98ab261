import fc from "fast-check";
import { addNotePath, completeNotePath, removeNotePath, sortNotePaths } from "../../../src/vault/notePaths";

const PATHS = ["Work/Meetings.md", "Projects/Beta.md", "projects/alpha.md", "Private/Project plan.md", "Zed.md", "Projects/Sub/Deep.md"];
const visibleOutsidePrivate = (path: string) => !path.startsWith("Private/");

describe("completeNotePath", () => {
	const sorted = sortNotePaths(PATHS);

	test("paths that start with the typed value, letter case ignored, in order; then notes whose name does", () => {
		expect(completeNotePath(sorted, "PROJ", visibleOutsidePrivate, 100, 2000)).toEqual({
			values: ["projects/alpha.md", "Projects/Beta.md", "Projects/Sub/Deep.md"],
			hasMore: false,
		});
		expect(completeNotePath(sorted, "deep", visibleOutsidePrivate, 100, 2000)).toEqual({ values: ["Projects/Sub/Deep.md"], hasMore: false });
		// A value with a slash is a path: no name matches.
		expect(completeNotePath(sorted, "sub/d", visibleOutsidePrivate, 100, 2000).values).toEqual([]);
	});

	test("a path the caller may not see is never offered, and never shows through as more", () => {
		expect(completeNotePath(sorted, "private", visibleOutsidePrivate, 100, 2000)).toEqual({ values: [], hasMore: false });
		expect(completeNotePath(sorted, "project", visibleOutsidePrivate, 100, 2000).values).not.toContain("Private/Project plan.md");
		// Two visible matches and a hidden one: a limit of two leaves no visible match out, so no "more".
		expect(completeNotePath(sortNotePaths(["A/1.md", "A/2.md", "A/3.md"]), "a/", (path) => path !== "A/3.md", 2, 2000)).toEqual({
			values: ["A/1.md", "A/2.md"],
			hasMore: false,
		});
		expect(completeNotePath(sortNotePaths(["A/1.md", "A/2.md", "A/3.md"]), "a/", () => true, 2, 2000)).toEqual({
			values: ["A/1.md", "A/2.md"],
			hasMore: true,
		});
	});

	test("looks at no more than the scan limit of sorted paths, however many match", () => {
		const many = sortNotePaths(Array.from({ length: 100_000 }, (_, index) => `Big/${String(index).padStart(6, "0")}.md`));
		let asked = 0;
		const visible = () => {
			asked++;
			return false;
		};
		expect(completeNotePath(many, "big/", visible, 100, 500)).toEqual({ values: [], hasMore: false });
		expect(asked).toBe(500);
	});
});

describe("the sorted note paths kept up to date note by note", () => {
	test("any run of creates and deletes leaves the same order a full sort of the notes left gives", () => {
		const name = fc.stringMatching(/^[A-Za-zÄäß 0-9]{1,6}$/);
		const path = fc.tuple(fc.option(name, { nil: undefined }), name).map(([folder, file]) => `${folder === undefined ? "" : `${folder}/`}${file}.md`);
		fc.assert(
			fc.property(fc.uniqueArray(path, { maxLength: 30 }), fc.array(fc.tuple(fc.boolean(), path), { maxLength: 60 }), (start, steps) => {
				const sorted = sortNotePaths(start);
				const present = new Set(start);
				for (const [create, step] of steps) {
					if (create) {
						addNotePath(sorted, step);
						present.add(step);
					} else {
						removeNotePath(sorted, step);
						present.delete(step);
					}
				}
				const fresh = sortNotePaths([...present]);
				expect(sorted.byPath.map((entry) => entry.path)).toEqual(fresh.byPath.map((entry) => entry.path));
				expect(sorted.byName.map((entry) => entry.path)).toEqual(fresh.byName.map((entry) => entry.path));
			}),
			{ numRuns: 300 },
		);
	});
});
