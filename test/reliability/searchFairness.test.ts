import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { addToken } from "../../src/auth/tokenList";
import { PHRASE_READ_ALL_MAX_NOTES } from "../../src/config/limits";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { parseQuery } from "../../src/search/query";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { until } from "../helpers/dom";
import { Gate } from "../helpers/gate";
import { makeVault, removeDir } from "../helpers/vault";

/** A door the test opens: until then, whoever waits on it waits. */

interface SearchAnswer {
	total: number;
	results: Array<{ path: string; score: number; matched_words: string[]; snippets: string[] }>;
	index?: { state: string; indexed_notes: number; total_notes: number };
	notice?: string;
}

/** Notes that all hold "alpha" (more than a search ranks between two pauses), and an excluded folder holding it too. */
function vaultFiles(notes: number): Record<string, string> {
	const files: Record<string, string> = {};
	for (let index = 0; index < notes; index++) {
		const folder = index % 10 === 0 ? "Private/" : "";
		files[`${folder}Note ${index}.md`] =
			`# Note ${index}\n\nalpha ${"beta ".repeat(index % 7)}gamma ${index}\n\nA longer paragraph about alpha and other words, so each note has a snippet to cut.\n`;
	}
	return files;
}

interface Running {
	service: McpService;
	host: NodeHost;
	url: string;
	tokens: [string, string];
}

async function start(root: string, deps: { yieldToHost?: () => Promise<void>; callBudget?: { sliceMs?: number; callWorkMs?: number } } = {}): Promise<Running> {
	const host = await NodeHost.open(root);
	let settings: VaultMcpSettings = { ...defaultSettings(), serverEnabled: true, port: 0, rateLimitPerMinute: 100_000, excludedFolders: ["Private"] };
	const first = addToken(settings, "flooder", "read");
	if ("error" in first) throw new Error(first.error);
	const second = addToken(first.settings, "other", "read");
	if ("error" in second) throw new Error(second.error);
	settings = second.settings;
	const service = new McpService({
		host,
		serverVersion: "test",
		logger: new RecordingLogger(),
		journal: new MemoryJournal(),
		yieldToHost: deps.yieldToHost,
		callBudget: deps.callBudget,
	});
	const status = await service.apply(settings);
	if (status.state !== "listening") throw new Error("the server did not start");
	return { service, host, url: status.url, tokens: [first.token, second.token] };
}

const SCOPE = { configDir: ".obsidian", excludedFolders: ["Private"] };

function percentile(samples: readonly number[], fraction: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

describe("a flood of search_notes beside other clients, over HTTP", () => {
	const NOTES = 700;
	let root: string;
	const clients: Client[] = [];
	let running: Running | null = null;
	const turns = new Gate({ open: true });

	beforeAll(async () => {
		root = await makeVault(vaultFiles(NOTES));
	});
	afterEach(async () => {
		turns.open();
		for (const client of clients.splice(0)) await client.close();
		await running?.service.stop();
		await running?.host.close();
		running = null;
	});
	afterAll(() => removeDir(root));

	/** The server with every search slice ending at once (sliceMs 0), its turns held by `turns`. */
	async function startGated(): Promise<Running> {
		running = await start(root, {
			yieldToHost: () => turns.wait().then(() => new Promise((resolve) => setImmediate(resolve))),
			callBudget: { sliceMs: 0 },
		});
		await running.service.search?.whenReady();
		return running;
	}

	test("while one token's searches wait for their next slice, another token is answered; then each search gives the answer an unsliced search gives", async () => {
		const server = await startGated();
		const flooder = await connectClient(server.url, server.tokens[0]);
		const other = await connectClient(server.url, server.tokens[1]);
		clients.push(flooder, other);
		const expected = await server.service.search?.search(SCOPE, parseQuery("alpha"), {}, 50);
		turns.close();
		let settled = 0;
		const flood = Array.from({ length: 4 }, () =>
			callOk<SearchAnswer>(flooder, "search_notes", { query: "alpha", limit: 50 }).then((answer) => {
				settled++;
				return answer;
			}),
		);
		const read = await callOk<{ content: string }>(other, "read_note", { path: "Note 1" });
		expect(read.content).toContain("alpha");
		expect(settled).toBe(0);
		turns.open();
		const answers = await Promise.all(flood);
		for (const answer of answers) {
			expect(answer).toEqual(expected);
			expect(answer.total).toBe(NOTES - NOTES / 10);
			expect(answer.results).toHaveLength(50);
			expect(answer.results.every((hit) => !hit.path.startsWith("Private/") && hit.snippets.length > 0)).toBe(true);
		}
	});

	test("notes trashed while a search waits for its turn never appear in its answer, which matches a search made afterwards", async () => {
		const server = await startGated();
		const flooder = await connectClient(server.url, server.tokens[0]);
		clients.push(flooder);
		turns.close();
		const pending = callOk<SearchAnswer>(flooder, "search_notes", { query: "alpha", limit: 50 });
		// Give the call time to reach its first pause, then delete notes it has already counted.
		await new Promise((resolve) => setTimeout(resolve, 300));
		const deleted = Object.keys(vaultFiles(NOTES)).filter((path, index) => !path.startsWith("Private/") && index % 20 === 1);
		for (const path of deleted) {
			const file = server.host.vault.getFileByPath(path);
			if (file) await server.host.vault.trash(file);
		}
		const gone = async () =>
			deleted.every((path) => server.host.vault.getFileByPath(path) === null) &&
			(server.service.search?.status().indexed_notes ?? 0) <= NOTES - NOTES / 10 - deleted.length;
		for (let waited = 0; !(await gone()) && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
		expect(await gone()).toBe(true);
		turns.open();
		const answer = await pending;
		const paths = answer.results.map((hit) => hit.path);
		expect(paths.filter((path) => deleted.includes(path))).toEqual([]);
		expect(answer).toEqual(await callOk<SearchAnswer>(flooder, "search_notes", { query: "alpha", limit: 50 }));
		// The notes are back for the other tests.
		for (const path of deleted) await fs.writeFile(nodePath.join(root, path), vaultFiles(NOTES)[path] ?? "");
	});

	test("a search over its work budget ends with an error saying how to narrow it, and the server goes on answering", async () => {
		running = await start(root, { callBudget: { sliceMs: 0, callWorkMs: 0 } });
		await running.service.search?.whenReady();
		const client = await connectClient(running.url, running.tokens[0]);
		clients.push(client);
		expect(await callError(client, "search_notes", { query: "alpha", limit: 50 })).toMatch(
			/was stopped, so other clients are not held up.*Add words, a folder or a tag/,
		);
		expect(await callOk<{ content: string }>(client, "read_note", { path: "Note 2" })).toMatchObject({ content: expect.stringContaining("alpha") });
	});

	test("with four searches always in flight from one token, another token's reads are answered between their slices", async () => {
		running = await start(root);
		await running.service.search?.whenReady();
		const flooder = await connectClient(running.url, running.tokens[0]);
		const other = await connectClient(running.url, running.tokens[1]);
		clients.push(flooder, other);
		const endAt = performance.now() + 2_000;
		const searchTimes: number[] = [];
		const flood = Array.from({ length: 4 }, async () => {
			while (performance.now() < endAt) {
				const begin = performance.now();
				await callOk(flooder, "search_notes", { query: "alpha", limit: 50 });
				searchTimes.push(performance.now() - begin);
			}
		});
		const readTimes: number[] = [];
		while (performance.now() < endAt) {
			const begin = performance.now();
			await callOk(other, "read_note", { path: "Note 3" });
			readTimes.push(performance.now() - begin);
		}
		await Promise.all(flood);
		expect(searchTimes.length).toBeGreaterThan(4);
		// Generous on a shared machine (the bench holds the targets): reads go on all the while and are not stuck behind whole searches.
		expect(readTimes.length).toBeGreaterThan(5);
		expect(percentile(readTimes, 0.5)).toBeLessThan(500);
	});
});

describe("a worst-case query's own steps beside other clients, over HTTP", () => {
	test("checking a phrase in every note holding its words pauses between notes: another token is answered meanwhile, and the answer is whole", async () => {
		// Every note holds both words; one in a hundred holds them in a row. Before it ranks, the
		// search reads each note's body for the phrase (as many notes as it reads them all for):
		// that step must pause too, not only the ranking.
		const NOTES = PHRASE_READ_ALL_MAX_NOTES;
		const files: Record<string, string> = {};
		for (let index = 0; index < NOTES; index++) {
			const inRow = index % 100 === 0 ? "alpha beta" : "beta then alpha";
			files[`Note ${index}.md`] = `# Note ${index}\n\n${inRow} ${"filler words here ".repeat(20)}\n`;
		}
		// One result, so one pause for its snippets and none in the ranking of 20 notes: the rest are the phrase checks'.
		expect(await searchBesideARead(files, '"alpha beta"', {}, "Note 7", NOTES / 100)).toBeGreaterThanOrEqual(Math.floor(NOTES / 256));
	});
});

/**
 * Searches `query` (with `filter`) from one token while every turn the server gives back is held,
 * checks that another token's read of `readPath` is answered before that search, then lets the
 * turns go on: the answer must be the one the index gives at once. Returns the turns the search took.
 */
async function searchBesideARead(files: Record<string, string>, query: string, filter: { folder?: string }, readPath: string, total = 1): Promise<number> {
	const root = await makeVault(files);
	const turns = new Gate({ open: true });
	let turnsTaken = 0;
	const running = await start(root, {
		yieldToHost: () => {
			turnsTaken++;
			return turns.wait().then(() => new Promise((resolve) => setImmediate(resolve)));
		},
		callBudget: { sliceMs: 0 },
	});
	const flooder = await connectClient(running.url, running.tokens[0]);
	const other = await connectClient(running.url, running.tokens[1]);
	try {
		await running.service.search?.whenReady();
		turnsTaken = 0;
		turns.close();
		let settled = false;
		const pending = callOk<SearchAnswer>(flooder, "search_notes", { query, ...filter, limit: 1 }).then((answer) => {
			settled = true;
			return answer;
		});
		await until(() => turnsTaken > 0);
		const read = await callOk<{ content: string }>(other, "read_note", { path: readPath });
		expect(read.content).toContain(files[`${readPath}.md`]?.split("\n")[2] ?? "");
		expect(settled).toBe(false);
		turns.open();
		const answer = await pending;
		// Asked after the call, not before: the index keeps a word's merged lists for the next search, and a
		// search before would have left the call nothing to merge (and so no turns to take).
		const expected = await running.service.search?.search(SCOPE, parseQuery(query), filter, 1);
		expect(expected?.total).toBe(total);
		expect(answer).toEqual(expected);
		return turnsTaken;
	} finally {
		turns.open();
		await flooder.close();
		await other.close();
		await running.service.stop();
		await running.host.close();
		await removeDir(root);
	}
}

describe("a query of short prefixes beside other clients, over HTTP", () => {
	test("merging every word a two-letter prefix starts pauses between steps: another token is answered meanwhile, and the answer is whole", async () => {
		// Every note holds thirty words starting "ka" and thirty starting "ko": "ka" is the union of
		// 90,000 postings, and excluding "ko" marks as many. One note holds "rare", so the candidates
		// are few and the turns taken are the unions'.
		const NOTES = 3_000;
		const letters = "abcdefghijklmnopqrstuvwxyz";
		const words = (start: string) =>
			Array.from({ length: 30 }, (_, index) => `${start}${letters[index % 26] ?? ""}${letters[Math.floor(index / 26)] ?? ""}q`).join(" ");
		const files: Record<string, string> = {};
		for (let index = 0; index < NOTES; index++)
			files[`Note ${index}.md`] = index === 7 ? `# Note 7\n\nrare ${words("ka")}\n` : `# Note ${index}\n\n${words("ka")} ${words("ko")}\n`;
		// 90,000 postings merged and as many marked, a step each 16,384: at least five and five.
		expect(await searchBesideARead(files, "rare ka -ko", {}, "Note 7")).toBeGreaterThanOrEqual(10);
	});
});

describe("a two-letter prefix over a vocabulary a hostile author planted, over HTTP", () => {
	test("walking the 60,000 words it starts and taking their lists pauses between steps: another token is answered meanwhile, and the answer is whole", async () => {
		// Six notes of 10,000 distinct words starting "co" each; Note 7 holds "rare" and one of them. The words were
		// walked, filtered and their lists taken in one piece (500,000 of them: seconds); only the merge paused.
		const files: Record<string, string> = { "Note 7.md": "# Note 7\n\nrare co0q\n" };
		for (let note = 0; note < 6; note++)
			files[`Planted ${note}.md`] = `${Array.from({ length: 10_000 }, (_, index) => `co${(note * 10_000 + index).toString(36)}q`).join(" ")}\n`;
		// 60,000 words walked, shortest first, until PREFIX_MAX_WORDS (4,096) the notes hold are found, then their lists taken
		// and merged, in steps. Those shortest words ("co0q" … three characters between "co" and "q") are all Planted 0's, so
		// only it joins Note 7, which alone holds both words, in the answer below it (soft AND): two in all.
		expect(await searchBesideARead(files, "rare co", {}, "Note 7", 2)).toBeGreaterThanOrEqual(15);
	});
});

describe("a word's forms looked for among many words outside the searched folder, over HTTP", () => {
	test("the words the folder does not hold are passed over between pauses: another token is answered meanwhile, and the answer is whole", async () => {
		// 90,000 words starting "co" (the start of "cod"'s forms), none of them in Tiny: a search limited
		// to Tiny passes over each of them, and did so in one piece, however many there were.
		// 300 notes of 300 words, not 3,000 of 30: the words passed over are as many, and so were the turns taken (67 on
		// both with the walk's pauses taken out, ci158); each note's own read, parse and index, most of the test's CPU, a tenth.
		const NOTES = 300;
		const files: Record<string, string> = { "Tiny/Fish.md": "# Fish\n\ncod and coding\n" };
		let word = 0;
		for (let index = 0; index < NOTES; index++)
			files[`Big/Note ${index}.md`] = `# Note ${index}\n\n${Array.from({ length: 300 }, () => `co${(word++).toString(36)}q`).join(" ")}\n`;
		// 90,000 words passed over, a step each FORM_WALK_STEP_WORDS (4,096): at least twenty pauses.
		expect(await searchBesideARead(files, "cod", { folder: "Tiny" }, "Tiny/Fish")).toBeGreaterThanOrEqual(20);
	});
});

describe("searching from the first second of the index build, over HTTP", () => {
	test("answers during the build say how much is indexed, the build finishes, and then answers are whole", async () => {
		const NOTES = 1_500;
		const root = await makeVault(vaultFiles(NOTES));
		const running = await start(root);
		const client = await connectClient(running.url, running.tokens[1]);
		try {
			let ready = false;
			void running.service.search?.whenReady().then(() => (ready = true));
			const visible = NOTES - NOTES / 10;
			const answerTimes: number[] = [];
			let lastIndexed = 0;
			let building = 0;
			const started = performance.now();
			while (!ready && performance.now() - started < 60_000) {
				const begin = performance.now();
				const answer = await callOk<SearchAnswer>(client, "search_notes", { query: "alpha", limit: 10 });
				answerTimes.push(performance.now() - begin);
				if (answer.index === undefined) continue;
				building++;
				expect(answer.index.state).toBe("building");
				expect(answer.index.total_notes).toBe(visible);
				expect(answer.index.indexed_notes).toBeGreaterThanOrEqual(lastIndexed);
				expect(answer.index.indexed_notes).toBeLessThanOrEqual(visible);
				expect(answer.notice).toContain(`index: building, ${answer.index.indexed_notes} of ${visible} notes`);
				expect(answer.total).toBeLessThanOrEqual(answer.index.indexed_notes);
				expect(answer.results.some((hit) => hit.path.startsWith("Private/"))).toBe(false);
				lastIndexed = answer.index.indexed_notes;
			}
			await running.service.search?.whenReady();
			expect(answerTimes.length).toBeGreaterThan(0);
			// Generous (the bench holds the 500 ms target): no answer waits for the whole build.
			expect(percentile(answerTimes, 0.5)).toBeLessThan(5_000);
			const whole = await callOk<SearchAnswer>(client, "search_notes", { query: "alpha", limit: 10 });
			expect(whole.index).toBeUndefined();
			expect(whole.total).toBe(visible);
			expect(building).toBeLessThanOrEqual(answerTimes.length);
		} finally {
			await client.close();
			await running.service.stop();
			await running.host.close();
			await removeDir(root);
		}
	});
});
