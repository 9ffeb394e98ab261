import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { MemoryJournal } from "../helpers/memoryJournal";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { createInterface } from "node:readline";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { NodeHost } from "../../src/headless/NodeHost";
import { MAX_READ_NOTE_BYTES, MAX_SEARCHABLE_NOTE_BYTES, MAX_STARTUP_PARSE_BYTES } from "../../src/config/limits";
import { parseQuery } from "../../src/search/query";
import { McpService } from "../../src/service";
import { defaultSettings } from "../../src/config/settings";
import { connectClient } from "../helpers/http";
import { RecordingLogger, startService } from "../helpers/service";
import { mainThreadPieces } from "../helpers/threadCpu";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * One huge note used to hold the server for its whole parse (a 720 KB note: 40 s of silence). Now
 * parsing is linear and runs in slices, so the server answers while it goes on: a call waits behind
 * one piece of work at most. Bounded in the main thread's CPU (the server runs in the test's
 * process), not in wall time, which a busy machine stretches: the longest piece was 31-58 ms at a
 * load of 13, where the poller's slowest answer took 254-740 ms of wall time against the 1 s bound
 * this was; the unsliced parse held one piece of 1.9 s (4 MB) and 3.2 s (7 MB).
 */
const LONGEST_PIECE_MS = 250;

/** Stops the poller and the count of pieces: the longest piece is checked first (a poller whose call failed behind a long hold fails the test after it). */
async function stopWatching(
	poller: { stop(): Promise<Array<[number, number]>> },
	pieces: ReturnType<typeof mainThreadPieces>,
): Promise<Array<[number, number]>> {
	const held = pieces?.stop();
	const polled = await poller.stop().then(
		(calls) => ({ calls }),
		(error: unknown) => ({ error }),
	);
	// Linux's per-thread clock (CI's): the longest piece in the main thread's CPU, not stretched by the machine's load.
	expect(held).not.toBeNull();
	expect(held?.longestMs).toBeLessThan(LONGEST_PIECE_MS);
	if ("error" in polled) throw polled.error;
	return polled.calls;
}

/** `- [[Target N]] text N #tagN` lines, the shape of the report, until the note reaches `bytes`; the last line is a plain word. */
function noteOfLinks(bytes: number): { text: string; lines: number } {
	const lines: string[] = [];
	let size = 0;
	for (let index = 0; size < bytes; index++) {
		const line = `- [[Target ${index % 1000}]] text ${index} #tag${index % 50}`;
		lines.push(line);
		size += line.length + 1;
	}
	lines.push("final words zanzibarquokka");
	return { text: lines.join("\n"), lines: lines.length - 1 };
}

/**
 * Writes a note into the vault in one step, as an editor's atomic save does: written under a
 * dot-name (which the vault ignores), then renamed into place, so the watcher sees the whole note
 * once, not a partly written one.
 */
async function writeWhole(root: string, path: string, text: string): Promise<void> {
	const staging = nodePath.join(root, `.${path}.tmp`);
	await fs.writeFile(staging, text);
	await fs.rename(staging, nodePath.join(root, path));
}

/** A headless server as the CLI runs it: the vault watched, a read token, port 0. */
async function serveWatched(root: string): Promise<{ host: NodeHost; service: McpService; url: string; token: string }> {
	const host = await NodeHost.open(root, { watch: true });
	// Polling every 20 ms for many seconds is far beyond the default per-token rate.
	const made = addToken({ ...defaultSettings(), serverEnabled: true, port: 0, rateLimitPerMinute: 1_000_000 }, "read", "read");
	if ("error" in made) throw new Error(made.error);
	const service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: new MemoryJournal() });
	const status = await service.apply(made.settings);
	if (status.state !== "listening") throw new Error("service did not start");
	await service.search?.whenReady();
	return { host, service, url: status.url, token: made.token };
}

/**
 * The real SDK client in its own process (a client in the server's process would be stopped by
 * the same blocked event loop, and could not see the wait): calls get_vault_status every 20 ms
 * and prints each call's start and end time, until told to stop.
 */
const POLLER = `
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
(async () => {
	const [url, token] = process.argv.slice(-2);
	const client = new Client({ name: "poller", version: "1" });
	await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer " + token } } }));
	let stop = false;
	process.stdin.on("data", () => { stop = true; });
	process.stdout.write("ready\\n");
	while (!stop) {
		const start = Date.now();
		const result = await client.callTool({ name: "get_vault_status", arguments: {} });
		if (result.isError) throw new Error("get_vault_status failed");
		process.stdout.write(JSON.stringify([start, Date.now()]) + "\\n");
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	await client.close();
	process.exit(0);
})().catch((error) => { process.stderr.write(String(error) + "\\n"); process.exit(1); });
`;

/** Starts the poller; resolves once it is connected. `stop()` ends it and returns every call's [start, end]. */
async function startPoller(url: string, token: string): Promise<{ stop(): Promise<Array<[number, number]>> }> {
	const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ["-e", POLLER, url, token], { cwd: nodePath.resolve(__dirname, "../..") });
	const calls: Array<[number, number]> = [];
	let stderr = "";
	child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
	await new Promise<void>((resolve, reject) => {
		createInterface({ input: child.stdout }).on("line", (line) => {
			if (line === "ready") resolve();
			else calls.push(JSON.parse(line) as [number, number]);
		});
		void exited.then(() => reject(new Error(`poller exited: ${stderr}`)));
	});
	return {
		stop: async () => {
			child.stdin.write("stop\n");
			const code = await exited;
			if (code !== 0) throw new Error(`poller failed: ${stderr}`);
			return calls;
		},
	};
}

/** The calls that overlapped [from, to], and the slowest of all. */
function summarize(calls: ReadonlyArray<[number, number]>, from: number, to: number): { duringWork: number; slowest: number } {
	return {
		duringWork: calls.filter(([start, end]) => start < to && end > from).length,
		slowest: Math.max(0, ...calls.map(([start, end]) => end - start)),
	};
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<number> {
	for (const deadline = Date.now() + 180_000; !(await check());) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	return Date.now();
}

describe("a huge note written into a served vault", () => {
	let root: string;
	let running: Awaited<ReturnType<typeof serveWatched>>;
	let client: Client;
	/** When the watcher reported each path: the work on it starts there. */
	const reported = new Map<string, number>();

	beforeEach(async () => {
		root = await makeVault({ "Hub.md": "# Hub\n\nSee [[Target 1]].\n", "Target 1.md": "# Target\n" });
		running = await serveWatched(root);
		client = await connectClient(running.url, running.token);
		reported.clear();
		running.host.vault.on("create", (file) => reported.set(file.path, Date.now()));
	});
	afterEach(async () => {
		await client.close();
		await running.service.stop();
		await running.host.close();
		await removeDir(root);
	});

	test("a 7 MB note of links: get_vault_status answers all through its parse, which holds the server no longer than a piece, and the metadata is complete", async () => {
		const { text, lines } = noteOfLinks(7 * 1024 * 1024);
		const { host } = running;
		const poller = await startPoller(running.url, running.token);
		const pieces = mainThreadPieces();
		await writeWhole(root, "Big.md", text);
		const parsed = await until(() => host.metadataCache.getCache("Big.md")?.listItems?.length === lines, "the parse");
		await host.metadataCache.settled();
		const settled = Date.now();
		const calls = await stopWatching(poller, pieces);

		const { duringWork, slowest } = summarize(calls, reported.get("Big.md") ?? 0, settled);
		process.stderr.write(`SLOWEST ${slowest} during ${duringWork} calls ${calls.length}\n`);
		// The parse took seconds and answers kept coming: the bound above measured something.
		expect(parsed - (reported.get("Big.md") ?? parsed)).toBeGreaterThan(500);
		expect(duringWork).toBeGreaterThanOrEqual(10);

		const cache = host.metadataCache.getCache("Big.md");
		expect(cache?.links).toHaveLength(lines);
		expect(cache?.tags).toHaveLength(lines);
		expect(cache?.links?.at(-1)?.link).toBe(`Target ${(lines - 1) % 1000}`);
		expect(cache?.listItems?.at(-1)?.position.start.line).toBe(lines - 1);
		expect(host.metadataCache.resolvedLinks["Big.md"]?.["Target 1.md"]).toBe(Math.ceil((lines - 1) / 1000));

		// Over MAX_SEARCHABLE_NOTE_BYTES: listed and linked, named as unsearched, its body not searched.
		expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_SEARCHABLE_NOTE_BYTES);
		const status = (await client.callTool({ name: "get_vault_status", arguments: {} })).structuredContent;
		expect(status).toMatchObject({ note_count: 3, unsearched_notes: ["Big.md"], unsearched_note_count: 1 });
		const search = await client.callTool({ name: "search_notes", arguments: { query: "zanzibarquokka" } });
		expect(search.structuredContent).toMatchObject({ total: 0 });
	}, 240_000);

	test("a note over MAX_READ_NOTE_BYTES is listed and found by its title but never read: read_note and resources/read refuse it clearly, and a note grown past the bound claims nothing it held", async () => {
		// Its first use would copy the whole text into one flat string in one step, about 3 ms a MiB of the server's thread.
		const { text } = noteOfLinks(MAX_READ_NOTE_BYTES + 1024);
		expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_READ_NOTE_BYTES);
		const search = running.service.search;
		if (!search) throw new Error("no search index");
		// First under the bound, with links and a word of its own; then grown past it.
		await writeWhole(root, "Huge note.md", "# Huge\n\nSee [[Target 1]] and zanzibarquokka.\n");
		await until(() => running.host.metadataCache.getCache("Huge note.md")?.links?.length === 1, "the small note's parse");
		await writeWhole(root, "Huge note.md", text);
		await until(() => (running.host.vault.getFileByPath("Huge note.md")?.stat.size ?? 0) > MAX_READ_NOTE_BYTES, "the growth");
		await running.host.metadataCache.settled();
		await until(() => search.unsearched().includes("Huge note.md"), "the index");

		const refused = /^That note is 8\.0 MiB, over the 8 MiB of text this server reads from one note/;
		const read = await client.callTool({ name: "read_note", arguments: { path: "Huge note" } });
		expect(read.isError).toBe(true);
		expect((read.content as Array<{ text: string }>)[0]?.text).toMatch(refused);
		await expect(client.readResource({ uri: "vault-mcp://note/Huge%20note.md" })).rejects.toThrow(/That note is 8\.0 MiB, over the 8 MiB/);
		// Listed, found by its title, named as unsearched; the words and links it held when small are no longer claimed.
		const status = (await client.callTool({ name: "get_vault_status", arguments: {} })).structuredContent;
		expect(status).toMatchObject({ note_count: 3, unsearched_notes: ["Huge note.md"] });
		const byTitle = (await client.callTool({ name: "search_notes", arguments: { query: "huge note" } })).structuredContent as {
			results: Array<{ path: string }>;
		};
		expect(byTitle.results.map((hit) => hit.path)).toContain("Huge note.md");
		expect((await client.callTool({ name: "search_notes", arguments: { query: "zanzibarquokka" } })).structuredContent).toMatchObject({ total: 0 });
		expect(running.host.metadataCache.getCache("Huge note.md")?.links ?? []).toHaveLength(0);
		expect(running.host.metadataCache.resolvedLinks["Huge note.md"]?.["Target 1.md"]).toBeUndefined();
		const links = await client.callTool({ name: "get_note_links", arguments: { path: "Target 1" } });
		expect(JSON.stringify(links.structuredContent)).not.toContain("Huge note.md");
	}, 240_000);

	test("a 4 MB note: get_vault_status answers while it is parsed and tokenized, each a piece at a time, then its body is searchable", async () => {
		const { text } = noteOfLinks(4 * 1024 * 1024);
		expect(Buffer.byteLength(text)).toBeLessThan(MAX_SEARCHABLE_NOTE_BYTES);
		const search = running.service.search;
		if (!search) throw new Error("no search index");
		const poller = await startPoller(running.url, running.token);
		const pieces = mainThreadPieces();
		await writeWhole(root, "Large.md", text);
		// Counted, not searched: a search hit would tokenize the 4 MB text for snippets in this process, and delay the poller.
		const indexed = await until(() => search.status().indexed_notes === 3, "the index");
		const calls = await stopWatching(poller, pieces);
		expect((await search.search({ configDir: ".obsidian", excludedFolders: [] }, parseQuery("zanzibarquokka"), {}, 1)).total).toBe(1);

		const { duringWork, slowest } = summarize(calls, reported.get("Large.md") ?? 0, indexed);
		process.stderr.write(`SLOWEST ${slowest} during ${duringWork} calls ${calls.length}\n`);
		expect(duringWork).toBeGreaterThanOrEqual(10);
		const status = (await client.callTool({ name: "get_vault_status", arguments: {} })).structuredContent;
		expect(status).not.toHaveProperty("unsearched_notes");
	}, 240_000);
});

describe("a huge note already in the vault when the headless server starts", () => {
	test("the server listens and answers before the note is parsed; the note's metadata follows in slices", async () => {
		// Twice the bound over which a note is parsed after start, not before it listens: its parse takes
		// several slices, and it is left to them as a 7 MB one is (which took a few more seconds of CPU).
		const { text, lines } = noteOfLinks(2 * MAX_STARTUP_PARSE_BYTES);
		const root = await makeVault({ "Hub.md": "# Hub\n\nSee [[Target 1]].\n", "Target 1.md": "# Target\n", "Big.md": text });
		const host = await NodeHost.open(root, { watch: true });
		try {
			// Open returned without parsing the huge note: it is left to the slices after start.
			expect(host.metadataCache.getCache("Big.md")).toBeNull();
			expect(host.metadataCache.getCache("Hub.md")).not.toBeNull();
			const made = addToken({ ...defaultSettings(), serverEnabled: true, port: 0 }, "read", "read");
			if ("error" in made) throw new Error(made.error);
			const service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: new MemoryJournal() });
			const status = await service.apply(made.settings);
			if (status.state !== "listening") throw new Error("service did not start");
			const client = await connectClient(status.url, made.token);
			try {
				expect((await client.callTool({ name: "get_vault_status", arguments: {} })).structuredContent).toMatchObject({ note_count: 3 });
				// Answered before the note was parsed, as the test says: its parse is left to the slices after start.
				expect(host.metadataCache.getCache("Big.md")).toBeNull();
				await host.metadataCache.settled();
				expect(host.metadataCache.getCache("Big.md")?.links).toHaveLength(lines);
				expect(host.metadataCache.resolvedLinks["Big.md"]?.["Target 1.md"]).toBe(Math.ceil((lines - 1) / 1000));
			} finally {
				await client.close();
				await service.stop();
			}
		} finally {
			await host.close();
			await removeDir(root);
		}
	}, 240_000);
});

describe("a note grown past MAX_READ_NOTE_BYTES that the vault still knows as small", () => {
	test("read_note and resources/read refuse it before the watcher reports the growth, as after (the vault's size of it is the size before)", async () => {
		const root = await makeVault({ "Small.md": "# Small\n\nSee [[Target 1]].\n", "Target 1.md": "# Target\n" });
		// Not watched: the vault knows the note by the size it had when listed, as a watched one does until the watcher reports a change.
		const running = await startService(root);
		const client = await connectClient(running.url, running.tokens.read ?? "");
		try {
			expect((await client.callTool({ name: "read_note", arguments: { path: "Small" } })).isError).toBeFalsy();
			await fs.writeFile(nodePath.join(root, "Small.md"), noteOfLinks(MAX_READ_NOTE_BYTES + 1024).text);
			expect(running.host.vault.getFileByPath("Small.md")?.stat.size).toBeLessThan(1024);
			const refused = /^That note is 8\.0 MiB, over the 8 MiB of text this server reads from one note/;
			const read = await client.callTool({ name: "read_note", arguments: { path: "Small" } });
			expect(read.isError).toBe(true);
			expect((read.content as Array<{ text: string }>)[0]?.text).toMatch(refused);
			await expect(client.readResource({ uri: "vault-mcp://note/Small.md" })).rejects.toThrow(/That note is 8\.0 MiB, over the 8 MiB/);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(root);
		}
	}, 60_000);
});
