import type { HostFile } from "../../../src/host/Host";
import { parseQuery } from "../../../src/search/query";
import { IndexedNoteSearch, scanSearch, type SearchFilter } from "../../../src/vault/search";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { RecordingLogger } from "../../helpers/service";

/** Words in most notes, so the warm-up asks about them (`tomatoes`, `garden`, `basil`), a folder of its own and tagged notes. */
const NOTES: Record<string, string> = {
	"Garden/Tomatoes.md":
		"---\ntags: [garden]\naliases: [Love apples]\n---\n# Tomatoes\nPlant tomatoes in May, water the garden daily. Basil helps tomatoes.\n",
	"Garden/Basil.md": "# Basil\nBasil grows well next to tomatoes in the garden.\n",
	"Journal/2026-05-01.md": "Planted tomatoes and basil today in the garden. #garden\n",
	"Kitchen/Sauce.md": "Tomato sauce: tomatoes, basil, garlic. Not from the garden.\n",
	"Kitchen/Bread.md": "Flour, water, salt. Basil on top, tomatoes beside.\n",
	"Private/Diary.md": "I secretly hate tomatoes, basil and the garden. Tomatoes everywhere tomatoes.\n",
};

/** Queries on the warm-up's own words and kinds (what it kept would serve these first), and others. */
const SEARCHES: Array<{ query: string } & SearchFilter> = [
	{ query: "tomatoes" },
	{ query: "garden" },
	{ query: "basil" },
	{ query: "tomatoes garden" },
	{ query: '"tomatoes in"' },
	{ query: "tomatoe" },
	{ query: "garden -basil" },
	{ query: "the tomatoes" },
	{ query: "basil", folder: "Garden" },
	{ query: "tomatoes", tag: "garden" },
	{ query: "love apples" },
	{ query: "water" },
];

/**
 * The timers and immediates set from here on (by the index, through `node:timers` or the globals) that have
 * neither run nor been cleared. Not `process.getActiveResourcesInfo()`: run alone, a test file shares its
 * process with Jest's reporter, whose own status timer came and went (the count was 1 off in 3 runs of 6).
 */
function pendingTimers(): { count(): number; restore(): void } {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module objects
	const timers = require("node:timers") as typeof import("node:timers");
	const live = new Set<unknown>();
	const spies: Array<{ mockRestore(): void }> = [];
	for (const owner of [timers, globalThis] as Array<typeof timers>) {
		const [setTimeout, clearTimeout, setImmediate, clearImmediate] = [owner.setTimeout, owner.clearTimeout, owner.setImmediate, owner.clearImmediate];
		spies.push(
			jest.spyOn(owner, "setTimeout").mockImplementation(((run: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
				const handle = setTimeout(() => (live.delete(handle), run(...args)), ms);
				live.add(handle);
				return handle;
			}) as typeof timers.setTimeout),
			jest
				.spyOn(owner, "clearTimeout")
				.mockImplementation(((handle: NodeJS.Timeout) => (live.delete(handle), clearTimeout(handle))) as typeof timers.clearTimeout),
			jest.spyOn(owner, "setImmediate").mockImplementation(((run: (...args: unknown[]) => void, ...args: unknown[]) => {
				const handle = setImmediate(() => (live.delete(handle), run(...args)));
				live.add(handle);
				return handle;
			}) as typeof timers.setImmediate),
			jest
				.spyOn(owner, "clearImmediate")
				.mockImplementation(((handle: NodeJS.Immediate) => (live.delete(handle), clearImmediate(handle))) as typeof timers.clearImmediate),
		);
	}
	return { count: () => live.size, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

/** An index over `vault` that warms up, and how many pauses it has taken (its build's, its updates' and its warm-up's). */
function indexOf(vault: OpenVault, whenIdle?: () => Promise<void> | null): { index: IndexedNoteSearch; pauses: () => number; logger: RecordingLogger } {
	let pauses = 0;
	const logger = new RecordingLogger();
	const index = new IndexedNoteSearch(
		vault.host,
		vault.scope("Private"),
		() => {
			pauses++;
			return new Promise((resolve) => setImmediate(resolve));
		},
		logger,
		{ warmUp: true, whenIdle },
	);
	return { index, pauses: () => pauses, logger };
}

/** The paths of the notes read through the host from now on. */
function readsOf(vault: OpenVault): { paths: string[]; restore(): void } {
	const paths: string[] = [];
	const cachedRead = vault.host.vault.cachedRead.bind(vault.host.vault);
	const spy = jest.spyOn(vault.host.vault, "cachedRead").mockImplementation((file: HostFile) => {
		paths.push(file.path);
		return cachedRead(file);
	});
	return { paths, restore: () => spy.mockRestore() };
}

describe("the search index warms its search code once ready", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault(NOTES);
	});
	afterAll(async () => {
		await vault.close();
	});

	test("its warm-up searches work in pauses, read no note, log nothing, and change no answer: every search answers what a scan answers and what an index with no warm-up answers, asked once and again", async () => {
		const warmed = indexOf(vault);
		warmed.index.start();
		await warmed.index.whenReady();
		const pausedBefore = warmed.pauses();
		const reads = readsOf(vault);
		await warmed.index.whenWarmedUp();
		reads.restore();
		// It ran, in slices (a pause after each of its searches at least), and read nothing: its snippets are of a made-up text.
		expect(warmed.pauses() - pausedBefore).toBeGreaterThanOrEqual(10);
		expect(reads.paths).toEqual([]);
		// A search before the warm-up's first turn ends it: this index never warmed up.
		const cold = indexOf(vault);
		cold.index.start();
		await cold.index.whenReady();
		const coldPausedBefore = cold.pauses();
		const scope = vault.scope("Private");
		expect((await cold.index.search(scope, parseQuery("nothingatall"), {}, 10)).total).toBe(0);
		await cold.index.whenWarmedUp();
		// No pause after the one its first turn was waiting in when the search came.
		expect(cold.pauses()).toBe(coldPausedBefore);
		try {
			for (const round of [1, 2]) {
				for (const { query, ...filter } of SEARCHES) {
					const fromWarmed = await warmed.index.search(scope, parseQuery(query), filter, 10);
					const fromCold = await cold.index.search(scope, parseQuery(query), filter, 10);
					const fromScan = await scanSearch(vault.host, scope, parseQuery(query), filter, 10);
					expect({ round, query, filter, answer: fromWarmed }).toEqual({ round, query, filter, answer: fromCold });
					expect({ round, query, paths: fromWarmed.results.map((hit) => hit.path), total: fromWarmed.total }).toEqual({
						round,
						query,
						paths: fromScan.results.map((hit) => hit.path),
						total: fromScan.total,
					});
				}
			}
			expect(warmed.logger.lines).toEqual([]);
		} finally {
			await warmed.index.stop();
			await cold.index.stop();
		}
	});

	test.each([
		["a search", (index: IndexedNoteSearch, vault: OpenVault) => void index.search(vault.scope("Private"), parseQuery("nothingatall"), {}, 10)],
		["a client's request (the server ends it at each)", (index: IndexedNoteSearch) => index.endWarmUp()],
	])("%s ends it at once: it takes no pause after", async (_, interrupt) => {
		const { index, pauses } = indexOf(vault);
		index.start();
		await index.whenReady();
		// Two of its searches in.
		const from = pauses();
		while (pauses() - from < 2) await new Promise((resolve) => setImmediate(resolve));
		interrupt(index, vault);
		const pausedAt = pauses();
		await index.whenWarmedUp();
		expect(pauses()).toBe(pausedAt);
		await index.stop();
	});

	test("a request or a search while the index builds does not keep it from running once the index is ready (a client connects as the server starts)", async () => {
		const { index, pauses } = indexOf(vault);
		index.start();
		index.endWarmUp();
		await index.search(vault.scope("Private"), parseQuery("tomatoes"), {}, 10);
		await index.whenReady();
		const from = pauses();
		await index.whenWarmedUp();
		expect(pauses() - from).toBeGreaterThanOrEqual(10);
		await index.stop();
	});

	test("a request being answered goes first: the warm-up takes no turn until none is, then runs; a stop meanwhile ends it", async () => {
		// A request let in while the index built, still being answered when it is ready (as the endpoint's places tell).
		let answered: () => void = () => undefined;
		let inFlight: Promise<void> | null = new Promise<void>((resolve) => (answered = resolve));
		const { index, pauses } = indexOf(vault, () => inFlight);
		let over = false;
		index.start();
		void index.whenWarmedUp().then(() => (over = true));
		await index.whenReady();
		const from = pauses();
		for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
		// One pause at most: the turn it waits in.
		expect(pauses() - from).toBeLessThanOrEqual(1);
		expect(over).toBe(false);
		inFlight = null;
		answered();
		await index.whenWarmedUp();
		expect(pauses() - from).toBeGreaterThanOrEqual(10);
		// Waiting for a request that never ends, a stop still ends it.
		index.setScope(vault.scope("Private", "Kitchen"));
		inFlight = new Promise<void>(() => undefined);
		await index.whenReady();
		await index.stop();
		await index.whenWarmedUp();
	});

	test("while it waits for a request that never ends, a client's next request or a stop ends it at once", async () => {
		const turns = async (count: number) => {
			for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
		};
		for (const end of ["request", "stop"] as const) {
			const { index, pauses } = indexOf(vault, () => new Promise<void>(() => undefined));
			let over = false;
			index.start();
			void index.whenWarmedUp().then(() => (over = true));
			await index.whenReady();
			await turns(20);
			const waitingAt = pauses();
			expect(over).toBe(false);
			let stopped = false;
			if (end === "request") index.endWarmUp();
			else void index.stop().then(() => (stopped = true));
			await turns(20);
			// Ended where it waited: no turn taken after, and the stop (the server's) not held.
			expect({ end, over, stopped: end === "stop" ? stopped : true, pauses: pauses() - waitingAt }).toEqual({
				end,
				over: true,
				stopped: true,
				pauses: 0,
			});
			if (end === "request") await index.stop();
		}
	});

	test("a new scope's index (the excluded folders changed) is warmed up too once it is ready, once for scopes changed twice, reading no note", async () => {
		const { index, pauses } = indexOf(vault);
		index.start();
		await index.whenWarmedUp();
		index.setScope(vault.scope("Private", "Kitchen"));
		index.setScope(vault.scope("Private", "Journal"));
		await index.whenReady();
		const from = pauses();
		const reads = readsOf(vault);
		let searchesRun = 0;
		const answer = jest.spyOn(index as unknown as { answer: (...args: unknown[]) => Promise<unknown> }, "answer");
		await index.whenWarmedUp();
		searchesRun = answer.mock.calls.length;
		answer.mockRestore();
		reads.restore();
		expect(pauses() - from).toBeGreaterThanOrEqual(10);
		// Its searches, once: not a warm-up for each scope asked for.
		expect(searchesRun).toBeGreaterThanOrEqual(10);
		expect(searchesRun).toBeLessThanOrEqual(15);
		expect(reads.paths).toEqual([]);
		const scope = vault.scope("Private", "Journal");
		for (const { query, ...filter } of SEARCHES) {
			const fromIndex = await index.search(scope, parseQuery(query), filter, 10);
			const fromScan = await scanSearch(vault.host, scope, parseQuery(query), filter, 10);
			expect({ query, filter, hits: fromIndex.results.map((hit) => [hit.path, hit.snippets]), total: fromIndex.total }).toEqual({
				query,
				filter,
				hits: fromScan.results.map((hit) => [hit.path, hit.snippets]),
				total: fromScan.total,
			});
		}
		await index.stop();
	});

	test("a stop ends it at its next pause, and leaves no timer or immediate behind", async () => {
		const pending = pendingTimers();
		try {
			const { index, pauses } = indexOf(vault);
			index.start();
			await index.whenReady();
			const from = pauses();
			while (pauses() - from < 2) await new Promise((resolve) => setImmediate(resolve));
			const stopping = index.stop();
			const pausedAt = pauses();
			await stopping;
			await index.whenWarmedUp();
			expect(pauses()).toBe(pausedAt);
			expect(pending.count()).toBe(0);
		} finally {
			pending.restore();
		}
	});
});

describe("what changes while the index warms up reaches the answers after it", () => {
	test.each([
		[
			"a note edited, one created, one deleted and one moved into the excluded folder",
			async (vault: OpenVault) => {
				await vault.host.vault.process(vault.host.vault.getFileByPath("Garden/Basil.md")!, () => "# Basil\nZebra basil beside tomatoes.\n");
				await vault.host.vault.create("Garden/Zebra.md", "Zebra tomatoes in the garden, tomatoes again.\n");
				await vault.host.vault.trash(vault.host.vault.getFileByPath("Kitchen/Bread.md")!);
				await vault.host.vault.rename(vault.host.vault.getFileByPath("Kitchen/Sauce.md")!, "Private/Sauce.md");
				return ["Private"];
			},
		],
		[
			"the excluded folders changed",
			(vault: OpenVault, index: IndexedNoteSearch) => {
				index.setScope(vault.scope("Private", "Kitchen"));
				return Promise.resolve(["Private", "Kitchen"]);
			},
		],
	])("%s: every search answers, with its snippets, what a scan answers", async (_, change) => {
		const vault = await openVault(NOTES);
		const { index, pauses } = indexOf(vault);
		try {
			index.start();
			let over = false;
			void index.whenWarmedUp().then(() => (over = true));
			await index.whenReady();
			// Three of its searches in, and it still runs when the change comes.
			const from = pauses();
			while (pauses() - from < 3) await new Promise((resolve) => setImmediate(resolve));
			expect(over).toBe(false);
			const excluded = await change(vault, index);
			await index.whenWarmedUp();
			const scope = vault.scope(...excluded);
			for (const { query, ...filter } of [...SEARCHES, { query: "zebra" }, { query: "zebra tomatoes" }]) {
				const fromIndex = await index.search(scope, parseQuery(query), filter, 10);
				const fromScan = await scanSearch(vault.host, scope, parseQuery(query), filter, 10);
				const seen = (answer: typeof fromScan) => ({ query, filter, hits: answer.results.map((hit) => [hit.path, hit.snippets]), total: answer.total });
				expect(seen(fromIndex)).toEqual(seen(fromScan));
			}
		} finally {
			await index.stop();
			await vault.close();
		}
	});
});
