import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { FIRST_IN_ORDER_CHECK_MASK, LIST_NOTES_PAGE_CHECK_MASK, TAG_NOTES_CHECK_MASK, UPDATING_NOTICE_PAUSE_COUNT } from "../../src/config/limits";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { NodeVault } from "../../src/headless/NodeVault";
import { JournalFile } from "../../src/journal/JournalFile";
import type { HostFile } from "../../src/host/Host";
import { TagNotes } from "../../src/vault/tagNotes";
import { IndexedNoteSearch } from "../../src/vault/search";
import { PostingsIndex } from "../../src/search/postings";
import { TagCountWalk } from "../../src/vault/tagCounts";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger, startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A note visible when a call begins can be moved into an excluded folder (by the person in
 * Obsidian, or by another program with `serve` watching: the same file object, renamed in place)
 * while the call waits between two slices or for the disk. The answer must not name the note at
 * its new, excluded path: that path is the one thing an exclusion promises no client ever sees.
 */

/**
 * A service over `host` with one read token, and its client: every pause between slices first runs
 * the move `takeMove` hands it (the moment the person moves a note), and slices are as short as can be.
 */
async function serveMovingAtPauses(
	host: NodeHost,
	settings: VaultMcpSettings,
	takeMove: () => (() => Promise<void>) | null,
): Promise<{ service: McpService; client: Client }> {
	const made = addToken(settings, "reader", "read");
	if ("error" in made) throw new Error(made.error);
	const service = new McpService({
		host,
		serverVersion: "test",
		logger: new RecordingLogger(),
		journal: new MemoryJournal(),
		yieldToHost: async () => {
			const move = takeMove();
			if (move) await move();
			await new Promise((resolve) => setImmediate(resolve));
		},
		callBudget: { sliceMs: 0 },
	});
	const status = await service.apply(made.settings);
	if (status.state !== "listening") throw new Error("the server did not start");
	await service.search?.whenWarmedUp();
	return { service, client: await connectClient(status.url, made.token) };
}

describe("a note moved into an excluded folder while a call about it runs", () => {
	let root: string;
	let host: NodeHost;
	let service: McpService;
	let client: Client;
	/** Runs once, at the next pause of a call between its slices. */
	let atNextPause: (() => Promise<void>) | null = null;

	beforeEach(async () => {
		root = await makeVault({
			"Notes/A first.md": "# A first\n\n- [ ] water the ferns 📅 2026-01-02\n\nSee [[B second]].\n",
			"Notes/B second.md": "# B second\n\n- [ ] repot the cactus\n\nBack to [[A first]].\n",
			"Notes/C third.md": "# C third\n\n- [ ] sweep the porch\n",
			"Notes/A board.base": "views:\n  - type: table\n    name: Ferns\n",
			"Notes/B board.base": "views:\n  - type: table\n    name: Cacti\n",
			"Notes/Plan.canvas": JSON.stringify({ nodes: [{ id: "a", type: "text", text: "ferns", x: 0, y: 0, width: 100, height: 50 }], edges: [] }),
			"Private/Diary.md": "# Diary\n",
			"Notes/0 tagged.md": "# Tagged\n\n#fern-secret and #ferns\n",
		});
		host = await NodeHost.open(root);
		({ service, client } = await serveMovingAtPauses(host, { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] }, () => {
			const move = atNextPause;
			atNextPause = null;
			return move;
		}));
	});

	afterEach(async () => {
		jest.restoreAllMocks();
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(root);
	});

	async function moveIntoPrivate(path: string): Promise<void> {
		const file = host.vault.getFileByPath(path);
		if (!file) throw new Error(`no ${path}`);
		await host.vault.rename(file, path.replace(/^Notes\//u, "Private/"));
	}

	function expectNoPrivatePath(answer: unknown): void {
		expect(JSON.stringify(answer)).not.toMatch(/Private/u);
	}

	/** Moves each of `moves`' notes into `Private/` right after the vault's first read of the file it is keyed by; what is left to move. */
	function moveAfterReading(moves: Map<string, string>): Map<string, string> {
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
		const original = NodeVault.prototype.cachedRead;
		jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			const text = await original.call(this, file);
			const moved = moves.get(file.path);
			if (moved !== undefined) {
				moves.delete(file.path);
				await moveIntoPrivate(moved);
			}
			return text;
		});
		return moves;
	}

	test("list_tasks names no task under the excluded path", async () => {
		let moved = false;
		atNextPause = async () => {
			await moveIntoPrivate("Notes/A first.md");
			moved = true;
		};
		const answer = await callTool(client, "list_tasks", { status: "any" });
		expect(moved).toBe(true);
		expectNoPrivatePath(answer);
		expect(answer.ok).toBe(true);
		if (answer.ok) expect((answer.value.tasks as Array<{ path: string }>).map((task) => task.path)).toEqual(["Notes/B second.md", "Notes/C third.md"]);
	});

	test("list_tasks names a note renamed to another visible path at its new path, in path order", async () => {
		atNextPause = async () => {
			const file = host.vault.getFileByPath("Notes/A first.md");
			if (file) await host.vault.rename(file, "Notes/D fourth.md");
		};
		const answer = await callTool(client, "list_tasks", { status: "any" });
		expect(answer.ok).toBe(true);
		if (answer.ok)
			expect((answer.value.tasks as Array<{ path: string }>).map((task) => task.path)).toEqual([
				"Notes/B second.md",
				"Notes/C third.md",
				"Notes/D fourth.md",
			]);
	});

	test("list_tags counts no tag of a note moved into the excluded folder while it counted", async () => {
		let moved = false;
		atNextPause = async () => {
			await moveIntoPrivate("Notes/0 tagged.md");
			moved = true;
		};
		const answer = await callTool(client, "list_tags", {});
		expect(moved).toBe(true);
		expect(answer.ok).toBe(true);
		// Before: the walk's notes were file objects renamed in place, and the moved note's tags were counted.
		expect(JSON.stringify(answer)).not.toMatch(/fern/u);
		if (answer.ok) expect(answer.value).toMatchObject({ tags: [], total: 0 });
		// Asked again, the kept counts are those of what the token may see now.
		const again = await callTool(client, "list_tags", {});
		expect(again.ok && again.value).toMatchObject({ tags: [], total: 0 });
	});

	test("get_note_links does not answer with the note's excluded path", async () => {
		let moved = false;
		atNextPause = async () => {
			await moveIntoPrivate("Notes/A first.md");
			moved = true;
		};
		const answer = await callTool(client, "get_note_links", { path: "Notes/A first.md" });
		expect(moved).toBe(true);
		expectNoPrivatePath(answer);
	});

	test("get_note_links names no link target or linking note at the path it left for the excluded folder, whichever pause it moved at", async () => {
		// A first links to B second, and B second back to A first: B is moved at the call's k-th pause, then put back.
		// Z last, made now, is the last linking note the backlinks walk meets: a pause after B's count. From the last
		// pause down: a note moved and put back is met last from then on.
		await host.vault.create("Notes/Z last.md", "Also [[A first]].\n");
		for (let k = 12; k >= 1; k--) {
			let pauses = 0;
			let moved = false;
			const takeMove = async (): Promise<void> => {
				if (++pauses < k) {
					atNextPause = takeMove;
					return;
				}
				await moveIntoPrivate("Notes/B second.md");
				moved = true;
			};
			atNextPause = takeMove;
			const answer = await callTool(client, "get_note_links", { path: "Notes/A first.md" });
			atNextPause = null;
			if (!moved) continue;
			expect(answer.ok).toBe(true);
			// Before: the target resolved before the move was answered at "Notes/B second.md", a path that holds nothing now.
			expect({ k, answer: JSON.stringify(answer) }).toEqual({ k, answer: expect.not.stringMatching(/B second\.md|Private/u) });
			const back = host.vault.getFileByPath("Private/B second.md");
			if (back) await host.vault.rename(back, "Notes/B second.md");
		}
	});

	test("list_bases names no base under the excluded path", async () => {
		let moved = false;
		atNextPause = async () => {
			await moveIntoPrivate("Notes/A board.base");
			moved = true;
		};
		const answer = await callTool(client, "list_bases", {});
		expect(moved).toBe(true);
		expectNoPrivatePath(answer);
		expect(answer.ok).toBe(true);
		if (answer.ok) expect((answer.value.bases as Array<{ path: string }>).map((base) => base.path)).toEqual(["Notes/B board.base"]);
	});

	test("list_bases does not count a base of a later page moved into the excluded folder while the page's bases were read", async () => {
		const moving = moveAfterReading(new Map([["Notes/A board.base", "Notes/B board.base"]]));
		const answer = await callTool(client, "list_bases", { limit: 1 });
		expect(moving.size).toBe(0);
		expect(answer.ok).toBe(true);
		// Before: total 2, the moved base counted at the path it had left.
		if (answer.ok) expect(answer.value).toEqual({ bases: [{ path: "Notes/A board.base", views: ["Ferns"] }], total: 1, next_cursor: expect.any(String) });
		// Asked again, the same count.
		const again = await callTool(client, "list_bases", { limit: 1 });
		expect(again.ok && again.value.total).toBe(1);
	});

	test("read_canvas and query_base do not answer with the file's excluded path", async () => {
		const moving = moveAfterReading(
			new Map([
				["Notes/Plan.canvas", "Notes/Plan.canvas"],
				["Notes/A board.base", "Notes/A board.base"],
			]),
		);
		const canvas = await callTool(client, "read_canvas", { path: "Notes/Plan.canvas" });
		const base = await callTool(client, "query_base", { path: "Notes/A board.base" });
		expect(moving.size).toBe(0);
		expectNoPrivatePath(canvas);
		expectNoPrivatePath(base);
	});

	test("read_canvas does not say a card's note exists once it was moved into the excluded folder while the cards were read", async () => {
		await host.vault.create(
			"Notes/Cards.canvas",
			JSON.stringify({
				nodes: [
					{ id: "a", type: "file", file: "Notes/A first.md", x: 0, y: 0, width: 100, height: 50 },
					{ id: "b", type: "text", text: "ferns", x: 0, y: 100, width: 100, height: 50 },
				],
				edges: [{ id: "e", fromNode: "a", toNode: "b" }],
			}),
		);
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
		const original = NodeVault.prototype.getFileByPath;
		let armed = false;
		let moved = false;
		// Once the card's note is looked up, it moves at the next pause (before the next card is made).
		jest.spyOn(NodeVault.prototype, "getFileByPath").mockImplementation(function (this: NodeVault, path: string) {
			if (path === "Notes/A first.md" && !armed) {
				armed = true;
				atNextPause = async () => {
					await moveIntoPrivate("Notes/A first.md");
					moved = true;
				};
			}
			return original.call(this, path);
		});
		const answer = await callTool(client, "read_canvas", { path: "Notes/Cards.canvas" });
		expect(moved).toBe(true);
		expectNoPrivatePath(answer);
		expect(answer.ok).toBe(true);
		// Before: `exists: true`, for a note the token can no longer see anywhere.
		if (answer.ok)
			expect((answer.value.nodes as Array<{ id: string; exists?: boolean }>).map(({ id, exists }) => [id, exists])).toEqual([
				["a", false],
				["b", undefined],
			]);
	});

	test("get_graph_stats neither names nor counts a note moved into the excluded folder while the tags were counted", async () => {
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the TagNotes as `this`
		const tagCounts = TagNotes.prototype.tagCounts;
		let moved = false;
		// The graph is counted first; the note moves at a pause of the tag count after it.
		jest.spyOn(TagNotes.prototype, "tagCounts").mockImplementationOnce(function (this: TagNotes, ...args: Parameters<TagNotes["tagCounts"]>) {
			atNextPause = async () => {
				await moveIntoPrivate("Notes/A first.md");
				moved = true;
			};
			return tagCounts.apply(this, args);
		});
		const answer = await callTool(client, "get_graph_stats", {});
		expect(moved).toBe(true);
		expectNoPrivatePath(answer);
		expect(answer.ok).toBe(true);
		const again = await callTool(client, "get_graph_stats", {});
		// Before: "Notes/A first.md" among the most linked, and counted, at the path it had left.
		expect(answer.ok && answer.value).toEqual(again.ok && again.value);
		expect(JSON.stringify(answer)).not.toMatch(/A first/u);
	});

	test("search_notes does not count a match of a later page moved into the excluded folder while the page's snippets were read", async () => {
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
		const original = NodeVault.prototype.cachedRead;
		let moved: string | null = null;
		const first = await callTool(client, "search_notes", { query: "ferns", limit: 1 });
		expect(first.ok && first.value.total).toBe(2);
		jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			const text = await original.call(this, file);
			if (moved === null) {
				moved = ["Notes/A first.md", "Notes/0 tagged.md"].find((path) => path !== file.path) ?? null;
				if (moved !== null) await moveIntoPrivate(moved);
			}
			return text;
		});
		const answer = await callTool(client, "search_notes", { query: "ferns", limit: 1 });
		expect(moved).not.toBeNull();
		expectNoPrivatePath(answer);
		expect(answer.ok && answer.value.total).toBe(1);
	});

	test("read_note does not answer with the note's excluded path", async () => {
		const moving = moveAfterReading(new Map([["Notes/A first.md", "Notes/A first.md"]]));
		const answer = await callTool(client, "read_note", { path: "Notes/A first.md" });
		expect(moving.size).toBe(0);
		expectNoPrivatePath(answer);
	});
});

describe("a note moved into an excluded folder while resources/list or prompts/list walks a vault of thousands", () => {
	/** Past one pause of the walk that picks the newest notes and the prompt notes (it looks at the time every 4,096 notes). */
	const FILLERS = 4_100;
	const PROMPTS = ["a Greet", "a Thank", "a Wave"];
	let root: string;
	let host: NodeHost;
	let service: McpService;
	let client: Client;
	let atNextPause: (() => Promise<void>) | null = null;
	/** Prompt notes, among the newest, that the walk reaches before its first pause: one moved by each test. */
	let walkedFirst: string[];

	beforeAll(async () => {
		const fillers = Object.fromEntries(Array.from({ length: FILLERS }, (_, index) => [`Prompts/z ${index}.md`, `filler ${index}\n`]));
		root = await makeVault({ ...fillers, ...Object.fromEntries(PROMPTS.map((name) => [`Prompts/${name}.md`, `Say ${name}.\n`])) });
		const old = new Date("2020-01-01T00:00:00Z");
		for (const path of Object.keys(fillers)) await fs.utimes(nodePath.join(root, path), old, old);
		host = await NodeHost.open(root);
		const order = host.vault.getMarkdownFiles().map((file) => file.path);
		const early = order.slice(0, FIRST_IN_ORDER_CHECK_MASK).filter((path) => PROMPTS.some((name) => path === `Prompts/${name}.md`));
		// The folder is read in the disk's order: of three such notes among 4,103, two come before the first pause.
		expect(early.length).toBeGreaterThan(1);
		walkedFirst = early;
		({ service, client } = await serveMovingAtPauses(
			host,
			{
				...defaultSettings(),
				serverEnabled: true,
				port: 0,
				excludedFolders: ["Private diary"],
				promptsFolder: "Prompts",
			},
			() => {
				const move = atNextPause;
				atNextPause = null;
				return move;
			},
		));
		// 4,103 notes written, their times set one by one, then opened and parsed: 60 s ran out beside a second
		// suite and two busy loops (load 25-45 on 2 cores). A stop for a hang, not a speed check.
	}, 180_000);

	afterAll(async () => {
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(root);
	});

	/** Moves `path` into the excluded folder at the call's next pause. */
	function movedAtNextPause(path: string): void {
		atNextPause = async () => {
			const file = host.vault.getFileByPath(path);
			if (!file) throw new Error(`no ${path}`);
			await host.vault.rename(file, path.replace(/^Prompts\//u, "Private diary/"));
		};
	}

	test("resources/list names no note under the excluded path (it named it)", async () => {
		const moved = walkedFirst[0] as string;
		movedAtNextPause(moved);
		const listed = await client.listResources();
		expect(atNextPause).toBeNull();
		expect(JSON.stringify(listed)).not.toMatch(/Private/u);
		expect(listed.resources.map((resource) => resource.name)).not.toContain(moved);
	});

	test("prompts/list offers the notes in the prompts folder now, none moved into the excluded folder (the whole list failed: 'the folders this token may see changed')", async () => {
		const moved = walkedFirst[1] as string;
		movedAtNextPause(moved);
		const listed = await client.listPrompts();
		expect(atNextPause).toBeNull();
		const names = listed.prompts.map((prompt) => prompt.name);
		expect(names.filter((name) => host.vault.getFileByPath(`Prompts/${name}.md`) === null)).toEqual([]);
		expect(names).toEqual(expect.arrayContaining(PROMPTS.filter((name) => !walkedFirst.slice(0, 2).includes(`Prompts/${name}.md`))));
	});
});

/**
 * prompts/list reads each prompt note's body in turn, each read a wait for the disk. A prompt note
 * the person moves into an excluded folder while another one is read is out of sight by its turn:
 * the whole list failed ("the folders this token may see changed"), though the token's folders had not.
 */
/**
 * list_notes makes its page in slices (a pause every LIST_NOTES_PAGE_CHECK_MASK + 1 notes), then counts
 * the listing. An entry is a path and a size read as it is made: a note moved into an excluded folder
 * at a later pause was named, with its size, at the path it had just left for the excluded folder.
 */
describe("a note moved into an excluded folder after list_notes made its entry", () => {
	test("the page neither names nor counts it", async () => {
		const listed = LIST_NOTES_PAGE_CHECK_MASK + 8;
		const fillers = Object.fromEntries(Array.from({ length: listed }, (_, index) => [`Notes/n ${index}.md`, "x\n"]));
		const root = await makeVault({ ...fillers, "Notes/0 salary.md": "a note of 29 bytes, say, here\n" });
		const host = await NodeHost.open(root);
		let pauses = 0;
		let moveAtPause = Number.POSITIVE_INFINITY;
		const { service, client } = await serveMovingAtPauses(host, { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] }, () =>
			++pauses === moveAtPause
				? async () => {
						const file = host.vault.getFileByPath("Notes/0 salary.md");
						if (file) await host.vault.rename(file, "Private/0 salary.md");
					}
				: null,
		);
		try {
			// Listed once: the listing is kept, and the next call's pauses are its turn before the page, then the page's own.
			await callTool(client, "list_notes", { folder: "Notes", limit: listed + 1 });
			pauses = 0;
			moveAtPause = 2;
			const answer = await callTool(client, "list_notes", { folder: "Notes", limit: listed + 1 });
			expect(host.vault.getFileByPath("Private/0 salary.md")).not.toBeNull();
			// On main: the first entry was {"path":"Notes/0 salary.md","size":30}, beside a total of 135 that left it out.
			expect(JSON.stringify(answer)).not.toMatch(/salary/u);
			expect(answer.ok && answer.value).toMatchObject({ total: listed });
			expect(answer.ok && (answer.value.notes as unknown[]).length).toBe(listed);
		} finally {
			await client.close();
			await service.stop();
			await host.close();
			await removeDir(root);
		}
	});
});

/**
 * list_notes, find_notes_by_tag and list_tags (as list_templates and query_base, renamesSeen.ts) are made again when a
 * note moves out of the caller's sight while they run. A note moved between two visible folders leaves
 * nothing unseen in the answer: in a busy vault (someone reorganising, another client renaming in a loop)
 * such moves at every pause made every run count: list_notes failed after
 * RUNS_WHILE_RENAMED runs, find_notes_by_tag and list_tags ran again until the moves stopped (or the budget ran out).
 */
describe("notes moved between visible folders at every pause of a call", () => {
	const MOVES_DURING_CALL = 200;
	/** What each run of a tool does once: find_notes_by_tag takes its tag's lists, list_tags finishes its walk. */
	const runOf = {
		list_notes: null,
		find_notes_by_tag: { on: TagNotes.prototype as unknown as { sortedListsFor(): Promise<string[][]> }, method: "sortedListsFor" as const },
		list_tags: { on: TagCountWalk.prototype, method: "finish" as const },
	};
	test.each([
		["list_notes", { folder: "Notes" }, { total: LIST_NOTES_PAGE_CHECK_MASK + 8 }],
		["find_notes_by_tag", { tag: "fern", limit: 3 }, { total: LIST_NOTES_PAGE_CHECK_MASK + 8 }],
		["list_tags", {}, { tags: [{ tag: "#fern", count: LIST_NOTES_PAGE_CHECK_MASK + 8 }] }],
	] as const)("%s answers", async (tool, args, expected) => {
		const listed = LIST_NOTES_PAGE_CHECK_MASK + 8;
		const fillers = Object.fromEntries(Array.from({ length: listed }, (_, index) => [`Notes/n ${index}.md`, "#fern\n"]));
		const root = await makeVault({ ...fillers, "Drafts/moving.md": "x\n", "Drafts/kept.md": "x\n", "Archive/kept.md": "x\n" });
		// Not watching: the watcher would see each move on disk again, after the next one had begun.
		const host = await NodeHost.open(root, { watch: false });
		let moves = 0;
		// The move under way, if any (one at a time: pauses of the call's concurrent reads may come together).
		const under: { way: Promise<void> | null } = { way: null };
		let armed = false;
		const move = async () => {
			const file = host.vault.getFileByPath("Drafts/moving.md") ?? host.vault.getFileByPath("Archive/moving.md");
			if (file) await host.vault.rename(file, file.path.startsWith("Drafts/") ? "Archive/moving.md" : "Drafts/moving.md");
			moves++;
			under.way = null;
		};
		const { service, client } = await serveMovingAtPauses(host, { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] }, () =>
			under.way || !armed || moves >= MOVES_DURING_CALL ? null : () => (under.way = move()),
		);
		const run = runOf[tool];
		const runs = run && jest.spyOn(run.on as Record<typeof run.method, () => Promise<unknown>>, run.method);
		try {
			armed = true;
			const answer = await callTool(client, tool, args);
			armed = false;
			expect(moves).toBeGreaterThan(0);
			// Before: "Notes kept being renamed while this call ran." (each of its RUNS_WHILE_RENAMED runs saw a move).
			expect(answer.ok ? "answered" : answer.error).toBe("answered");
			expect(answer.ok && answer.value).toMatchObject(expected);
			// Before: a run for each of the moves, about.
			if (runs) expect(runs).toHaveBeenCalledTimes(1);
		} finally {
			armed = false;
			runs?.mockRestore();
			await under.way;
			await client.close();
			await service.stop();
			await host.close();
			await removeDir(root);
		}
	});
});

/**
 * find_notes_by_tag merges the path lists of a tag and its nested tags, then checks each path against
 * the scope, pausing every TAG_NOTES_CHECK_MASK + 1 paths. The lists hold paths, not file objects: a
 * note moved into an excluded folder at one of those pauses was named, and counted, at the path it
 * had just left for the excluded folder.
 */
describe("a note moved into an excluded folder while find_notes_by_tag merges and checks its lists", () => {
	test("the note is neither named nor counted; asked again, the answer is the same", async () => {
		const tagged = TAG_NOTES_CHECK_MASK + 8;
		const fillers = Object.fromEntries(Array.from({ length: tagged }, (_, index) => [`Notes/n ${index}.md`, index % 2 === 0 ? "#fern\n" : "#fern/sub\n"]));
		const root = await makeVault({ ...fillers, "Notes/0 salary.md": "#fern\n" });
		const host = await NodeHost.open(root);
		let armed = false;
		let moved = false;
		const { service, client } = await serveMovingAtPauses(host, { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] }, () =>
			armed && !moved
				? async () => {
						moved = true;
						const file = host.vault.getFileByPath("Notes/0 salary.md");
						if (file) await host.vault.rename(file, "Private/0 salary.md");
					}
				: null,
		);
		// Armed once the call has taken its lists: the move comes at the next pause, in the merge or the check.
		// A private method, spied on to find the moment.
		const proto = TagNotes.prototype as unknown as { sortedListsFor(...args: unknown[]): Promise<string[][]> };
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the index as `this`
		const original = proto.sortedListsFor;
		jest.spyOn(proto, "sortedListsFor").mockImplementation(async function (this: TagNotes, ...args: unknown[]) {
			const lists = await original.apply(this, args);
			armed = true;
			return lists;
		});
		try {
			const answer = await callTool(client, "find_notes_by_tag", { tag: "fern", limit: 3 });
			expect(moved).toBe(true);
			expect(host.vault.getFileByPath("Private/0 salary.md")).not.toBeNull();
			// On main: notes ["Notes/0 salary.md", …], total 1032.
			expect(answer).toMatchObject({ ok: true, value: { notes: ["Notes/n 0.md", "Notes/n 1.md", "Notes/n 10.md"], total: tagged } });
			expect(JSON.stringify(answer)).not.toMatch(/salary/u);
			expect(await callTool(client, "find_notes_by_tag", { tag: "fern", limit: 3 })).toEqual(answer);
		} finally {
			jest.restoreAllMocks();
			await client.close();
			await service.stop();
			await host.close();
			await removeDir(root);
		}
	});
});

describe("a prompt note moved into an excluded folder while prompts/list reads the prompt notes", () => {
	let root: string;
	let host: NodeHost;
	let service: McpService;
	let client: Client;

	beforeEach(async () => {
		root = await makeVault({
			"Prompts/a Greet.md": "Say hello to {{name}}.\n",
			"Prompts/b Thank.md": "Say thanks for {{gift}}.\n",
			"Prompts/c Wave.md": "Wave.\n",
		});
		host = await NodeHost.open(root);
		({ service, client } = await serveMovingAtPauses(
			host,
			{ ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"], promptsFolder: "Prompts" },
			() => null,
		));
	});

	afterEach(async () => {
		jest.restoreAllMocks();
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(root);
	});

	/** Moves `moved` into the excluded folder once the read of `whileReading` has the note's text. */
	function moveWhileReading(whileReading: string, moved: string): { done: () => boolean } {
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
		const original = NodeVault.prototype.cachedRead;
		let done = false;
		jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			const text = await original.call(this, file);
			if (!done && file.path === whileReading) {
				done = true;
				const note = host.vault.getFileByPath(moved);
				if (!note) throw new Error(`no ${moved}`);
				await host.vault.rename(note, moved.replace(/^Prompts\//u, "Private/"));
			}
			return text;
		});
		return { done: () => done };
	}

	/**
	 * A note deleted while it is read is answered "gone". One moved into the excluded folder then was
	 * answered "the folders this token may see changed", though they had not: the answer told that the
	 * note had gone into a hidden folder rather than away.
	 */
	test.each([
		["resources/read", () => client.readResource({ uri: "vault-mcp://note/Prompts/a%20Greet.md" })],
		["prompts/get", () => client.getPrompt({ name: "a Greet", arguments: { name: "Ann" } })],
	])("%s of a note moved into the excluded folder while it is read answers as for a note deleted then", async (_, ask) => {
		const answerTo = async (away: (note: HostFile) => Promise<void>): Promise<string> => {
			jest.restoreAllMocks();
			// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
			const original = NodeVault.prototype.cachedRead;
			let done = false;
			jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
				if (!done && file.path === "Prompts/a Greet.md") {
					done = true;
					await away(file);
				}
				return original.call(this, file);
			});
			const error = await ask().then(
				(answer) => `answered: ${JSON.stringify(answer)}`,
				(failed: Error) => failed.message,
			);
			expect(done).toBe(true);
			return error;
		};
		const text = await fs.readFile(nodePath.join(root, "Prompts/a Greet.md"), "utf8");
		// Deleted on disk while it is read, before the host has seen it go: the read fails.
		const deleted = await answerTo(() => fs.rm(nodePath.join(root, "Prompts/a Greet.md")));
		// Put back: this host does not watch the disk, so it never saw the note go.
		await fs.writeFile(nodePath.join(root, "Prompts/a Greet.md"), text);
		const moved = await answerTo((note) => host.vault.rename(note, "Private/a Greet.md"));
		expect(deleted).toMatch(/gone/u);
		expect(moved).toBe(deleted);
	});

	test.each([
		["a later prompt note", "Prompts/b Thank.md", "Prompts/a Greet.md"],
		["the note being read", "Prompts/a Greet.md", "Prompts/a Greet.md"],
		["a note read already", "Prompts/a Greet.md", "Prompts/b Thank.md"],
	])("%s (%s) moved while %s is read: the others are offered, the moved one is not", async (_, moved, whileReading) => {
		const move = moveWhileReading(whileReading, moved);
		const listed = await client.listPrompts();
		expect(move.done()).toBe(true);
		expect(JSON.stringify(listed)).not.toMatch(/Private/u);
		const offered = ["a Greet", "b Thank", "c Wave"].filter((name) => `Prompts/${name}.md` !== moved);
		expect(listed.prompts.map((prompt) => prompt.name)).toEqual(offered);
	});
});

/**
 * A write call plans on the note's text first. A note the person moves into an excluded folder while
 * the plan reads it was planned on all the same: the plan's error quoted what it read there (the
 * headings an append_to_note names none of), and a plan that worked was refused as "no longer
 * allowed … its rights, its folders … changed", which they had not. A note deleted then is "gone".
 */
describe("a note moved into an excluded folder while a write call's plan reads it", () => {
	const NOTE = "# Plan\n\n## Salary review\n\n- [ ] ask for more\n";

	test.each([
		["append_to_note", { path: "Notes/A.md", content: "more", heading: "Nope" }],
		["set_property", { path: "Notes/A.md", name: "status", value: "done" }],
	])("%s answers as for a note deleted then, quoting nothing of it, writing nothing", async (tool, args) => {
		const answers: string[] = [];
		for (const away of ["deleted", "moved"]) {
			const vault = await makeVault({ "Notes/A.md": NOTE });
			const running = await startService(vault, {
				levels: ["write"],
				settings: { writeEnabled: true, writeDisclosureAccepted: true, excludedFolders: ["Private"] },
				rights: { write: { [tool]: "allow" } },
			});
			const client = await connectClient(running.url, running.tokens.write ?? "");
			try {
				// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
				const original = NodeVault.prototype.cachedRead;
				let done = false;
				jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
					if (!done && file.path === "Notes/A.md") {
						done = true;
						// Deleted on disk before the host has seen it go (the read fails), or moved by the person.
						if (away === "deleted") await fs.rm(nodePath.join(vault, "Notes/A.md"));
						else await running.host.vault.rename(file, "Private/A.md");
					}
					return original.call(this, file);
				});
				const answer = await callTool(client, tool, args);
				expect(done).toBe(true);
				expect(JSON.stringify(answer)).not.toMatch(/Salary|Private/u);
				answers.push(answer.ok ? `written: ${JSON.stringify(answer.value)}` : answer.error);
				if (away === "moved") expect(await fs.readFile(nodePath.join(vault, "Private/A.md"), "utf8")).toBe(NOTE);
			} finally {
				jest.restoreAllMocks();
				await client.close();
				await running.stop();
				await removeDir(vault);
			}
		}
		expect(answers[0]).toMatch(/gone/u);
		expect(answers[1]).toBe(answers[0]);
	});
});

/**
 * Between a write call's plan and its write, the call records the change in the journal (a wait for
 * the disk). A note the person moved into an excluded folder then was written where it now was: the
 * append went into the excluded note, and the answer said it was written.
 */
describe("a note moved into an excluded folder between a write call's plan and its write", () => {
	test.each([
		["append_to_note", { path: "Notes/A.md", content: "more" }],
		["set_property", { path: "Notes/A.md", name: "status", value: "done" }],
	])("%s writes nothing into the excluded note and says it was not written", async (tool, args) => {
		const vault = await makeVault({ "Notes/A.md": "# A\n" });
		const running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true, excludedFolders: ["Private"] },
			rights: { write: { [tool]: "allow" } },
		});
		const client = await connectClient(running.url, running.tokens.write ?? "");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the journal as `this`
		const original = JournalFile.prototype.recordChangesAhead;
		let moved = false;
		jest.spyOn(JournalFile.prototype, "recordChangesAhead").mockImplementation(async function (this: JournalFile, call, changes) {
			const note = running.host.vault.getFileByPath("Notes/A.md");
			if (!moved && note) {
				moved = true;
				await running.host.vault.rename(note, "Private/A.md");
			}
			return original.call(this, call, changes);
		});
		try {
			const answer = await callTool(client, tool, args);
			expect(moved).toBe(true);
			expect(await fs.readFile(nodePath.join(vault, "Private/A.md"), "utf8")).toBe("# A\n");
			expect(answer.ok).toBe(false);
			expect(JSON.stringify(answer)).not.toMatch(/Private/u);
		} finally {
			jest.restoreAllMocks();
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});
});

/**
 * The same move, made while the planned change is being recorded in the write journal (the record
 * is made under the planned path, the note then renamed in place): nothing is written, so nothing
 * may stay in the journal either. A record left there showed in history as a write that never
 * happened, and undoing it found the note gone and saved its earlier text as a conflict copy beside
 * the planned path: the text the person had just moved out of every client's sight, back in view.
 */
describe("a note moved into an excluded folder while its planned write is being recorded", () => {
	/** An outline with a task, so that every tool that edits a note has something to edit. */
	const MOVED_NOTE = "- salary review\n- [ ] pay rise\n";

	async function withMoveWhileRecorded(
		tool: string,
		args: Record<string, unknown>,
		grow: string,
		check: (answer: Awaited<ReturnType<typeof callTool>>, running: Awaited<ReturnType<typeof startService>>, vault: string) => Promise<void>,
	): Promise<void> {
		const vault = await makeVault({ "Notes/A.md": MOVED_NOTE });
		const running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true, excludedFolders: ["Private"] },
			rights: { write: { [tool]: "allow" } },
		});
		const client = await connectClient(running.url, running.tokens.write ?? "");
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the journal as `this`
		const original = JournalFile.prototype.recordChangesAhead;
		let moved = false;
		jest.spyOn(JournalFile.prototype, "recordChangesAhead").mockImplementation(async function (this: JournalFile, call, changes) {
			await original.call(this, call, changes);
			const note = running.host.vault.getFileByPath("Notes/A.md");
			if (!moved && note) {
				moved = true;
				await running.host.vault.rename(note, "Private/A.md");
				if (grow !== "") await fs.appendFile(nodePath.join(vault, "Private/A.md"), grow);
			}
		});
		try {
			const answer = await callTool(client, tool, args);
			expect(moved).toBe(true);
			await check(answer, running, vault);
		} finally {
			jest.restoreAllMocks();
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	}

	test.each([
		["append_to_note", { path: "Notes/A.md", content: "more" }],
		["set_property", { path: "Notes/A.md", name: "status", value: "done" }],
		["add_task", { path: "Notes/A.md", text: "ask for more" }],
		["complete_task", { path: "Notes/A.md", line: 1, text: "pay rise" }],
		["insert_under_bullet", { path: "Notes/A.md", bullet: "salary review", content: "asked" }],
	])("%s leaves no record of the write it did not make, so an undo has nothing to copy back into view", async (tool, args) => {
		await withMoveWhileRecorded(tool, args, "", async (answer, running, vault) => {
			expect(answer.ok).toBe(false);
			expect(await fs.readFile(nodePath.join(vault, "Private/A.md"), "utf8")).toBe(MOVED_NOTE);
			// On main: one entry, "Notes/A.md" changed by this call.
			expect(running.journal.list()).toEqual([]);
			expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual([]);
		});
	});

	test("rename_note does not move the note back out of the excluded folder to its new path", async () => {
		await withMoveWhileRecorded("rename_note", { path: "Notes/A.md", new_path: "Notes/B.md" }, "", async (answer, running, vault) => {
			expect(answer.ok).toBe(false);
			expect(JSON.stringify(answer)).not.toMatch(/Private/u);
			// On main: Private/A.md was moved to Notes/B.md, back in every client's sight, and the call answered that it had renamed it.
			expect(await fs.readFile(nodePath.join(vault, "Private/A.md"), "utf8")).toBe(MOVED_NOTE);
			expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual([]);
			expect(running.journal.list()).toEqual([]);
		});
	});

	test("a note also grown past the longest a tool edits is refused without naming the excluded path it has now", async () => {
		// Over MAX_EDITED_NOTE_BYTES: refused unread, with the tool's reason.
		const grow = "x".repeat(3 * 1024 * 1024 + 1);
		await withMoveWhileRecorded("append_to_note", { path: "Notes/A.md", content: "more" }, grow, async (answer, running) => {
			expect(answer.ok).toBe(false);
			// On main: '"Private/A.md" is over 1048576 characters…'. Answered as a note gone meanwhile: not even its size is told.
			expect(JSON.stringify(answer)).not.toMatch(/Private|characters/u);
			expect(running.journal.list()).toEqual([]);
		});
	});
});

/**
 * A page's cursor is base64 JSON that names the last item's path: a client decodes it as easily as
 * it reads the page. list_bases sorts its bases in slices, and a base moved into an excluded folder
 * at one of those pauses was then named by the cursor at its new path (the page itself left it out).
 */
describe("a base moved into an excluded folder while list_bases sorts its bases", () => {
	/** More than one sort step's worth of bases, so sorting them pauses. */
	const BASES = 1100;
	let root: string;
	let host: NodeHost;
	let service: McpService;
	let client: Client;
	let atNextPause: (() => Promise<void>) | null = null;

	beforeAll(async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < BASES; index++) files[`Boards/${String(index).padStart(4, "0")}.base`] = "views:\n  - type: table\n    name: All\n";
		root = await makeVault(files);
		host = await NodeHost.open(root);
		// The excluded folder sorts before the visible one, so the moved base stays first in the sort.
		({ service, client } = await serveMovingAtPauses(host, { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Archive"] }, () => {
			const move = atNextPause;
			atNextPause = null;
			return move;
		}));
	}, 120_000);

	afterAll(async () => {
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(root);
	});

	test("the next page's cursor does not name the base's excluded path", async () => {
		let moved = false;
		atNextPause = async () => {
			const file = host.vault.getFileByPath("Boards/0000.base");
			if (!file) throw new Error("no Boards/0000.base");
			await host.vault.rename(file, "Archive/0000.base");
			moved = true;
		};
		const answer = await callTool(client, "list_bases", { limit: 1 });
		expect(moved).toBe(true);
		expect(answer.ok).toBe(true);
		if (!answer.ok) return;
		const cursor = answer.value.next_cursor as string;
		expect(typeof cursor).toBe("string");
		expect(Buffer.from(cursor, "base64url").toString("utf8")).not.toMatch(/Archive/u);
		expect(JSON.stringify(answer.value)).not.toMatch(/Archive/u);
		// The next page goes on from there: the first visible base is listed, the moved one never.
		const next = await callTool(client, "list_bases", { limit: 1, cursor });
		expect(next.ok && JSON.stringify(next.value)).not.toMatch(/Archive/u);
	}, 60_000);
});

/**
 * query_base reads a row's properties when it builds the row, in slices with pauses between rows.
 * A note moved into an excluded folder at one of those pauses, after the query matched it, was
 * still given as a row: its properties read after the move, from a note the token may no longer see.
 */
/**
 * A row's values may name notes other than its own: its backlinks (from an index of every note's links,
 * built before the rows), a link's file (`asFile()`), the `file()` function. Those are paths read as
 * the value was made. A note moved into an excluded folder while the rows were built was named in a
 * visible row at the path it had just left for the excluded folder (the row's own note is checked).
 */
describe("a note another row names moved into an excluded folder while query_base builds the rows", () => {
	/** `Notes/Links.base` queried while `Notes/Salary review.md` moves into Private once the rows are being built. */
	async function queryWhileMoved(formulas: string, notes: Record<string, string>): Promise<Awaited<ReturnType<typeof callTool>>> {
		const root = await makeVault({
			"Notes/Links.base": `filters: 'file.tags.length >= 0'\nviews:\n  - type: table\n    name: Links\n    order:\n      - file.name\n      - formula.other\n      - file.tags\nformulas:\n  other: '${formulas}'\n`,
			...notes,
		});
		const host = await NodeHost.open(root);
		let armed = false;
		let moved = false;
		const { service, client } = await serveMovingAtPauses(host, { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] }, () =>
			armed && !moved
				? async () => {
						moved = true;
						const file = host.vault.getFileByPath("Notes/Salary review.md");
						if (file) await host.vault.rename(file, "Private/Salary review.md");
					}
				: null,
		);
		// Each note's metadata is read as the notes are matched (the filter), and for the backlink index; read again, a row is
		// being built (its file.tags, after its formula): the move comes at the next pause, that row's value made.
		const cache = host.metadataCache;
		const original = cache.getFileCache.bind(cache);
		const looked = new Set<string>();
		jest.spyOn(cache, "getFileCache").mockImplementation((file) => {
			if (looked.has(file.path)) armed = true;
			looked.add(file.path);
			return original(file);
		});
		try {
			const answer = await callTool(client, "query_base", { path: "Notes/Links.base" });
			expect(moved).toBe(true);
			expect(host.vault.getFileByPath("Private/Salary review.md")).not.toBeNull();
			return answer;
		} finally {
			jest.restoreAllMocks();
			await client.close();
			await service.stop();
			await host.close();
			await removeDir(root);
		}
	}

	function otherOf(answer: Awaited<ReturnType<typeof callTool>>, path: string): unknown {
		const rows = answer.ok ? (answer.value.rows as Array<{ path: string; values: Record<string, unknown> }>) : [];
		return rows.find((row) => row.path === path)?.values["formula.other"];
	}

	test("a linking note is no row's backlink", async () => {
		const answer = await queryWhileMoved("file.backlinks", {
			"Notes/Target.md": "# Target\n",
			"Notes/Salary review.md": "[[Target]]\n",
			"Notes/Other.md": "[[Target]]\n",
		});
		// On main: Target's row gave ["[[Notes/Other.md]]", "[[Notes/Salary review.md]]"].
		expect(JSON.stringify(answer)).not.toMatch(/Salary/u);
		expect(otherOf(answer, "Notes/Target.md")).toEqual(["[[Notes/Other.md]]"]);
	});

	test.each([['file("Salary review")'], ["file.links.map(value.asFile())"]])("a linked note is no row's %s", async (formula) => {
		const answer = await queryWhileMoved(formula, { "Notes/Linker.md": "[[Salary review]]\n", "Notes/Salary review.md": "# Review\n" });
		// On main: Linker's row gave the note as "Notes/Salary review.md" (or a list of it), a file it no longer was.
		expect(JSON.stringify(answer)).not.toMatch(/Salary/u);
		expect(otherOf(answer, "Notes/Linker.md")).toEqual(formula.startsWith("file(") ? null : [null]);
	});
});

describe("a note moved into an excluded folder while query_base builds its rows", () => {
	let root: string;
	let host: NodeHost;
	let service: McpService;
	let client: Client;
	let atNextPause: (() => Promise<void>) | null = null;

	beforeEach(async () => {
		root = await makeVault({
			"Notes/Board.base":
				"views:\n  - type: table\n    name: Cards\n    order:\n      - note.card\n      - file.name\n    sort:\n      - property: file.name\n        direction: ASC\n",
			"Notes/A first.md": "---\ncard: first card\n---\n",
			"Notes/B second.md": "---\ncard: second card\n---\n",
			"Notes/C diary.md": "---\ncard: a diary line\n---\n",
		});
		host = await NodeHost.open(root);
		({ service, client } = await serveMovingAtPauses(host, { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] }, () => {
			const move = atNextPause;
			atNextPause = null;
			return move;
		}));
	});

	afterEach(async () => {
		jest.restoreAllMocks();
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(root);
	});

	/**
	 * Once the first row's properties are read (the rows are being built, every note already matched),
	 * the next pause renames `from` to `to`. `readAfter`: the paths whose properties were read after it.
	 */
	function renameWhileRowsBuilt(from: string, to: string): { renamed: () => boolean; readAfter: Set<string> } {
		const cache = host.metadataCache;
		const original = cache.getFileCache.bind(cache);
		let renamed = false;
		const readAfter = new Set<string>();
		jest.spyOn(cache, "getFileCache").mockImplementation((file) => {
			if (renamed) readAfter.add(file.path);
			if (file.path === "Notes/A first.md" && !renamed && atNextPause === null)
				atNextPause = async () => {
					const note = host.vault.getFileByPath(from);
					if (!note) throw new Error(`no ${from}`);
					await host.vault.rename(note, to);
					renamed = true;
				};
			return original(file);
		});
		return { renamed: () => renamed, readAfter };
	}

	test("the moved note is no row, and its properties are not given (they were, read after the move)", async () => {
		const move = renameWhileRowsBuilt("Notes/C diary.md", "Private/C diary.md");
		const answer = await callTool(client, "query_base", { path: "Notes/Board.base" });
		expect(move.renamed()).toBe(true);
		// Matched before the move, its row built after it: the case this is about.
		expect(move.readAfter.has("Private/C diary.md")).toBe(true);
		expect(answer.ok).toBe(true);
		if (!answer.ok) return;
		expect(JSON.stringify(answer.value)).not.toMatch(/diary/u);
		expect(answer.value).toMatchObject({ total: 3, truncated: false });
		expect((answer.value.rows as Array<{ path: string }>).map((row) => row.path)).toEqual(["Notes/A first.md", "Notes/B second.md", "Notes/Board.base"]);
	});

	test("a note renamed in its own folder while the rows are built is no row at the path it has left; the next query gives it at its new one", async () => {
		const move = renameWhileRowsBuilt("Notes/C diary.md", "Notes/D renamed.md");
		const answer = await callTool(client, "query_base", { path: "Notes/Board.base" });
		expect(move.renamed()).toBe(true);
		expect(answer.ok).toBe(true);
		if (!answer.ok) return;
		// Before: a row "Notes/C diary.md", a path that held no note any more.
		expect(JSON.stringify(answer.value)).not.toMatch(/C diary/u);
		expect(answer.value).toMatchObject({ total: 3, truncated: false });
		const again = await callTool(client, "query_base", { path: "Notes/Board.base" });
		expect(again.ok && (again.value.rows as Array<{ path: string }>).map((row) => row.path)).toEqual([
			"Notes/A first.md",
			"Notes/B second.md",
			"Notes/Board.base",
			"Notes/D renamed.md",
		]);
	});

	test("a page whose only row was moved out still gives the cursor to the rows after it", async () => {
		const move = renameWhileRowsBuilt("Notes/A first.md", "Private/A first.md");
		const first = await callTool(client, "query_base", { path: "Notes/Board.base", limit: 1 });
		expect(move.renamed()).toBe(true);
		expect(first.ok && first.value).toMatchObject({ rows: [], total: 3, truncated: true });
		const cursor = first.ok ? (first.value.next_cursor as string | undefined) : undefined;
		expect(typeof cursor).toBe("string");
		const next = await callTool(client, "query_base", { path: "Notes/Board.base", limit: 1, cursor });
		expect(next.ok && (next.value.rows as Array<{ path: string }>).map((row) => row.path)).toEqual(["Notes/B second.md"]);
	});
});

/**
 * search_notes' notice names the notes the index could not take in (their install failed: out of
 * memory, say). The list was copied before the walk over it paused, so a note moved into an
 * excluded folder at one of those pauses was named, and counted, at the path it had left.
 */
describe("a note the index could not take in moved into an excluded folder while search_notes writes its notice", () => {
	/** Past one pause of the notice's walk over the notes whose install failed. */
	const FAILED = UPDATING_NOTICE_PAUSE_COUNT + 1;
	let root: string;
	let host: NodeHost;
	let service: McpService;
	let client: Client;
	let atNextPause: (() => Promise<void>) | null = null;

	beforeAll(async () => {
		root = await makeVault({ "Notes/Ferns.md": "ferns\n" });
		host = await NodeHost.open(root);
		({ service, client } = await serveMovingAtPauses(host, { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] }, () => {
			const move = atNextPause;
			atNextPause = null;
			return move;
		}));
		// Every install fails (a list that cannot grow), and so does its try again: each note is left out and named.
		const placing = jest.spyOn(PostingsIndex.prototype as unknown as { placePosting: () => void }, "placePosting").mockImplementation(() => {
			throw new RangeError("Array buffer allocation failed");
		});
		try {
			for (let index = 0; index < FAILED; index++) await host.vault.create(`Notes/${String(index).padStart(4, "0")}.md`, `ferns ${index}\n`);
			for (let turn = 0; turn < 10_000 && !(await noticeOf("ferns")).includes(`${FAILED} notes could not be indexed`); turn++)
				await new Promise((resolve) => setTimeout(resolve, 10));
		} finally {
			placing.mockRestore();
		}
	}, 120_000);

	afterAll(async () => {
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(root);
	});

	async function noticeOf(query: string): Promise<string> {
		const answer = await callTool(client, "search_notes", { query });
		if (!answer.ok) throw new Error(answer.error);
		return (answer.value.notice as string | undefined) ?? "";
	}

	test("the notice neither names nor counts it", async () => {
		const before = await noticeOf("ferns");
		expect(before).toContain(`${FAILED} notes could not be indexed`);
		const named = /"(Notes\/[^"]+)"/u.exec(before)?.[1];
		if (named === undefined) throw new Error(`no note named in ${before}`);
		let moved = false;
		// Once the notice's walk begins, the note moves at its next pause.
		const proto = IndexedNoteSearch.prototype as unknown as { updatingNotice: (...args: unknown[]) => Promise<string | null> };
		const updatingNotice = proto.updatingNotice;
		jest.spyOn(proto, "updatingNotice").mockImplementationOnce(function (this: IndexedNoteSearch, ...args: unknown[]) {
			atNextPause = async () => {
				const file = host.vault.getFileByPath(named);
				if (!file) throw new Error(`no ${named}`);
				await host.vault.rename(file, named.replace(/^Notes\//u, "Private/"));
				moved = true;
			};
			return updatingNotice.apply(this, args);
		});
		const notice = await noticeOf("ferns");
		expect(moved).toBe(true);
		// Before: the moved note named at the path it had left, and counted among FAILED.
		expect(notice).not.toContain(JSON.stringify(named));
		expect(notice).not.toMatch(/Private/u);
		expect(notice).toContain(`${FAILED - 1} notes could not be indexed`);
		// Asked again, the same.
		const again = await noticeOf("ferns");
		expect(again).not.toContain(JSON.stringify(named));
		expect(again).toContain(`${FAILED - 1} notes could not be indexed`);
	}, 60_000);
});
