import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { revokeToken } from "../../src/auth/tokenList";
import { KEPT_NOTE_LINK_WALKS } from "../../src/config/limits";
import type { RunningService } from "../helpers/service";
import { startScopedReaders, type ScopedReaders } from "../helpers/scopedReaders";
import { callOk, callTool } from "../helpers/tools";

interface Links {
	backlinks: Array<{ path: string; count: number }>;
	backlinks_total: number;
	next_cursor?: string;
	backlinks_order_changed?: string;
}

/** Linking notes in `L/`: a00–a09 link the hub three times, a10–a19 twice, a20–a29 once. */
const L_NOTES = 30;
const name = (index: number) => `L/a${String(index).padStart(2, "0")}.md`;
const linking = (times: number) => `${Array.from({ length: times }, () => "[[Hub]]").join(" ")}\n`;
const startCount = (index: number) => (index < 10 ? 3 : index < 20 ? 2 : 1);
/** Outside the scoped token's folder (`L`): the full token sees them (each links once: after a29). */
const OTHER = ["Other/o0.md", "Other/o1.md", "Other/o2.md"];
/** In the excluded folder: never seen, nor counted. */
const PRIVATE = ["Private/p0.md", "Private/p1.md"];
/** Notes with no links: each asked takes a kept backlinks walk's place. */
const LONERS = Array.from({ length: KEPT_NOTE_LINK_WALKS + 1 }, (_, index) => `Lone/n${index}.md`);

/**
 * get_note_links' backlinks paged over HTTP while linking notes are edited between the pages (a count going up past the
 * cursor's place, one going down past it): a client reading the pages one after another gets every linking note once,
 * or the answer says the order changed. Paged by the (count, path) key alone, a note whose count went down after its
 * page came again, and one whose count went up before the cursor never came.
 */
describe("get_note_links: backlinks pages read while linking notes are edited", () => {
	let readers: ScopedReaders;
	let running: RunningService;
	let everyFolder: Client;
	let inL: Client;

	beforeAll(async () => {
		const files: Record<string, string> = { "L/Hub.md": "# Hub\n" };
		for (let index = 0; index < L_NOTES; index++) files[name(index)] = linking(startCount(index));
		for (const path of [...OTHER, ...PRIVATE]) files[path] = linking(1);
		for (const path of LONERS) files[path] = "# Alone\n";
		readers = await startScopedReaders(files);
		({ running, everyFolder, inL } = readers);
	}, 60_000);
	afterAll(() => readers.stop());

	/** Rewrites a note to link the hub `times` times, as another client would, and waits for the cache. */
	async function relink(path: string, times: number): Promise<void> {
		await readers.rewrite(path, linking(times));
	}
	async function restore(): Promise<void> {
		for (let index = 0; index < L_NOTES; index++) await relink(name(index), startCount(index));
		for (const path of [...OTHER, ...PRIVATE]) await relink(path, 1);
	}

	/** Reads the pages of 10 one after another, `between[k]` done after page k+1; every page's answer. */
	async function pagesWith(client: Client, between: Array<() => Promise<void>>): Promise<Links[]> {
		const pages: Links[] = [];
		let cursor: string | undefined;
		do {
			const links = await callOk<Links>(client, "get_note_links", { path: "L/Hub.md", limit: 10, ...(cursor ? { cursor } : {}) });
			pages.push(links);
			cursor = links.next_cursor;
			await between[pages.length - 1]?.();
		} while (cursor !== undefined && pages.length <= 10);
		return pages;
	}

	const paths = (pages: Links[]) => pages.flatMap((links) => links.backlinks.map(({ path }) => path));

	test("a note whose count goes down after its page, and one whose count goes up before the cursor, each come once; the pages say the order is the first page's", async () => {
		try {
			const pages = await pagesWith(everyFolder, [
				// After page 1 (a00–a09): a03 given, down to once; a25 not given, up to five times.
				async () => {
					await relink(name(3), 1);
					await relink(name(25), 5);
				},
				// After page 2 (a10–a19): a15 given, down to once; a28 not yet, up to three; an excluded note changed.
				async () => {
					await relink(name(15), 1);
					await relink(name(28), 3);
					await relink(PRIVATE[0] as string, 4);
				},
			]);
			const listed = paths(pages);
			const expected = [...Array.from({ length: L_NOTES }, (_, index) => name(index)), ...OTHER].sort();
			// Every linking note once: on the base a03 and a15 came twice, a25 and a28 never.
			expect([...listed].sort()).toEqual(expected);
			expect(new Set(listed).size).toBe(listed.length);
			expect(listed.some((path) => path.startsWith("Private/"))).toBe(false);
			for (const links of pages) expect(links.backlinks_total).toBe(expected.length);
			// The counts are as when each page was given (a03 and a15 before their edits); the first page's order kept, and said.
			const counts = new Map(pages.flatMap((links) => links.backlinks.map(({ path, count }) => [path, count] as const)));
			expect([counts.get(name(3)), counts.get(name(25)), counts.get(name(15)), counts.get(name(28))]).toEqual([3, 5, 2, 3]);
			expect(pages.map((links) => links.backlinks_order_changed)).toEqual([undefined, ...pages.slice(1).map(() => "pages_keep_first_order")]);
			// Called afresh, the order now, nothing said.
			const fresh = await callOk<Links>(everyFolder, "get_note_links", { path: "L/Hub.md", limit: 2 });
			expect(fresh.backlinks).toEqual([
				{ path: name(25), count: 5 },
				{ path: name(0), count: 3 },
			]);
			expect(fresh.backlinks_order_changed).toBeUndefined();
		} finally {
			await restore();
		}
	});

	test("a token limited to a folder pages only its notes, each once, while notes outside it and inside are edited; revoked, its next page is refused", async () => {
		const revoked = revokeToken(running.settings, "scoped");
		if ("error" in revoked) throw new Error(revoked.error);
		try {
			let third: string | undefined;
			const pages = await pagesWith(inL, [
				// Outside its folder only: nothing it sees changed, and nothing is said.
				async () => {
					await relink(OTHER[0] as string, 6);
					await relink(PRIVATE[1] as string, 6);
				},
				// Inside: a12 given, down to once; a22 not yet, up to four.
				async () => {
					await relink(name(12), 1);
					await relink(name(22), 4);
				},
			]);
			const listed = paths(pages);
			expect([...listed].sort()).toEqual(Array.from({ length: L_NOTES }, (_, index) => name(index)));
			expect(new Set(listed).size).toBe(listed.length);
			for (const links of pages) expect(links.backlinks_total).toBe(L_NOTES);
			expect(pages.map((links) => links.backlinks_order_changed)).toEqual([undefined, undefined, "pages_keep_first_order"]);
			// The first page again, its cursor kept; the token revoked, the next page is not answered.
			const first = await callOk<Links>(inL, "get_note_links", { path: "L/Hub.md", limit: 10 });
			third = first.next_cursor;
			await running.service.apply(revoked.settings);
			const refused = await callTool(inL, "get_note_links", { path: "L/Hub.md", limit: 10, cursor: third }).then(
				(outcome) => (outcome.ok ? "answered" : outcome.error),
				(error: unknown) => String(error),
			);
			expect(refused).toContain("valid bearer token is required");
			expect(refused).not.toContain("L/a");
		} finally {
			await running.service.apply(running.settings);
			await restore();
		}
	});

	test("a cursor whose walk the server no longer keeps pages the order now and says a note may repeat or be missing", async () => {
		const first = await callOk<Links>(everyFolder, "get_note_links", { path: "L/Hub.md", limit: 10 });
		// Each note asked takes a kept backlinks walk's place: the hub's, asked longest ago, is dropped.
		for (const path of LONERS) await callOk(everyFolder, "get_note_links", { path });
		const second = await callOk<Links>(everyFolder, "get_note_links", { path: "L/Hub.md", limit: 10, cursor: first.next_cursor });
		expect(second.backlinks.map(({ path }) => path)).toEqual(Array.from({ length: 10 }, (_, index) => name(10 + index)));
		expect(second.backlinks_order_changed).toBe("notes_may_repeat_or_be_missing");
		// Its cursor is of the walk now: the next page says nothing.
		const third = await callOk<Links>(everyFolder, "get_note_links", { path: "L/Hub.md", limit: 10, cursor: second.next_cursor });
		expect(third.backlinks.map(({ path }) => path)).toEqual(Array.from({ length: 10 }, (_, index) => name(20 + index)));
		expect(third.backlinks_order_changed).toBeUndefined();
	});

	test("another token's cursor, or one forged, pages the caller's own notes in the order now and says so", async () => {
		/** `cursor` with its `order` (the server's name for the walk and version it pages) replaced. */
		const withOrder = (cursor: string | undefined, order: string) =>
			Buffer.from(JSON.stringify({ ...(JSON.parse(Buffer.from(cursor ?? "", "base64url").toString("utf8")) as object), order })).toString("base64url");
		const orderOf = (cursor: string | undefined) => (JSON.parse(Buffer.from(cursor ?? "", "base64url").toString("utf8")) as { order: string }).order;
		const full = await callOk<Links>(everyFolder, "get_note_links", { path: "L/Hub.md", limit: 10 });
		const scoped = await callOk<Links>(inL, "get_note_links", { path: "L/Hub.md", limit: 10 });
		// A change in each token's walk since: a page in a kept order would say so.
		await relink(name(3), 1);
		await relink(PRIVATE[0] as string, 5);
		try {
			const [walk] = orderOf(scoped.next_cursor).split("/");
			const asks: Array<[Client, string]> = [
				[inL, full.next_cursor ?? ""],
				[everyFolder, scoped.next_cursor ?? ""],
				[inL, withOrder(scoped.next_cursor, `${walk}/999999`)],
				[inL, withOrder(scoped.next_cursor, `${walk}/-1`)],
				[inL, withOrder(scoped.next_cursor, `${orderOf(full.next_cursor)}`)],
				[inL, withOrder(scoped.next_cursor, `${walk}/0${"0".repeat(60)}`)],
			];
			for (const [client, cursor] of asks) {
				const page = await callOk<Links>(client, "get_note_links", { path: "L/Hub.md", limit: 10, cursor });
				expect(page.backlinks_order_changed).toBe("notes_may_repeat_or_be_missing");
				expect(page.backlinks.some(({ path }) => path.startsWith("Private/"))).toBe(false);
				if (client === inL) {
					expect(page.backlinks.every(({ path }) => path.startsWith("L/"))).toBe(true);
					expect(page.backlinks_total).toBe(L_NOTES);
				} else expect(page.backlinks_total).toBe(L_NOTES + OTHER.length);
			}
		} finally {
			await restore();
		}
	});
});
