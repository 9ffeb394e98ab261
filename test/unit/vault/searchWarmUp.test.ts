import type { HostFile } from "../../../src/host/Host";
import { parseQuery } from "../../../src/search/query";
import { IndexedNoteSearch, scanSearch, type SearchFilter } from "../../../src/vault/search";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { RecordingLogger } from "../../helpers/service";

/** Words in most notes, so the warm-up asks about them (`tomatoes`, `garden`, `basil`), a folder of its own and tagged notes. */
const NOTES: Record<string, string> = {
	"Garden/Tomatoes.md": "---\ntags: [garden]\naliases: [Love apples]\n---\n# Tomatoes\nPlant tomatoes in May, water the garden daily. Basil helps tomatoes.\n",
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

function indexOf(vault: OpenVault): IndexedNoteSearch {
	return new IndexedNoteSearch(vault.host, vault.scope("Private"), () => new Promise((resolve) => setImmediate(resolve)), new RecordingLogger(), { warmUp: true });
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

	test("its warm-up searches read notes in scope only, log nothing, and change no answer: every search answers what a scan answers and what an index with no warm-up answers, asked once and again", async () => {
		const warmed = indexOf(vault);
		const reads = readsOf(vault);
		warmed.start();
		await warmed.whenReady();
		const readBefore = reads.paths.length;
		await warmed.whenWarmedUp();
		reads.restore();
		// It ran: it read the notes of its answers' snippets (none of an excluded folder), before any search of a person.
		expect(reads.paths.length).toBeGreaterThan(readBefore);
		expect(reads.paths.filter((path) => path.startsWith("Private/"))).toEqual([]);
		// A search before the warm-up's first turn ends it: this index never warmed up.
		const cold = indexOf(vault);
		cold.start();
		await cold.whenReady();
		const scope = vault.scope("Private");
		const first = await cold.search(scope, parseQuery("nothingatall"), {}, 10);
		expect(first.total).toBe(0);
		await cold.whenWarmedUp();
		try {
			for (const round of [1, 2]) {
				for (const { query, ...filter } of SEARCHES) {
					const fromWarmed = await warmed.search(scope, parseQuery(query), filter, 10);
					const fromCold = await cold.search(scope, parseQuery(query), filter, 10);
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
			expect((warmed as unknown as { logger: RecordingLogger }).logger.lines).toEqual([]);
		} finally {
			await warmed.stop();
			await cold.stop();
		}
	});

	test("a person's search ends it at once: the warm-up reads no note after it", async () => {
		const index = indexOf(vault);
		index.start();
		await index.whenReady();
		const reads = readsOf(vault);
		try {
			// A word no note holds: the person's search reads nothing itself.
			await index.search(vault.scope("Private"), parseQuery("nothingatall"), {}, 10);
			await index.whenWarmedUp();
			expect(reads.paths).toEqual([]);
		} finally {
			reads.restore();
			await index.stop();
		}
	});

	test("a stop ends it at its next pause: no note read after the stop, and no timer or immediate left behind", async () => {
		const pending = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout" || kind === "Immediate").length;
		const before = pending();
		const index = indexOf(vault);
		let stopping: Promise<void> | null = null;
		const readsAfterStop: string[] = [];
		const cachedRead = vault.host.vault.cachedRead.bind(vault.host.vault);
		// Stopped at the warm-up's first read of a note, while it is under way.
		const spy = jest.spyOn(vault.host.vault, "cachedRead").mockImplementation((file: HostFile) => {
			if (stopping) readsAfterStop.push(file.path);
			else stopping = index.stop();
			return cachedRead(file);
		});
		try {
			index.start();
			await index.whenReady();
			await index.whenWarmedUp();
			expect(stopping).not.toBeNull();
			await stopping;
			expect(readsAfterStop).toEqual([]);
			expect(pending()).toBe(before);
		} finally {
			spy.mockRestore();
		}
	});
});
