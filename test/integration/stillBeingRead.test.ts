import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { MAX_STARTUP_PARSE_BYTES } from "../../src/config/limits";
import { NodeVault } from "../../src/headless/NodeVault";
import type { HostFile } from "../../src/host/Host";
import { Gate } from "../helpers/gate";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** A door the test opens: until then, whoever waits on it waits. */

const BIG = "Big.md";
const BIG_TASKS = 3;

/**
 * A note over MAX_STARTUP_PARSE_BYTES is parsed just after the server starts: until then its tasks,
 * tags and links are not known. Every vault-wide answer given meanwhile names it, rather than
 * answering as if it held none (list_tasks answered `total: 0` for a note of 30,000 tasks).
 * The note's read for that parse is held by the test, so the calls surely come before it.
 */
describe("a note whose metadata is still being read after start is named by vault-wide answers, not silently left out", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const parseRead = new Gate({ open: false });
	let readSpy: jest.SpyInstance;

	beforeAll(async () => {
		const filler = "plain words for length\n".repeat(Math.ceil((MAX_STARTUP_PARSE_BYTES + 1) / 23));
		const big = `#bigtag\n\nSee [[Hub]].\n\n${Array.from({ length: BIG_TASKS }, (_, index) => `- [ ] big task ${index}\n`).join("")}\n${filler}`;
		expect(big.length).toBeGreaterThan(MAX_STARTUP_PARSE_BYTES);
		vault = await makeVault({
			[BIG]: big,
			"Small.md": "#smalltag\n\nSee [[Hub]].\n\n- [ ] small task\n",
			"Hub.md": "# Hub\n",
			"Tagged.base": "filters: 'file.hasTag(\"bigtag\")'\nviews:\n  - type: table\n    name: All\n",
		});
		const read = Reflect.get<NodeVault, "cachedRead">(NodeVault.prototype, "cachedRead");
		readSpy = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			if (file.path === BIG) await parseRead.wait();
			return read.call(this, file);
		});
		running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 } });
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 60_000);
	afterAll(async () => {
		parseRead.open();
		readSpy.mockRestore();
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("list_tasks names it while its tasks are not known (total 0 for it alone before)", async () => {
		const early = await callOk(client, "list_tasks", { status: "any" });
		expect(running.host.metadataCache.getCache(BIG)).toBeNull();
		expect(early).toMatchObject({ total: 1, still_being_read: [BIG] });
		const onlyIt = await callOk(client, "list_tasks", { status: "any", path: BIG });
		expect(onlyIt).toMatchObject({ total: 0, still_being_read: [BIG] });
		// A folder that does not hold it does not name it.
		expect(await callOk(client, "list_tasks", { status: "any", path: "Small" })).not.toHaveProperty("still_being_read");
	});

	test("list_tags, find_notes_by_tag, get_note_links' backlinks, get_graph_stats and query_base name it too", async () => {
		const tags = await callOk(client, "list_tags", {});
		const tagged = await callOk(client, "find_notes_by_tag", { tag: "bigtag" });
		const links = await callOk(client, "get_note_links", { path: "Hub" });
		const stats = await callOk(client, "get_graph_stats", {});
		const base = await callOk(client, "query_base", { path: "Tagged.base" });
		expect(running.host.metadataCache.getCache(BIG)).toBeNull();
		expect(tags).toMatchObject({ tags: [{ tag: "#smalltag", count: 1 }], still_being_read: [BIG] });
		expect(tagged).toMatchObject({ notes: [], total: 0, still_being_read: [BIG] });
		expect(links).toMatchObject({ backlinks: [{ path: "Small.md", count: 1 }], still_being_read: [BIG] });
		// Counted nowhere while named: on main it counted as a note and an orphan (no links known), which it is not.
		expect(stats).toMatchObject({ notes: 2, links: 1, orphans: 0, still_being_read: [BIG] });
		expect(base).toMatchObject({ rows: [], total: 0, still_being_read: [BIG] });
	});

	test("once it is read, the answers hold it and name nothing", async () => {
		parseRead.open();
		await running.host.metadataCache.settled();
		expect(running.host.metadataCache.getCache(BIG)).not.toBeNull();
		const answers = {
			tasks: await callOk(client, "list_tasks", { status: "any" }),
			tags: await callOk(client, "list_tags", {}),
			tagged: await callOk(client, "find_notes_by_tag", { tag: "bigtag" }),
			links: await callOk(client, "get_note_links", { path: "Hub" }),
			stats: await callOk(client, "get_graph_stats", {}),
			base: await callOk(client, "query_base", { path: "Tagged.base" }),
		};
		expect(answers.tasks.total).toBe(BIG_TASKS + 1);
		expect(answers.tags.tags).toEqual(expect.arrayContaining([{ tag: "#bigtag", count: 1 }]));
		expect(answers.tagged.notes).toEqual([BIG]);
		expect(answers.links.backlinks_total).toBe(2);
		expect(answers.stats).toMatchObject({ notes: 3, links: 2, orphans: 0 });
		expect(answers.base.total).toBe(1);
		for (const answer of Object.values(answers)) expect(answer).not.toHaveProperty("still_being_read");
	});
});

/**
 * Once every note is read, a vault-wide answer's `still_being_read` costs the notes it may name, not
 * a walk of the vault: each of six tools looked at every visible note's metadata on every call (at
 * 50,000 notes, a piece of 17–90 ms listing them and 30–60 ms more looking).
 */
describe("still_being_read over a vault whose notes are all read", () => {
	const NOTES = 3_000;
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		const files: Record<string, string> = { "Hub.md": "# Hub\n" };
		for (let index = 0; index < NOTES; index++) files[`Notes/N${index}.md`] = `#t${index % 7}\n\nSee [[Hub]].\n`;
		vault = await makeVault(files);
		running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 } });
		client = await connectClient(running.url, running.tokens.read ?? "");
		await running.host.metadataCache.settled();
		// The index build asks for every note's metadata too: counted during a call, it is not the call's.
		await running.service.search?.whenReady();
		// 3,001 notes written, parsed and indexed: past 60 s beside a second suite and two busy loops (load 25-45 on 2
		// cores). A stop for a hang, not a speed check.
	}, 180_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	/** The notes whose metadata `call` asks the host for. */
	async function metadataAskedWhile(call: () => Promise<unknown>): Promise<number> {
		const asked = jest.spyOn(running.host.metadataCache, "getFileCache");
		try {
			await call();
			return asked.mock.calls.length;
		} finally {
			asked.mockRestore();
		}
	}

	test.each(["list_tags", "get_graph_stats", "find_notes_by_tag", "get_note_links"])(
		"%s asks for no note's metadata again to say none is being read",
		async (tool) => {
			const args: Record<string, unknown> = tool === "find_notes_by_tag" ? { tag: "t3" } : tool === "get_note_links" ? { path: "Hub" } : {};
			// The first call may work out and keep what the tool counts.
			const first = await callOk(client, tool, args);
			expect(first).not.toHaveProperty("still_being_read");
			const asked = await metadataAskedWhile(() => callOk(client, tool, args));
			// Before: every one of the 3,001 notes, on every call.
			expect(asked).toBeLessThan(NOTES / 10);
		},
	);

	test("a note created, then read, is named while it is not read and not after", async () => {
		const read = Reflect.get<NodeVault, "cachedRead">(NodeVault.prototype, "cachedRead");
		const parseRead = new Gate({ open: false });
		const readSpy = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			if (file.path === "Late.md") await parseRead.wait();
			return read.call(this, file);
		});
		try {
			await running.host.vault.create("Late.md", "#late\n");
			expect(running.host.metadataCache.getCache("Late.md")).toBeNull();
			expect(await callOk(client, "list_tags", {})).toMatchObject({ still_being_read: ["Late.md"] });
			parseRead.open();
			await running.host.metadataCache.settled();
			const after = await callOk(client, "list_tags", {});
			expect(after).not.toHaveProperty("still_being_read");
			expect(after.tags).toEqual(expect.arrayContaining([{ tag: "#late", count: 1 }]));
		} finally {
			parseRead.open();
			readSpy.mockRestore();
		}
	});

	test("a note whose parse found nothing where it is listed (moved away and back) is named until it is read again", async () => {
		const note = "Notes/N5.md";
		const read = Reflect.get<NodeVault, "cachedRead">(NodeVault.prototype, "cachedRead");
		let away = true;
		// The cache's parse after the edit finds the note away; its re-read waits for the watcher (held here).
		const readSpy = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			if (file.path === note && away) {
				away = false;
				throw Object.assign(new Error("no such file"), { code: "ENOENT" });
			}
			return read.call(this, file);
		});
		const watcherCaughtUp = new Gate({ open: false });
		const seen = running.host.vault.outsideChangesSeen.bind(running.host.vault);
		const seenSpy = jest.spyOn(running.host.vault, "outsideChangesSeen").mockImplementation(() => watcherCaughtUp.wait().then(seen));
		try {
			await running.host.vault.process(running.host.vault.getFileByPath(note)!, () => "#edited\n\nSee [[Hub]].\n");
			await running.host.metadataCache.settled();
			expect([away, watcherCaughtUp.waiting]).toEqual([false, 1]);
			// On 285ac856 neither named it: its metadata (#t5) is the text's before the edit.
			expect(await callOk(client, "list_tags", {})).toMatchObject({ still_being_read: [note] });
			expect(await callOk(client, "find_notes_by_tag", { tag: "edited" })).toMatchObject({ notes: [], still_being_read: [note] });
			watcherCaughtUp.open();
			await running.host.metadataCache.caughtUpWithDisk();
			const after = await callOk(client, "list_tags", {});
			expect(after).not.toHaveProperty("still_being_read");
			expect(after.tags).toEqual(expect.arrayContaining([{ tag: "#edited", count: 1 }]));
		} finally {
			watcherCaughtUp.open();
			seenSpy.mockRestore();
			readSpy.mockRestore();
		}
	});
});

/**
 * read_note of a note whose metadata is not read yet: its text is there, its properties and tags are not known.
 * On lead5 (81da6631) the answer said the note had no tags and that its frontmatter was "not valid YAML".
 */
describe("read_note of a note still being read says its properties and tags are not known yet", () => {
	test("the answer does not call its YAML invalid nor its tags none, and does once it is read", async () => {
		const filler = "plain words for length\n".repeat(Math.ceil((MAX_STARTUP_PARSE_BYTES + 1) / 23));
		const vault = await makeVault({ [BIG]: `---\nstatus: draft\n---\n#bigtag\n\n${filler}` });
		const read = Reflect.get<NodeVault, "cachedRead">(NodeVault.prototype, "cachedRead");
		const parseRead = new Gate({ open: false });
		let parseHeld = false;
		// The first read of the note is the cache's parse after start: held. read_note's own reads go on.
		const readSpy = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			if (file.path === BIG && !parseHeld) {
				parseHeld = true;
				await parseRead.wait();
			}
			return read.call(this, file);
		});
		const running = await startService(vault);
		const client = await connectClient(running.url, running.tokens.read ?? "");
		try {
			const early = await callOk(client, "read_note", { path: BIG });
			expect(running.host.metadataCache.getCache(BIG)).toBeNull();
			expect(early).toMatchObject({ frontmatter: null, tags: [] });
			expect(early.frontmatter_unparsed).toMatch(/still being read/u);
			expect(early.frontmatter_unparsed).not.toMatch(/YAML/u);
			parseRead.open();
			await running.host.metadataCache.settled();
			const late = await callOk(client, "read_note", { path: BIG });
			expect(late).toMatchObject({ frontmatter: { status: "draft" }, tags: ["#bigtag"] });
			expect(late).not.toHaveProperty("frontmatter_unparsed");
		} finally {
			parseRead.open();
			readSpy.mockRestore();
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	}, 60_000);
});
