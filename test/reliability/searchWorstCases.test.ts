import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WORST_CASE_QUERIES } from "../../bench/querySet";
import { writeCommonVocabularyVault } from "../../bench/syntheticVault";
import { MAX_QUERY_LENGTH, MAX_QUERY_PHRASES } from "../../src/config/limits";
import { PostingsIndex } from "../../src/search/postings";
import { parseQuery } from "../../src/search/query";
import { IndexedNoteSearch } from "../../src/vault/search";
import type { Scope } from "../../src/vault/scope";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";
import { openIndexedVault, type IndexedVault } from "../helpers/indexedVault";
import { workClock } from "../helpers/threadCpu";
import { replaceMethod } from "../helpers/replaceMethod";

/** "Never seconds": every worst case answers within this much work (main-thread CPU) on a 2,000-note common-word vault. */
const WORST_CASE_BUDGET_MS = 1000;

describe("the slowest queries a person can type, on a 2,000-note common-vocabulary vault", () => {
	let root: string;
	let index: IndexedNoteSearch;
	const scope: Scope = { configDir: ".obsidian", excludedFolders: [] };

	let vault: IndexedVault;

	beforeAll(async () => {
		root = await makeTempDir();
		await writeCommonVocabularyVault(root, 2000);
		vault = await openIndexedVault(root, scope);
		({ index } = vault);
		// Writing and indexing 2,000 notes: past jest's 30 s at a load of 20 (a wait, not what is tested).
	}, 120_000);
	afterAll(() => vault.close());

	// Each answer is also compared with a scan's, untimed, in test/integration/searchWorstCasesAgreeWithScan.test.ts.
	test.each(WORST_CASE_QUERIES.map((entry) => [entry.label, entry] as const))("%s: the index answers in well under a second", async (_label, entry) => {
		const query = parseQuery(entry.query);
		const filter = { folder: entry.folder, tag: entry.tag };
		// Work, not wall time: a busy machine taking the core away lengthens only the latter.
		const clock = workClock();
		const started = clock();
		await index.search(scope, query, filter, 50);
		expect(clock() - started).toBeLessThan(WORST_CASE_BUDGET_MS);
	});

	test("a two-letter prefix still finds every word form it starts; a one-letter word matches only itself", async () => {
		const prefix = await index.search(scope, parseQuery("ga"), {}, 5);
		expect(prefix.total).toBe((await index.search(scope, parseQuery("garden"), {}, 5)).total);
		expect(prefix.results[0]?.snippets.join(" ")).toMatch(/«garden(s|ing|ed)?»/);
		expect((await index.search(scope, parseQuery("g"), {}, 5)).total).toBe(0);
	});
});

describe("search_notes through a real HTTP client: queries with nothing to look for, and the longest", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ "Plan.md": "plan k here", "Kale.md": "kale soup for the plan" });
		running = await startService(vault);
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test.each([
		["empty", ""],
		["spaces and tabs", "  \t "],
		["punctuation only", "?! … — ,;:"],
		["an empty phrase", '""'],
		["exclusions only", "-plan -kale"],
	])("%s: a clear error, not every note", async (_label, query) => {
		expect(await callError(client, "search_notes", { query })).toContain("no words to look for");
	});

	test(`a token longer than ${MAX_QUERY_LENGTH} characters (10 KB) is refused with the limit named; ${MAX_QUERY_LENGTH} is answered`, async () => {
		expect(await callError(client, "search_notes", { query: "k".repeat(10 * 1024) })).toContain(String(MAX_QUERY_LENGTH));
		expect(await callOk<{ total: number }>(client, "search_notes", { query: "k".repeat(MAX_QUERY_LENGTH) })).toEqual({ total: 0, results: [] });
	});

	// Each phrase is looked for in every note holding its words: on 40,000 such notes a word less 45 excluded phrases took
	// 1.2–2.3 s of CPU a call, over the call's budget, and the next call redid most of it (see MAX_QUERY_PHRASES).
	test(`more than ${MAX_QUERY_PHRASES} phrases, wanted or excluded, are refused with the limit named; ${MAX_QUERY_PHRASES} are answered`, async () => {
		const phrases = (count: number, sign: "" | "-") => Array.from({ length: count }, (_, index) => `${sign}"plan w${index}"`).join(" ");
		for (const query of [
			`kale ${phrases(MAX_QUERY_PHRASES + 1, "-")}`,
			phrases(MAX_QUERY_PHRASES + 1, ""),
			`${phrases(MAX_QUERY_PHRASES / 2, "")} ${phrases(MAX_QUERY_PHRASES / 2 + 1, "-").replaceAll("plan", "soup")}`,
			`kale ${Array.from({ length: MAX_QUERY_PHRASES + 1 }, (_, index) => `-plan-w${index}`).join(" ")}`,
		]) {
			const error = await callError(client, "search_notes", { query });
			expect(error).toContain(`The query has ${MAX_QUERY_PHRASES + 1} phrases`);
			expect(error).toContain(`at most ${MAX_QUERY_PHRASES}`);
		}
		// The same phrase twice is looked for once, so it counts once.
		const repeated = `kale ${phrases(MAX_QUERY_PHRASES, "-")} -"plan w0"`;
		expect((await callOk<{ results: Array<{ path: string }> }>(client, "search_notes", { query: repeated })).results.map((hit) => hit.path)).toEqual([
			"Kale.md",
		]);
		const answer = await callOk<{ results: Array<{ path: string }> }>(client, "search_notes", {
			query: `plan ${phrases(MAX_QUERY_PHRASES, "-").replaceAll("w", "soup w")}`,
		});
		expect(answer.results.map((hit) => hit.path).sort()).toEqual(["Kale.md", "Plan.md"]);
	});

	test("a one-letter word finds the note with that word, not every note with a word it starts", async () => {
		const answer = await callOk<{ total: number; results: Array<{ path: string; snippets: string[] }> }>(client, "search_notes", { query: "k" });
		expect(answer.results.map((hit) => [hit.path, hit.snippets])).toEqual([["Plan.md", ["plan «k» here"]]]);
		expect((await callOk<{ total: number }>(client, "search_notes", { query: "ka" })).total).toBe(1);
	});
});

describe("search_notes through a real HTTP client: phrases bounded by the notes they would be looked for in", () => {
	// The bound made small, so 60 notes show what a vault far over 40,000 notes does at MAX_QUERY_PHRASE_NOTES.
	const PHRASE_NOTES_MAX = 100;
	const NOTES_A_FOLDER = 30;
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		const notes: Record<string, string> = {};
		for (let index = 0; index < NOTES_A_FOLDER; index++) {
			notes[`A/a${index}.md`] = "alpha beta gamma delta epsilon";
			notes[`B/b${index}.md`] = "alpha beta gamma delta epsilon";
		}
		vault = await makeVault(notes);
		running = await startService(vault, { searchPhraseNotesMax: PHRASE_NOTES_MAX });
		client = await connectClient(running.url, running.tokens.read ?? "");
		await running.service.search?.whenReady();
		// Its warm-up searches read phrases too: over before the reads are counted.
		await running.service.search?.whenWarmedUp();
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("a search whose phrases would be read in more notes than the bound is refused before one is read, naming both; under it, or narrowed by a folder, it is answered", async () => {
		// Each phrase's read of a note's body or title is one `matchValue` of a phrase with the note at hand.
		let phraseReads = 0;
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the index as `this`
		const matchValue = PostingsIndex.prototype.matchValue;
		const counting = replaceMethod(PostingsIndex.prototype, "matchValue", function (this: PostingsIndex, ...args: Parameters<PostingsIndex["matchValue"]>) {
			if (args[0].phrase && args[2]) phraseReads++;
			return matchValue.apply(this, args);
		});
		try {
			const refused = [
				['"alpha beta" "beta gamma" "gamma delta" "delta epsilon"', 4 * 2 * NOTES_A_FOLDER],
				['alpha -"beta gamma" -"gamma delta"', 2 * 2 * NOTES_A_FOLDER],
			] as const;
			for (const [query, notes] of refused) {
				const error = await callError(client, "search_notes", { query });
				expect(error).toContain(`${notes} notes in all, more than the ${PHRASE_NOTES_MAX}`);
				expect(error).toContain("Nothing was searched");
			}
			expect(phraseReads).toBe(0);
			// One phrase of 60 notes, and three of the 30 notes the folder holds (90), are under the bound.
			expect((await callOk<{ total: number }>(client, "search_notes", { query: '"beta gamma"' })).total).toBe(2 * NOTES_A_FOLDER);
			const narrowed = await callOk<{ total: number }>(client, "search_notes", {
				query: '"alpha beta" "beta gamma" "gamma delta"',
				folder: "A",
			});
			expect(narrowed.total).toBe(NOTES_A_FOLDER);
			expect(phraseReads).toBeGreaterThan(0);
		} finally {
			counting.restore();
		}
	});
});

// The server's warm-up searches the vault's commonest words, one search a phrase of the two commonest: on a vault where
// they stand together in more than MAX_QUERY_PHRASE_NOTES notes (640,000+ notes) it was refused, and the warm-up ended
// there, its other kinds (prefix, exclusion, folder, tag) never run, with "search warm-up ended early (TooManyPhraseNotes)" logged.
describe("the server's warm-up on a vault whose commonest words stand together in more notes than a search's phrases may be read in", () => {
	test("goes on past its refused phrase search, with no warning logged", async () => {
		const notes: Record<string, string> = {};
		for (let index = 0; index < 20; index++) notes[`A/a${index}.md`] = "alpha beta gamma delta epsilon zeta";
		const vault = await makeVault(notes);
		const running = await startService(vault, { searchPhraseNotesMax: 10 });
		try {
			await running.service.search?.whenReady();
			await running.service.search?.whenWarmedUp();
			expect(running.logger.lines.filter((line) => /warm-up/i.test(line))).toEqual([]);
		} finally {
			await running.stop();
			await removeDir(vault);
		}
	});
});
