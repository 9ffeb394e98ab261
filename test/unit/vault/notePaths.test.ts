import fc from "fast-check";
import type { Host } from "../../../src/host/Host";
import { addNotePath, completeNotePath, NotePathIndex, removeNotePath, sortNotePaths } from "../../../src/vault/notePaths";
import type { Scope } from "../../../src/vault/scope";

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

describe("the first completion's sort of a large vault's note paths", () => {
	/** A host whose vault holds `paths`, and that tells the index of creates when `create` is called. */
	function hostOf(paths: string[]) {
		const listeners = new Map<string, (file: { path: string }, oldPath?: string) => void>();
		const host = {
			vault: {
				getMarkdownFiles: () => paths.map((path) => ({ path })),
				on: (name: string, listener: (file: { path: string }, oldPath?: string) => void) => {
					listeners.set(name, listener);
					return { name };
				},
				offref: () => undefined,
			},
		} as unknown as Host;
		return {
			host,
			create(path: string) {
				paths.push(path);
				listeners.get("create")?.({ path });
			},
		};
	}
	const scope: Scope = { configDir: ".obsidian", excludedFolders: ["Hidden"] };
	/** A budget whose every check pauses, counting the pauses and the work between them. */
	function countingBudget(onPause: () => void = () => undefined) {
		const budget = {
			pauses: 0,
			due: () => true,
			checkpoint: async () => {
				budget.pauses++;
				onPause();
				await Promise.resolve();
			},
		};
		return budget;
	}

	test("100,000 paths are sorted and filtered in slices (one piece of most of a second before), in the order of a sort in one piece", async () => {
		const PATHS_COUNT = 100_000;
		const paths = Array.from(
			{ length: PATHS_COUNT },
			(_, index) => `${index % 7 === 0 ? "Hidden" : `F${index % 50}`}/Note ${(index * 7919) % PATHS_COUNT}.md`,
		);
		const index = new NotePathIndex(hostOf(paths).host);
		index.start();
		const budget = countingBudget();
		const visible = await index.visiblePaths(scope, budget);
		const whole = sortNotePaths(paths.filter((path) => !path.startsWith("Hidden/")));
		expect(visible.byPath.map((entry) => entry.path)).toEqual(whole.byPath.map((entry) => entry.path));
		expect(visible.byName.map((entry) => entry.path)).toEqual(whole.byName.map((entry) => entry.path));
		// Two merge sorts look at the clock every 1,024 entries merged, at least in the 10 passes whose merges are shorter: thousands of pauses, none before.
		expect(budget.pauses).toBeGreaterThan((2 * 10 * PATHS_COUNT) / 1024);
		// Kept: the next completion pauses no more.
		const again = countingBudget();
		expect(await index.visiblePaths(scope, again)).toBe(visible);
		expect(again.pauses).toBe(0);
	});

	test("a note created while the paths are sorted is offered: the list sorted meanwhile is not kept", async () => {
		const paths = Array.from({ length: 5_000 }, (_, index) => `F/Note ${index}.md`);
		const vault = hostOf(paths);
		const index = new NotePathIndex(vault.host);
		index.start();
		let created = false;
		const budget = countingBudget(() => {
			if (created) return;
			created = true;
			vault.create("F/Made meanwhile.md");
		});
		await index.visiblePaths(scope, budget);
		expect(created).toBe(true);
		const next = await index.visiblePaths(scope, countingBudget());
		expect(completeNotePath(next, "F/Made", () => true, 10, 100).values).toEqual(["F/Made meanwhile.md"]);
	});
});
