import { spawn } from "node:child_process";
import { appendFileSync, promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { eventLoopTurns } from "../../src/turns";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** The appender's own bounds: it stops after this many bytes or milliseconds if it is not stopped first. */
const APPENDER_MAX_BYTES = 400 * 1024 * 1024;
const APPENDER_MAX_MS = 12_000;
/**
 * Its pace at most (40 MiB/s), so the disk is not filled when it is not stopped: the edit answered
 * in 0.9-4.1 s, the note then 17-88 MB (at 200 MB/s, 380 MB). It outruns the server's read
 * on any machine: the test holds the read to one piece per READ_PIECE_PAUSE_MS (see below).
 */
const APPENDER_BYTES_PER_MS = 40 * 1024;
/**
 * Each pause the server's read of the note takes between two pieces (NOTE_TEXT_PIECE_CHARS, 64 KiB)
 * is made this much longer, once the appender runs: the read then takes at most 16 MiB/s, however
 * fast the machine, and the appender outruns a read that chases the end (at load 13-19 that read
 * took 10-20 MB/s unhindered). A bounded read of the note's half megabyte takes ~8 pieces more.
 */
const READ_PIECE_PAUSE_MS = 4;
/** Lines of filler in each chunk the appender writes: 4 MiB. */
const CHUNK_LINES = 2 * 1024 * 1024;
/**
 * How long the edit may take beside it, a loaded machine included (0.9-4.1 s at load 9-15). The
 * appender, at its pace, runs 10 s from the read's start: an answer in time comes while it appends.
 */
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
 * (here after 400 MiB, 10 s at its pace), the note's write lock held and the server's memory growing with the
 * file all the while. Now the read stops a bounded way past the size the note had when it was opened
 * (at a line end), and the edit's last look does the rest: the append goes in after the whole lines
 * the other program added meanwhile, while it still appends; or, made again on the note grown past
 * the longest the write tools change, it is refused with that reason (before, that answered as
 * written, and nothing was). That second attempt refuses a note of more than MAX_EDITED_NOTE_BYTES
 * without reading it: it read the note's hundreds of megabytes first, and the call took over 8 s.
 * Every line of the other program's is kept, whole and in order.
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
			if (new Error().stack?.includes("readInPieces")) {
				if (!told) {
					// The edit is reading the note: the other program starts, and has written a chunk before the read goes on.
					told = true;
					appender.stdin.write("go\n");
					const size = Buffer.byteLength(start);
					for (const end = Date.now() + 5_000; (await fs.stat(note)).size < size + 2 * CHUNK_LINES && Date.now() < end;)
						await new Promise((resolve) => setTimeout(resolve, 2));
				}
				await new Promise((resolve) => setTimeout(resolve, READ_PIECE_PAUSE_MS));
			}
			return takeFor(owner);
		});
		const asked = Date.now();
		const call = callTool(client, "append_to_note", { path: "Log.md", content: "- mine" });
		// Not waited for past the bound (a read chasing the end answers only once the other program stops, a minute later here).
		call.catch(() => undefined);
		let timer: NodeJS.Timeout | undefined;
		const outcome = await Promise.race([call, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_WITHIN_MS)))]);
		clearTimeout(timer);
		const took = Date.now() - asked;
		jest.restoreAllMocks();
		expect(told).toBe(true);
		// Answered while the other program still appends, in bounded time: written, or refused with the reason.
		expect({ appending, inTime: outcome !== null && took < ANSWER_WITHIN_MS }).toEqual({ appending: true, inTime: true });
		if (outcome === null) return;
		// Refused for the size the other program grew the note to (past the longest note the write tools change, or, on a
		// slow machine, past the most this server reads of one note), or because it kept changing: all say nothing was written.
		if (!outcome.ok) expect(outcome.error).toMatch(/is over 1048576 characters|kept changing|MiB of text this server reads from one note/);
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

/**
 * Another program grows the note by megabytes, its last line not yet ended, while the server's edit
 * reads it: the edit is tried again on the grown note. Before, that second attempt read the whole
 * note in (beside a program appending 200 MB/s, hundreds of megabytes, over 8 s), and the call was
 * then planned again, reading it once more, only to be refused as longer than the write tools change.
 * Now a note of more than MAX_EDITED_NOTE_BYTES is refused from its size, unread: the same answer,
 * and the other program's bytes all there, ours not.
 */
test("append_to_note on a note another program grows past the edit bound while it is read is refused without reading the grown note", async () => {
	const start = `# Log\n\n${"- an entry of the log\n".repeat(20_000)}`;
	const grown = `${"- a line of the other program\n".repeat(150_000)}- not ended yet`;
	const vault = await makeVault({ "Log.md": start });
	const note = nodePath.join(vault, "Log.md");
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const takeFor = eventLoopTurns.takeFor;
	try {
		let grew = false;
		/** Pieces of note text the server read or decoded after the note grew, beyond the first read's last ones. */
		let piecesAfter = 0;
		jest.spyOn(eventLoopTurns, "takeFor").mockImplementation(async (owner) => {
			const stack = new Error().stack ?? "";
			if (stack.includes("readInPieces") || stack.includes("decodeInPieces")) {
				if (!grew) {
					grew = true;
					appendFileSync(note, grown);
				} else piecesAfter++;
			}
			return takeFor(owner);
		});
		const outcome = await callTool(client, "append_to_note", { path: "Log.md", content: "- mine" });
		jest.restoreAllMocks();
		expect(grew).toBe(true);
		expect(outcome).toEqual({
			ok: false,
			error: expect.stringMatching(/^"Log\.md" is over 1048576 characters, the longest note the write tools change/) as string,
		});
		// The first read goes on to its bound (the size at open + 64 KiB: a few pieces); the grown note's 4.5 MB (70 pieces) is not read.
		expect(piecesAfter).toBeLessThan(Math.ceil((Buffer.byteLength(start) + 64 * 1024) / (64 * 1024)));
		expect(await fs.readFile(note, "utf8")).toBe(start + grown);
	} finally {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}, 60_000);
