import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken, revokeToken, setTokenFolders, setTokenRights } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import type { Host, HostFile, HostVault } from "../../src/host/Host";
import { McpService } from "../../src/service";
import { graphStats } from "../../src/vault/links";
import { NoteMemo } from "../../src/vault/noteMemo";
import { findTasks } from "../../src/vault/tasks";
import { Gate } from "../helpers/gate";
import { connectClient, mcpHeaders, rawRequest, requestPausedAfterFirstBytes } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** A door the test opens: until then, whoever waits on it waits. */

const NOTES = 40;

/** Notes with tasks, tags and links to each other; the excluded folder holds the same kinds of things. */
function vaultFiles(): Record<string, string> {
	const files: Record<string, string> = {};
	for (let index = 0; index < NOTES; index++) {
		const folder = index % 4 === 0 ? "Private/" : index % 4 === 1 ? "Projects/" : "";
		files[`${folder}Note ${index}.md`] =
			`# Note ${index}\n\nalpha words #topic/${index % 3}\n- [ ] task ${index} 📅 2026-01-1${index % 9}\n- [x] done ${index}\n\nSee [[Note ${(index + 1) % NOTES}]] and [[Note ${(index + 7) % NOTES}]].\n`;
	}
	return files;
}

interface Running {
	service: McpService;
	host: NodeHost;
	url: string;
	tokens: [string, string];
	settings: VaultMcpSettings;
}

/** A real server over HTTP with two read tokens and the Private folder excluded; `deps` as the test needs. */
async function start(
	root: string,
	deps: {
		host?: (host: NodeHost) => Host;
		yieldToHost?: () => Promise<void>;
		callBudget?: { sliceMs?: number; callWorkMs?: number };
		/** The first token ("flooder") may write, with writing on. */
		flooderWrites?: boolean;
	},
): Promise<Running> {
	const host = await NodeHost.open(root);
	let settings: VaultMcpSettings = { ...defaultSettings(), serverEnabled: true, port: 0, rateLimitPerMinute: 100_000, excludedFolders: ["Private"] };
	if (deps.flooderWrites) settings = { ...settings, writeEnabled: true, writeDisclosureAccepted: true };
	const first = addToken(settings, "flooder", deps.flooderWrites ? "write" : "read");
	if ("error" in first) throw new Error(first.error);
	const second = addToken(first.settings, "other", "read");
	if ("error" in second) throw new Error(second.error);
	settings = second.settings;
	const service = new McpService({
		host: deps.host?.(host) ?? host,
		serverVersion: "test",
		logger: new RecordingLogger(),
		journal: new MemoryJournal(),
		yieldToHost: deps.yieldToHost,
		callBudget: deps.callBudget,
	});
	const status = await service.apply(settings);
	if (status.state !== "listening") throw new Error("the server did not start");
	return { service, host, url: status.url, tokens: [first.token, second.token], settings };
}

/**
 * `start`, then waits until the search index is built and its warm-up searches have ended: they read
 * every note through the host too, so until then a read the test holds or counts may be theirs, not
 * the call's (at load 20 the index's read of a held note came first, and the test changed the token
 * before its request was even admitted). A gate on the host's reads is closed only after this.
 */
async function startIndexed(root: string, deps: Parameters<typeof start>[1]): Promise<Running> {
	const running = await start(root, deps);
	await running.service.search?.whenReady();
	await running.service.search?.whenWarmedUp();
	return running;
}

/** Closes the test's clients, then the server and its host. */
async function stopAll(running: Running, clients: Client[]): Promise<void> {
	for (const client of clients) await client.close();
	await running.service.stop();
	await running.host.close();
}

const SCOPE = { configDir: ".obsidian", excludedFolders: ["Private"] };

describe("vault-wide calls beside other clients, over HTTP", () => {
	let root: string;
	beforeAll(async () => {
		root = await makeVault(vaultFiles());
	});
	afterAll(() => removeDir(root));

	test("while one token's vault-wide calls wait for their next slice, another token is answered; then they finish with the full answer", async () => {
		const turns = new Gate({ open: false });
		turns.open();
		// Every checkpoint is a slice boundary, so each call gives the host its turn at once.
		const running = await start(root, {
			yieldToHost: () => turns.wait().then(() => new Promise((resolve) => setImmediate(resolve))),
			callBudget: { sliceMs: 0 },
		});
		const clients: Client[] = [];
		try {
			await running.service.search?.whenReady();
			const flooder = await connectClient(running.url, running.tokens[0]);
			const other = await connectClient(running.url, running.tokens[1]);
			clients.push(flooder, other);
			turns.close();
			const settled = new Set<string>();
			const flood = (["list_tasks", "get_graph_stats", "list_tags", "find_notes_by_tag"] as const).map((tool) =>
				callOk<Record<string, unknown>>(
					flooder,
					tool,
					tool === "find_notes_by_tag" ? { tag: "topic" } : tool === "list_tasks" ? { status: "any", limit: 1000 } : {},
				).then((answer) => {
					settled.add(tool);
					return answer;
				}),
			);
			const read = await callOk<{ content: string }>(other, "read_note", { path: "Note 1" });
			expect(read.content).toContain("alpha words");
			// The other token's call went through while every vault-wide call was still between slices.
			expect([...settled]).toEqual([]);
			turns.open();
			const [tasks, graph, tags, tagged] = await Promise.all(flood);
			const expectedTasks = await findTasks(running.host, SCOPE, { status: "any" }, undefined, new NoteMemo());
			expect(tasks).toEqual({ tasks: expectedTasks, total: 60 });
			expect(JSON.stringify(tasks)).not.toContain("Private/");
			expect(graph).toEqual({ ...(await graphStats(running.host, SCOPE, 10, undefined, new NoteMemo())), tags: 4 });
			expect(tags).toMatchObject({ total: 4 });
			expect((tagged as { notes: string[] }).notes).toHaveLength(30);
			expect(JSON.stringify([graph, tagged])).not.toContain("Private/");
		} finally {
			turns.open();
			await stopAll(running, clients);
		}
	});

	test.each([
		["revoked", (settings: VaultMcpSettings) => revokeToken(settings, "flooder")],
		[
			"denied the tool",
			(settings: VaultMcpSettings) =>
				setTokenRights(settings, "flooder", { list_tasks: "deny", get_graph_stats: "deny", list_tags: "deny", find_notes_by_tag: "deny" }),
		],
	])("a token %s while its vault-wide calls wait between slices gets no answer from them; the other token is still answered", async (_, change) => {
		const turns = new Gate({ open: false });
		turns.open();
		let pauses = 0;
		const running = await start(root, {
			yieldToHost: () => (pauses++, turns.wait().then(() => new Promise((resolve) => setImmediate(resolve)))),
			callBudget: { sliceMs: 0 },
		});
		const clients: Client[] = [];
		try {
			await running.service.search?.whenReady();
			const flooder = await connectClient(running.url, running.tokens[0]);
			const other = await connectClient(running.url, running.tokens[1]);
			clients.push(flooder, other);
			turns.close();
			// A revoked token's answer is refused whole (401) when it would leave after the revocation: the client throws.
			const flood = (["list_tasks", "get_graph_stats", "list_tags", "find_notes_by_tag"] as const).map((tool) =>
				flooder
					.callTool({ name: tool, arguments: tool === "find_notes_by_tag" ? { tag: "topic" } : tool === "list_tasks" ? { status: "any" } : {} })
					.catch((error: Error) => ({ isError: true, refused: error.message })),
			);
			expect(await callOk<{ content: string }>(other, "read_note", { path: "Note 1" })).toMatchObject({ content: expect.stringContaining("alpha") });
			const changed = change(running.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			const pausedBefore = pauses;
			turns.open();
			const answers = await Promise.all(flood);
			// Each call stopped at the pause it was waiting in, not after its remaining slices (one per note here): 3 pauses
			// after the change here; 162 with the pause's check taken out (`StoppedWhenWithdrawn`). A bound far from both (it was
			// < 4, and other work on the lane could add one).
			expect(pauses - pausedBefore).toBeLessThan(20);
			// A call of a token with others in flight waits for its token's turn before it begins (see
			// TurnLane): one not begun when the tool was denied is answered as any call after it, the tool not found.
			for (const answer of answers) {
				expect(answer.isError).toBe(true);
				expect(JSON.stringify(answer)).toMatch(/no longer allowed for this token|A valid bearer token is required|Tool \w+ not found/u);
				expect(JSON.stringify(answer)).not.toMatch(/Note \d/u);
			}
			// The first to come was under way, waiting between slices: it stopped there.
			expect(
				answers.filter((answer) => /no longer allowed for this token|A valid bearer token is required/u.test(JSON.stringify(answer))).length,
			).toBeGreaterThanOrEqual(1);
		} finally {
			turns.open();
			await stopAll(running, clients);
		}
	});

	test("a token whose folders are narrowed while its vault-wide call waits between slices is told nothing from outside them", async () => {
		const turns = new Gate({ open: false });
		turns.open();
		let pauses = 0;
		const running = await start(root, {
			yieldToHost: () => (pauses++, turns.wait()).then(() => new Promise((resolve) => setImmediate(resolve))),
			callBudget: { sliceMs: 0 },
		});
		const clients: Client[] = [];
		try {
			await running.service.search?.whenReady();
			const flooder = await connectClient(running.url, running.tokens[0]);
			clients.push(flooder);
			const narrowed = setTokenFolders(running.settings, "flooder", ["Projects"]);
			if ("error" in narrowed) throw new Error(narrowed.error);
			for (const [tool, args] of [
				["list_tasks", { status: "any" }],
				["get_graph_stats", {}],
				["list_tags", {}],
				["find_notes_by_tag", { tag: "topic" }],
			] as const) {
				await running.service.apply(running.settings);
				turns.close();
				const pausedBefore = pauses;
				const call = flooder.callTool({ name: tool, arguments: args });
				// The call has begun and waits between two slices.
				while (pauses === pausedBefore) await new Promise((resolve) => setTimeout(resolve, 10));
				await running.service.apply(narrowed.settings);
				turns.open();
				const answer = await call;
				expect(answer.isError).toBe(true);
				expect(JSON.stringify(answer)).toMatch(/folders this token may see changed/u);
				expect(JSON.stringify(answer)).not.toMatch(/Note \d/u);
			}
		} finally {
			turns.open();
			await stopAll(running, clients);
		}
	});

	/** Runs `body` with a client of a server whose vault-wide calls are stopped at their first slice (a work budget of 0). */
	async function withNoWorkBudget(body: (client: Client) => Promise<void>): Promise<void> {
		const running = await start(root, { callBudget: { sliceMs: 0, callWorkMs: 0 } });
		const clients: Client[] = [];
		try {
			await running.service.search?.whenReady();
			const client = await connectClient(running.url, running.tokens[0]);
			clients.push(client);
			await body(client);
		} finally {
			await stopAll(running, clients);
		}
	}

	test("a vault-wide call over its work budget ends with an error saying what to do, and the server goes on answering", () =>
		withNoWorkBudget(async (client) => {
			expect(await callError(client, "list_tasks", { status: "any" })).toMatch(/work over the vault and was stopped.*Pass a folder or a path/);
			expect(await callError(client, "get_graph_stats", {})).toMatch(/was stopped, so other clients are not held up/);
			expect(await callOk<{ content: string }>(client, "read_note", { path: "Note 2" })).toMatchObject({ content: expect.stringContaining("task 2") });
		}));

	// A call stopped at its budget told the model the same call again gets further: true where the server keeps what it worked
	// out (the tasks of each note, the graph counts note by note, a note's own links resolved so far), false for the counts
	// of get_vault_status, redone in full at each call.
	test("a vault-wide call stopped at its work budget says whether the same call again gets further: only where what it worked out is kept", () =>
		withNoWorkBudget(async (client) => {
			const resumes = "What it worked out is kept, so the same call again gets further.";
			const redoes = "The same call again would need as much";
			for (const [name, args] of [
				["list_tasks", { status: "any" }],
				["get_graph_stats", {}],
				["get_note_links", { path: "Note 2" }],
			] as const)
				expect(await callError(client, name, args)).toContain(resumes);
			for (const [name, args] of [["get_vault_status", {}]] as const) {
				const error = await callError(client, name, args);
				expect(error).toContain(redoes);
				expect(error).not.toContain("gets further");
			}
		}));

	test("a search while the index is building answers at once from what is indexed and says so; once ready, the answer is whole", async () => {
		const reads = new Gate({ open: false });
		// The index build reads each note through the host: held here, the build cannot get past its first note.
		const gatedHost = (host: NodeHost): Host => {
			const vault = new Proxy(host.vault, {
				get(target, property, receiver) {
					if (property === "cachedRead") return async (file: HostFile) => (await reads.wait(), target.cachedRead(file));
					const value: unknown = Reflect.get(target, property, receiver);
					return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
				},
			}) as HostVault;
			return { vault, metadataCache: host.metadataCache, fileManager: host.fileManager, hiddenLinks: () => host.hiddenLinks() };
		};
		const running = await start(root, { host: gatedHost });
		const clients: Client[] = [];
		try {
			const client = await connectClient(running.url, running.tokens[0]);
			clients.push(client);
			const visible = (NOTES * 3) / 4;
			const early = await client.callTool({ name: "search_notes", arguments: { query: "alpha" } });
			expect(early.isError).toBeFalsy();
			expect(early.structuredContent).toMatchObject({ total: 0, results: [], index: { state: "building", indexed_notes: 0, total_notes: visible } });
			const text = (early.content as Array<{ type: string; text: string }>)[0]?.text ?? "";
			expect(text).toContain(`index: building, 0 of ${visible} notes`);
			reads.open();
			await running.service.search?.whenReady();
			const ready = await callOk<{ total: number; results: Array<{ path: string }>; index?: unknown }>(client, "search_notes", {
				query: "alpha",
				limit: 50,
			});
			expect(ready.total).toBe(visible);
			expect(ready.index).toBeUndefined();
			expect(ready.results.some((hit) => hit.path.startsWith("Private/"))).toBe(false);
		} finally {
			reads.open();
			await stopAll(running, clients);
		}
	});
});

describe("a note resource read waiting for the disk", () => {
	let root: string;
	beforeAll(async () => {
		root = await makeVault(vaultFiles());
	});
	afterAll(() => removeDir(root));

	test.each([
		["its token revoked", (settings: VaultMcpSettings) => revokeToken(settings, "flooder")],
		["read_note denied", (settings: VaultMcpSettings) => setTokenRights(settings, "flooder", { read_note: "deny" })],
		["its token's folders narrowed away from the note", (settings: VaultMcpSettings) => setTokenFolders(settings, "flooder", ["Projects"])],
	])("with %s meanwhile answers nothing of the note; another token's read is answered", async (_, change) => {
		const disk = new Gate({ open: false });
		disk.open();
		let reads = 0;
		// The host's disk reads wait at the gate: the change lands while the read is in flight.
		const running = await startIndexed(root, {
			host: (host) => {
				const vault = new Proxy(host.vault, {
					get: (target, key) =>
						key === "cachedRead"
							? async (file: HostFile) => {
									reads++;
									await disk.wait();
									return target.cachedRead(file);
								}
							: (Reflect.get(target, key) as unknown),
				}) as HostVault;
				return new Proxy(host, { get: (target, key) => (key === "vault" ? vault : (Reflect.get(target, key) as unknown)) });
			},
		});
		const clients: Client[] = [];
		try {
			const flooder = await connectClient(running.url, running.tokens[0]);
			const other = await connectClient(running.url, running.tokens[1]);
			clients.push(flooder, other);
			disk.close();
			reads = 0;
			const read = flooder.readResource({ uri: "vault-mcp://note/Note%202.md" }).then(
				(answer) => JSON.stringify(answer),
				(error: Error) => `error: ${error.message}`,
			);
			const otherRead = other.readResource({ uri: "vault-mcp://note/Note%206.md" });
			// Both reads have reached the disk.
			while (reads < 2) await new Promise((resolve) => setTimeout(resolve, 10));
			const changed = change(running.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			disk.open();
			const answer = await read;
			expect(answer).toMatch(/^error: /u);
			expect(answer).not.toMatch(/alpha words/u);
			expect(JSON.stringify(await otherRead)).toMatch(/alpha words/u);
		} finally {
			disk.open();
			await stopAll(running, clients);
		}
	});
});

describe("an answer made or written after its token is revoked", () => {
	let root: string;
	beforeAll(async () => {
		root = await makeVault({ ...vaultFiles(), "Big.md": `# Big\n\n${"secret words and more\n".repeat(60_000)}` });
	});
	afterAll(() => removeDir(root));

	/** A host whose disk reads of `path` wait at `disk` while it is shut (`disk.waiting` counts those that arrived). */
	function gatedReads(path: string, disk: Gate): (host: NodeHost) => Host {
		return (host) => {
			const vault = new Proxy(host.vault, {
				get: (target, key) =>
					key === "cachedRead"
						? async (file: HostFile) => {
								if (file.path === path) await disk.wait();
								return target.cachedRead(file);
							}
						: (Reflect.get(target, key) as unknown),
			}) as HostVault;
			return new Proxy(host, { get: (target, key) => (key === "vault" ? vault : (Reflect.get(target, key) as unknown)) });
		};
	}

	test.each([
		["its token is revoked", (settings: VaultMcpSettings) => revokeToken(settings, "flooder"), 401, /A valid bearer token is required/u],
		[
			"its token is denied read_note",
			(settings: VaultMcpSettings) => setTokenRights(settings, "flooder", { read_note: "deny" }),
			200,
			/read_note is no longer allowed for this token, or the folders this token may see changed/u,
		],
		[
			"its token's folders are narrowed away from the notes",
			(settings: VaultMcpSettings) => setTokenFolders(settings, "flooder", ["Private"]),
			200,
			/read_note is no longer allowed for this token, or the folders this token may see changed/u,
		],
	])("a batch whose later call waits when %s sends nothing of its earlier calls' notes", async (_, change, status, told) => {
		const disk = new Gate({ open: true });
		const running = await startIndexed(root, { host: gatedReads("Note 2.md", disk) });
		disk.close();
		try {
			const batch = JSON.stringify([
				{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "Note 1" } } },
				{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { path: "Note 2" } } },
			]);
			const port = Number(new URL(running.url).port);
			const answer = rawRequest(port, { headers: mcpHeaders(port, running.tokens[0]), body: batch });
			// The first call is answered and kept; the second waits for the disk.
			while (disk.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
			const changed = change(running.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			disk.open();
			const received = await answer;
			expect(received.body).not.toMatch(/alpha words/u);
			expect(received.status).toBe(status);
			expect(received.body).toMatch(told);
		} finally {
			disk.open();
			await stopAll(running, []);
		}
	});

	test.each([
		["its token is denied append_to_note", (settings: VaultMcpSettings) => setTokenRights(settings, "flooder", { append_to_note: "deny" })],
		["its token's folders are narrowed away from the note", (settings: VaultMcpSettings) => setTokenFolders(settings, "flooder", ["Private"])],
	])("a batch's write call that wrote nothing, answered before %s while a later call waits, sends nothing of the note", async (_, change) => {
		// The append names a heading the note lacks: its error lists the note's headings. It wrote
		// nothing, so its answer is withheld as a read's is; sending it again is safe.
		const disk = new Gate({ open: true });
		const running = await startIndexed(root, { host: gatedReads("Note 2.md", disk), flooderWrites: true });
		disk.close();
		try {
			const allowed = setTokenRights(running.settings, "flooder", { append_to_note: "allow" });
			if ("error" in allowed) throw new Error(allowed.error);
			await running.service.apply(allowed.settings);
			const batch = JSON.stringify([
				{
					jsonrpc: "2.0",
					id: 1,
					method: "tools/call",
					params: { name: "append_to_note", arguments: { path: "Projects/Note 1", heading: "Nowhere", content: "x" } },
				},
				{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { path: "Note 2" } } },
			]);
			const port = Number(new URL(running.url).port);
			const answer = rawRequest(port, { headers: mcpHeaders(port, running.tokens[0]), body: batch });
			while (disk.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
			const changed = change(allowed.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			disk.open();
			const received = await answer;
			expect(received.status).toBe(200);
			expect(received.body).not.toMatch(/# Note 1/u);
			expect(received.body).toMatch(
				/append_to_note is no longer allowed for this token, or the folders this token may see changed.*Nothing was written/u,
			);
		} finally {
			disk.open();
			await stopAll(running, []);
		}
	});

	test.each([
		["its token is denied append_to_note", (settings: VaultMcpSettings) => setTokenRights(settings, "flooder", { append_to_note: "deny" })],
		["its token's folders are narrowed away from the note", (settings: VaultMcpSettings) => setTokenFolders(settings, "flooder", ["Private"])],
	])("a batch's write call that wrote, answered before %s while a later call waits, still tells the client it was written", async (_, change) => {
		const disk = new Gate({ open: true });
		const running = await startIndexed(root, { host: gatedReads("Note 2.md", disk), flooderWrites: true });
		disk.close();
		try {
			const allowed = setTokenRights(running.settings, "flooder", { append_to_note: "allow" });
			if ("error" in allowed) throw new Error(allowed.error);
			await running.service.apply(allowed.settings);
			const batch = JSON.stringify([
				{
					jsonrpc: "2.0",
					id: 1,
					method: "tools/call",
					params: { name: "append_to_note", arguments: { path: "Projects/Note 5", content: "written before the change" } },
				},
				{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { path: "Note 2" } } },
			]);
			const port = Number(new URL(running.url).port);
			const answer = rawRequest(port, { headers: mcpHeaders(port, running.tokens[0]), body: batch });
			// The calls of a batch run side by side: the change comes once the append is on disk and the read waits.
			const note5 = () => running.host.vault.read(running.host.vault.getFileByPath("Projects/Note 5.md")!);
			while (disk.waiting === 0 || !(await note5()).includes("written before the change")) await new Promise((resolve) => setTimeout(resolve, 10));
			const changed = change(allowed.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			disk.open();
			const received = await answer;
			const answers = JSON.parse(received.body) as Array<{ id: number; result: { isError?: boolean; content: Array<{ text: string }> } }>;
			const appended = answers.find((one) => one.id === 1)!;
			expect(appended.result.isError).toBeUndefined();
			expect(appended.result.content[0]!.text).toMatch(/Projects\/Note 5\.md/u);
			expect(await running.host.vault.read(running.host.vault.getFileByPath("Projects/Note 5.md")!)).toContain("written before the change");
		} finally {
			disk.open();
			await stopAll(running, []);
		}
	});

	test("a batch whose read and write share an id is refused whole, so a read withdrawn after a Deny never hides that the write was made", async () => {
		// Answers are matched to their calls by id: had the batch run, the write's answer would have
		// been replaced by the withdrawn read's "send it again", and the note written anyway.
		const running = await start(root, { flooderWrites: true });
		try {
			const allowed = setTokenRights(running.settings, "flooder", { append_to_note: "allow" });
			if ("error" in allowed) throw new Error(allowed.error);
			await running.service.apply(allowed.settings);
			const before = await running.host.vault.read(running.host.vault.getFileByPath("Note 3.md")!);
			const batch = JSON.stringify([
				{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "Note 1" } } },
				{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "append_to_note", arguments: { path: "Note 3", content: "appended once" } } },
			]);
			const port = Number(new URL(running.url).port);
			const received = await rawRequest(port, { headers: mcpHeaders(port, running.tokens[0]), body: batch });
			expect(received.status).toBe(400);
			expect(received.body).toMatch(/same id/u);
			expect(await running.host.vault.read(running.host.vault.getFileByPath("Note 3.md")!)).toBe(before);
		} finally {
			await stopAll(running, []);
		}
	});

	const MODERN_HEADERS: Array<[string, string]> = [
		["MCP-Protocol-Version", "2026-07-28"],
		["Mcp-Method", "tools/call"],
		["Mcp-Name", "read_note"],
	];
	const MODERN_META = {
		_meta: {
			"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientInfo": { name: "slow-reader", version: "1" },
			"io.modelcontextprotocol/clientCapabilities": {},
		},
	};
	// A related task in _meta (2025-11-25 vocabulary, read by no handler here): only the SDK's own handler answers, not the direct route.
	const THROUGH_SDK_META = { _meta: { ...MODERN_META._meta, "io.modelcontextprotocol/related-task": { taskId: "slow-reader" } } };
	const revoke = (settings: VaultMcpSettings) => revokeToken(settings, "flooder");
	const denyReading = (settings: VaultMcpSettings) => setTokenRights(settings, "flooder", { read_note: "deny" });
	const narrow = (settings: VaultMcpSettings) => setTokenFolders(settings, "flooder", ["Projects"]);
	test.each([
		["2025-11-25", "its token is revoked", [] as Array<[string, string]>, {}, revoke],
		["2026-07-28", "its token is revoked", MODERN_HEADERS, MODERN_META, revoke],
		["2025-11-25", "its token is denied read_note", [] as Array<[string, string]>, {}, denyReading],
		["2026-07-28", "its token's folders are narrowed away from the note", MODERN_HEADERS, MODERN_META, narrow],
		["2026-07-28 through the SDK's handler", "its token is revoked", MODERN_HEADERS, THROUGH_SDK_META, revoke],
		["2026-07-28 through the SDK's handler", "its token is denied read_note", MODERN_HEADERS, THROUGH_SDK_META, denyReading],
	])("a big answer still being written at %s when %s is cut off: the rest of the note is not sent", async (_, _change, headers, meta, change) => {
		const turns = new Gate({ open: false });
		turns.open();
		const running = await start(root, {
			yieldToHost: () => turns.wait().then(() => new Promise((resolve) => setImmediate(resolve))),
			callBudget: { sliceMs: 0 },
		});
		try {
			const port = Number(new URL(running.url).port);
			const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "Big" }, ...meta } });
			const reader = await requestPausedAfterFirstBytes(port, { headers: mcpHeaders(port, running.tokens[0], headers), body });
			// The answer has begun; its next piece waits for its turn.
			turns.close();
			const changed = change(running.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			turns.open();
			const received = await reader.rest().catch(() => Buffer.alloc(0));
			const whole = Number(reader.headers["content-length"]);
			expect(whole).toBeGreaterThan(1_000_000);
			expect(received.length).toBeLessThan(whole / 2);
		} finally {
			turns.open();
			await stopAll(running, []);
		}
	});

	/** A batch of a big read_note and an append_to_note, its answer begun and paused; `change` applied; then the rest read. */
	async function batchWithAppend(
		append: { path: string },
		change: (settings: VaultMcpSettings) => ReturnType<typeof revokeToken>,
	): Promise<{ running: Running; received: Buffer; whole: number }> {
		const turns = new Gate({ open: false });
		turns.open();
		const running = await start(root, {
			yieldToHost: () => turns.wait().then(() => new Promise((resolve) => setImmediate(resolve))),
			callBudget: { sliceMs: 0 },
			flooderWrites: true,
		});
		try {
			const allowed = setTokenRights(running.settings, "flooder", { append_to_note: "allow" });
			if ("error" in allowed) throw new Error(allowed.error);
			await running.service.apply(allowed.settings);
			const port = Number(new URL(running.url).port);
			const batch = JSON.stringify([
				{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "Big" } } },
				{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "append_to_note", arguments: { path: append.path, content: "appended once" } } },
			]);
			const reader = await requestPausedAfterFirstBytes(port, { headers: mcpHeaders(port, running.tokens[0]), body: batch });
			// Both calls are answered and the answer has begun; its next piece waits for its turn.
			turns.close();
			const changed = change(allowed.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			turns.open();
			const received = await reader.rest().catch(() => Buffer.alloc(0));
			return { running, received, whole: Number(reader.headers["content-length"]) };
		} catch (error) {
			turns.open();
			await stopAll(running, []);
			throw error;
		}
	}

	test.each([
		["its token is denied read_note", denyReading],
		["its token's folders are narrowed away from the note", narrow],
	])("a big read answer in a batch beside a write call that wrote nothing is cut off when %s", async (_, change) => {
		// The append fails (no such note) without writing: nothing the client must be told of was written.
		const { running, received, whole } = await batchWithAppend({ path: "Projects/No such note" }, change);
		try {
			expect(whole).toBeGreaterThan(1_000_000);
			expect(received.length).toBeLessThan(whole / 2);
			expect(running.host.vault.getFileByPath("Projects/No such note.md")).toBeNull();
		} finally {
			await stopAll(running, []);
		}
	});

	test("a big read answer in a batch beside a write call that wrote is sent whole after a Deny, so the client is told the note was written", async () => {
		const { running, received, whole } = await batchWithAppend({ path: "Projects/Note 1" }, denyReading);
		try {
			expect(received.length).toBe(whole);
			const answers = JSON.parse(received.toString("utf8")) as Array<{ id: number; result: { isError?: boolean; content: Array<{ text: string }> } }>;
			const appended = answers.find((answer) => answer.id === 2)!;
			expect(appended.result.isError).toBeUndefined();
			expect(await running.host.vault.read(running.host.vault.getFileByPath("Projects/Note 1.md")!)).toContain("appended once");
		} finally {
			await stopAll(running, []);
		}
	});

	test.each([
		["its token is denied the tool", (settings: VaultMcpSettings) => setTokenRights(settings, "flooder", { append_to_note: "deny" })],
		["its token's folders are narrowed away from the note", (settings: VaultMcpSettings) => setTokenFolders(settings, "flooder", ["Private"])],
	])("a write call whose plan waits for the disk when %s answers without the note's headings", async (_, change) => {
		const disk = new Gate({ open: true });
		const running = await startIndexed(root, { host: gatedReads("Projects/Note 1.md", disk), flooderWrites: true });
		disk.close();
		const clients: Client[] = [];
		try {
			const writer = await connectClient(running.url, running.tokens[0]);
			clients.push(writer);
			// A heading the note lacks: the error would list the note's headings.
			const call = writer.callTool({ name: "append_to_note", arguments: { path: "Projects/Note 1", heading: "Nowhere", content: "x" } });
			while (disk.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
			const changed = change(running.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			disk.open();
			const answer = JSON.stringify(await call);
			expect(answer).toMatch(/append_to_note is no longer allowed for this token.*Nothing was written/u);
			expect(answer).not.toMatch(/# Note 1/u);
		} finally {
			disk.open();
			await stopAll(running, clients);
		}
	});
});
