import type { CachedMetadata } from "obsidian";
import { SPLIT_MAP_FIRST_KEYS } from "../../../src/config/limits";
import {
	allTagTexts,
	hasNoTags,
	isTagOrNested,
	listedNoteTags,
	tagPageWithinCharacters,
	tagsWithinCharacters,
	notesWithTag,
	noteTagsInSteps,
	tagKey,
	tagKeysIn,
} from "../../../src/vault/tags";
import { parseMetadata } from "../../../src/markdown/metadata";
import { runSteps } from "../../../src/markdown/steps";
import { StringPool } from "../../../src/headless/compactMetadata";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { largestTableWhile } from "../../helpers/tableGrowth";

describe("tag keys", () => {
	test.each<[string, string]>([
		["#Project/Alpha", "project/alpha"],
		["project", "project"],
		["#ÉTÉ", "été"],
	])("tagKey(%s) is %s", (tag, key) => {
		expect(tagKey(tag)).toBe(key);
	});

	test.each<[string, string, boolean]>([
		["project", "project", true],
		["project/alpha", "project", true],
		["project/alpha/beta", "project/alpha", true],
		["projects", "project", false],
		["project", "project/alpha", false],
	])("%s is %s or nested under it: %s", (key, wanted, expected) => {
		expect(isTagOrNested(key, wanted)).toBe(expected);
	});
});

describe("a note's tags", () => {
	test("are each key once with its first spelling, key and spelling one after the other", () => {
		const cache = parseMetadata("---\ntags: [Project/Alpha, todo]\n---\n#project/alpha #Idea #TODO #idea/x\n");
		const tags = runSteps(noteTagsInSteps(cache, new StringPool()));
		expect(tags).toEqual(["project/alpha", "Project/Alpha", "todo", "todo", "idea", "Idea", "idea/x", "idea/x"]);
		expect([...tagKeysIn(tags)]).toEqual(["project/alpha", "todo", "idea", "idea/x"]);
	});

	test("a note of 40,000 tags is read in steps of at most 4,096 (16,384 before: about 25 ms a step on a busy machine), each key as tagKey gives it", () => {
		const texts = Array.from({ length: 40_000 }, (_, index) => (index % 3 === 0 ? `#T${index}/X` : `#t${index % 20_000}`));
		const steps = noteTagsInSteps(parseMetadata(`${texts.join(" ")}\n`), new StringPool());
		let yields = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) yields++;
		expect(yields).toBeGreaterThanOrEqual(Math.floor(40_000 / 4096));
		const firstSpelling = new Map<string, string>();
		for (const tag of texts) if (!firstSpelling.has(tagKey(tag))) firstSpelling.set(tagKey(tag), tag.slice(1));
		expect(next.value).toEqual([...firstSpelling].flat());
	});

	test("a note without metadata has none", () => {
		expect(runSteps(noteTagsInSteps(null, new StringPool()))).toEqual([]);
	});

	test("a note kept as parsed with 200,000 distinct tags is read without any table of more than SPLIT_MAP_FIRST_KEYS entries (one set of all 200,000 before: a growth copies it whole, in one step)", () => {
		const TAGS = 200_000;
		const position = { start: { line: 0, col: 0, offset: 0 }, end: { line: 0, col: 1, offset: 1 } };
		const cache = { tags: Array.from({ length: TAGS }, (_, index) => ({ tag: `#T${index}`, position })) } as CachedMetadata;
		// The largest table a tag is added to (its next growth copies it whole). The shared string pool, bounded, is full already.
		const pool = new StringPool();
		for (let index = 0; index < 60_000; index++) pool.intern(`pooled ${index}`);
		const { result: tags, largest } = largestTableWhile(() => runSteps(noteTagsInSteps(cache, pool)));
		expect(tags).toHaveLength(2 * TAGS);
		expect(tags.slice(0, 4)).toEqual(["t0", "T0", "t1", "T1"]);
		expect(tags.slice(-2)).toEqual([`t${TAGS - 1}`, `T${TAGS - 1}`]);
		expect(largest).toBeLessThanOrEqual(SPLIT_MAP_FIRST_KEYS);
	});
});

describe("tags in a vault", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault({
			"Alpha.md": "---\ntags: [Project/Alpha]\n---\nSee #project/alpha again and #idea\n",
			"Beta.md": "Work on #project/beta and #Idea.\n",
			"Gamma.md": "No tags, only `#code` and a heading\n# Heading\n",
			"Private/Secret.md": "#project/secret #idea\n",
			"Escaped.md": "Not a tag: \\#escaped, a tag: #real\n",
			"Props.md": "---\ntags: [only-a-property]\n---\nNo tag in the body.\n",
		});
	});
	afterAll(() => vault.close());

	test.each<[string, string[]]>([
		["#project", ["Alpha.md", "Beta.md"]],
		["PROJECT/alpha", ["Alpha.md"]],
		["idea", ["Alpha.md", "Beta.md"]],
		["project/secret", []],
		["code", []],
		["escaped", []],
	])("notes tagged %s", async (tag, expected) => {
		expect(await notesWithTag(vault.host, vault.scope("Private"), tag)).toEqual(expected);
	});

	test("hasNoTags (read_note's way past listing) is true exactly where listedNoteTags lists none", async () => {
		const clock = { due: () => false, checkpoint: () => Promise.resolve() };
		const untagged: string[] = [];
		for (const path of ["Alpha.md", "Beta.md", "Gamma.md", "Escaped.md", "Props.md"]) {
			const cache = vault.host.metadataCache.getFileCache(vault.host.vault.getFileByPath(path)!)!;
			const { listed, leftOut } = await listedNoteTags(cache, 1000, clock);
			expect(hasNoTags(cache)).toBe(listed.length === 0 && leftOut === 0);
			if (hasNoTags(cache)) untagged.push(path);
		}
		expect(untagged).toEqual(["Gamma.md"]);
		// Metadata as parsed, not packed: the same answers.
		expect(hasNoTags(parseMetadata("No tags, only `#code`\n"))).toBe(true);
		expect(hasNoTags(parseMetadata("---\ntags: [a]\n---\nbody\n"))).toBe(false);
		expect(hasNoTags(parseMetadata("a #tag\n"))).toBe(false);
	});

	test("without the exclusion the excluded note's tags count", async () => {
		expect(await notesWithTag(vault.host, vault.scope(), "project")).toEqual(["Alpha.md", "Beta.md", "Private/Secret.md"]);
	});
});

describe("isTagOrNested", () => {
	test("matches the tag and tags nested under it, not tags that only share a prefix", () => {
		expect(isTagOrNested("project", "project")).toBe(true);
		expect(isTagOrNested("project/alpha", "project")).toBe(true);
		expect(isTagOrNested("projects", "project")).toBe(false);
	});
});

describe("tagsWithinCharacters", () => {
	test("lists whole tags in order while they fit, counts those that do not, and stops at the limit", () => {
		const tags = ["#a", "#long-tag", "#b", "#c", "#d"];
		expect(tagsWithinCharacters(tags, (tag) => tag, 10, 7)).toEqual({ listed: ["#a", "#b", "#c"], leftOut: 2 });
		expect(tagsWithinCharacters(tags, (tag) => tag, 3, 7)).toEqual({ listed: ["#a", "#b"], leftOut: 1 });
		expect(tagsWithinCharacters(tags, (tag) => tag, 10, 100)).toEqual({ listed: tags, leftOut: 0 });
	});
});

describe("tagPageWithinCharacters", () => {
	test("a page ends before a tag that lacks room on it (the next page starts there); a tag no page holds is left out and passed", () => {
		const tags = ["#a", "#long-tag", "#b", "#much-too-long", "#c"];
		const page = (limit: number, max: number) => tagPageWithinCharacters(tags, (tag) => tag, limit, max);
		// "#long-tag" fits a page of 9 alone: this page ends before it, nothing after it is listed here.
		expect(page(10, 9)).toEqual({ listed: ["#a"], leftOut: 0, taken: 1 });
		expect(page(10, 12)).toEqual({ listed: ["#a", "#long-tag"], leftOut: 0, taken: 2 });
		// "#much-too-long" (14) fits no page of 13: counted and passed; "#c" then lacks room, and starts the next page.
		expect(page(10, 13)).toEqual({ listed: ["#a", "#long-tag", "#b"], leftOut: 1, taken: 4 });
		expect(tagPageWithinCharacters(["#much-too-long", "#c"], (tag) => tag, 10, 13)).toEqual({ listed: ["#c"], leftOut: 1, taken: 2 });
		expect(page(2, 100)).toEqual({ listed: ["#a", "#long-tag"], leftOut: 0, taken: 2 });
		expect(page(10, 100)).toEqual({ listed: tags, leftOut: 0, taken: 5 });
	});
});

describe("listedNoteTags: the tags read_note lists", () => {
	test("the frontmatter's then the body's, each text once, as many as the characters hold, with how many are left out", async () => {
		const cache = parseMetadata("---\ntags: [a, b]\n---\n#b #a #c #LongerTag #d #c\n");
		const clock = { due: () => false, checkpoint: () => Promise.resolve() };
		const all = [...new Set(allTagTexts(cache))];
		expect(await listedNoteTags(cache, 1000, clock)).toEqual({ listed: all, leftOut: 0 });
		expect(await listedNoteTags(cache, 9, clock)).toEqual(tagsWithinCharacters(all, (tag) => tag, all.length, 9));
	});

	test("a note of 200,000 different tags is looked at in slices (spread, joined and deduplicated in one piece of about 1 s at 800,000)", async () => {
		const TAGS = 200_000;
		const cache = parseMetadata(Array.from({ length: TAGS }, (_, index) => `#t${index}`).join(" ") + "\n");
		let pauses = 0;
		const clock = { due: () => true, checkpoint: () => ((pauses += 1), Promise.resolve()) };
		const { listed, leftOut } = await listedNoteTags(cache, 64 * 1024, clock);
		expect(listed.length + leftOut).toBe(TAGS);
		expect(listed.slice(0, 2)).toEqual(["#t0", "#t1"]);
		// One pause per 1,024 tags looked at: no piece looks at more.
		expect(pauses).toBe(Math.floor(TAGS / 1024));
	});
});
