import { MIN_PREFIX_CHARS, SNIPPET_SEARCH_MAX_CHARS } from "../../../src/config/limits";
import { SearchEngine, type SearchAnswer } from "../../../src/search/engine";
import { parseQuery } from "../../../src/search/query";
import { seededRandom } from "../../../bench/syntheticVault";

/** An engine over `texts` (title = path), and a search over it. */
function engineOver(texts: ReadonlyMap<string, string>): (query: string) => Promise<SearchAnswer> {
	const engine = new SearchEngine();
	for (const [path, text] of texts) engine.index.add(path, path, 0, text, []);
	return (query) => engine.search(parseQuery(query), null, 50, (path) => Promise.resolve(texts.get(path) ?? ""));
}

describe("a query word shorter than MIN_PREFIX_CHARS matches only itself (one letter would expand to thousands of words)", () => {
	const search = engineOver(
		new Map([
			["one", "plan k here"],
			["two", "kale soup for the plan"],
			["three", "東京 trip"],
		]),
	);
	const paths = async (query: string) => (await search(query)).results.map((hit) => hit.path);

	test("the limit is what this test assumes", () => {
		expect(MIN_PREFIX_CHARS).toBe(2);
	});

	test("a one-letter word finds the notes holding that word, not every word it starts", async () => {
		expect(await paths("k")).toEqual(["one"]);
		expect((await search("k")).results[0]?.snippets).toEqual(["plan «k» here"]);
		expect(await paths("plan -k")).toEqual(["two"]);
		expect(await paths('"plan k"')).toEqual(["one"]);
	});

	test("an excluded word or prefix removes notes holding it in the body or the title, not those with it only in a heading", async () => {
		const engine = new SearchEngine();
		engine.index.add("titled.md", "Kale", 0, "soup", []);
		engine.index.add("body.md", "body", 0, "kale soup", []);
		engine.index.add("heading.md", "heading", 0, "soup", ["Kale"]);
		const found = async (query: string) => (await engine.search(parseQuery(query), null, 10, () => Promise.resolve(""))).results.map((hit) => hit.path);
		expect(await found("soup -kale")).toEqual(["heading.md"]);
		expect(await found("soup -ka -ka")).toEqual(["heading.md"]);
		expect(await found('soup -"kale soup"')).toEqual(expect.arrayContaining(["titled.md", "heading.md"]));
	});

	test("two letters are a prefix as before, and a one-character Chinese word still finds the words it stands in", async () => {
		expect(await paths("ka")).toEqual(["two"]);
		expect((await search("ka")).results[0]?.snippets).toEqual(["«kale» soup for the plan"]);
		expect(await paths("東")).toEqual(["three"]);
	});
});

describe("worst-case query cost on a common vocabulary", () => {
	// 3,000 notes of 150 words from 300 two-syllable words: every two-letter prefix is in most notes.
	const random = seededRandom(16);
	const syllables = "ka lo mi ne ru ta po si fe gu da vo re li mo sa tu be ni zo".split(" ");
	const vocabulary = Array.from({ length: 300 }, () => `${syllables[Math.floor(random() * 20)]}${syllables[Math.floor(random() * 20)]}`);
	const texts = new Map(
		Array.from({ length: 3000 }, (_, index) => [
			`note ${index}`,
			Array.from({ length: 150 }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(" "),
		]),
	);
	const search = engineOver(texts);
	const word = vocabulary[0] ?? "";

	/** The fastest of a few runs, in ms: the cost of the query, not of whatever else the machine did meanwhile. */
	async function fastest(query: string): Promise<number> {
		let best = Infinity;
		for (let run = 0; run < 5; run++) {
			const started = performance.now();
			await search(query);
			best = Math.min(best, performance.now() - started);
		}
		return best;
	}

	test("a phrase that repeats a word, longer than the one-pass window, finds only the notes with it in a row", async () => {
		const repeated = new Map([
			["row", `${"very ".repeat(40)}good`],
			["apart", `${"very ".repeat(39)}much very good`],
		]);
		const searchRepeated = engineOver(repeated);
		expect((await searchRepeated(`"${"very ".repeat(40)}good"`)).results.map((hit) => hit.path)).toEqual(["row"]);
		expect((await searchRepeated(`"${"very ".repeat(39)}much very go"`)).results.map((hit) => hit.path)).toEqual(["apart"]);
	});

	test("a phrase counts every place it stands, overlapping ones too: more places rank higher", async () => {
		const searchCounted = engineOver(
			new Map([
				["once", "soup soup kale bread"],
				["twice", "soup soup soup kale"],
				["apart", "soup kale soup bread"],
			]),
		);
		const answer = await searchCounted('"soup soup"');
		expect(answer.results.map((hit) => hit.path)).toEqual(["twice", "once"]);
		expect(answer.results[0]?.snippets).toEqual(["«soup soup» soup kale"]);
	});

	test("an exclusion typed many times costs what it costs once, and answers the same", async () => {
		const once = `${word} -ka`;
		const many = `${word} ${"-ka ".repeat(150)}`;
		expect(await search(many)).toEqual(await search(once));
		expect(await fastest(many)).toBeLessThan(5 * (await fastest(once)) + 2);
	});
});

describe("snippets of a long note look through at most SNIPPET_SEARCH_MAX_CHARS of its body (unbounded, a title-only match in a 4 MB note took 200 ms)", () => {
	const line = "lorem ipsum dolor sit amet consectetur adipiscing elit\n";
	const long = line.repeat(Math.ceil((4 * 1024 * 1024) / line.length));

	test("a note found by its title shows the start of its body, however long the body", async () => {
		// Twice the bound against 32 times it: a bounded look costs the same for both, an unbounded
		// one 16 times more for the long body. Timed in turns, so the machine's load falls on both.
		const short = line.repeat(Math.ceil((2 * SNIPPET_SEARCH_MAX_CHARS) / line.length));
		const searchShort = engineOver(new Map([["Garden", short]]));
		const searchLong = engineOver(new Map([["Garden", long]]));
		let fastestShort = Infinity;
		let fastestLong = Infinity;
		for (let run = 0; run < 5; run++) {
			for (const [search, isLong] of [
				[searchShort, false],
				[searchLong, true],
			] as const) {
				const started = performance.now();
				const answer = await search("garden");
				const took = performance.now() - started;
				if (isLong) fastestLong = Math.min(fastestLong, took);
				else fastestShort = Math.min(fastestShort, took);
				expect(answer.results.map((hit) => hit.path)).toEqual(["Garden"]);
				expect(answer.results[0]?.snippets[0]?.startsWith("lorem ipsum")).toBe(true);
			}
		}
		expect(long.length).toBeGreaterThan(30 * SNIPPET_SEARCH_MAX_CHARS);
		expect(fastestLong).toBeLessThan(4 * fastestShort + 5);
	});

	test("a match within the bound is marked; one only past it leaves the start of the body shown", async () => {
		const near = `${line.repeat(10)}the garden\n${long}`;
		const far = `${line.repeat(Math.ceil(SNIPPET_SEARCH_MAX_CHARS / line.length) + 10)}the garden`;
		const search = engineOver(
			new Map([
				["near", near],
				["far", far],
			]),
		);
		const snippets = new Map((await search("garden")).results.map((hit) => [hit.path, hit.snippets]));
		expect(snippets.get("near")?.[0]).toContain("the «garden»");
		expect(snippets.get("far")).toEqual([expect.stringMatching(/^lorem ipsum .*…$/)]);
	});
});
