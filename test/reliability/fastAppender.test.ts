import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { eventLoopTurns } from "../../src/turns";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** The appender's own bounds: it stops after this many bytes or milliseconds if it is not stopped first. */
const APPENDER_MAX_BYTES = 600 * 1024 * 1024;
const APPENDER_MAX_MS = 12_000;
/**
 * Its pace at most, so the disk is not filled when it is not stopped. Written 4 MiB per `writev`, its
 * bytes cost it far less CPU than reading them a piece per turn costs the server: it outruns the
 * server however busy the machine is (the server read about 20 MB/s at load 16).
 */
const APPENDER_BYTES_PER_MS = 200 * 1024;
/** Lines of filler in each chunk the appender writes: 4 MiB. */
const CHUNK_LINES = 2 * 1024 * 1024;
/** How long the edit may take beside it (a loaded machine included). */
const ANSWER_WITHIN_MS = 8_000;

/**
 * Another program that appends whole lines as fast as it may (as `yes >> note.md` does), once told
 * "go" on its input: chunks of 4 MiB, each a numbered first line and filler lines, written with one
 * `writev` each, in runs of 20 ms between which it looks at its signals. It says how many chunks it
 * wrote when it ends.
 */
const APPENDER = `
const fs = require("fs");
const [file, maxBytes, maxMs, perMs, lines] = process.argv.slice(1).map((value, index) => (index === 0 ? value : Number(value)));
const fd = fs.openSync(file, "a");
const filler = Buffer.from("y\\n".repeat(lines));
let chunks = 0, written = 0, started = 0;
const report = () => process.stdout.write(JSON.stringify({ chunks }) + "\\n");
process.on("SIGTERM", () => { report(); process.exit(0); });
function run() {
	for (const until = Date.now() + 20; Date.now() < until;) {
		if (written >= maxBytes || Date.now() - started >= maxMs) { report(); process.exit(0); }
		if (written > perMs * (Date.now() - started)) continue;
		fs.writevSync(fd, [Buffer.from("chunk " + chunks + "\\n"), filler]);
		written += filler.length;
		chunks++;
	}
	setImmediate(run);
}
process.stdin.once("data", () => { started = Date.now(); run(); });
process.stdout.write("ready\\n");
`;

/**
 * What the note holds after `start`, read a chunk at a time (it may be hundreds of megabytes): the
 * appender's chunks in order, each whole, with ours (`mine`) between two of them or after the last
 * wherever it is. Returns how many chunks and how many of ours were found, and whether anything else was.
 */
async function whatFollows(note: string, start: string, mine: string): Promise<{ chunks: number; mine: number; other: boolean }> {
	const handle = await fs.open(note, "r");
	try {
		const size = (await handle.stat()).size;
		let at = 0;
		const holds = async (expected: Buffer): Promise<boolean> => {
			if (at + expected.length > size) return false;
			const found = Buffer.alloc(expected.length);
			await handle.read(found, 0, found.length, at);
			if (!found.equals(expected)) return false;
			at += expected.length;
			return true;
		};
		if (!(await holds(Buffer.from(start)))) return { chunks: 0, mine: 0, other: true };
		const filler = Buffer.from("y\n".repeat(CHUNK_LINES));
		let chunks = 0;
		let ours = 0;
		while (at < size) {
			if (await holds(Buffer.from(mine))) ours++;
			else if ((await holds(Buffer.from(`chunk ${chunks}\n`))) && (await holds(filler))) chunks++;
			else return { chunks, mine: ours, other: true };
		}
		return { chunks, mine: ours, other: false };
	} finally {
		await handle.close();
	}
}

/**
 * A program starts appending to a note faster than the server reads it, just as the server's edit
 * of the note begins reading it. Before, the headless edit read the note to its end, in pieces with
 * turns between them, and the end kept moving: the call answered only once the other program stopped
 * (here after 600 MB or 12 s), the note's write lock held and the server's memory growing with the
 * file all the while. Now the read stops a bounded way past the size the note had when it was opened
 * (at a line end), and the edit's last look does the rest: the append goes in after the whole lines
 * the other program added meanwhile, while it still appends; or, made again on the note grown past
 * the longest the write tools change, it is refused with that reason (before, that answered as
 * written, and nothing was). Every line of the other program's is kept, whole and in order.
 */
test("append_to_note as another program starts appending as fast as it can answers in bounded time, and no line of either is lost", async () => {
	const start = `# Log\n\n${"- an entry of the log\n".repeat(20_000)}`;
	const vault = await makeVault({ "Log.md": start });
	const note = nodePath.join(vault, "Log.md");
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const appender = spawn(process.execPath, [
		"-e",
		APPENDER,
		note,
		String(APPENDER_MAX_BYTES),
		String(APPENDER_MAX_MS),
		String(APPENDER_BYTES_PER_MS),
		String(CHUNK_LINES),
	]);
	let output = "";
	appender.stdout.on("data", (data: Buffer) => (output += data.toString()));
	let appending = true;
	const ended = new Promise<void>((resolve) =>
		appender.once("exit", () => {
			appending = false;
			resolve();
		}),
	);
	// The disk writer holds `take` itself; `take` asks `takeFor`, looked up at each call.
	const takeFor = eventLoopTurns.takeFor;
	try {
		await new Promise<void>((resolve) => appender.stdout.once("data", () => resolve()));
		let told = false;
		jest.spyOn(eventLoopTurns, "takeFor").mockImplementation(async (owner) => {
			if (!told && new Error().stack?.includes("readInPieces")) {
				// The edit is reading the note: the other program starts, and has written a chunk before the read goes on.
				told = true;
				appender.stdin.write("go\n");
				const size = Buffer.byteLength(start);
				for (const end = Date.now() + 5_000; (await fs.stat(note)).size < size + 2 * CHUNK_LINES && Date.now() < end;)
					await new Promise((resolve) => setTimeout(resolve, 2));
			}
			return takeFor(owner);
		});
		const asked = Date.now();
		const outcome = await callTool(client, "append_to_note", { path: "Log.md", content: "- mine" });
		const took = Date.now() - asked;
		jest.restoreAllMocks();
		expect(told).toBe(true);
		// Answered while the other program still appends, in bounded time: written, or refused with the reason.
		expect({ appending, inTime: took < ANSWER_WITHIN_MS }).toEqual({ appending: true, inTime: true });
		if (!outcome.ok) expect(outcome.error).toMatch(/is over 1048576 characters|kept changing/);
		appender.kill("SIGTERM");
		await ended;
		const chunks = (JSON.parse(output.split("\n").find((line) => line.startsWith("{")) ?? "{}") as { chunks?: number }).chunks;
		// Ours once, after whole lines of the other program's, if it was acknowledged (never otherwise); its chunks all there, whole and in order.
		expect(await whatFollows(note, start, "\n- mine\n")).toEqual({ chunks, mine: outcome.ok ? 1 : 0, other: false });
	} finally {
		jest.restoreAllMocks();
		if (appending) appender.kill("SIGKILL");
		await ended;
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}, 90_000);
