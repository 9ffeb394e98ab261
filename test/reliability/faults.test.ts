import { promises as fs, readFileSync } from "node:fs";
import { MemoryJournal } from "../helpers/memoryJournal";
import { connect } from "node:net";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { NodeHost } from "../../src/headless/NodeHost";
import { McpService } from "../../src/service";
import { heapAfterGc } from "../helpers/gc";
import { connectClient, isPortClosed, mcpHeaders, rawRequest } from "../helpers/http";
import { RecordingLogger, startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { MAX_READ_NOTE_BYTES } from "../../src/config/limits";
import { makeVault, removeDir } from "../helpers/vault";

const appendBody = (path: string, content: string) =>
	JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "append_to_note", arguments: { path, content } } });

/** Sends raw bytes on a socket and lets the test decide when to cut it. */
function rawSocket(port: number, head: string): Promise<import("node:net").Socket> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, "127.0.0.1", () => {
			socket.write(head);
			resolve(socket);
		});
		socket.on("error", () => undefined);
		socket.once("error", reject);
	});
}

function requestHead(port: number, token: string, length: number): string {
	return [
		`POST /mcp HTTP/1.1`,
		`Host: 127.0.0.1:${port}`,
		`Authorization: Bearer ${token}`,
		"Content-Type: application/json",
		"Accept: application/json, text/event-stream",
		`Content-Length: ${length}`,
		"",
		"",
	].join("\r\n");
}

describe("faults", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const token = () => running.tokens.write ?? "";

	beforeEach(async () => {
		vault = await makeVault({ "Note.md": "# Note\n\nStart.\n", "Big.md": `# Big\n\n${"line of text\n".repeat(200_000)}` });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000 } });
		client = await connectClient(running.url, token());
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("a client that disconnects mid-request or mid-body: no partial write, and the server keeps serving", async () => {
		const body = appendBody("Note.md", "SHOULD NOT LAND");
		const headersOnly = await rawSocket(running.port, requestHead(running.port, token(), body.length));
		headersOnly.destroy();
		const halfBody = await rawSocket(running.port, requestHead(running.port, token(), body.length) + body.slice(0, body.length / 2));
		halfBody.destroy();
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(readFileSync(nodePath.join(vault, "Note.md"), "utf8")).toBe("# Note\n\nStart.\n");
		expect((await callOk<{ note_count: number }>(client, "get_vault_status")).note_count).toBe(2);
	});

	test("a client that disconnects mid-response: the server keeps serving", async () => {
		const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "Big" } } });
		const socket = await rawSocket(running.port, requestHead(running.port, token(), Buffer.byteLength(body)) + body);
		await new Promise<void>((resolve) => socket.once("data", () => resolve()));
		socket.destroy();
		const note = await callOk<{ truncated: boolean; content: string }>(client, "read_note", { path: "Big" });
		expect(note.truncated).toBe(true);
		expect(Buffer.byteLength(note.content)).toBeLessThanOrEqual(512 * 1024);
	});

	test("stop while requests are in flight: each completes or fails cleanly, no half write, and the port is free", async () => {
		const statuses = Array.from({ length: 16 }, (_, index) =>
			rawRequest(running.port, { headers: mcpHeaders(running.port, token()), body: appendBody("Note.md", `in-flight-${index}`) }).then(
				(response) => response.status,
				() => -1,
			),
		);
		await new Promise((resolve) => setTimeout(resolve, 5));
		await running.service.stop();
		const results = await Promise.all(statuses);
		// 200 answered, 503 refused while busy, -1 connection closed by the stop: nothing else.
		expect(results.filter((status) => status !== 200 && status !== 503 && status !== -1)).toEqual([]);
		expect(await isPortClosed(running.port)).toBe(true);
		const text = readFileSync(nodePath.join(vault, "Note.md"), "utf8");
		const landed = text.split("\n").filter((line) => line.startsWith("in-flight-"));
		expect(landed.every((line) => /^in-flight-\d+$/.test(line))).toBe(true);
		expect(new Set(landed).size).toBe(landed.length);
	});

	test("a note deleted or renamed between list_notes and read_note answers with a clean error", async () => {
		const { notes } = await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes");
		expect(notes.map((note) => note.path)).toContain("Note.md");
		await fs.rm(nodePath.join(vault, "Note.md"));
		await fs.rename(nodePath.join(vault, "Big.md"), nodePath.join(vault, "Bigger.md"));
		const missing = await callError(client, "read_note", { path: "Note.md" });
		expect(missing).toContain("That note is gone");
		expect(await callError(client, "read_note", { path: "Big.md" })).toContain("That note is gone");
	});

	test("the vault folder removed under a running server: clean errors, no crash", async () => {
		await fs.rm(vault, { recursive: true, force: true });
		const outcome = await client.callTool({ name: "read_note", arguments: { path: "Note.md" } });
		expect(outcome.isError).toBe(true);
		expect((await callOk<{ note_count: number }>(client, "get_vault_status")).note_count).toBeGreaterThanOrEqual(0);
		expect((await client.callTool({ name: "append_to_note", arguments: { path: "Note.md", content: "x" } })).isError).toBe(true);
	});
});

describe("odd notes give bounded answers", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({});
		await fs.writeFile(nodePath.join(vault, "Latin1.md"), Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x0a]));
		await fs.writeFile(nodePath.join(vault, "Huge.md"), `# Huge\n\n${"word ".repeat(10 * 1024 * 1024)}\n`);
		await fs.writeFile(nodePath.join(vault, "Lines.md"), Array.from({ length: 100_000 }, (_, index) => `- [ ] task ${index} #tag${index % 10}`).join("\n"));
		await fs.writeFile(
			nodePath.join(vault, "Deep.md"),
			Array.from({ length: 1000 }, (_, depth) => `${"\t".repeat(depth)}- level ${depth} [[Latin1]]`).join("\n"),
		);
		running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 } });
		// Notes over a megabyte are parsed just after the server starts (it listens first): these tests are about bounds, not start-up.
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 120_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("a note that is not valid UTF-8 reads with replacement characters", async () => {
		const note = await callOk<{ content: string }>(client, "read_note", { path: "Latin1" });
		expect(note.content).toContain("\uFFFD");
	});

	test("a 50 MB note, over the 8 MiB a note is read to: read_note refuses it naming the bound and no disk path, and search still finds it by its title", async () => {
		const refusal = await callError(client, "read_note", { path: "Huge" });
		expect(refusal).toContain(`over the ${MAX_READ_NOTE_BYTES / (1024 * 1024)} MiB`);
		expect(refusal).not.toContain(vault);
		const found = await callOk<{ total: number; results: Array<{ path: string }> }>(client, "search_notes", { query: "huge" });
		expect(found.results.map((result) => result.path)).toContain("Huge.md");
	}, 60_000);

	test("a 100,000-line note: list_tasks is bounded by its limit and reports the total", async () => {
		const tasks = await callOk<{ tasks: unknown[]; total: number }>(client, "list_tasks", { path: "Lines", limit: 1000 });
		expect(tasks.tasks).toHaveLength(1000);
		expect(tasks.total).toBe(100_000);
	}, 60_000);

	test("1,000 levels of nested lists: links and tags still answer", async () => {
		const links = await callOk<{ outgoing: unknown[]; truncated: boolean }>(client, "get_note_links", { path: "Deep" });
		expect(links.outgoing.length).toBeGreaterThan(0);
		expect(links.outgoing.length).toBeLessThanOrEqual(1000);
	});
});

describe("200 start/stop cycles", () => {
	test("leave no open handles, no vault listeners and no memory behind", async () => {
		const vault = await makeVault({ "A.md": "a [[B]]", "B.md": "b #tag" });
		const host = await NodeHost.open(vault);
		const service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: new MemoryJournal() });
		const { addToken } = await import("../../src/auth/tokenList");
		const { defaultSettings } = await import("../../src/config/settings");
		const made = addToken({ ...defaultSettings(), serverEnabled: true, port: 0 }, "cycle", "read");
		if ("error" in made) throw new Error(made.error);
		const handles = () => process.getActiveResourcesInfo().filter((name) => name.startsWith("TCP")).length;
		const cycle = async () => {
			const status = await service.apply(made.settings);
			if (status.state !== "listening") throw new Error("not listening");
			await service.search?.whenReady();
			await rawRequest(status.port, {
				headers: mcpHeaders(status.port, made.token),
				body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
			});
			await service.stop();
		};
		for (let index = 0; index < 20; index++) await cycle();
		const before = { handles: handles(), listeners: host.vault.listenerCount, heap: await heapAfterGc() };
		for (let index = 0; index < 200; index++) await cycle();
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(handles()).toBeLessThanOrEqual(before.handles);
		expect(host.vault.listenerCount).toBe(before.listeners);
		expect(await heapAfterGc()).toBeLessThanOrEqual(before.heap * 1.1);
		await host.close();
		await removeDir(vault);
	}, 120_000);
});
