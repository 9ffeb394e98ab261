/**
 * One note a hostile author plants, within every bound the server keeps (a megabyte, 50,000
 * lines), and one call on it: the call answers, and the server's event loop is never held long
 * in one piece meanwhile (it is the interface thread inside Obsidian). Each case is measured in
 * the server's own process with `monitorEventLoopDelay` while the real SDK client makes the call
 * over real HTTP, and compared with the call itself in the same run (a ratio), never with a
 * wall-clock bound: a call done in one piece holds the loop for nearly all of its time.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CachedMetadata } from "obsidian";
import {
	ERROR_ECHO_MAX_CHARS,
	HEADINGS_LISTED,
	MATCHES_LISTED,
	MAX_FRONTMATTER_ENTRIES,
	MAX_NOTE_CONTENT_BYTES,
	MAX_REQUEST_NESTING,
	MAX_REQUEST_OBJECT_KEYS,
	MAX_TASK_TEXT_LENGTH,
	MAX_TAG_PARENTS_COUNTED,
	NOTE_LINKS_MAX_ENTRIES,
	V8_HASHED_STRING_MAX_CHARS,
} from "../../src/config/limits";
import { connectClient, mcpHeaders, rawRequest } from "../helpers/http";
import { settingsWithWriteTokens, startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { mainThreadPieces } from "../helpers/threadCpu";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * How long a call took and the longest stretch the event loop was held while it ran: in the main
 * thread's CPU time where Linux gives it (a busy machine taking the core away mid-piece lengthens a
 * wall-time hold, not a CPU one: a rename held 89 ms alone and 271 ms of wall time at a load of 15),
 * else in wall time.
 */
interface LoopHold {
	callMs: number;
	longestMs: number;
	counted: "main-thread CPU" | "wall time";
}

async function measured<T>(call: () => Promise<T>): Promise<{ value: T; hold: LoopHold }> {
	const pieces = mainThreadPieces();
	if (pieces) {
		const value = await call();
		const { totalMs, longestMs } = pieces.stop();
		return { value, hold: { callMs: totalMs, longestMs, counted: "main-thread CPU" } };
	}
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	histogram.enable();
	const started = performance.now();
	const value = await call();
	const callMs = performance.now() - started;
	histogram.disable();
	return { value, hold: { callMs, longestMs: histogram.max / 1e6, counted: "wall time" } };
}

/**
 * A hold this short is no stall, whatever share of a short call it is (other clients' target is
 * 250 ms; the holds these tests were written against were 300 ms to minutes): as calls got faster,
 * "under half the call" failed a CI run at 82 of 160 ms (an add_task, with nothing wrong).
 */
const HOLD_ALWAYS_FINE_MS = 150;

/** The loop was not held for most of the call: the longest hold is under half of it, or too short to matter. */
function expectLoopNotHeld(hold: LoopHold): void {
	expect(hold.longestMs).toBeLessThan(Math.max(hold.callMs / 2, HOLD_ALWAYS_FINE_MS));
}

/** Every write tool allowed for the write token, so no one is asked. */
function allowAll(): Record<string, "allow"> {
	return Object.fromEntries(["rename_note", "set_property", "append_to_note", "insert_under_bullet"].map((tool) => [tool, "allow" as const]));
}

/** The server over a temp vault, for the tests of one describe block. */
interface Served {
	vault: string;
	running: RunningService;
	client: Client;
}

/**
 * Makes a vault of `files` and serves it to one token of `level` before the block's tests (a write
 * token with `rights`, every write tool allowed when not given; a read token unthrottled), waiting for
 * the search index, the metadata cache or both when asked; removes it all after them.
 */
function servedForBlock(
	files: () => Record<string, string>,
	level: "read" | "write",
	options: { rights?: Record<string, "allow">; ready?: "search" | "metadata" | "both"; excludedFolders?: string[] } = {},
): Served {
	const served = {} as Served;
	beforeAll(async () => {
		served.vault = await makeVault(files());
		served.running =
			level === "write"
				? await startService(served.vault, {
						levels: ["write"],
						settings: settingsWithWriteTokens([]).settings,
						rights: { write: options.rights ?? allowAll() },
					})
				: await startService(served.vault, {
						levels: ["read"],
						settings: { rateLimitPerMinute: 1_000_000, excludedFolders: options.excludedFolders ?? [] },
					});
		if (options.ready === "search" || options.ready === "both") await served.running.service.search?.whenReady();
		if (options.ready === "metadata" || options.ready === "both") await served.running.host.metadataCache.settled();
		served.client = await connectClient(served.running.url, served.running.tokens[level] ?? "");
	}, 60_000);
	afterAll(async () => {
		await served.client.close();
		await served.running.stop();
		await removeDir(served.vault);
	});
	return served;
}

describe("a note that links to another 30,000 times", () => {
	const LINKS = 30_000;
	const served = servedForBlock(() => {
		const lines = Array.from({ length: LINKS }, (_, index) => `- [[Hub]] and [[Elsewhere ${index}]]`);
		return { "Hub.md": "# Hub\n", "Links.md": lines.join("\n") + "\n" };
	}, "write");

	test("get_note_links lists the first 1,000 outgoing and unresolved links with their totals, resolving all of them in slices", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ outgoing: unknown[]; outgoing_total: number; unresolved: string[]; unresolved_total: number; truncated: boolean }>(
				served.client,
				"get_note_links",
				{
					path: "Links.md",
				},
			),
		);
		expect(value.outgoing).toHaveLength(NOTE_LINKS_MAX_ENTRIES);
		expect(value.outgoing.slice(0, 2)).toEqual([
			{ link: "Hub", target: "Hub.md", line: 0 },
			{ link: "Elsewhere 0", target: null, line: 0 },
		]);
		expect(value.outgoing_total).toBe(2 * LINKS);
		expect(value.unresolved).toHaveLength(NOTE_LINKS_MAX_ENTRIES);
		expect(value.unresolved_total).toBe(LINKS);
		expect(value.truncated).toBe(true);
		// Resolving and listing every link in one piece held the loop for the whole call.
		expectLoopNotHeld(hold);
	}, 60_000);

	test("renaming the note it links to rewrites every link, in slices: the loop is never held for most of the call", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ links_updated: number }>(served.client, "rename_note", { path: "Hub.md", new_path: "Centre.md" }),
		);
		expect(value.links_updated).toBe(LINKS);
		const text = await fs.readFile(nodePath.join(served.vault, "Links.md"), "utf8");
		expect(text.split("[[Centre]]").length - 1).toBe(LINKS);
		expect(text.includes("[[Hub]]")).toBe(false);
		expect(text.includes("[[Elsewhere 29999]]")).toBe(true);
		// Splicing each link into the whole text took minutes here; in one piece the hold is the call.
		expectLoopNotHeld(hold);
	}, 120_000);
});

describe("notes whose lines are tags with non-breaking spaces in their attributes (markdown-it's tag pattern backtracked on them: 1 s at 100 characters, twice as long every 7 more)", () => {
	const planted = (pumps: number) => `<A\t:\u00a0${"=\u00a0\u00a0:\u00a0:\u00a0".repeat(pumps)}'>">`;
	const served = servedForBlock(() => ({ "Hub.md": "# Hub\n", "Planted.md": `${planted(40)}\n\n- ${planted(40)}\n\n[[Hub]] #seen\n` }), "write", {
		ready: "metadata",
	});

	test("one in the vault at start is parsed: its link and tag are read, and more of them appended to a note are answered at once", async () => {
		const links = await callOk<{ outgoing: Array<{ target: string | null }> }>(served.client, "get_note_links", { path: "Planted.md" });
		expect(links.outgoing.map((link) => link.target)).toEqual(["Hub.md"]);
		const read = await callOk<{ tags: string[] }>(served.client, "read_note", { path: "Planted" });
		expect(read.tags).toEqual(["#seen"]);
		const { hold } = await measured(() =>
			callOk(served.client, "append_to_note", {
				path: "Hub.md",
				content: Array.from({ length: 50 }, () => planted(60)).join("\n\n") + "\n\n[[Planted]]\n",
			}),
		);
		expectLoopNotHeld(hold);
		const hub = await callOk<{ outgoing: Array<{ target: string | null }> }>(served.client, "get_note_links", { path: "Hub.md" });
		expect(hub.outgoing.map((link) => link.target)).toEqual(["Planted.md"]);
	}, 60_000);
});

describe("a note of 120,000 links, one of them to a note in an excluded folder", () => {
	const served = servedForBlock(
		() => {
			const files: Record<string, string> = { "Private/Secret.md": "# Secret\n", "Target.md": "# Target\n", "Other.md": "[[Target]]\n" };
			for (let index = 0; index < 100; index++) files[`T${index}.md`] = `# T${index}\n`;
			const links = Array.from({ length: 120_000 }, (_, index) => `[[T${index % 100}]]`);
			files["Planted.md"] = `[[Secret]] ${links.join(" ")}\n`;
			return files;
		},
		"read",
		{ ready: "search", excludedFolders: ["Private"] },
	);

	test("the graph counts and the backlinks of any note walk its links in slices: no piece of work is most of the call's", async () => {
		await served.running.host.metadataCache.settled();
		const measuredCall = async <T>(tool: string, args: Record<string, unknown>) => {
			const turns = cpuBetweenTurns();
			const value = await callOk<T>(served.client, tool, args);
			return { value, ...turns.stop() };
		};
		const graph = await measuredCall<{ links: number; unresolved_links: number }>("get_graph_stats", {});
		// The link to the excluded note counts as pointing nowhere, as over a vault without it.
		expect(graph.value).toMatchObject({ links: 120_001, unresolved_links: 1 });
		expect(graph.longestMs).toBeLessThan(Math.max(graph.totalMs / 2, HOLD_ALWAYS_FINE_MS));
		// The planted note does not link to Target: it was walked whole, in one piece, on every backlinks call all the same.
		const target = await measuredCall<{ backlinks: unknown[] }>("get_note_links", { path: "Target" });
		expect(target.value.backlinks).toEqual([{ path: "Other.md", count: 1 }]);
		expect(target.longestMs).toBeLessThan(Math.max(target.totalMs / 2, HOLD_ALWAYS_FINE_MS));
		const linked = await callOk<{ backlinks: unknown[] }>(served.client, "get_note_links", { path: "T7" });
		expect(linked.backlinks).toEqual([{ path: "Planted.md", count: 1_200 }]);
	}, 60_000);
});

describe("a note of 40,000 different link paths to one note in an excluded folder, in a vault of 500 notes", () => {
	// Each link looking through the whole vault is links × notes of work: 40,000 × 500 is still many times
	// the calls' work budget (VAULT_WIDE_CALL_WORK_MS), and a quarter of the files to write, parse and index.
	const NOTES = 500;
	const served = servedForBlock(
		() => {
			const files: Record<string, string> = { "Private/Secret.md": "# Secret\n", "Target.md": "# Target\n", "Other.md": "[[Target]]\n" };
			for (let index = 0; index < NOTES; index++) files[`Notes/N${index}.md`] = `# N${index}\n`;
			// Each link path is another spelling of the same excluded note.
			files["Planted.md"] = `${Array.from({ length: 40_000 }, (_, index) => `[[./a${index}/../Private/Secret]]`).join(" ")}\n`;
			files["Linked.base"] =
				"filters: 'file.name == \"Target.md\"'\nformulas:\n  linked_from: 'file.backlinks.length'\nviews:\n  - type: table\n    name: All\n    order: [file.path, formula.linked_from]\n";
			return files;
		},
		"read",
		{ ready: "search", excludedFolders: ["Private"] },
	);

	test("backlinks of any note, the planted note's own links, the graph counts and a base counting backlinks answer (each link looked through the whole vault: they ran out of their work budget)", async () => {
		await served.running.host.metadataCache.settled();
		const target = await callOk<{ backlinks: unknown[] }>(served.client, "get_note_links", { path: "Target" });
		expect(target.backlinks).toEqual([{ path: "Other.md", count: 1 }]);
		const planted = await callOk<{ outgoing_total: number; unresolved_total: number }>(served.client, "get_note_links", { path: "Planted" });
		// Every link counts as pointing nowhere, as over a vault without the excluded note.
		expect(planted).toMatchObject({ outgoing_total: 40_000, unresolved_total: 40_000 });
		expect(await callOk(served.client, "get_graph_stats", {})).toMatchObject({ links: 1, unresolved_links: 40_000 });
		const base = await callOk<{ rows: Array<{ path: string; values: Record<string, unknown> }> }>(served.client, "query_base", { path: "Linked.base" });
		expect(base.rows).toEqual([{ path: "Target.md", values: expect.objectContaining({ "formula.linked_from": 1 }) }]);
	}, 120_000);
});

describe("notes of hundreds of distinct links longer than V8 hashes whole (V8_HASHED_STRING_MAX_CHARS), beside a note in an excluded folder", () => {
	const LINKS = 300;
	/** A note of LINKS distinct links of `chars` characters, alike but for their last ones (V8 hashed the longer ones by length alone), and one to Target. */
	const planted = (chars: number, note: string): string =>
		`[[Target]] [[Secret]]\n${Array.from({ length: LINKS }, (_, index) => `[[${"x".repeat(chars - 12)}${note}${String(index).padStart(8, "0")}]]`).join("\n")}\n`;
	const served = servedForBlock(() => ({ "Target.md": "# Target\n", "Private/Secret.md": "# Secret\n" }), "read", {
		ready: "both",
		excludedFolders: ["Private"],
	});

	/**
	 * Plants `text` as another program would and waits for its metadata: the main thread's CPU time of it all (GC's helper
	 * threads, counted by the process's clock, ran beside it and varied the most: they made the first note look twice as dear).
	 */
	const plantAndSettle = async (path: string, text: string): Promise<number> => {
		const turns = cpuBetweenTurns();
		await served.running.host.vault.create(path, text);
		await served.running.host.metadataCache.settled();
		return turns.stop().totalMs;
	};

	test("each is parsed and counted for what its text costs, not for the other long links the vault holds (4 planted notes of 480: 15 s of the server at start); the links answer as links to nowhere", async () => {
		// The first note parsed also pays for compiling the parse: not counted.
		await plantAndSettle("Warm.md", planted(V8_HASHED_STRING_MAX_CHARS - 2, "warm"));
		// Two notes of links just under the length V8 hashes (every key found by its hash), and four over it, the kinds in turn,
		// so a machine growing busier or a collection landing weighs on both alike.
		const hashed: number[] = [];
		const long: number[] = [];
		for (const note of ["A", "B", "C", "D"]) {
			if (note === "A" || note === "B") hashed.push(await plantAndSettle(`Hashed ${note}.md`, planted(V8_HASHED_STRING_MAX_CHARS - 2, `has${note}`)));
			long.push(await plantAndSettle(`Long ${note}.md`, planted(V8_HASHED_STRING_MAX_CHARS + 10, `lon${note}`)));
		}
		// The dearest long note against the mean of the two under the length: 0.68-0.87 times it here (each long link resolves to
		// nothing, unlooked-for; 146-259 against 234-351 ms of main-thread CPU, quiet and beside two busy processes). With the
		// long keys kept in plain maps again (ffe037b3's guards taken out) each long key is compared in full with every other
		// of its length, each long note dearer than the last (388, 519, 887, 1,536 against 334 ms), growing as the square of
		// their links (4 notes of 480 took 15 s): the fourth 4.6 times the mean. The bound sits between, 2x or more from each
		// (the three notes' sum against the two's, the bound before, was 1.0 / 2 fixed, 1.5 / 2 with the keys in plain maps).
		const meanHashed = (hashed[0]! + hashed[1]!) / 2;
		expect(Math.max(...long)).toBeLessThan(2 * meanHashed);

		const links = await callOk<{
			outgoing: Array<{ link: string; target: string | null }>;
			outgoing_total: number;
			unresolved: string[];
			unresolved_total: number;
		}>(served.client, "get_note_links", { path: "Long A.md" });
		expect(links).toMatchObject({ outgoing_total: LINKS + 2, unresolved_total: LINKS + 1 });
		expect(links.outgoing.slice(0, 2)).toEqual([
			{ link: "Target", target: "Target.md", line: 0 },
			{ link: "Secret", target: null, line: 0 },
		]);
		expect(links.unresolved[0]).toBe("Secret");
		const target = await callOk<{ backlinks: unknown[] }>(served.client, "get_note_links", { path: "Target.md" });
		expect(target.backlinks).toEqual(
			expect.arrayContaining([
				{ path: "Hashed A.md", count: 1 },
				{ path: "Long A.md", count: 1 },
				{ path: "Long B.md", count: 1 },
			]),
		);
		expect(await callOk(served.client, "get_graph_stats", {})).toMatchObject({ links: 7, unresolved_links: 7 * (LINKS + 1) });
	}, 120_000);
});

describe("notes of 2,000 headings, of 2,000 headings of one name, and of 4,000 bullets", () => {
	// Each many times what is listed (HEADINGS_LISTED, MATCHES_LISTED): listed whole, each error would be
	// 34–80 KB, far over the 10,000 characters asserted (20,000, 5,000 and 40,000 of them took 2.1 s of CPU here).
	const HEADINGS = 2_000;
	const BULLETS = 4_000;
	const TWINS = 2_000;
	const served = servedForBlock(() => {
		const headings = Array.from({ length: HEADINGS }, (_, index) => `# Part ${index}\ntext`).join("\n");
		const bullets = Array.from({ length: BULLETS }, (_, index) => `- item ${index}`).join("\n");
		const twins = "# Twin\ntext\n".repeat(TWINS);
		return { "Headings.md": headings + "\n", "Twins.md": twins, "Bullets.md": bullets + "\n" };
	}, "write");

	test("a heading that is not there is refused naming the first headings and how many more, not all of them; nothing is written", async () => {
		const before = await fs.readFile(nodePath.join(served.vault, "Headings.md"), "utf8");
		const error = await callError(served.client, "append_to_note", { path: "Headings.md", heading: "Nowhere", content: "x" });
		expect(error).toContain("# Part 0 (line 0)");
		expect(error).toContain(`and ${HEADINGS - HEADINGS_LISTED} more`);
		expect(error).not.toContain(`# Part ${HEADINGS_LISTED} `);
		expect(error.length).toBeLessThan(10_000);
		expect(await fs.readFile(nodePath.join(served.vault, "Headings.md"), "utf8")).toBe(before);
	}, 60_000);

	test("a heading or bullet that matches thousands is refused naming the first few matches and the count", async () => {
		const heading = await callError(served.client, "append_to_note", { path: "Twins.md", heading: "Twin", content: "x" });
		expect(heading.length).toBeLessThan(10_000);
		expect(heading).toContain(`matches ${TWINS} sections`);
		expect(heading).toContain(`and ${TWINS - MATCHES_LISTED} more`);
		const bullet = await callError(served.client, "insert_under_bullet", { path: "Bullets.md", bullet: "item", content: "x" });
		expect(bullet).toContain(`${BULLETS} bullets contain "item"`);
		expect(bullet).toContain(`and ${BULLETS - MATCHES_LISTED} more`);
		expect(bullet.length).toBeLessThan(10_000);
	}, 60_000);
});

describe("a note of 50,000 tags and one of 30,000 tasks", () => {
	const TAGS = 50_000;
	const TASKS = 30_000;
	const served = servedForBlock(
		() => {
			const tags = Array.from({ length: TAGS }, (_, index) => `#tag${index}`).join(" ");
			const tasks = Array.from({ length: TASKS }, (_, index) => `- [ ] task ${index} 📅 2025-01-01`).join("\n");
			return { "Tags.md": tags + "\n", "Tasks.md": tasks + "\n", "Plain.md": "#tag1 and - [ ] not a task\n" };
		},
		"read",
		{ ready: "search" },
	);

	test("list_tags counts every tag, in slices: the loop is never held for most of the call", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ tags: Array<{ tag: string; count: number }>; total: number }>(served.client, "list_tags", { limit: 10 }),
		);
		expect(value.total).toBe(TAGS);
		expect(value.tags[0]).toEqual({ tag: "#tag1", count: 2 });
		// Counting a note's tags and sorting them in one piece held the loop for the whole call.
		expectLoopNotHeld(hold);
	}, 60_000);

	test("list_tasks derives a note's tasks in slices: the loop is never held for most of the call", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ tasks: Array<{ path: string; line: number; text: string; due?: string }>; total: number }>(served.client, "list_tasks", { limit: 2 }),
		);
		expect(value.total).toBe(TASKS);
		expect(value.tasks[1]).toMatchObject({ path: "Tasks.md", line: 1, text: "task 1 📅 2025-01-01", due: "2025-01-01" });
		// Deriving 30,000 tasks in one piece held the loop for the whole call.
		expectLoopNotHeld(hold);
	}, 60_000);
});

describe("a note whose one tag nests 5,000 deep, `#Deep/a/a/…`", () => {
	const LEVELS = 5_000;
	const tag = `Deep/${Array.from({ length: LEVELS - 1 }, () => "a").join("/")}`;
	const served = servedForBlock(() => ({ "Deep.md": `#${tag}\n`, "Other.md": "#deep/a #other\n" }), "read");

	test("list_tags and get_graph_stats count the tag and its first parents, not all 4,999 (a megabyte of such a tag ran the server out of memory)", async () => {
		const listed = await callOk<{ tags: Array<{ tag: string; count: number }>; total: number }>(served.client, "list_tags", { limit: 2000 });
		// The parents `#Deep` … `#Deep/a/…` (MAX_TAG_PARENTS_COUNTED of them), the tag itself, and `#other`.
		expect(listed.total).toBe(MAX_TAG_PARENTS_COUNTED + 2);
		expect(listed.tags.slice(0, 2)).toEqual([
			{ tag: "#Deep", count: 2 },
			{ tag: "#Deep/a", count: 2 },
		]);
		expect(listed.tags).toContainEqual({ tag: `#${tag}`, count: 1 });
		expect(listed.tags).toContainEqual({ tag: `#Deep${"/a".repeat(MAX_TAG_PARENTS_COUNTED - 1)}`, count: 1 });
		const stats = await callOk<{ tags: number }>(served.client, "get_graph_stats");
		expect(stats.tags).toBe(MAX_TAG_PARENTS_COUNTED + 2);
	}, 60_000);
});

describe("a canvas of 12,500 text cards, and one whose single card holds 60,000 links", () => {
	// With the cards read in one piece again, 12,500 cards still hold the loop for over half the call (288 and 427 ms
	// against 257 and 383): 25,000, where the bug was found, cost twice the CPU to show the same.
	const CARDS = 12_500;
	// Within the text read for links (CANVAS_MAX_LINKED_TEXT_CHARS): a card past it counts none.
	const LINKS = 60_000;
	const served = servedForBlock(() => {
		const cards = Array.from({ length: CARDS }, (_, index) => ({
			id: `n${index}`,
			type: "text",
			text: `[[Hub]] card ${index}`,
			x: index,
			y: 0,
			width: 10,
			height: 10,
		}));
		const crowded = { nodes: [{ id: "one", type: "text", text: "[[Hub]] ".repeat(LINKS), x: 0, y: 0, width: 10, height: 10 }], edges: [] };
		return {
			"Hub.md": "# Hub\n",
			"Board.canvas": JSON.stringify({ nodes: cards, edges: [] }),
			"Crowded.canvas": JSON.stringify(crowded),
		};
	}, "read");

	test("both count as linking to the note, every link counted; the cards are read in slices (one piece held the loop half a second)", async () => {
		// Both canvases are over the size parsed at start, so they are read just after, as edits are.
		const { hold } = await measured(() => served.running.host.metadataCache.settled());
		const links = await callOk<{ backlinks: Array<{ path: string; count: number }> }>(served.client, "get_note_links", { path: "Hub.md" });
		expect(links.backlinks).toEqual([
			{ path: "Crowded.canvas", count: LINKS },
			{ path: "Board.canvas", count: CARDS },
		]);
		expectLoopNotHeld(hold);
	}, 60_000);
});

describe("a canvas of 5 MB of nested brackets beside a plain one", () => {
	const served = servedForBlock(() => {
		const card = { id: "a", type: "text", text: "[[Hub]]", x: 0, y: 0, width: 10, height: 10 };
		const levels = 2_000_000;
		const deep = `{"nodes":[${JSON.stringify(card).slice(0, -1)},"deep":${"[".repeat(levels)}${"]".repeat(levels)}}],"edges":[]}`;
		return { "Hub.md": "# Hub\n", "Plain.canvas": JSON.stringify({ nodes: [card], edges: [] }), "Deep.canvas": deep };
	}, "read");

	test("holds no links (its JSON, parsed in one piece at start and on every backlinks call, held the server 2.4 s); read_canvas refuses it", async () => {
		await served.running.host.metadataCache.settled();
		const links = await callOk<{ backlinks: Array<{ path: string; count: number }> }>(served.client, "get_note_links", { path: "Hub.md" });
		expect(links.backlinks).toEqual([{ path: "Plain.canvas", count: 1 }]);
		expect(await callError(served.client, "read_canvas", { path: "Deep.canvas" })).toContain("nests arrays and objects more than");
	}, 60_000);
});

describe("a note of 1,999 properties", () => {
	const PROPERTIES = 1_999;
	const served = servedForBlock(() => {
		const properties = Array.from({ length: PROPERTIES }, (_, index) => `p${index}: value ${index} # kept`).join("\n");
		return { "Props.md": `---\n${properties}\n---\nbody\n` };
	}, "write");

	test("set_property changes one of them, keeping the others and their comments, with other clients let in between its steps", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ changed: boolean }>(served.client, "set_property", { path: "Props.md", name: "p5", value: "new" }),
		);
		expect(value.changed).toBe(true);
		const text = await fs.readFile(nodePath.join(served.vault, "Props.md"), "utf8");
		expect(text).toContain("\np5: new # kept\n");
		expect(text).toContain("\np1998: value 1998 # kept\n---\nbody\n");
		// Checking, parsing and writing the YAML out in one piece held the loop for most of the call.
		expectLoopNotHeld(hold);
	}, 60_000);
});

describe("a note at the edit bound (a megabyte of task lines with emoji dates) and one of 1,200 task lines of 700 characters", () => {
	const bigLines: string[] = [];
	const served = servedForBlock(
		() => {
			for (let index = 0, chars = 0; chars < 900_000; index++) {
				bigLines.push(`- [ ] task ${index} 📅 2026-01-0${1 + (index % 9)}`);
				chars += (bigLines.at(-1)?.length ?? 0) + 1;
			}
			const dependsOn = Array.from({ length: 100 }, (_, index) => `id${index}`).join(", ");
			const long = Array.from(
				{ length: 1_200 },
				(_, index) => `- [ ] long ${index} ⛔ ${dependsOn} 🔁 every month on the last Friday 📅 2026-01-01 🆔 t${index}`,
			);
			return { "Big.md": bigLines.join("\n") + "\n", "Long tasks.md": long.join("\n") + "\n" };
		},
		"write",
		{ rights: { add_task: "allow", set_property: "allow" }, ready: "search" },
	);

	test("add_task on the megabyte note: the task is added, and the journal (written off the event loop) holds the note's text before and after, for undo", async () => {
		await callOk(served.client, "add_task", { path: "Big.md", text: "added at the bound" });
		const text = await fs.readFile(nodePath.join(served.vault, "Big.md"), "utf8");
		expect(text).toBe(`${bigLines.join("\n")}\n- [ ] added at the bound\n`);
		const [entry] = served.running.journal.list(1);
		expect(entry?.tool).toBe("add_task");
		expect(entry?.changes[0]?.before).toBe(`${bigLines.join("\n")}\n`);
		expect(entry?.changes[0]?.after).toBe(text);
		// How long the call holds the loop is the bench's (`--only bignotes`, add_task on Big.md): the
		// journal step alone, in one piece, was no longer distinguishable from the write's other pieces here.
	}, 60_000);

	test("list_tasks lists all 1,200 task lines of 700 characters, each with its whole text, after the note changed", async () => {
		await callOk(served.client, "set_property", { path: "Long tasks.md", name: "seen", value: true });
		await served.running.host.metadataCache.settled();
		const value = await callOk<{ tasks: Array<{ line: number; text: string; due?: string }>; total: number }>(served.client, "list_tasks", {
			path: "Long tasks.md",
			status: "any",
			limit: 2,
		});
		expect(value.total).toBe(1_200);
		// The property's frontmatter (three lines) stands above the tasks now.
		expect(value.tasks[1]).toMatchObject({ line: 4, due: "2026-01-01" });
		expect(value.tasks[1]?.text).toContain("long 1 ⛔ id0, id1");
		expect(value.tasks[1]?.text).toContain("id99 🔁 every month on the last Friday");
	}, 60_000);
});

/**
 * The main thread's CPU time between two turns of the event loop, from now until `stop`: the longest
 * such stretch (what one piece of work held the loop for, however busy the machine is) and all of it.
 * The process's where the system has no per-thread clock: that counts GC's helper threads and the
 * thread pool too, which ran beside the main thread and made its longest piece read up to 2.6 times
 * the main thread's (54 against 21 ms for the start of two 4 MB notes, 63 against 32 for list_tasks).
 */
function cpuBetweenTurns(): { stop: () => { longestMs: number; totalMs: number } } {
	return mainThreadPieces() ?? processCpuBetweenTurns();
}

/** The process's CPU time between two turns of the event loop, from now until `stop`: the longest such stretch and all of it. */
function processCpuBetweenTurns(): { stop: () => { longestMs: number; totalMs: number } } {
	const cpuMs = () => {
		const { user, system } = process.cpuUsage();
		return (user + system) / 1000;
	};
	const first = cpuMs();
	let last = first;
	let longestMs = 0;
	const timer = setInterval(() => {
		const now = cpuMs();
		longestMs = Math.max(longestMs, now - last);
		last = now;
	}, 1);
	return {
		stop: () => {
			clearInterval(timer);
			const now = cpuMs();
			return { longestMs: Math.max(longestMs, now - last), totalMs: now - first };
		},
	};
}

/**
 * Appends `content` to the note at `path` and waits for its metadata: the CPU time between turns of
 * the event loop meanwhile (counted in CPU time, not on the clock: on a busy machine a piece of work
 * takes longer, not more CPU), and the note's sections.
 */
async function appendAndSettle(
	served: Served,
	path: string,
	content: string,
): Promise<{ longestMs: number; totalMs: number; cache: CachedMetadata | null; sections: unknown[] }> {
	const turns = cpuBetweenTurns();
	await callOk(served.client, "append_to_note", { path, content });
	await served.running.host.metadataCache.settled();
	const { longestMs, totalMs } = turns.stop();
	const file = served.running.host.vault.getFileByPath(path);
	const cache = file ? served.running.host.metadataCache.getFileCache(file) : null;
	const sections = (cache?.sections ?? []).map((section) => [section.type, section.position.start.line, section.position.end.line]);
	return { longestMs, totalMs, cache, sections };
}

describe("a note of one table of 40,000 rows", () => {
	const ROWS = 40_000;
	// Few distinct words: the search index takes the note in quickly, and the table's parse is most of the work.
	const table = `| a | b | c |\n|---|---|---|\n${Array.from({ length: ROWS }, (_, index) => `|row|[[N${index % 50}]]|#t${index % 7}|`).join("\n")}\n`;
	const served = servedForBlock(() => ({ "Table.md": table }), "write", { ready: "metadata" });

	test("an append, and the table parsed again after it, let the event loop turn all along; the table keeps every row and link", async () => {
		const { longestMs, totalMs, cache, sections } = await appendAndSettle(served, "Table.md", "after the table");

		expect(await fs.readFile(nodePath.join(served.vault, "Table.md"), "utf8")).toBe(`${table}\nafter the table\n`);
		expect(sections).toEqual([
			["table", 0, ROWS + 1],
			["paragraph", ROWS + 3, ROWS + 3],
		]);
		expect(cache?.links).toHaveLength(ROWS);
		// The table's 440,000 tokens parsed in one piece took about half of all the work (over 200 ms);
		// with less garbage the whole append now takes 0.45 s, and one 90 ms GC pause is no hold.
		expect(longestMs).toBeLessThan(Math.max(totalMs / 5, HOLD_ALWAYS_FINE_MS));
	}, 120_000);
});

describe("a note of one quote 600 deep, then 20,000 lines that continue it", () => {
	const DEPTH = 600;
	const LINES = 20_000;
	// Every line after the first continues the innermost quote's paragraph (a lazy line): markdown-it's
	// own rule walked those lines again at each of the 600 levels, about 5 s of CPU in one piece.
	const quote = `${"> ".repeat(DEPTH)}deep\n${Array.from({ length: LINES }, (_, index) => `line [[N${index % 50}]] #t${index % 7}`).join("\n")}\n`;
	const served = servedForBlock(() => ({ "Quote.md": quote }), "write", { ready: "metadata" });

	test("an append, and the quote parsed again after it, let the event loop turn all along; every line's link and tag is found", async () => {
		const { longestMs, totalMs, cache, sections } = await appendAndSettle(served, "Quote.md", "after the quote");

		expect(await fs.readFile(nodePath.join(served.vault, "Quote.md"), "utf8")).toBe(`${quote}\nafter the quote\n`);
		expect(sections).toEqual([
			["blockquote", 0, LINES],
			["paragraph", LINES + 2, LINES + 2],
		]);
		expect(cache?.links).toHaveLength(LINES);
		expect(cache?.tags).toHaveLength(LINES);
		// Before the quote rule was linear: 4.9 of 5.8 s of CPU in one piece. The linear parse is still
		// one piece, 50–75 ms of CPU, which is most of a call the other changes have made fast (72 of
		// 338 ms failed a CI run): under a fifth of the work, or too short to matter.
		expect(longestMs).toBeLessThan(Math.max(totalMs / 5, HOLD_ALWAYS_FINE_MS));
	}, 300_000);
});

describe("a note whose frontmatter repeats one text of 8,000 links through 99 aliases (*name)", () => {
	const LINKS = 8_000;
	const ALIASES = 99;
	const frontmatter = `a: &a "${"[[Hub]] ".repeat(LINKS)}"\n${Array.from({ length: ALIASES }, (_, index) => `b${index}: *a`).join("\n")}\n`;
	const note = `---\n${frontmatter}---\n[[Hub]] in the body\n`;
	const served = servedForBlock(() => ({ "Hub.md": "# Hub\n", "Aliased.md": note }), "write", { ready: "metadata" });

	test("its properties are not read (expanded, 5.6 MB and 800,000 links, read whole on each parse): it is read as text, its body links count, and set_property changes nothing", async () => {
		const read = await callOk<{ content: string; frontmatter: unknown; frontmatter_unparsed?: string }>(served.client, "read_note", { path: "Aliased.md" });
		expect(read.content).toBe(note);
		expect(read.frontmatter).toBeNull();
		expect(read.frontmatter_unparsed).toContain("aliases (*name) expand past");
		const links = await callOk<{ outgoing_total: number }>(served.client, "get_note_links", { path: "Aliased.md" });
		expect(links.outgoing_total).toBe(1);
		const refused = await callError(served.client, "set_property", { path: "Aliased.md", name: "seen", value: true });
		expect(refused).toContain("expands its YAML aliases (*name) past");
		expect(await fs.readFile(nodePath.join(served.vault, "Aliased.md"), "utf8")).toBe(note);
		await callOk(served.client, "append_to_note", { path: "Aliased.md", content: "appended" });
		await served.running.host.metadataCache.settled();
		const after = await callOk<{ outgoing_total: number }>(served.client, "get_note_links", { path: "Aliased.md" });
		expect(after.outgoing_total).toBe(1);
	}, 60_000);
});

describe("a note of one line of 250,000 tags", () => {
	const TAGS = 250_000;
	const line = Array.from({ length: TAGS }, (_, index) => `#t${index % 10}`).join(" ");
	const served = servedForBlock(
		() => {
			const files: Record<string, string> = { "Tags line.md": `${line}\n`, "Other.md": "#t1 #other\n", "Watched.md": "#watched\n" };
			for (let index = 0; index < 80; index++) files[`Small ${index}.md`] = `#small text\n`;
			return files;
		},
		"write",
		{ ready: "search" },
	);

	test("the search index, list_tags and read_note read its tags without building an entry for each: no piece of the work after an append is most of it", async () => {
		const { longestMs, totalMs } = await appendAndSettle(served, "Tags line.md", "#appended");
		await served.running.service.search?.whenReady();
		const listed = await callOk<{ tags: Array<{ tag: string; count: number }>; total: number }>(served.client, "list_tags", { limit: 2000 });
		expect(listed.total).toBe(14);
		expect(listed.tags).toContainEqual({ tag: "#t1", count: 2 });
		expect(listed.tags).toContainEqual({ tag: "#appended", count: 1 });
		const read = await callOk<{ tags: string[] }>(served.client, "read_note", { path: "Tags line.md" });
		expect(read.tags).toHaveLength(11);
		const found = await callOk<{ notes: string[] }>(served.client, "find_notes_by_tag", { tag: "appended" });
		expect(found.notes).toEqual(["Tags line.md"]);
		expect(longestMs).toBeLessThan(Math.max(totalMs / 4, HOLD_ALWAYS_FINE_MS));
	}, 120_000);

	test("read_note lists a note's tags without building its tag entries (for this note, 1.2 million objects in one piece of about 0.5 s)", async () => {
		const file = served.running.host.vault.getFileByPath("Watched.md");
		const watched = file ? served.running.host.metadataCache.getFileCache(file) : null;
		const tags = watched?.tags;
		expect(tags).toHaveLength(1);
		// Building 80 notes' entries would drop Watched.md's built list from the cache's last 64.
		for (let index = 0; index < 80; index++)
			expect((await callOk<{ tags: string[] }>(served.client, "read_note", { path: `Small ${index}.md` })).tags).toEqual(["#small"]);
		expect(watched?.tags).toBe(tags);
	}, 60_000);
});

describe("a note of 30,000 task lines of emoji priorities (2.7 MB, under the search bound)", () => {
	const TASKS = 30_000;
	const lines = Array.from({ length: TASKS }, (_, index) => `- [ ] t${index} ${"⏫🔼🔽🔺⏬".repeat(5)} 📅 2026-01-01 ✅ 2026-01-02`);
	// A note over MAX_STARTUP_PARSE_BYTES is parsed after start: until then it has no metadata, so no tasks (the index can be ready first on a busy machine).
	const served = servedForBlock(() => ({ "Priorities.md": `${lines.join("\n")}\n` }), "read", { ready: "both" });

	test("list_tasks packs and lists its tasks in pieces: no piece is a fifth of the call's work", async () => {
		const turns = cpuBetweenTurns();
		const value = await callOk<{ tasks: Array<{ line: number; text: string; due?: string; done?: string }>; total: number }>(served.client, "list_tasks", {
			status: "any",
			limit: 2,
		});
		const { longestMs, totalMs } = turns.stop();
		expect(value.total).toBe(TASKS);
		expect(value.tasks[1]).toEqual(expect.objectContaining({ line: 1, text: lines[1]?.slice("- [ ] ".length), due: "2026-01-01", done: "2026-01-02" }));
		// Its fields encoded as UTF-8 in one piece were 0.2–1 s of CPU, a third of the call or more.
		expect(longestMs).toBeLessThan(Math.max(totalMs / 5, HOLD_ALWAYS_FINE_MS));
	}, 60_000);
});

describe("set_property with a list of 100,000 items (a request's megabyte)", () => {
	const served = servedForBlock(() => ({ "Plain.md": "---\nrank: 1\n---\nbody\n" }), "write");

	test("is refused naming the bound before the list's YAML is built (0.3–0.4 s in one piece), and the note is unchanged", async () => {
		const error = await callError(served.client, "set_property", {
			path: "Plain.md",
			name: "list",
			value: Array.from({ length: 100_000 }, (_, index) => `v${index}`),
		});
		expect(error).toContain(`A list of at most ${MAX_FRONTMATTER_ENTRIES} items can be set`);
		expect(await fs.readFile(nodePath.join(served.vault, "Plain.md"), "utf8")).toBe("---\nrank: 1\n---\nbody\n");
	}, 60_000);

	test("a text longer than a frontmatter may be, or of more lines, is refused too: written, it left the note's properties unread", async () => {
		for (const value of ["[[Plain]] ".repeat(100_000), Array.from({ length: MAX_FRONTMATTER_ENTRIES + 1 }, (_, index) => `line ${index}`).join("\n")]) {
			const error = await callError(served.client, "set_property", { path: "Plain.md", name: "long", value });
			expect(error).toContain("would put the note's frontmatter over what is read as properties");
			expect(await fs.readFile(nodePath.join(served.vault, "Plain.md"), "utf8")).toBe("---\nrank: 1\n---\nbody\n");
		}
		expect(await callOk(served.client, "read_note", { path: "Plain.md" })).toMatchObject({ frontmatter: { rank: 1 } });
	}, 60_000);

	test("a value of arrays nested 5,000 deep is refused naming the depth bound (the request's byte count overflowed the stack: 'Internal server error.'), and the note is unchanged", async () => {
		// Raw HTTP: the SDK client's own JSON.stringify overflows on such a value under jest.
		const value = `${"[".repeat(5_000)}1${"]".repeat(5_000)}`;
		const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"set_property","arguments":{"path":"Plain.md","name":"deep","value":${value}}}}`;
		const answer = await rawRequest(served.running.port, {
			headers: mcpHeaders(served.running.port, served.running.tokens.write ?? "", [["MCP-Protocol-Version", "2025-06-18"]]),
			body,
		});
		expect(answer.status).toBe(400);
		expect(answer.body).toContain(`more than ${MAX_REQUEST_NESTING} levels deep`);
		expect(await fs.readFile(nodePath.join(served.vault, "Plain.md"), "utf8")).toBe("---\nrank: 1\n---\nbody\n");
		// The server is still there, and a flat value is written.
		expect(await callOk(served.client, "set_property", { path: "Plain.md", name: "flat", value: [1, 2] })).toMatchObject({ changed: true });
	}, 60_000);

	test("a megabyte request of 120,000 keys (in _meta, beside jsonrpc, as extra arguments) is refused naming the bound, the loop never held long; one within it answers", async () => {
		const keys = (count: number) => Array.from({ length: count }, (_, index) => `"${index.toString(36)}":0`).join(",");
		const call = `"method":"tools/call","params":{"name":"read_note","arguments":{"path":"Plain.md"`;
		const bodies = [
			`{"jsonrpc":"2.0","id":1,${call}},"_meta":{${keys(120_000)}}}}`,
			`{"jsonrpc":"2.0","id":2,${call}}},${keys(120_000)}}`,
			`{"jsonrpc":"2.0","id":3,${call},${keys(120_000)}}}}`,
		];
		const headers = mcpHeaders(served.running.port, served.running.tokens.write ?? "", [["MCP-Protocol-Version", "2025-06-18"]]);
		for (const body of bodies) {
			const { value: answer, hold } = await measured(() => rawRequest(served.running.port, { headers, body }));
			// 200 on 7b314396, after pieces of 67–215 ms in the SDK's message schema or the tool's argument schema.
			expect(answer.status).toBe(400);
			expect(answer.body).toContain(`more than ${MAX_REQUEST_OBJECT_KEYS} keys in all`);
			expect(hold.longestMs).toBeLessThan(HOLD_ALWAYS_FINE_MS);
		}
		const within = `{"jsonrpc":"2.0","id":4,${call}},"_meta":{${keys(MAX_REQUEST_OBJECT_KEYS - 20)}}}}`;
		const answer = await rawRequest(served.running.port, { headers, body: within });
		expect(answer.status).toBe(200);
		expect(answer.body).toContain("body");
	}, 60_000);
});

describe("a note whose frontmatter links to the note renamed 1,990 times, once per property", () => {
	const LINKS = 1_990;
	const served = servedForBlock(
		() => ({
			"Hub.md": "# Hub\n",
			"Planted.md": `---\n${Array.from({ length: LINKS }, (_, index) => `k${index}: "[[Hub#h${index}]]"`).join("\n")}\n---\nbody\n`,
		}),
		"write",
		{ ready: "metadata" },
	);

	test("rename_note rewrites every one, without a piece per value (a pattern of 1,990 choices was compiled for each: 1.5 s in one piece)", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ links_updated: number }>(served.client, "rename_note", { path: "Hub.md", new_path: "Centre.md" }),
		);
		expect(value.links_updated).toBe(LINKS);
		const text = await fs.readFile(nodePath.join(served.vault, "Planted.md"), "utf8");
		expect(text.split("[[Centre#h").length - 1).toBe(LINKS);
		expect(text.includes("[[Hub")).toBe(false);
		expectLoopNotHeld(hold);
	}, 60_000);
});

describe("a template of 100,000 {{date}}, one whose format is 60,000 `[`, and a base whose pattern chooses among 17⁴ ways", () => {
	const served = servedForBlock(
		() => ({
			".obsidian/templates.json": JSON.stringify({ folder: "Templates" }),
			"Templates/Many.md": "{{date}} ".repeat(100_000),
			"Templates/Brackets.md": `{{date:${"[".repeat(60_000)}}}\n`,
			"Templates/Plain.md": "# {{title}}\n{{date:YYYY}} [\n",
			"Hostile.base": `filters: '/a{0,16}a{0,16}a{0,16}a{0,16}a*b/.matches("a".repeat(1999))'\n`,
		}),
		"write",
		{ rights: { ...allowAll(), create_note: "allow" } },
	);

	test("create_note from either hostile template is refused at once, saying why; a plain one is filled", async () => {
		for (const template of ["Many", "Brackets"]) {
			const { value, hold } = await measured(() => callError(served.client, "create_note", { path: `From ${template}.md`, content: "", template }));
			expect(value).toMatch(/too many or too long to fill \(over 10000 characters of formats\)/);
			// The brackets took 5 s in one piece, the dates 0.8 s.
			expectLoopNotHeld(hold);
		}
		await callOk(served.client, "create_note", { path: "From Plain.md", content: "", template: "Plain" });
		expect(await fs.readFile(nodePath.join(served.vault, "From Plain.md"), "utf8")).toBe(`# From Plain\n${new Date().getFullYear()} [\n`);
	}, 60_000);

	test("query_base refuses the pattern before running it (it would run for minutes in one piece)", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ rows: unknown[]; filter_errors: Array<{ error: string }> }>(served.client, "query_base", { path: "Hostile.base" }),
		);
		expect(value.rows).toEqual([]);
		expect(value.filter_errors[0]?.error).toMatch(/is not run: it has more than 1 repeat without a bound/);
		expectLoopNotHeld(hold);
	}, 60_000);
});

describe("a note of one paragraph of two million lines over a `===`, and one of a wikilink of four megabytes, `[[a#a#…]]`", () => {
	const LINES = 2_000_000;
	const SUBPATHS = 2_000_000;
	const files = {
		// Four megabytes: under the bound of what search reads.
		"Slug.md": `${"w\n".repeat(LINES - 1)}last\n===\n`,
		"Link.md": `[[${"a#".repeat(SUBPATHS)}]]\n`,
	};

	test("the server starts, reads both and indexes them, with no piece of work over a tenth of it (the heading's words and the link's subpaths each took one piece of 0.5-0.9 s)", async () => {
		const vault = await makeVault(files);
		const turns = cpuBetweenTurns();
		const running = await startService(vault, { levels: ["read"], settings: { rateLimitPerMinute: 1_000_000 } });
		try {
			await running.service.search?.whenReady();
			await running.host.metadataCache.settled();
			const { longestMs, totalMs } = turns.stop();
			const client = await connectClient(running.url, running.tokens.read ?? "");
			try {
				const cacheOf = (path: string) => {
					const file = running.host.vault.getFileByPath(path);
					return file ? running.host.metadataCache.getFileCache(file) : null;
				};
				const heading = cacheOf("Slug.md")?.headings?.[0];
				expect(heading).toMatchObject({ level: 1, position: { start: { line: 0 } } });
				expect(heading?.heading.length).toBe(2 * (LINES - 1) + 4);
				const displayText = cacheOf("Link.md")?.links?.[0]?.displayText;
				expect(displayText?.length).toBe(SUBPATHS * 4 - 3);
				expect(displayText?.startsWith("a > a > ")).toBe(true);
				const found = await callOk<{ results: Array<{ path: string }> }>(client, "search_notes", { query: "last" });
				expect(found.results.map((result) => result.path)).toEqual(["Slug.md"]);
			} finally {
				await client.close();
			}
			// Before: 0.9-3.8 s in one piece, a fifth to a half of the work. The issue's 250 ms bound for others' wait is the floor (a GC pause over a heap of several 4 MB notes came near 150 ms once).
			expect(longestMs).toBeLessThan(Math.max(totalMs / 10, 250));
		} finally {
			await running.stop();
			await removeDir(vault);
		}
	}, 300_000);
});

describe("arguments of half a megabyte that name nothing, and a note of 100 headings of 9,000 characters", () => {
	const long = "Heading ".repeat(60_000);
	const served = servedForBlock(
		() => ({
			"Long headings.md": Array.from({ length: 100 }, (_, index) => `# ${index} ${"h".repeat(9_000)}\ntext`).join("\n") + "\n",
			"Outline.md": "- first\n- second\n",
			".obsidian/templates.json": JSON.stringify({ folder: "Templates" }),
			"Templates/Plain.md": "# Plain\n",
			"Views.base": "views:\n  - type: table\n    name: All\n",
		}),
		"write",
		{ rights: { ...allowAll(), create_note: "allow", add_task: "allow" } },
	);

	test("each error quotes the start of what it names and its length, never all of it (an append under a missing heading answered with all 480 KB)", async () => {
		const errors = {
			heading: await callError(served.client, "append_to_note", { path: "Outline.md", heading: long, content: "x" }),
			taskHeading: await callError(served.client, "add_task", { path: "Outline.md", heading: long, text: "x" }),
			bullet: await callError(served.client, "insert_under_bullet", { path: "Outline.md", bullet: long, content: "x" }),
			template: await callError(served.client, "create_note", { path: "New.md", content: "", template: long }),
			tag: await callError(served.client, "find_notes_by_tag", { tag: `#${"a b".repeat(200_000)}` }),
			view: await callError(served.client, "query_base", { path: "Views.base", view: long }),
			subpath: await callError(served.client, "read_note", { path: `Outline.md#${long}end` }),
			headingsListed: await callError(served.client, "append_to_note", { path: "Long headings.md", heading: "Nowhere", content: "x" }),
			headingsRead: await callError(served.client, "read_note", { path: "Long headings.md#Nowhere" }),
		};
		for (const [what, error] of Object.entries(errors)) {
			if (!what.startsWith("headings")) expect([what, error.length < 10 * ERROR_ECHO_MAX_CHARS + 2_000]).toEqual([what, true]);
		}
		expect(errors.heading).toContain(`No heading "${long.slice(0, ERROR_ECHO_MAX_CHARS)}… (480000 characters)" in this note.`);
		expect(errors.bullet).toContain(`No bullet contains "${long.slice(0, ERROR_ECHO_MAX_CHARS)}… (480000 characters)"`);
		expect(errors.view).toContain('Its views: "All".');
		expect(errors.subpath).toContain(`No heading "${long.slice(0, ERROR_ECHO_MAX_CHARS)}… (480003 characters)" in "Outline.md".`);
		// The note's headings are listed, each cut the same way.
		for (const listed of [errors.headingsListed, errors.headingsRead]) {
			expect(listed.length).toBeLessThan(HEADINGS_LISTED * (ERROR_ECHO_MAX_CHARS + 60) + 1_000);
			expect(listed).toContain("# 99 hhh");
		}
		expect(await fs.readFile(nodePath.join(served.vault, "Outline.md"), "utf8")).toBe("- first\n- second\n");
	}, 60_000);
});

describe("a note of one line of 10,000 `> ` and a callout under it (a quote deeper than the parser follows)", () => {
	const deep = `Before the quote, [[Other]].\n\n${"> ".repeat(10_000)}[!note] deepword [[Hub]]\n${"> ".repeat(10_000)}more\n`;
	const served = servedForBlock(() => ({ "Deep.md": deep, "Other.md": "# Other\n" }), "read", { ready: "metadata" });

	test("the server starts, indexes it and reads it whole (its parse overflowed the stack: the index build, `serve` and `inspect` failed)", async () => {
		await served.running.service.search?.whenReady();
		const read = await callOk<{ content: string }>(served.client, "read_note", { path: "Deep.md" });
		expect(read.content).toBe(deep);
		const links = await callOk<{ backlinks: Array<{ path: string }> }>(served.client, "get_note_links", { path: "Other.md" });
		expect(links.backlinks.map((link) => link.path)).toEqual(["Deep.md"]);
		const found = await callOk<{ results: Array<{ path: string }> }>(served.client, "search_notes", { query: "deepword" });
		expect(found.results.map((result) => result.path)).toEqual(["Deep.md"]);
	}, 120_000);
});

describe("a note of twenty open tasks of 50,000 characters each (`🆔 a-a-…`, `⛔ a,a,…`)", () => {
	const TASK_CHARS = 50_000;
	const tasks = Array.from(
		{ length: 20 },
		(_, index) => `- [ ] task ${index} ${index % 2 ? "🆔 " + "a-".repeat(TASK_CHARS / 2) : "⛔ " + "a,".repeat(TASK_CHARS / 2)}`,
	);
	const served = servedForBlock(() => ({ "Tasks.md": `${tasks.join("\n")}\n` }), "write", { rights: { complete_task: "allow" }, ready: "metadata" });

	test("complete_task naming a task that is not there lists the open tasks by the start of their text and its length (the error held all of them: a megabyte)", async () => {
		const error = await callError(served.client, "complete_task", { path: "Tasks.md", line: 0, text: "no such task" });
		expect(error).toContain("Its open tasks: line 0: task 0 ⛔ a,a,");
		expect(error).toContain(`(${(tasks[0] ?? "").length - "- [ ] ".length} characters)`);
		expect(error.length).toBeLessThan(20 * (ERROR_ECHO_MAX_CHARS + 60) + 1_000);
		expect(await fs.readFile(nodePath.join(served.vault, "Tasks.md"), "utf8")).toBe(`${tasks.join("\n")}\n`);
	}, 60_000);
});

describe("links nested deeper than the Markdown parser follows (quotes 700 deep, lists 600 deep, a callout a line 700 deep)", () => {
	const QUOTES = 700;
	const ITEMS = 600;
	const notes = {
		"Hub.md": "# Hub\n",
		"Quotes.md": `${"> ".repeat(QUOTES)}deep [[Hub]] and [[Hub#h|alias]] #deeptag\n`,
		"Lists.md": `${Array.from({ length: ITEMS }, (_, depth) => `${"  ".repeat(depth)}- level ${depth}`).join("\n")}\n${"  ".repeat(ITEMS)}- ![[Hub]]\n`,
		"Callouts.md": `${Array.from({ length: QUOTES }, (_, depth) => `${">".repeat(depth + 1)} [!note] c${depth}`).join("\n")}\n${">".repeat(QUOTES)} [[Hub]]\n`,
	};
	const served = servedForBlock(() => notes, "write", { ready: "metadata" });

	test("they are backlinks, and rename_note rewrites every one (links past 640 quotes or 500 list levels were not seen, and kept the old name)", async () => {
		const before = await callOk<{ backlinks: Array<{ path: string }> }>(served.client, "get_note_links", { path: "Hub.md" });
		expect(before.backlinks.map((link) => link.path).sort()).toEqual(["Callouts.md", "Lists.md", "Quotes.md"]);
		const renamed = await callOk<{ links_updated: number }>(served.client, "rename_note", { path: "Hub.md", new_path: "Centre.md" });
		expect(renamed.links_updated).toBe(4);
		const read = (name: string) => fs.readFile(nodePath.join(served.vault, name), "utf8");
		expect(await read("Quotes.md")).toBe(notes["Quotes.md"].replace("[[Hub]]", "[[Centre]]").replace("[[Hub#h|alias]]", "[[Centre#h|alias]]"));
		expect(await read("Lists.md")).toBe(notes["Lists.md"].replace("![[Hub]]", "![[Centre]]"));
		expect(await read("Callouts.md")).toBe(notes["Callouts.md"].replace("[[Hub]]", "[[Centre]]"));
		await served.running.host.metadataCache.settled();
		const tagged = await callOk<{ notes: string[] }>(served.client, "find_notes_by_tag", { tag: "deeptag" });
		expect(tagged.notes).toEqual(["Quotes.md"]);
	}, 120_000);
});

describe("a note whose frontmatter is hundreds of KiB as JSON (aliases of escaped text) and whose body is a megabyte of backslashes", () => {
	// Every character of these texts is two bytes as JSON and four once the answer is written again as its text block.
	const backslashes = "\\".repeat(30_000);
	const notes: Record<string, string> = {
		// 90,000 backslashes as properties (one text, aliased twice): 180 KiB as JSON, under the frontmatter bounds.
		"Aliased.md": `---\na: &a "${backslashes.replace(/\\/g, "\\\\")}"\nb: [*a, *a]\n---\n${"\\".repeat(1_000_000)}\n`,
		// 90,000 NULs as properties: 527 KiB as JSON, more than the note's text may be.
		"Nuls.md": `---\na: &a "${"\\0".repeat(30_000)}"\nb: [*a, *a]\n---\n${"\\".repeat(1_000_000)}\n`,
	};
	const served = servedForBlock(() => notes, "read", { ready: "metadata" });

	test.each(Object.keys(notes))(
		"read_note of %s answers its first part and says it was cut (it answered 'over 2 MiB': a planted note nobody's AI could read)",
		async (path) => {
			const note = await callOk<{ content: string; truncated: boolean; frontmatter: Record<string, unknown> | null; frontmatter_unparsed?: string }>(
				served.client,
				"read_note",
				{ path },
			);
			const text = notes[path] ?? "";
			expect(note.truncated).toBe(true);
			expect(text.startsWith(note.content)).toBe(true);
			expect(note.content.length).toBeGreaterThan(MAX_NOTE_CONTENT_BYTES / 8);
			if (path === "Aliased.md") expect(note.frontmatter?.a).toBe(backslashes);
			else {
				// Too long to answer as properties: its text is still at the start of content.
				expect(note.frontmatter).toBeNull();
				expect(note.frontmatter_unparsed).toMatch(/^Not answered as properties/);
			}
		},
		60_000,
	);
});

describe("one note holding a task line of 3 MB, and one of 400,000 backslashes", () => {
	const long = `x [[Home#${"a".repeat(3_000_000)}]]`;
	const escaped = "\\".repeat(400_000);
	const notes: Record<string, string> = {
		"Home.md": "# Home\n- [ ] water the plants\n",
		"Planted.md": `- [ ] ${long}\n- [ ] ${escaped}\n`,
	};
	const served = servedForBlock(() => notes, "read", { ready: "metadata" });

	test("list_tasks of the whole vault lists every task, the long ones cut to what complete_task takes, with their length (it answered 'over 2 MiB': one planted note hid every task)", async () => {
		const listed = await callOk<{ tasks: Array<{ path: string; line: number; text: string }>; total: number }>(served.client, "list_tasks", {});
		expect(listed.total).toBe(3);
		expect(listed.tasks.map((task) => [task.path, task.line])).toEqual([
			["Home.md", 1],
			["Planted.md", 0],
			["Planted.md", 1],
		]);
		expect(listed.tasks[0]?.text).toBe("water the plants");
		expect(listed.tasks[1]?.text).toBe(`${long.slice(0, MAX_TASK_TEXT_LENGTH)}… (${long.length} characters)`);
		expect(listed.tasks[2]?.text).toBe(`${escaped.slice(0, MAX_TASK_TEXT_LENGTH)}… (${escaped.length} characters)`);
	}, 60_000);
});

describe("three notes each holding 120,000 NULs in properties a base shows, before a plain note", () => {
	// 30,000 NULs, aliased three times: within the frontmatter bounds, about 720 KiB of JSON a row.
	const planted = `---\na: &a "${"\\0".repeat(30_000)}"\nb: [*a, *a, *a]\n---\n`;
	const notes: Record<string, string> = {
		"A1.md": planted,
		"A2.md": planted,
		"A3.md": planted,
		"Plain.md": "---\na: hello\n---\n# Plain\n",
		"All.base":
			"views:\n  - type: table\n    name: T\n    order: [file.name, note.a, note.b]\n    sort:\n      - property: file.name\n        direction: ASC\n",
	};
	const served = servedForBlock(() => notes, "read", { ready: "metadata" });

	test("query_base answers every row, the planted values cut short and named in cut_to_fit (it answered 'over 2 MiB': the base could not be read)", async () => {
		const result = await callOk<{
			rows: Array<{ path: string; values: Record<string, unknown> }>;
			total: number;
			cut_to_fit: { strings: string[]; total: number };
		}>(served.client, "query_base", { path: "All.base" });
		expect(result.total).toBe(5);
		expect(result.rows.map((row) => row.path)).toEqual(["A1.md", "A2.md", "A3.md", "All.base", "Plain.md"]);
		expect(result.rows[4]?.values["note.a"]).toBe("hello");
		// Each planted row's value and the three items of its list of it, cut to a start of it.
		expect(result.cut_to_fit.total).toBe(12);
		expect(result.cut_to_fit.strings).toContain("/rows/0/values/note.a");
		const cut = result.rows[0]?.values["note.a"] as string;
		expect(cut.length).toBeGreaterThan(0);
		expect("\0".repeat(30_000).startsWith(cut)).toBe(true);
		// Asked for alone, a planted row fits and is whole.
		const first = await callOk<{ rows: Array<{ path: string; values: Record<string, unknown> }> }>(served.client, "query_base", {
			path: "All.base",
			limit: 1,
		});
		expect(first.rows[0]?.values["note.a"]).toBe("\0".repeat(30_000));
	}, 60_000);
});

describe("notes of a megabyte of line breaks, of lone CRs and of NULs", () => {
	const notes: Record<string, string> = {
		"Breaks.md": `# Breaks\n${"\n".repeat(1_000_000)}end\n`,
		"Returns.md": `# Returns\r${"\r".repeat(1_000_000)}end\r`,
		"Nuls.md": `# Nuls\n${"\0".repeat(1_000_000)}end\n`,
	};
	const served = servedForBlock(() => notes, "read");
	/** The UTF-8 bytes of `text` as a JSON string, less its quotes. */
	const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

	test.each(Object.keys(notes))(
		"read_note of %s answers its first part, cut to the bound as JSON, and says it was cut (it answered 'over 2 MiB': the note could not be read)",
		async (path) => {
			const note = await callOk<{ content: string; truncated: boolean; size: number }>(served.client, "read_note", { path });
			const text = notes[path] ?? "";
			expect(note.truncated).toBe(true);
			expect(note.size).toBe(Buffer.byteLength(text));
			expect(text.startsWith(note.content)).toBe(true);
			expect(note.content.length).toBeGreaterThan(MAX_NOTE_CONTENT_BYTES / 8);
			expect(jsonBytes(note.content)).toBeLessThanOrEqual(MAX_NOTE_CONTENT_BYTES);
		},
		60_000,
	);

	test.each(Object.keys(notes))(
		"resources/read of %s gives its first part, cut to the same bound as JSON, and says so",
		async (path) => {
			const read = await served.client.readResource({ uri: `vault-mcp://note/${encodeURIComponent(path)}` });
			const content = read.contents[0] as { text?: string; _meta?: unknown } | undefined;
			expect(content?._meta).toEqual({ truncated: true });
			const said = content?.text ?? "";
			const text = said.slice(0, said.lastIndexOf("\n\n[Vault MCP: the note is cut here"));
			expect((notes[path] ?? "").startsWith(text)).toBe(true);
			expect(text.length).toBeGreaterThan(MAX_NOTE_CONTENT_BYTES / 8);
			expect(jsonBytes(text)).toBeLessThanOrEqual(MAX_NOTE_CONTENT_BYTES);
		},
		60_000,
	);
});

describe("notes of 4.5 MB whose frontmatter is millions of lines: one closed after them, one never closed", () => {
	const LINES = 2_250_000;
	const notes: Record<string, string> = {
		// Over every YAML bound: read as text, its body searched and its closing fence found.
		"Long front.md": `---\ntitle: x\n${"\n".repeat(LINES)}---\nzebrafrontier [[Other]]\n`,
		"Open front.md": `---\n${"a\n".repeat(LINES)}zebraopen\n`,
		"Other.md": "# Other\n",
	};
	const served = servedForBlock(() => notes, "read", { ready: "both" });

	test("the closing fence is found by the parse: the body's link is a link, the frontmatter no section of text", () => {
		const cache = served.running.host.metadataCache.getCache("Long front.md");
		expect(cache?.links?.map((link) => [link.link, link.position.start.line])).toEqual([["Other", LINES + 3]]);
		expect(cache?.sections?.[0]).toMatchObject({ type: "yaml", position: { start: { line: 0 }, end: { line: LINES + 2 } } });
		expect(served.running.host.metadataCache.getCache("Open front.md")?.sections?.[0]?.type).not.toBe("yaml");
	});

	test.each(Object.keys(notes).slice(0, 2))(
		"read_note of %s answers, the fence looked for in one quick pass (line by line, one piece of 0.6 s)",
		async (path) => {
			const { value, hold } = await measured(() => callOk<{ frontmatter: unknown; frontmatter_unparsed?: string }>(served.client, "read_note", { path }));
			expect(value.frontmatter).toBeNull();
			// Never closed, the note has no frontmatter: nothing to say of it.
			expect(value.frontmatter_unparsed === undefined).toBe(path === "Open front.md");
			expectLoopNotHeld(hold);
		},
		60_000,
	);

	test("search_notes finds the word after the closing fence, its snippet cut from the body (the fence looked for line by line: one piece of 0.6 s)", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ results: Array<{ path: string; snippets: string[] }> }>(served.client, "search_notes", { query: "zebrafrontier" }),
		);
		expect(value.results.map((result) => result.path)).toEqual(["Long front.md"]);
		expect(value.results[0]?.snippets.join(" ")).toContain("«zebrafrontier» [[Other]]");
		expectLoopNotHeld(hold);
	}, 60_000);
});

describe("a note of 4.4 MB of short web addresses, `http://a.b/c ` over and over", () => {
	const served = servedForBlock(() => ({ "Addresses.md": `plum\n${"http://a.b/c ".repeat(340_000)}\n` }), "read", { ready: "both" });

	test("search_notes shows them by their host, looking for addresses only where its passages reach (all 340,000 were found and looked through for each match: one piece of 190–310 ms)", async () => {
		const { value, hold } = await measured(() =>
			callOk<{ results: Array<{ path: string; snippets: string[] }> }>(served.client, "search_notes", { query: "http" }),
		);
		expect(value.results.map((result) => result.path)).toEqual(["Addresses.md"]);
		expect(value.results[0]?.snippets[0]).toContain("«http»://a.b/… «http»://a.b/…");
		expectLoopNotHeld(hold);
	}, 60_000);
});
