import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { replaceMethod } from "../helpers/replaceMethod";
import { startService, type RunningService } from "../helpers/service";
import { callOk, callOkResuming } from "../helpers/tools";
import { startBudgetedLinksService, type BudgetedLinksService } from "../helpers/budgetedLinksService";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A planted note of 400,000 link paths took 0.8–1.0 s of CPU a get_note_links call here, every
 * call, from its first link: on a slower or busier machine more than the whole work budget, and then
 * it could never be answered, whatever the client did. Here 10,000 link paths stand for 400,000 and a
 * budget of 5 ms for 2 s: resolving them needs ten budgets or more, so a call that starts over each
 * time never ends (before the walk was kept, every call was stopped), and one that goes on from where the last
 * stopped ended in 11–14 calls here (at most 40 allowed). Bounded by counts: the calls made, and
 * each link path resolved once in all of them. About 0.9 s of CPU, 0.4–0.5 of it the server's start.
 */
const LINK_PATHS = 10_000;

describe("get_note_links of a note of more link paths than one call may resolve", () => {
	let served: BudgetedLinksService;
	let client: Client;
	beforeAll(async () => {
		const links = Array.from({ length: LINK_PATHS }, (_, index) => `[[n${index}]]`).join(" ");
		served = await startBudgetedLinksService({ "Hub.md": "# Hub\n", "Planted.md": `[[Hub]] ${links}\n` }, { level: "write", countedNote: "Planted.md" });
		client = served.client;
	}, 60_000);
	afterAll(() => served.close());

	test("called again as its answer invites, it goes on where the last call stopped and ends; once done, it answers without resolving again", async () => {
		// Before the walk was kept, every call was stopped, each saying the same call again would need as much.
		const { value, calls } = await callOkResuming<{ outgoing: Array<{ target: string | null }>; outgoing_total: number; unresolved_total: number }>(
			client,
			"get_note_links",
			{ path: "Planted" },
			40,
		);
		expect(calls).toBeGreaterThan(1);
		expect([value.outgoing_total, value.unresolved_total, value.outgoing[0]?.target]).toEqual([LINK_PATHS + 1, LINK_PATHS, "Hub.md"]);
		// Each link path resolved once over all the calls, none again after a stop.
		expect(served.resolved()).toBe(LINK_PATHS + 1);
		// A page of backlinks after another asks the same note again: answered from the finished walk, within the budget.
		expect(await callOk(client, "get_note_links", { path: "Planted" })).toEqual(value);
		expect(served.resolved()).toBe(LINK_PATHS + 1);
	});

	test("a note made with a name the note links to is reached from then on: what was kept is dropped when a file comes", async () => {
		await callOk(client, "create_note", { path: "n7.md", content: "Seven.\n" });
		const { value } = await callOkResuming<{ outgoing: Array<{ link: string; target: string | null }>; unresolved_total: number }>(
			client,
			"get_note_links",
			{ path: "Planted" },
			40,
		);
		expect(value.unresolved_total).toBe(LINK_PATHS - 1);
		expect(value.outgoing.find((link) => link.link === "n7")?.target).toBe("n7.md");
	});
});

describe("get_note_links of a note whose backlinks take more than one call", () => {
	let served: BudgetedLinksService;
	let client: Client;
	beforeAll(async () => {
		// Planted links into the excluded folder, so its links to Hub are counted from its link texts: 10,000 link paths asking
		// for Hub's name (`d0/Hub`, none a file), each resolved, past a 1 ms budget. Redone in full every call, no call ended.
		// At 5 ms the walk took 1–3 calls at load 20–30 (one call in 3 of 10 runs, 16–23 ms of the process's CPU in all, the
		// resolving within the one budget), so "more than one call" failed; at 1 ms it needs four budgets or more.
		const links = Array.from({ length: LINK_PATHS }, (_, index) => `[[d${index}/Hub]]`).join(" ");
		served = await startBudgetedLinksService(
			{ "Hub.md": "# Hub\n", "Private/Secret.md": "Hidden.\n", "Planted.md": `[[Hub]] [[Private/Secret]] ${links}\n` },
			{ level: "read", countedNote: "Planted.md", excludedFolders: ["Private"], callWorkMs: 1 },
		);
		client = served.client;
	}, 60_000);
	afterAll(() => served.close());

	test("called again as its answer invites, the backlinks go on where the last call stopped and end", async () => {
		// Before the backlinks walk was kept, every call was stopped, each saying the same call again would need as much.
		const { value, calls } = await callOkResuming<{ backlinks: Array<{ path: string; count: number }>; backlinks_total: number }>(
			client,
			"get_note_links",
			{ path: "Hub" },
			100,
		);
		expect(calls).toBeGreaterThan(1);
		expect([value.backlinks, value.backlinks_total]).toEqual([[{ path: "Planted.md", count: 1 }], 1]);
		// Each of Planted's link paths asking for Hub's name resolved once over all the calls (its link to Secret, to another name, not at all).
		expect(served.resolved()).toBe(LINK_PATHS + 1);
	});
});

describe("get_note_links paged through a note's backlinks", () => {
	let vault = "";
	let running: RunningService;
	let client: Client;
	/** Entries of lists of LINKING entries or more sorted (`Array.prototype.sort`): the backlinks put in order. */
	let sorted = 0;
	/** Files looked up by path, since the first page. */
	let lookedUp = 0;
	let counting: { restore(): void } | undefined;
	let lookups: { restore(): void } | undefined;
	const LINKING = 300;
	const name = (index: number) => `L${String(index).padStart(3, "0")}.md`;
	beforeAll(async () => {
		const files: Record<string, string> = { "Hub.md": "# Hub\n" };
		for (let index = 0; index < LINKING; index++) files[name(index)] = "[[Hub]]\n";
		vault = await makeVault(files);
		running = await startService(vault, { levels: ["write"], settings: { rateLimitPerMinute: 1_000_000, writeEnabled: true } });
		await running.host.metadataCache.settled();
		// The search index is built after the start, and warmed up after that, in slices between the calls: each note it
		// takes in is looked up by path (56–136 lookups counted over pages 2 and 3 in 1 of 3 runs at load 12–30, stacks in
		// `indexNextNote`), none of them the call's.
		await running.service.search?.whenReady();
		await running.service.search?.whenWarmedUp();
		client = await connectClient(running.url, running.tokens.write ?? "");
		const sort = Object.getOwnPropertyDescriptor(Array.prototype, "sort")?.value as (
			this: unknown[],
			compare?: (a: unknown, b: unknown) => number,
		) => unknown[];
		counting = replaceMethod(Array.prototype, "sort", function (this: unknown[], compare?: (a: unknown, b: unknown) => number): unknown[] {
			if (this.length >= LINKING) sorted += this.length;
			return sort.call(this, compare);
		});
		const vaultFiles = running.host.vault;
		const byPath = vaultFiles.getFileByPath.bind(vaultFiles);
		lookups = replaceMethod(vaultFiles, "getFileByPath", (path: string) => {
			lookedUp++;
			return byPath(path);
		});
	}, 60_000);
	afterAll(async () => {
		counting?.restore();
		lookups?.restore();
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	type Page = { backlinks: Array<{ path: string; count: number }>; backlinks_total: number; next_cursor?: string };
	async function allPages(): Promise<{ paths: string[]; sortedAfterFirst: number; lookedUpAfterFirst: number }> {
		const paths: string[] = [];
		let cursor: string | undefined;

		for (let page = 0; page < 10; page++) {
			if (page === 1) [sorted, lookedUp] = [0, 0];
			const value = await callOk<Page>(client, "get_note_links", { path: "Hub", limit: 100, ...(cursor ? { cursor } : {}) });
			paths.push(...value.backlinks.map((found) => `${found.path}:${found.count}`));
			cursor = value.next_cursor;
			if (!cursor) break;
		}
		return { paths, sortedAfterFirst: sorted, lookedUpAfterFirst: lookedUp };
	}

	test("the pages after the first are answered from the finished walk in its order, not sorted again; a changed count is", async () => {
		const expected = Array.from({ length: LINKING }, (_, index) => `${name(index)}:1`);
		const first = await allPages();
		expect(first.paths).toEqual(expected);
		// Sorted again at every page, in one piece: 100,000 linking notes took 1.9 s a page at load 12 (comparing paths by collator).
		expect(first.sortedAfterFirst).toBe(0);
		// Nor every linking note looked up again at every page, in one piece (74–160 ms at 100,000 linking notes, load 12):
		// pages 2 and 3 look up the note asked, a few times each.
		expect(first.lookedUpAfterFirst).toBeLessThan(LINKING / 10);
		// A note linking twice comes first: the order kept is dropped when a count changes.
		await callOk(client, "create_note", { path: "Twice.md", content: "[[Hub]] [[Hub]]\n" });
		await running.host.metadataCache.settled();
		expect((await allPages()).paths).toEqual(["Twice.md:2", ...expected]);
		await callOk(client, "append_to_note", { path: name(0), content: "[[Hub]] [[Hub]]\n" });
		await running.host.metadataCache.settled();
		expect((await allPages()).paths).toEqual([`${name(0)}:3`, "Twice.md:2", ...expected.slice(1)]);
	});
});
