/**
 * The protocol's own cost: a trivial tool call through the whole server beside a bare
 * node:http server that answers the very same bytes, in the same run. Latency is measured one
 * request at a time on a kept-alive socket, the two servers taking turns in short blocks so that
 * a noisy neighbour hurts both alike; throughput by autocannon in its own process (8 connections),
 * so the load generator does not share the server's thread.
 */
import { execFile } from "node:child_process";
import { createHash, timingSafeEqual } from "node:crypto";
import { lstatSync, promises as fs } from "node:fs";
import { Agent, createServer, request, type Server } from "node:http";
import * as os from "node:os";
import * as nodePath from "node:path";

/** Sequential requests per server for the latency rows, in blocks that alternate between the servers. */
const LATENCY_REQUESTS = 3000;
const LATENCY_BLOCK = 100;
const LOAD_CONNECTIONS = 8;

export interface ProtocolServer {
	port: number;
	token: string;
	/** The file the trivial call reads: the minimal server checks it with lstat as the jail does. */
	notePath?: string;
}

export interface ProtocolRow {
	metric: string;
	value: number;
	unit: string;
}

/** A tiny vault: the trivial call reads its one short note. */
export async function writeTinyVault(): Promise<string> {
	const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), "vault-mcp-bench-tiny-"));
	await fs.mkdir(nodePath.join(root, ".obsidian"));
	await fs.writeFile(nodePath.join(root, "Hello.md"), "# Hello\n\nA short note.\n");
	return root;
}

const TRIVIAL_CALL = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "Hello" } } });

/** The same call at 2026-07-28: the revision and client in `_meta`, and the standard headers. */
const MODERN_TRIVIAL_CALL = JSON.stringify({
	jsonrpc: "2.0",
	id: 1,
	method: "tools/call",
	params: {
		name: "read_note",
		arguments: { path: "Hello" },
		_meta: {
			"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
			"io.modelcontextprotocol/clientCapabilities": {},
		},
	},
});
const MODERN_HEADERS = { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "read_note" };

function headersFor(port: number, token: string | null, extra: Record<string, string> = {}): Record<string, string> {
	return {
		Host: `127.0.0.1:${port}`,
		"Content-Type": "application/json",
		Accept: "application/json, text/event-stream",
		...(token === null ? {} : { Authorization: `Bearer ${token}` }),
		...extra,
	};
}

function post(
	port: number,
	token: string | null,
	body: string,
	agent: Agent,
	extraHeaders: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
	return new Promise((resolve, reject) => {
		const req = request({ host: "127.0.0.1", port, method: "POST", path: "/mcp", agent, headers: headersFor(port, token, extraHeaders) }, (res) => {
			const chunks: Buffer[] = [];
			res.on("data", (chunk: Buffer) => chunks.push(chunk));
			res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
		});
		req.on("error", reject);
		req.end(body);
	});
}

/** A bare node:http server that reads the body and answers `bytes` with the same status and content type. */
async function bareServer(status: number, contentType: string, bytes: Buffer): Promise<{ server: Server; port: number }> {
	const server = createServer((req, res) => {
		req.resume();
		req.on("end", () => {
			res.writeHead(status, { "Content-Type": contentType, "Content-Length": bytes.length });
			res.end(bytes);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
	return { server, port: (server.address() as { port: number }).port };
}

/**
 * The least any MCP server must do for the trivial call, on bare node:http: read and parse the JSON
 * body, check the bearer token (its SHA-256 compared in constant time, as a server that keeps only
 * hashes must), lstat the note (a server that may not follow links out of the vault must look), and
 * serialise its answer: `sample` with the request's id, the same bytes. The bare server above does
 * none of these, so it measures node:http alone; this one is the fair baseline for an MCP server.
 */
async function minimalMcpServer(
	status: number,
	contentType: string,
	sample: Buffer,
	token: string,
	notePath: string | undefined,
): Promise<{ server: Server; port: number }> {
	const answer = JSON.parse(sample.toString("utf8")) as { id: unknown };
	if (Buffer.compare(Buffer.from(JSON.stringify(answer)), sample) !== 0) throw new Error("the sample answer does not serialise back to its own bytes");
	const tokenHash = createHash("sha256").update(token).digest();
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: unknown };
			const presented = createHash("sha256")
				.update((req.headers.authorization ?? "").replace(/^Bearer /, ""))
				.digest();
			if (!timingSafeEqual(presented, tokenHash)) {
				res.writeHead(401).end();
				return;
			}
			if (notePath !== undefined && !lstatSync(notePath).isFile()) throw new Error("the note is gone");
			answer.id = request.id;
			const text = JSON.stringify(answer);
			res.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(text) });
			res.end(text);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
	return { server, port: (server.address() as { port: number }).port };
}

function percentile(samples: readonly number[], fraction: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

/** Times `count` sequential calls into `into`; returns the CPU time this process spent (client and server), in ms. */
async function timeBlock(
	port: number,
	token: string | null,
	body: string,
	agent: Agent,
	count: number,
	into: number[],
	extraHeaders: Record<string, string> = {},
): Promise<number> {
	const cpuBefore = process.cpuUsage();
	for (let index = 0; index < count; index++) {
		const begin = performance.now();
		const answer = await post(port, token, body, agent, extraHeaders);
		into.push(performance.now() - begin);
		if (answer.status !== 200) throw new Error(`status ${answer.status}`);
	}
	const cpu = process.cpuUsage(cpuBefore);
	return (cpu.user + cpu.system) / 1000;
}

interface LoadResult {
	requests: number;
	seconds: number;
	non2xx: number;
}

/**
 * The 8-client loads run in rounds of a second, every server once a round in turn: one long run
 * after another met different moments of a shared machine (at load 15 the same build's ratio to
 * the bare server ranged 0.14× to 0.93× from run to run), a round's servers meet the same one.
 */
const LOAD_ROUNDS = 5;

/** autocannon in a child process: the server's thread serves, the other core loads. */
function loadFromOutside(port: number, token: string | null, body: string, seconds: number, extraHeaders: Record<string, string> = {}): Promise<LoadResult> {
	const bin = nodePath.join(process.cwd(), "node_modules", "autocannon", "autocannon.js");
	const args = [bin, "--json", "-c", String(LOAD_CONNECTIONS), "-d", String(seconds), "-m", "POST", "-b", body];
	for (const [name, value] of Object.entries(headersFor(port, token, extraHeaders))) args.push("-H", `${name}=${value}`);
	args.push(`http://127.0.0.1:${port}/mcp`);
	return new Promise((resolve, reject) => {
		execFile(process.execPath, args, { maxBuffer: 16 * 1048576 }, (error, stdout) => {
			if (error) {
				reject(new Error(`autocannon failed: ${error.message}`));
				return;
			}
			const result = JSON.parse(stdout) as { requests: { total: number }; duration: number; non2xx: number };
			resolve({ requests: result.requests.total, seconds: result.duration, non2xx: result.non2xx });
		});
	});
}

interface LoadTarget {
	port: number;
	token: string | null;
	body: string;
	headers?: Record<string, string>;
}

interface InterleavedLoad {
	/** Requests per second over all rounds. */
	rate: number;
	/**
	 * This process's CPU time (every thread: the servers live here, the load generator in its own
	 * process) per request answered, in ms: steadier than the rate on a shared machine, where the
	 * share of a core the server gets moves from round to round.
	 */
	cpuPerRequest: number;
	/** Each round's requests per second. */
	rounds: number[];
	non2xx: number;
}

/** Every target under the same load, `seconds` in all, in LOAD_ROUNDS rounds taking turns. */
async function interleavedLoads(targets: readonly LoadTarget[], seconds: number): Promise<InterleavedLoad[]> {
	const results = targets.map(() => ({ requests: 0, seconds: 0, rounds: [] as number[], non2xx: 0, cpuMs: 0 }));
	const roundSeconds = Math.max(1, Math.round(seconds / LOAD_ROUNDS));
	for (let round = 0; round < LOAD_ROUNDS; round++) {
		for (const [index, target] of targets.entries()) {
			const cpuBefore = process.cpuUsage();
			const load = await loadFromOutside(target.port, target.token, target.body, roundSeconds, target.headers);
			const cpu = process.cpuUsage(cpuBefore);
			const result = results[index]!;
			result.cpuMs += (cpu.user + cpu.system) / 1000;
			result.requests += load.requests;
			result.seconds += load.seconds;
			result.rounds.push(load.requests / load.seconds);
			result.non2xx += load.non2xx;
		}
	}
	return results.map((result) => ({
		rate: result.requests / result.seconds,
		cpuPerRequest: result.cpuMs / result.requests,
		rounds: result.rounds,
		non2xx: result.non2xx,
	}));
}

/**
 * The rows: our server and the bare one, p50 of a trivial call one at a time and its difference,
 * and requests per second with 8 connections and their ratio.
 */
export async function benchProtocolCost(ours: ProtocolServer, loadSeconds: number): Promise<ProtocolRow[]> {
	const rows: ProtocolRow[] = [];
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	const sample = await post(ours.port, ours.token, TRIVIAL_CALL, agent);
	if (sample.status !== 200 || !sample.body.toString("utf8").includes("A short note."))
		throw new Error(`the trivial call failed: ${sample.status} ${sample.body.toString("utf8")}`);
	const bare = await bareServer(sample.status, String(sample.headers["content-type"] ?? "application/json"), sample.body);
	const minimal = await minimalMcpServer(sample.status, String(sample.headers["content-type"] ?? "application/json"), sample.body, ours.token, ours.notePath);
	try {
		const bareAgent = new Agent({ keepAlive: true, maxSockets: 1 });
		// Warm both paths (JIT, sockets) before timing.
		await timeBlock(bare.port, null, TRIVIAL_CALL, bareAgent, 300, []);
		await timeBlock(ours.port, ours.token, TRIVIAL_CALL, agent, 300, []);
		await timeBlock(ours.port, ours.token, MODERN_TRIVIAL_CALL, agent, 300, [], MODERN_HEADERS);
		const oursMs: number[] = [];
		const modernMs: number[] = [];
		const bareMs: number[] = [];
		let bareCpu = 0;
		let oursCpu = 0;
		let modernCpu = 0;
		for (let done = 0; done < LATENCY_REQUESTS; done += LATENCY_BLOCK) {
			bareCpu += await timeBlock(bare.port, null, TRIVIAL_CALL, bareAgent, LATENCY_BLOCK, bareMs);
			oursCpu += await timeBlock(ours.port, ours.token, TRIVIAL_CALL, agent, LATENCY_BLOCK, oursMs);
			modernCpu += await timeBlock(ours.port, ours.token, MODERN_TRIVIAL_CALL, agent, LATENCY_BLOCK, modernMs, MODERN_HEADERS);
		}
		bareAgent.destroy();
		rows.push({ metric: `trivial call (read_note, ${sample.body.length} bytes) p50, bare node:http`, value: percentile(bareMs, 0.5), unit: "ms" });
		rows.push({ metric: "trivial call p50, this server", value: percentile(oursMs, 0.5), unit: "ms" });
		rows.push({ metric: "trivial call p50, this server − bare (target ≤ 0.5)", value: percentile(oursMs, 0.5) - percentile(bareMs, 0.5), unit: "ms" });
		rows.push({ metric: "trivial call p95, this server − bare", value: percentile(oursMs, 0.95) - percentile(bareMs, 0.95), unit: "ms" });
		// CPU time is less noisy than wall time on a shared machine: what this server spends per call beyond the bare one.
		rows.push({ metric: "trivial call CPU per call, this server − bare", value: (oursCpu - bareCpu) / LATENCY_REQUESTS, unit: "ms" });
		// 2026-07-28: the SDK's checks (classifyInboundRequest) and its protocol layer on a server kept connected (http/serveModern.ts).
		rows.push({ metric: "trivial call at 2026-07-28 p50, this server − bare", value: percentile(modernMs, 0.5) - percentile(bareMs, 0.5), unit: "ms" });
		rows.push({ metric: "trivial call at 2026-07-28 CPU per call, this server − bare", value: (modernCpu - bareCpu) / LATENCY_REQUESTS, unit: "ms" });

		// The fair baseline beside the bare server: node:http doing what any MCP server must for this call (minimalMcpServer).
		const [bareLoad, ourLoad, minimalLoad, modernLoad] = await interleavedLoads(
			[
				{ port: bare.port, token: null, body: TRIVIAL_CALL },
				{ port: ours.port, token: ours.token, body: TRIVIAL_CALL },
				{ port: minimal.port, token: ours.token, body: TRIVIAL_CALL },
				// The 2026-07-28 path under the same load.
				{ port: ours.port, token: ours.token, body: MODERN_TRIVIAL_CALL, headers: MODERN_HEADERS },
			],
			loadSeconds,
		);
		if (minimalLoad!.non2xx > 0) throw new Error(`the minimal MCP server answered ${minimalLoad!.non2xx} requests with an error`);
		const roundRatios = ourLoad!.rounds.map((rate, round) => rate / bareLoad!.rounds[round]!);
		rows.push({ metric: `trivial call, ${LOAD_CONNECTIONS} clients: bare node:http`, value: bareLoad!.rate, unit: "req/s" });
		rows.push({ metric: `trivial call, ${LOAD_CONNECTIONS} clients: this server`, value: ourLoad!.rate, unit: "req/s" });
		rows.push({ metric: `trivial call, ${LOAD_CONNECTIONS} clients: this server ÷ bare (target ≥ 0.5)`, value: ourLoad!.rate / bareLoad!.rate, unit: "×" });
		rows.push({
			metric: `trivial call, ${LOAD_CONNECTIONS} clients: this server ÷ bare, lowest of ${LOAD_ROUNDS} rounds`,
			value: Math.min(...roundRatios),
			unit: "×",
		});
		rows.push({
			metric: `trivial call, ${LOAD_CONNECTIONS} clients: this server ÷ bare, highest of ${LOAD_ROUNDS} rounds`,
			value: Math.max(...roundRatios),
			unit: "×",
		});
		rows.push({ metric: `trivial call, ${LOAD_CONNECTIONS} clients: this server's non-2xx answers`, value: ourLoad!.non2xx, unit: "" });
		// The server's CPU per call under the same load (this process's, all threads): the rate's steadier cause.
		rows.push({
			metric: `trivial call, ${LOAD_CONNECTIONS} clients: server CPU per call, bare node:http`,
			value: bareLoad!.cpuPerRequest * 1000,
			unit: "µs",
		});
		rows.push({ metric: `trivial call, ${LOAD_CONNECTIONS} clients: server CPU per call, this server`, value: ourLoad!.cpuPerRequest * 1000, unit: "µs" });
		rows.push({
			metric: `trivial call, ${LOAD_CONNECTIONS} clients: server CPU per call, the minimal MCP server`,
			value: minimalLoad!.cpuPerRequest * 1000,
			unit: "µs",
		});
		rows.push({
			metric: `trivial call, ${LOAD_CONNECTIONS} clients: bare's CPU per call ÷ this server's (the rate ratio if CPU alone set it)`,
			value: bareLoad!.cpuPerRequest / ourLoad!.cpuPerRequest,
			unit: "×",
		});
		rows.push({
			metric: `trivial call, ${LOAD_CONNECTIONS} clients: node:http + JSON parse, token SHA-256, lstat, JSON answer`,
			value: minimalLoad!.rate,
			unit: "req/s",
		});
		rows.push({
			metric: `trivial call, ${LOAD_CONNECTIONS} clients: this server ÷ that minimal MCP server`,
			value: ourLoad!.rate / minimalLoad!.rate,
			unit: "×",
		});
		rows.push({
			metric: `trivial call at 2026-07-28, ${LOAD_CONNECTIONS} clients: this server ÷ bare`,
			value: modernLoad!.rate / bareLoad!.rate,
			unit: "×",
		});
		rows.push({ metric: `trivial call at 2026-07-28, ${LOAD_CONNECTIONS} clients: non-2xx answers`, value: modernLoad!.non2xx, unit: "" });
		rows.push({
			metric: `trivial call at 2026-07-28, ${LOAD_CONNECTIONS} clients: server CPU per call`,
			value: modernLoad!.cpuPerRequest * 1000,
			unit: "µs",
		});
	} finally {
		agent.destroy();
		bare.server.close();
		minimal.server.close();
	}
	return rows;
}
