/**
 * Vault-wide calls beside other clients (`npm run bench -- --only vaultwide`): one token floods a
 * vault-wide tool while another token's light calls are timed, and a client searches from the
 * first moment of the index build. Rows of one run are compared as ratios.
 */
import { benchSettings } from "./benchSettings";
import { Agent, createServer, request } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fork } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { AddressInfo } from "node:net";
import { addToken } from "../src/auth/tokenList";
import type { NodeHost } from "../src/headless/NodeHost";
import { McpService } from "../src/service";
import { MemoryJournal } from "../test/helpers/memoryJournal";
import { mainThreadCpu, threadCpuClock } from "../test/helpers/threadCpu";

/** How long each flood runs, and how many calls the flooding token keeps in flight (its per-token cap). */
const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? "3");
const FLOOD_CONCURRENCY = 4;
/**
 * `BENCH_VAULTWIDE_PARTS=build,flood,heavy` picks the parts to run (heavy: one base of every note,
 * a canvas of many cards, notes of a megabyte created); `BENCH_FLOOD_TOOLS=search_notes,list_tasks` the tools to flood.
 */
const PARTS = (process.env.BENCH_VAULTWIDE_PARTS ?? "build,flood,heavy").split(",");
const FLOOD_TOOLS = process.env.BENCH_FLOOD_TOOLS?.split(",") ?? null;
/** Light calls timed on an idle server, for the baseline. */
const BASELINE_CALLS = 200;
/** Cards on the flooded canvas, all asked for in one page (what read_canvas answered whole before it was paged). */
const CANVAS_CARDS = 5_000;
/** Task lines of each created note: about 1 MB, just under the edit bound. */
const CREATED_TASK_LINES = 40_000;
/** The base flooded: every file of the vault, sorted by a formula, so each row is evaluated and compared. */
const BENCH_BASE = `formulas:
  f: 'file.name + status'
views:
  - type: table
    name: All
    order: [file.name, status, created, formula.f]
    sort:
      - property: formula.f
        direction: DESC
`;

export interface VaultWideRow {
	metric: string;
	value: number;
	unit: string;
}

interface Running {
	service: McpService;
	port: number;
	floodToken: string;
	otherToken: string;
}

/** A tool flooded: its arguments (`{round}` in a text becomes the call's number), and the part it belongs to. */
interface FloodedTool {
	tool: string;
	args: Record<string, unknown>;
	part: "flood" | "heavy";
	/** How the table names a second flood of the same tool (its filters). */
	variant?: string;
}

/** What the flooding thread is told: whom to call, with what, for how long. */
interface FloodOrder {
	port: number;
	token: string;
	tool: string;
	args: Record<string, unknown>;
	seconds: number;
	concurrency: number;
}

/** What it reports back. */
interface FloodReport {
	floodCalls: number[];
	errors: number;
}

function percentile(samples: readonly number[], fraction: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

/** One tools/call over HTTP, or a request of another method when `name` is one (`resources/list`); the answer's body. */
export function call(port: number, token: string, name: string, args: Record<string, unknown>, agent: Agent): Promise<string> {
	const body = JSON.stringify({
		jsonrpc: "2.0",
		id: 1,
		...(name.includes("/") ? { method: name, params: args } : { method: "tools/call", params: { name, arguments: args } }),
	});
	return new Promise((resolve, reject) => {
		const req = request(
			{
				host: "127.0.0.1",
				port,
				method: "POST",
				path: "/mcp",
				agent,
				headers: {
					Host: `127.0.0.1:${port}`,
					Authorization: `Bearer ${token}`,
					"Content-Type": "application/json",
					Accept: "application/json, text/event-stream",
				},
			},
			(res) => {
				let text = "";
				res.setEncoding("utf8");
				res.on("data", (chunk: string) => (text += chunk));
				res.on("end", () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${res.statusCode ?? 0}: ${text.slice(0, 200)}`))));
			},
		);
		req.on("error", reject);
		req.end(body);
	});
}

/**
 * Starts the server with no rate limit (the flood is harsher than any budget allows): a flooding
 * token that reads and may create notes without asking, and a read token.
 */
async function start(host: NodeHost): Promise<Running> {
	let settings = benchSettings(true);
	const flood = addToken(settings, "bench-flood", "write", { create_note: "allow" });
	if ("error" in flood) throw new Error(flood.error);
	const other = addToken(flood.settings, "bench-other", "read");
	if ("error" in other) throw new Error(other.error);
	settings = other.settings;
	const service = new McpService({
		host,
		serverVersion: "bench",
		logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
		journal: new MemoryJournal(),
	});
	const status = await service.apply(settings);
	if (status.state !== "listening") throw new Error("service did not start");
	return { service, port: status.port, floodToken: flood.token, otherToken: other.token };
}

/** CPU time this process has used, in ms: on a shared machine it grows with the work done, not with the neighbours' load. */
function cpuMs(): number {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
}

/** Milliseconds (wall and this process's CPU) from the server's start until its index is ready, with no client. */
async function idleBuild(host: NodeHost): Promise<{ readyMs: number; cpuMs: number }> {
	const started = performance.now();
	const cpuStarted = cpuMs();
	const running = await start(host);
	await running.service.search?.whenReady();
	const took = { readyMs: performance.now() - started, cpuMs: cpuMs() - cpuStarted };
	await running.service.stop();
	return took;
}

/** A client searching back to back from the server's start: when the index is ready, and how long each answer took. */
async function buildWhileSearching(
	host: NodeHost,
	queries: readonly string[],
): Promise<{ readyMs: number; readyCpuMs: number; answers: number[]; building: number }> {
	const started = performance.now();
	const cpuStarted = cpuMs();
	const running = await start(host);
	let readyMs = Number.NaN;
	let readyCpuMs = Number.NaN;
	let ready = false;
	void running.service.search?.whenReady().then(() => {
		readyMs = performance.now() - started;
		readyCpuMs = cpuMs() - cpuStarted;
		ready = true;
	});
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	const answers: number[] = [];
	let building = 0;
	for (let round = 0; !ready; round++) {
		const begin = performance.now();
		const text = await call(running.port, running.otherToken, "search_notes", { query: queries[round % queries.length] ?? "garden", limit: 10 }, agent);
		answers.push(performance.now() - begin);
		if (text.includes("index: building")) building += 1;
	}
	agent.destroy();
	await running.service.stop();
	return { readyMs, readyCpuMs, answers, building };
}

/**
 * Times light calls of the other token one after another until `until()` says stop: each call's
 * wall time, and the main thread's CPU over the same span (NaN where the system cannot tell). The
 * other client runs on the server's own event loop, so that CPU is all the work the server did
 * before it answered: about what the call would take on an idle machine, whatever the load. Also
 * the main thread's time ready to run but waiting for a core (the machine's load, not the server's
 * work), and the server's own time for each call: from its request's headers read to its answer
 * handed to the socket (Node's `http.server.*` diagnostics channels), which leaves out the client's
 * own work and the event-loop turns before the request is read and after the answer is sent.
 */
async function timeOtherCalls(
	running: Running,
	notePath: string,
	until: () => boolean,
): Promise<{ wall: number[]; cpu: number[]; runQueue: number[]; server: number[] }> {
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	const clock = mainThreadCpu();
	const waitClock = mainThreadRunQueueWait();
	const wall: number[] = [];
	const cpu: number[] = [];
	const runQueue: number[] = [];
	const server: number[] = [];
	const authorization = `Bearer ${running.otherToken}`;
	const began = new WeakMap<object, number>();
	const onStart = (message: unknown) => {
		const { request, response } = message as { request: { headers: Record<string, string | undefined> }; response: object };
		if (request.headers.authorization === authorization) began.set(response, performance.now());
	};
	const onFinish = (message: unknown) => {
		const from = began.get((message as { response: object }).response);
		if (from !== undefined) server.push(performance.now() - from);
	};
	subscribe("http.server.request.start", onStart);
	subscribe("http.server.response.finish", onFinish);
	while (!until()) {
		const begin = performance.now();
		const cpuBegin = clock?.() ?? Number.NaN;
		const waitBegin = waitClock?.() ?? Number.NaN;
		await call(running.port, running.otherToken, "read_note", { path: notePath }, agent);
		wall.push(performance.now() - begin);
		cpu.push((clock?.() ?? Number.NaN) - cpuBegin);
		runQueue.push((waitClock?.() ?? Number.NaN) - waitBegin);
	}
	unsubscribe("http.server.request.start", onStart);
	unsubscribe("http.server.response.finish", onFinish);
	agent.destroy();
	return { wall, cpu, runQueue, server };
}

let runQueueClock: (() => number) | null | undefined;
/** How long the main thread has been ready to run but waiting for a core, in ms (schedstat's second field), opened once. */
function mainThreadRunQueueWait(): (() => number) | null {
	if (runQueueClock === undefined) runQueueClock = threadCpuClock(1);
	return runQueueClock;
}

/**
 * The most CPU used between two ticks of a 1 ms timer, until `stop()`: the longest piece of work
 * the event loop ran, counted in CPU time, so a busy machine taking the core away mid-piece does
 * not lengthen it (the wall-time hold does grow with the machine's load). Counted twice: for the
 * whole process, and for the main thread alone (NaN where the system cannot tell).
 */
function cpuPieces(): { stop: () => { processMs: number; mainThreadMs: number } } {
	const threadCpu = mainThreadCpu();
	let last = cpuMs();
	let lastThread = threadCpu?.() ?? 0;
	let longest = 0;
	let longestThread = 0;
	const timer = setInterval(() => {
		const now = cpuMs();
		longest = Math.max(longest, now - last);
		last = now;
		if (threadCpu) {
			const nowThread = threadCpu();
			longestThread = Math.max(longestThread, nowThread - lastThread);
			lastThread = nowThread;
		}
	}, 1);
	return {
		stop: () => {
			clearInterval(timer);
			return { processMs: longest, mainThreadMs: threadCpu ? longestThread : Number.NaN };
		},
	};
}

/** The flooding process's work: `concurrency` calls in flight for `seconds`, each timed. */
async function floodCalls({ port, token, tool, args, seconds, concurrency }: FloodOrder): Promise<FloodReport> {
	const endAt = performance.now() + seconds * 1000;
	const template = JSON.stringify(args);
	const floodCalls: number[] = [];
	let errors = 0;
	let round = 0;
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			const agent = new Agent({ keepAlive: true, maxSockets: 1 });
			while (performance.now() < endAt) {
				const begin = performance.now();
				const numbered = JSON.parse(template.replaceAll("{round}", String(round++))) as Record<string, unknown>;
				// A call refused by the token's budgets (HTTP 429 for writes) counts as an error; the flood goes on.
				const text = await call(port, token, tool, numbered, agent).catch(() => '"isError":true');
				floodCalls.push(performance.now() - begin);
				if (text.includes('"isError":true')) errors += 1;
			}
			agent.destroy();
		}),
	);
	return { floodCalls, errors };
}

/** Set in the environment of the flooding process (see `flood`). */
const FLOOD_PROCESS_ENV = "BENCH_FLOOD_PROCESS";

/** Set in the environment of the bare-server process (see `bareBaseline`). */
const BARE_PROCESS_ENV = "BENCH_BARE_PROCESS";
/** The pause between two of the bare client's requests: paced, so the baseline adds little load of its own. */
const BARE_GAP_MS = 5;

/**
 * The bare process's work: a bare HTTP server and a client of it, in a process of their own, the
 * client making one small request every BARE_GAP_MS until told to stop; each request's time. What a
 * request takes there is what the machine's load alone does to a round trip in the same window as a
 * flood (the other token's times hold that and the server's own work).
 */
async function bareCalls(send: (message: unknown) => void): Promise<number[]> {
	const server = createServer((_req, res) => res.end('{"jsonrpc":"2.0","id":1,"result":{}}'));
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	let stopped = false;
	process.once("message", () => (stopped = true));
	send("started");
	const samples: number[] = [];
	while (!stopped) {
		const begin = performance.now();
		await new Promise<void>((resolve, reject) => {
			const req = request({ host: "127.0.0.1", port, method: "POST", path: "/", agent }, (res) => {
				res.resume();
				res.on("end", resolve);
			});
			req.on("error", reject);
			req.end("{}");
		});
		samples.push(performance.now() - begin);
		await new Promise((resolve) => setTimeout(resolve, BARE_GAP_MS));
	}
	agent.destroy();
	server.close();
	return samples;
}

/**
 * When this file runs as the flooding process or the bare one (see `flood`): takes its order, does
 * its work, reports, and returns true. The bench's entry calls it first and runs nothing else in that process.
 */
export async function runAsFloodProcess(): Promise<boolean> {
	const send = process.send?.bind(process);
	if (process.env[BARE_PROCESS_ENV] === "1" && send) {
		const samples = await bareCalls((message) => send(message));
		await new Promise((resolve) => send(samples, undefined, {}, resolve));
		process.disconnect();
		return true;
	}
	if (process.env[FLOOD_PROCESS_ENV] !== "1" || !send) return false;
	const order = await new Promise<FloodOrder>((resolve) => process.once("message", (message: FloodOrder) => resolve(message)));
	send("started");
	const report = await floodCalls(order);
	await new Promise((resolve) => send(report, undefined, {}, resolve));
	process.disconnect();
	return true;
}

/**
 * One token keeps FLOOD_CONCURRENCY calls of a tool in flight for FLOOD_SECONDS while the other
 * token's light calls are timed; also the longest the event loop was held in one piece meanwhile.
 * The flooding client is a process of its own, as a real client is: making a megabyte request or
 * reading one answer is not the server's work, and is counted neither in its holds nor its CPU.
 */
async function flood(
	running: Running,
	{ tool, args }: FloodedTool,
	notePath: string,
): Promise<{
	other: number[];
	otherCpu: number[];
	otherRunQueue: number[];
	otherServer: number[];
	bare: number[];
	floodCalls: number[];
	errors: number;
	holdMs: number;
	pieceCpuMs: number;
	mainThreadPieceMs: number;
	cpuMs: number;
}> {
	const bare = bareBaseline();
	await bare.started;
	const child = fork(process.argv[1] ?? "", [], { env: { ...process.env, [FLOOD_PROCESS_ENV]: "1" }, execArgv: [] });
	let started: () => void = () => undefined;
	const whenStarted = new Promise<void>((resolve) => (started = resolve));
	const report = new Promise<FloodReport>((resolve, reject) => {
		child.on("message", (message: FloodReport | "started") => (message === "started" ? started() : resolve(message)));
		child.once("error", reject);
		child.once("exit", (code) => reject(new Error(`the flooding process ended (${code ?? "signal"}) without a report`)));
	});
	const floodOrder: FloodOrder = { port: running.port, token: running.floodToken, tool, args, seconds: FLOOD_SECONDS, concurrency: FLOOD_CONCURRENCY };
	child.send(floodOrder);
	await Promise.race([whenStarted, report]);
	// Measured from here: starting the flooding process (200-300 ms of this process's CPU in one piece) is the bench's work, not the server's.
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	histogram.enable();
	const pieces = cpuPieces();
	const cpuStarted = cpuMs();
	const endAt = performance.now() + FLOOD_SECONDS * 1000;
	// The other client starts once the flood is under way, and stops when it ends.
	await new Promise((resolve) => setTimeout(resolve, 100));
	const other = await timeOtherCalls(running, notePath, () => performance.now() >= endAt);
	const bareTimes = await bare.stop();
	const { floodCalls, errors } = await report;
	const cpuUsed = cpuMs() - cpuStarted;
	histogram.disable();
	const { processMs, mainThreadMs } = pieces.stop();
	return {
		other: other.wall,
		otherCpu: other.cpu,
		otherRunQueue: other.runQueue,
		otherServer: other.server,
		bare: bareTimes,
		floodCalls,
		errors,
		holdMs: histogram.max / 1e6,
		pieceCpuMs: processMs,
		mainThreadPieceMs: mainThreadMs,
		cpuMs: cpuUsed,
	};
}

/** A bare server and its client in a process of their own (see `bareCalls`), timed from `started` until `stop()`. */
function bareBaseline(): { started: Promise<void>; stop: () => Promise<number[]> } {
	const child = fork(process.argv[1] ?? "", [], { env: { ...process.env, [BARE_PROCESS_ENV]: "1" }, execArgv: [] });
	let started: () => void = () => undefined;
	const whenStarted = new Promise<void>((resolve) => (started = resolve));
	const report = new Promise<number[]>((resolve, reject) => {
		child.on("message", (message: number[] | "started") => (message === "started" ? started() : resolve(message)));
		child.once("error", reject);
		child.once("exit", (code) => reject(new Error(`the bare process ended (${code ?? "signal"}) without a report`)));
	});
	return {
		started: Promise.race([whenStarted, report.then(() => undefined)]),
		stop: () => {
			child.send("stop");
			return report;
		},
	};
}

/** The rows: search from t=0, then a flood of each vault-wide tool against another token's read_note. */
export async function benchVaultWide(host: NodeHost, searchQueries: readonly string[], tag: string): Promise<VaultWideRow[]> {
	const rows: VaultWideRow[] = [];
	const row = (metric: string, value: number, unit: string) => rows.push({ metric, value, unit });
	if (PARTS.includes("build")) await benchBuildWhileSearching(host, searchQueries, row);
	if (PARTS.includes("flood") || PARTS.includes("heavy")) await benchFloods(host, searchQueries, tag, row);
	return rows;
}

/** Index ready with and without a client searching from t=0, and that client's answer times. */
async function benchBuildWhileSearching(
	host: NodeHost,
	searchQueries: readonly string[],
	row: (metric: string, value: number, unit: string) => void,
): Promise<void> {
	const firstIdle = await idleBuild(host);
	const searching = await buildWhileSearching(host, searchQueries);
	const secondIdle = await idleBuild(host);
	const idle = Math.min(firstIdle.readyMs, secondIdle.readyMs);
	const idleCpu = Math.min(firstIdle.cpuMs, secondIdle.cpuMs);
	row("index ready, no client (best of 2)", idle, "ms");
	row("index ready, a client searching from t=0", searching.readyMs, "ms");
	row("index ready searching ÷ idle (target ≤ 1.2)", searching.readyMs / idle, "×");
	// The client runs in this process too: its share of the CPU is in the ratio, as its share of the event loop is in the one above.
	row("process CPU until ready, searching ÷ idle", searching.readyCpuMs / idleCpu, "×");
	row("searches answered during the build", searching.answers.length, "");
	row("of them saying index: building", searching.building, "");
	row("search during the build p50", percentile(searching.answers, 0.5), "ms");
	row("search during the build p95 (target ≤ 500)", percentile(searching.answers, 0.95), "ms");
}

/** The heavy part's files: a base over every file and a canvas of CANVAS_CARDS text cards, each linking a note. */
async function writeHeavyFiles(host: NodeHost): Promise<void> {
	const notes = host.vault.getMarkdownFiles();
	const cards = Array.from({ length: CANVAS_CARDS }, (_, index) => ({
		id: `card${index}`,
		type: "text",
		text: `[[${notes[index % notes.length]?.basename ?? ""}]] card ${index}`,
		x: (index % 100) * 300,
		y: Math.floor(index / 100) * 200,
		width: 250,
		height: 150,
	}));
	await host.vault.create("Bench/All.base", BENCH_BASE);
	await host.vault.create("Bench/Board.canvas", JSON.stringify({ nodes: cards, edges: [] }));
	await host.metadataCache.settled();
}

/** Each flood of the parts picked (and of BENCH_FLOOD_TOOLS, when set) against another token's read_note. */
async function benchFloods(
	host: NodeHost,
	searchQueries: readonly string[],
	tag: string,
	row: (metric: string, value: number, unit: string) => void,
): Promise<void> {
	const running = await start(host);
	await running.service.search?.whenReady();
	const notePath = host.vault.getMarkdownFiles()[0]?.path ?? "";
	const baselineCpuStarted = cpuMs();
	const baseline = await (async () => {
		let left = BASELINE_CALLS;
		return (await timeOtherCalls(running, notePath, () => left-- <= 0)).wall;
	})();
	// What one of the other token's calls costs this process (client and server), to take out of a flood's CPU.
	const otherCallCpuMs = (cpuMs() - baselineCpuStarted) / baseline.length;
	row("other token read_note, idle server p50", percentile(baseline, 0.5), "ms");
	row("other token read_note, idle server p99", percentile(baseline, 0.99), "ms");
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	for (const tool of ["list_tasks", "get_graph_stats", "list_tags"].filter((name) => FLOOD_TOOLS === null || FLOOD_TOOLS.includes(name))) {
		const begin = performance.now();
		await call(running.port, running.floodToken, tool, {}, agent);
		row(`${tool} first call (every note derived)`, performance.now() - begin, "ms");
	}
	if (FLOOD_TOOLS === null || FLOOD_TOOLS.includes("find_notes_by_tag")) {
		const begin = performance.now();
		await call(running.port, running.floodToken, "find_notes_by_tag", { tag, limit: 1000 }, agent);
		row("find_notes_by_tag first call (every note derived)", performance.now() - begin, "ms");
	}
	agent.destroy();
	const all: FloodedTool[] = [
		{ tool: "list_tasks", args: { status: "any", limit: 1000 }, part: "flood" },
		{ tool: "get_graph_stats", args: {}, part: "flood" },
		{ tool: "list_tags", args: {}, part: "flood" },
		{ tool: "find_notes_by_tag", args: { tag, limit: 1000 }, part: "flood" },
		{ tool: "list_notes", args: { sort: "modified", limit: 1000 }, part: "flood" },
		{ tool: "search_notes", args: { query: searchQueries[0] ?? "garden", limit: 50 }, part: "flood" },
		// Filters on the same tools (issue 24's case 4 variants): each answer still needs every note looked at.
		{ tool: "list_tasks", args: { status: "open", due_before: "2026-06-01", limit: 1000 }, part: "flood", variant: "open, due_before" },
		{ tool: "list_tasks", args: { status: "done", folder: "Bench", limit: 1000 }, part: "flood", variant: "done, folder" },
		{ tool: "list_notes", args: { sort: "path", limit: 1000 }, part: "flood", variant: "sort path" },
		{ tool: "search_notes", args: { query: `tag:${tag} ${searchQueries[0] ?? "garden"}`, limit: 50 }, part: "flood", variant: "tag:" },
		{ tool: "search_notes", args: { query: `path:Bench -${searchQueries[0] ?? "garden"}`, limit: 50 }, part: "flood", variant: "path: and a negation" },
		{ tool: "resources/list", args: {}, part: "flood" },
		{
			tool: "completion/complete",
			args: { ref: { type: "ref/resource", uri: "vault-mcp://note/{+path}" }, argument: { name: "path", value: "B" } },
			part: "flood",
		},
		{ tool: "query_base", args: { path: "Bench/All.base", limit: 1000 }, part: "heavy" },
		{ tool: "read_canvas", args: { path: "Bench/Board.canvas", limit: CANVAS_CARDS }, part: "heavy" },
		{
			tool: "create_note",
			args: { path: "Bench/Made/{round}.md", content: `[[${notePath}]] #made\n${"- [ ] t 📅 2026-01-01\n".repeat(CREATED_TASK_LINES)}` },
			part: "heavy",
		},
	];
	const tools = all.filter((flooded) => PARTS.includes(flooded.part) && (FLOOD_TOOLS === null || FLOOD_TOOLS.includes(flooded.tool)));
	if (tools.some((flooded) => flooded.part === "heavy")) await writeHeavyFiles(host);
	for (const flooded of tools) {
		const result = await flood(running, flooded, notePath);
		const name = `flood ${flooded.tool}${flooded.variant ? ` (${flooded.variant})` : ""} ×${FLOOD_CONCURRENCY}`;
		row(`${name}: other token p50 (target ≤ 50)`, percentile(result.other, 0.5), "ms");
		row(`${name}: other token p99 (target ≤ 250)`, percentile(result.other, 0.99), "ms");
		row(`${name}: other token max`, percentile(result.other, 1), "ms");
		// The server's main-thread CPU while each of those calls waited: what the wall times would be on an idle machine.
		row(`${name}: other token p50, main-thread CPU while it waited`, percentile(result.otherCpu, 0.5), "ms");
		row(`${name}: other token p99, main-thread CPU while it waited`, percentile(result.otherCpu, 0.99), "ms");
		// The main thread waiting for a core while each call waited: the share of the wall times that is the machine's load.
		row(`${name}: other token p50, main thread waiting for a core meanwhile`, percentile(result.otherRunQueue, 0.5), "ms");
		row(`${name}: other token p99, main thread waiting for a core meanwhile`, percentile(result.otherRunQueue, 0.99), "ms");
		// The server's own time per call (headers read to answer sent): the client's share and the turns around it left out.
		row(`${name}: other token p50, server's own time`, percentile(result.otherServer, 0.5), "ms");
		row(`${name}: other token p99, server's own time`, percentile(result.otherServer, 0.99), "ms");
		// The same window's round trips to a bare server in a process of its own: what the machine's load alone gives.
		row(`${name}: bare server in another process, same window, p50`, percentile(result.bare, 0.5), "ms");
		row(`${name}: bare server in another process, same window, p99`, percentile(result.bare, 0.99), "ms");
		row(`${name}: longest event-loop hold`, result.holdMs, "ms");
		row(`${name}: longest piece, main-thread CPU`, result.mainThreadPieceMs, "ms");
		row(`${name}: longest piece, process CPU (GC helpers and thread pool too)`, result.pieceCpuMs, "ms");
		row(`${name}: flood call p50`, percentile(result.floodCalls, 0.5), "ms");
		row(`${name}: flood calls / errors`, result.floodCalls.length, `calls, ${result.errors} errors`);
		// The server's CPU in the flood, less the other token's calls at their idle cost, per flood call: less noisy than times on a busy machine.
		row(`${name}: server CPU per flood call`, (result.cpuMs - otherCallCpuMs * result.other.length) / Math.max(1, result.floodCalls.length), "ms");
		// The notes a flood created are indexed before the next flood starts, so their work is not counted there.
		await host.metadataCache.settled();
	}
	await running.service.stop();
}
