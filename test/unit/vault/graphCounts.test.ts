import fc from "fast-check";
import { GraphCounts } from "../../../src/vault/graphCounts";
import type { GraphStats } from "../../../src/vault/links";
import { comparePathsStrictly } from "../../../src/vault/notes";

type NoteLinks = { targets: Record<string, number>; unresolved: number };

/** The counts from nothing over every note at once, as `graphStats` counts them. */
function countedFromNothing(notes: ReadonlyMap<string, NoteLinks>, topCount: number): GraphStats {
	const incoming = new Map<string, number>();
	const linking = new Set<string>();
	let links = 0;
	let unresolved = 0;
	for (const [source, note] of notes) {
		unresolved += note.unresolved;
		for (const [target, count] of Object.entries(note.targets)) {
			if (!notes.has(target) || target === source) continue;
			links += count;
			linking.add(source);
			incoming.set(target, (incoming.get(target) ?? 0) + count);
		}
	}
	const orphans = [...notes.keys()].filter((path) => !incoming.has(path) && !linking.has(path)).length;
	const top = [...incoming.entries()].sort((a, b) => b[1] - a[1] || comparePathsStrictly(a[0], b[0])).slice(0, topCount);
	return { notes: notes.size, links, unresolved_links: unresolved, orphans, top_linked: top.map(([path, backlinks]) => ({ path, backlinks })) };
}

async function answerOf(counts: GraphCounts, topCount: number): Promise<GraphStats> {
	if (counts.topMissing(topCount)) await counts.fillTop(topCount);
	return counts.answer(topCount);
}

// Paths that collate alike (`e` + combining acute, `é`) and differ by case: the order must not hang on which came first.
const PATHS = ["a.md", "B.md", "b.md", "c/d.md", "e\u0301.md", "\u00e9.md", "f.md", "g.md", "pic.png"];
const path = fc.constantFrom(...PATHS);
const noteLinks = fc.record({ targets: fc.dictionary(path, fc.integer({ min: 0, max: 3 }), { maxKeys: 5 }), unresolved: fc.nat(3) });
const step = fc.oneof(fc.record({ path, links: fc.option(noteLinks, { nil: null }) }), fc.constant("drop top" as const));

describe("GraphCounts: kept note by note, the counts a count from nothing gives", () => {
	test("after any sequence of notes set, changed and taken away, the answer is the count from nothing, byte for byte", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(step, { maxLength: 60 }),
				fc.integer({ min: 1, max: 4 }),
				fc.integer({ min: 1, max: 5 }),
				async (steps, topCount, topKept) => {
					// Fewer kept than asked, as many, more: the first are looked for again when too few are left.
					const counts = new GraphCounts(topKept);
					const notes = new Map<string, NoteLinks>();
					for (const next of steps) {
						if (next === "drop top") counts.dropTop();
						else {
							counts.set(next.path, next.links);
							if (next.links) notes.set(next.path, next.links);
							else notes.delete(next.path);
						}
						expect(JSON.stringify(await answerOf(counts, topCount))).toBe(JSON.stringify(countedFromNothing(notes, topCount)));
					}
				},
			),
			{ numRuns: 300 },
		);
	});

	test("a link to a path that is not a note counts once a note comes there, and stops when it goes", async () => {
		const counts = new GraphCounts();
		counts.set("a.md", { targets: { "b.md": 2, "a.md": 5 }, unresolved: 1 });
		expect(await answerOf(counts, 10)).toEqual({ notes: 1, links: 0, unresolved_links: 1, orphans: 1, top_linked: [] });
		counts.set("b.md", { targets: {}, unresolved: 0 });
		expect(await answerOf(counts, 10)).toEqual({ notes: 2, links: 2, unresolved_links: 1, orphans: 0, top_linked: [{ path: "b.md", backlinks: 2 }] });
		counts.set("b.md", null);
		expect(await answerOf(counts, 10)).toEqual({ notes: 1, links: 0, unresolved_links: 1, orphans: 1, top_linked: [] });
	});
});
