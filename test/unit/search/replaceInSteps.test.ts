import { SearchEngine, type NoteFilter } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";
import { runSteps } from "../../../src/search/unions";

/** The n-th made-up word: letters only, two of them first so it is never a stop word or a number. */
const word = (n: number) => `zq${String.fromCharCode(...[...n.toString(26)].map((digit) => 97 + parseInt(digit, 26)))}`;
const words = Array.from({ length: 1_000 }, (_, n) => word(n));
const STEP = 64;

/** Notes sharing words with both versions of Big.md, some more often: rarities and lengths differ from note to note. */
const OTHERS: Record<string, string> = {
	"Small.md": `${word(1)} ${word(2)} ${word(350)} ${word(350)}`,
	"Other.md": `${word(2)} ${word(900)} ${word(500)} ${word(1)} ${word(1)}`,
	"Third.md": `${word(3)} ${word(450)} ${word(700)} ${word(2)}`,
};
const OLD_BIG = `${words.slice(0, 600).join(" ")} ${word(350)} ${word(351)}`;
const NEW_BIG = `${words.slice(300).join(" ")} ${word(900)} ${word(901)} ${word(902)}`;
const QUERIES = [
	word(1),
	word(2),
	`${word(1)} ${word(2)}`,
	word(350),
	word(900),
	`${word(450)} ${word(2)}`,
	`"${word(350)} ${word(351)}"`,
	`"${word(900)} ${word(901)}"`,
	`${word(2)} -${word(900)}`,
	"zqb",
];
/** No filter, one asked anew each search, and one whose accepted notes are kept by key and brought up to date (acceptedSlots). */
const FILTERS: Array<NoteFilter | null> = [null, (path) => path !== "Other.md", { include: (path) => path !== "Third.md", key: "not Third.md" }];

function engineWith(notes: Record<string, string>): SearchEngine {
	const engine = new SearchEngine(null);
	for (const [path, text] of Object.entries(notes)) engine.index.add(path, "note", 1, text, []);
	return engine;
}

/** What each query finds (snippets aside: the reader gives the note's text now), with and without a filter. */
async function answers(engine: SearchEngine): Promise<string> {
	const found: unknown[] = [];
	for (const filter of FILTERS)
		for (const query of QUERIES) {
			const answer = await engine.search(parseQuery(query), filter, 10, () => Promise.resolve(""));
			found.push([answer.total, answer.results.map((hit) => [hit.path, hit.score, hit.matched_words])]);
		}
	return JSON.stringify(found);
}

describe("a big note's new version installed in steps, as searches see it", () => {
	test("between any two steps a search answers as over the old version whole or the new one whole, never a mix; once new, new", async () => {
		const engine = engineWith({ ...OTHERS, "Big.md": OLD_BIG });
		engine.index.compact();
		const before = await answers(engine);
		const after = await answers(engineWith({ ...OTHERS, "Big.md": NEW_BIG }));
		expect(after).not.toEqual(before);
		expect(before).toEqual(await answers(engineWith({ ...OTHERS, "Big.md": OLD_BIG })));
		const plan = runSteps(engine.index.planCommit(runSteps(engine.index.prepare("Big.md", "note", 1, NEW_BIG, []))));
		const installing = engine.index.installSteps(plan, STEP);
		const seen: string[] = [];
		let retiredSeen = false;
		for (;;) {
			const next = installing.next();
			retiredSeen ||= engine.index.retiredSlotHeld;
			const now = await answers(engine);
			seen.push(now === before ? "old" : now === after ? "new" : "mixed");
			if (next.done) break;
		}
		expect(seen).not.toContain("mixed");
		// Steps showing the new version while the old one's postings were still being taken out: their searches counted the current notes only.
		expect(retiredSeen).toBe(true);
		const firstNew = seen.indexOf("new");
		expect(firstNew).toBeGreaterThan(0);
		expect(firstNew).toBeLessThan(seen.length - 1);
		expect(seen.slice(firstNew).every((state) => state === "new")).toBe(true);
		expect(await answers(engine)).toEqual(after);
	});

	test("a search paused across a step starts again and answers as over one version", async () => {
		const engine = engineWith({ ...OTHERS, "Big.md": OLD_BIG });
		engine.index.compact();
		const after = await answers(engineWith({ ...OTHERS, "Big.md": NEW_BIG }));
		const plan = runSteps(engine.index.planCommit(runSteps(engine.index.prepare("Big.md", "note", 1, NEW_BIG, []))));
		const installing = engine.index.installSteps(plan, STEP);
		// Every pause runs one more step of the install.
		const pause = () => {
			installing.next();
			return Promise.resolve();
		};
		const fresh = engineWith({ ...OTHERS, "Big.md": NEW_BIG });
		const old = engineWith({ ...OTHERS, "Big.md": OLD_BIG });
		for (const query of QUERIES) {
			const answer = await engine.search(parseQuery(query), null, 10, () => Promise.resolve(""), pause);
			const shown = JSON.stringify([answer.total, answer.results.map((hit) => [hit.path, hit.score])]);
			const asNew = await fresh.search(parseQuery(query), null, 10, () => Promise.resolve(""));
			const asOld = await old.search(parseQuery(query), null, 10, () => Promise.resolve(""));
			expect([asOld, asNew].map((one) => JSON.stringify([one.total, one.results.map((hit) => [hit.path, hit.score])]))).toContain(shown);
		}
		runSteps(installing);
		expect(await answers(engine)).toEqual(after);
	});

	test.each([
		["the note removed in steps", "removed"],
		["a third version installed in steps", "third"],
	])(
		"%s at any step of the replace: searches between any two steps answer as over one whole version (or none), and end with the last change",
		async (_, kind) => {
			const THIRD = `${words.slice(100, 800).join(" ")} ${word(350)} ${word(990)}`;
			const old = await answers(engineWith({ ...OTHERS, "Big.md": OLD_BIG }));
			const fresh = await answers(engineWith({ ...OTHERS, "Big.md": NEW_BIG }));
			const last = await answers(kind === "removed" ? engineWith(OTHERS) : engineWith({ ...OTHERS, "Big.md": THIRD }));
			const wholes = [old, fresh, last];
			const probe = engineWith({ ...OTHERS, "Big.md": OLD_BIG });
			const stepCount = [
				...probe.index.installSteps(runSteps(probe.index.planCommit(runSteps(probe.index.prepare("Big.md", "note", 1, NEW_BIG, [])))), STEP),
			].length;
			// From 1 (a generator not yet stepped has not begun: its install would come after the change), every
			// 4th step and the last (while the new version is written, at its publishing, while the old one is taken out): 1-3 s a test.
			for (const at of [...Array.from({ length: Math.ceil(stepCount / 4) }, (__, n) => 1 + n * 4), stepCount]) {
				const engine = engineWith({ ...OTHERS, "Big.md": OLD_BIG });
				engine.index.compact();
				// Warm memos (accepted notes by key, word unions) from before the replace.
				await answers(engine);
				const installing = engine.index.installSteps(
					runSteps(engine.index.planCommit(runSteps(engine.index.prepare("Big.md", "note", 1, NEW_BIG, [])))),
					STEP,
				);
				for (let step = 0; step < at; step++) installing.next();
				const change =
					kind === "removed"
						? engine.index.removeSteps("Big.md")
						: engine.index.installSteps(runSteps(engine.index.planCommit(runSteps(engine.index.prepare("Big.md", "note", 1, THIRD, [])))), STEP);
				for (;;) {
					const next = change.next();
					expect(wholes).toContain(await answers(engine));
					if (next.done) break;
				}
				runSteps(installing);
				expect(engine.index.retiredSlotHeld).toBe(false);
				expect(await answers(engine)).toEqual(last);
			}
		},
	);
});
