import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { KEPT_PAGED_TAG_WALKS } from "../../src/config/limits";
import { startScopedReaders, type ScopedReaders } from "../helpers/scopedReaders";
import { callOk } from "../helpers/tools";

interface Tags {
	tags: Array<{ tag: string; count: number }>;
	total: number;
	next_cursor?: string;
	tags_order_changed?: string;
}

/** Tags #t00–#t29 in `L/`: t00–t09 carried by three notes, t10–t19 by two, t20–t29 by one (four notes a tag, to raise it to four). */
const TAGS = 30;
const NOTES_A_TAG = 4;
const tagName = (index: number) => `t${String(index).padStart(2, "0")}`;
const noteOf = (index: number, note: number) => `L/${tagName(index)}-${note}.md`;
const startCount = (index: number) => (index < 10 ? 3 : index < 20 ? 2 : 1);
/** Outside the scoped token's folder (`L`): the full token sees it (one note: after #t29). */
const OTHER = "Other/o.md";
/** In the excluded folder: never seen, nor counted, nor an ordering hint. */
const PRIVATE = "Private/p.md";

/**
 * list_tags paged over HTTP while notes' tags change between the pages (a tag's count going down past the cursor's place,
 * one going up past it): a client reading the pages one after another gets every tag once, or the answer says the order
 * changed. Paged by the (count, tag) key alone, a tag whose count went down after its page came again, and one whose
 * count went up before the cursor never came.
 */
describe("list_tags: pages read while notes' tags change", () => {
	let readers: ScopedReaders;
	let everyFolder: Client;
	let inL: Client;

	beforeAll(async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < TAGS; index++)
			for (let note = 0; note < NOTES_A_TAG; note++) files[noteOf(index, note)] = note < startCount(index) ? `#${tagName(index)}\n` : "none\n";
		files[OTHER] = "#other\n";
		files[PRIVATE] = "#secret #t05 #t25\n";
		readers = await startScopedReaders(files);
		({ everyFolder, inL } = readers);
	}, 60_000);
	afterAll(() => readers.stop());

	const write = (path: string, text: string) => readers.rewrite(path, text);
	/** Makes `#tNN` carried by `count` notes, as another client editing them would. */
	async function setCount(index: number, count: number): Promise<void> {
		for (let note = 0; note < NOTES_A_TAG; note++) await write(noteOf(index, note), note < count ? `#${tagName(index)}\n` : "none\n");
	}
	async function restore(): Promise<void> {
		for (let index = 0; index < TAGS; index++) await setCount(index, startCount(index));
		await write(PRIVATE, "#secret #t05 #t25\n");
	}

	/** Reads the pages of 10 one after another, `between[k]` done after page k+1; every page's answer. */
	async function pagesWith(client: Client, between: Array<() => Promise<void>>, first?: string): Promise<Tags[]> {
		const pages: Tags[] = [];
		let cursor = first;
		do {
			const page = await callOk<Tags>(client, "list_tags", { limit: 10, ...(cursor ? { cursor } : {}) });
			pages.push(page);
			cursor = page.next_cursor;
			await between[pages.length - 1]?.();
		} while (cursor);
		return pages;
	}
	const listed = (pages: Tags[]) => pages.flatMap((page) => page.tags.map(({ tag }) => tag));
	const everyTag = Array.from({ length: TAGS }, (_, index) => `#${tagName(index)}`);

	it("gives every tag once while counts change past the cursor both ways, the excluded note's edits never seen", async () => {
		await restore();
		const pages = await pagesWith(everyFolder, [
			// #t05 was on page 1: down to one note (past the cursor, where it would come again); #t25 not yet given: up to four
			// (before the cursor, where it would never come); the excluded note's tags changed too.
			async () => {
				await setCount(5, 1);
				await setCount(25, 4);
				await write(PRIVATE, "#secret2 #t12\n");
			},
			async () => {
				await setCount(14, 1);
				await setCount(28, 4);
			},
		]);
		const tags = listed(pages);
		expect([...tags].sort()).toEqual([...everyTag, "#other"].sort());
		expect(tags.some((tag) => tag.startsWith("#secret"))).toBe(false);
		expect(pages.slice(1).map((page) => page.tags_order_changed)).toEqual(pages.slice(1).map(() => "pages_keep_first_order"));
		// Counts as now (#t25 and #t28 are listed after they changed), and the total.
		const counts = new Map(pages.flatMap((page) => page.tags.map(({ tag, count }) => [tag, count] as const)));
		expect([counts.get("#t25"), counts.get("#t28")]).toEqual([4, 4]);
		expect(pages.at(-1)?.total).toBe(TAGS + 1);
	});

	it("a token limited to L/ paging with another token's cursor pages its own tags now, and says so", async () => {
		await restore();
		const first = await callOk<Tags>(everyFolder, "list_tags", { limit: 10 });
		await setCount(3, 1);
		const pages = await pagesWith(inL, [], first.next_cursor);
		expect(pages[0]?.tags_order_changed).toBe("tags_may_repeat_or_be_missing");
		expect(listed(pages).filter((tag) => !everyTag.includes(tag))).toEqual([]);
		expect(pages[0]?.total).toBe(TAGS);
		expect(pages.slice(1).every((page) => page.tags_order_changed === undefined)).toBe(true);
	});

	it(`says the order changed once its walk is no longer kept (past ${KEPT_PAGED_TAG_WALKS} walks paged since), then pages on`, async () => {
		await restore();
		const first = await callOk<Tags>(everyFolder, "list_tags", { limit: 10 });
		for (let other = 0; other <= KEPT_PAGED_TAG_WALKS; other++) {
			await setCount(20, other % 2 === 0 ? 2 : 1);
			expect((await callOk<Tags>(inL, "list_tags", { limit: 10 })).next_cursor).toBeDefined();
			expect((await callOk<Tags>(everyFolder, "list_tags", { limit: 10 })).next_cursor).toBeDefined();
		}
		const second = await callOk<Tags>(everyFolder, "list_tags", { limit: 10, cursor: first.next_cursor });
		expect(second.tags_order_changed).toBe("tags_may_repeat_or_be_missing");
		const third = await callOk<Tags>(everyFolder, "list_tags", { limit: 10, cursor: second.next_cursor });
		expect(third.tags_order_changed).toBeUndefined();
	});
});
