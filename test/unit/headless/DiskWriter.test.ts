import * as nodeFs from "node:fs";
import { appendFileSync, linkSync, promises as fs, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import {
	EMPTY_NOTE_SETTLE_MS,
	LATE_APPEND_PIECE_BYTES,
	LATE_APPEND_RECHECK_MS,
	NOTE_TEXT_PIECE_CHARS,
	TRASH_NAMES_PER_PIECE,
	TRUNCATING_NOTE_SETTLE_MS,
} from "../../../src/config/limits";
import { DiskWriter, isBeingRewritten } from "../../../src/headless/DiskWriter";
import { FolderJail } from "../../../src/host/FolderJail";
import { FileOverBytesError } from "../../../src/host/FileOverBytesError";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/** The headless vault's edit on disk: what it writes, and where it never writes. */
describe("DiskWriter.editOnce", () => {
	let root: string;
	let outside: string;
	let writer: DiskWriter;

	beforeEach(async () => {
		root = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n" });
		outside = await makeTempDir("writer-outside-");
		writer = new DiskWriter(await FolderJail.open(root));
	});
	afterEach(async () => {
		await removeDir(root);
		await removeDir(outside);
	});

	test("an append adds the new lines at the end of the note", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		expect(await writer.editOnce(note, (text) => `${text}- two\n`)).not.toBeNull();
		expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one\n- two\n");
	});

	test("a hard link made to the note while the edit is computed (another name, outside the vault) is not appended through", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		const elsewhere = nodePath.join(outside, "copy.md");
		// Another program links the note elsewhere after it was read, before it is written.
		const result = await writer.editOnce(note, (text) => {
			linkSync(note, elsewhere);
			return `${text}- two\n`;
		});
		// Either tried again (null) or written as a new file of its own: the other name keeps the bytes it had.
		if (result !== null) expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one\n- two\n");
		expect(await fs.readFile(elsewhere, "utf8")).toBe("# Plan\n\n- one\n");
	});

	test("a note longer than the edit's refuseOverBytes when opened is refused without being read, and left as it was", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		const edit = jest.fn((text: string) => `${text}- two\n`);
		const refused = writer.editOnce(note, edit, { refuseOverBytes: 13 });
		await expect(refused).rejects.toBeInstanceOf(FileOverBytesError);
		await expect(refused).rejects.toMatchObject({ bytes: 14 });
		expect(edit).not.toHaveBeenCalled();
		// At the bound, read and edited as before.
		expect(await writer.editOnce(note, edit, { refuseOverBytes: 14 })).not.toBeNull();
		expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one\n- two\n");
	});

	test("an edit before the end, while another program adds whole lines at the end, goes in with those lines after it", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		// A logger appends after the note was read, before it is written: before, the edit was only tried again (and lost every race against a 2 ms logger).
		const result = await writer.editOnce(note, (text) => {
			appendFileSync(note, "- logged 1\n- logged 2\n");
			return text.replace("# Plan", "# Plan for May");
		});
		expect(result).toMatchObject({ exact: false });
		expect(await fs.readFile(note, "utf8")).toBe("# Plan for May\n\n- one\n- logged 1\n- logged 2\n");
	});

	test("a line another program writes to the note's old file a moment after the edit replaced it (opened before, descheduled before writing) is carried to the new file", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		// Another program opened the note for appending before the edit's rename, and writes after it: before, that line went to a file no name leads to.
		const logger = nodeFs.openSync(note, "a");
		try {
			expect(await writer.editOnce(note, (text) => text.replace("# Plan", "# Plan for May"))).not.toBeNull();
			nodeFs.writeSync(logger, "- logged late\n");
		} finally {
			nodeFs.closeSync(logger);
		}
		await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS + 100));
		expect(await fs.readFile(note, "utf8")).toBe("# Plan for May\n\n- one\n- logged late\n");
	});

	test("a line another program is still writing at the end, or any other change, and the edit is tried again on the fresh text, writing nothing", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		const halfLine = await writer.editOnce(note, (text) => {
			appendFileSync(note, "- half a li");
			return text.replace("# Plan", "# Plan for May");
		});
		expect(halfLine).toBeNull();
		expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one\n- half a li");
		await fs.writeFile(note, "# Plan\n\n- one\n");
		const rewritten = await writer.editOnce(note, (text) => {
			writeFileSync(note, "# Plan\n\n- one, changed\n- two\n");
			return text.replace("# Plan", "# Plan for May");
		});
		expect(rewritten).toBeNull();
		expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one, changed\n- two\n");
	});
	test("lines another program added at the end are written after the edit as they were checked, never as the file holds them a moment later", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		const before = "# Plan\n\n- one\n";
		const logged = "- log 1\n";
		// Another program rewrites the note in place (truncate, write) just after its added lines were checked
		// as whole lines: its new text ends in half a line at the same place.
		const rewrite = `# PLAN\n\n- one\n${"half lin".slice(0, logged.length)}`;
		const realRead = nodeFs.readSync;
		let checked = 0;
		// The module object itself (the namespace import's properties cannot be redefined).
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		let rewritten = false;
		const spy = jest.spyOn(fsModule, "readSync").mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number, position: number) => {
			if (length === Buffer.byteLength(before) + Buffer.byteLength(logged) && position === 0) checked++;
			else if (checked > 0 && position === Buffer.byteLength(before)) writeFileSync(note, rewrite);
			const got = realRead(fd, buffer, offset, length, position);
			// The added lines read on their own (after the edit was written): the other program rewrites the note just after.
			if (checked === 0 && !rewritten && position === Buffer.byteLength(before) && length === Buffer.byteLength(logged)) {
				rewritten = true;
				writeFileSync(note, rewrite);
			}
			return got;
		}) as typeof nodeFs.readSync);
		let result;
		try {
			result = await writer.editOnce(note, (text) => {
				appendFileSync(note, logged);
				return text.replace("# Plan", "# Plan!");
			});
		} finally {
			spy.mockRestore();
		}
		const text = await fs.readFile(note, "utf8");
		// Never half a line of the other program's new text glued after the edit (the note may hold its text alone: the edit is then tried again).
		expect(text.includes("# Plan!") && text.includes("half lin")).toBe(false);
		if (result !== null) expect(text).toBe(`# Plan!\n\n- one\n${logged}`);
	});

	test("a line appended late to the file an edit replaced goes into the note after a second edit replaced it again", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		let logger = -1;
		// A logger opened the note before the first edit's rename, and writes only after a second edit replaced the note again.
		expect(
			await writer.editOnce(note, (text) => {
				logger = nodeFs.openSync(note, "a");
				return text.replace("# Plan", "# Plan!");
			}),
		).not.toBeNull();
		expect(await writer.editOnce(note, (text) => text.replace("# Plan!", "# Plan!!"))).not.toBeNull();
		nodeFs.writeSync(logger, "- logged\n");
		nodeFs.closeSync(logger);
		await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS * 4));
		expect(await fs.readFile(note, "utf8")).toBe("# Plan!!\n\n- one\n- logged\n");
	});

	/**
	 * An editor's save (a new file renamed over the note) that lands at any step of an edit's write, from the
	 * moment it was computed to its rename: the edit notices (and is made again on the new text), or the save
	 * came after it and holds its text. Before, the note's name was looked at before the bytes, the temporary
	 * name and the rights: a save landing in one of those steps was replaced by the edit, in no file.
	 */
	test("another program's atomic save landing at any step of an edit's last look is never replaced", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		const steps = ["openSync", "readSync", "writeSync", "fstatSync", "lstatSync", "closeSync"] as const;
		let armed = false;
		let step = 0;
		let saveAt = 0;
		let saved = false;
		const realRename = fsModule.renameSync;
		const save = (): void => {
			if (!armed || ++step !== saveAt) return;
			armed = false;
			writeFileSync(`${note}.w`, `${nodeFs.readFileSync(note, "utf8")}- saved ${saveAt}\n`);
			realRename(`${note}.w`, note);
			saved = true;
		};
		// The edit's rename ends the steps looked at: a save after it keeps the edit's text.
		jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
			if (to === note) armed = false;
			else save();
			realRename(from, to);
		});
		for (const name of steps) {
			const real = fsModule[name] as (...args: unknown[]) => unknown;
			jest.spyOn(fsModule, name).mockImplementation(((...args: unknown[]) => {
				save();
				return real(...args);
			}) as never);
		}
		const lost: number[] = [];
		try {
			for (saveAt = 1; saveAt < 100; saveAt++) {
				writeFileSync(note, "# Plan\n\n- one\n");
				step = 0;
				saved = false;
				// Armed once the edit is computed: from then on, the save lands just before the edit's saveAt-th step.
				const result = await writer.editOnce(note, (text) => ((armed = true), text.replace("# Plan", "# Plan!")), { beforeWrite: save });
				armed = false;
				if (!saved) {
					expect(result).not.toBeNull();
					break;
				}
				if (!nodeFs.readFileSync(note, "utf8").includes(`- saved ${saveAt}\n`)) lost.push(saveAt);
			}
		} finally {
			jest.restoreAllMocks();
		}
		// The steps of a write were all passed through (the last one tried wrote without a save).
		expect(saved).toBe(false);
		expect(saveAt).toBeGreaterThan(5);
		expect(lost).toEqual([]);
	});

	/**
	 * Another program moves the note's folder out of the vault and puts a link to it in its place while the edit
	 * waits, just before its rename, for any rename under way in that folder to finish (milliseconds beside an
	 * editor's save of a long note). The folder is looked at after that wait: the edit goes nowhere outside.
	 */
	test("a folder swapped for a link out of the vault while the edit waits for the folder's renames is not written through", async () => {
		const folder = nodePath.join(root, "Notes");
		const movedOut = nodePath.join(outside, "Notes");
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		const realRename = fsModule.renameSync;
		let swapped = false;
		jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
			// A rename of a name onto itself in the note's folder: the edit's wait for the renames under way there.
			if (!swapped && from === to && nodePath.dirname(String(from)) === folder) {
				realRename(folder, movedOut);
				nodeFs.symlinkSync(movedOut, folder);
				swapped = true;
			}
			realRename(from, to);
		});
		let result: unknown;
		try {
			result = await writer.editOnce(nodePath.join(folder, "Plan.md"), (text) => text.replace("# Plan", "# Plan!"));
		} catch (error) {
			result = error;
		} finally {
			jest.restoreAllMocks();
		}
		expect(swapped).toBe(true);
		expect(result === null || result instanceof Error).toBe(true);
		expect(await fs.readFile(nodePath.join(movedOut, "Plan.md"), "utf8")).toBe("# Plan\n\n- one\n");
		// Nor is the new text left beside it there.
		expect(await fs.readdir(movedOut)).toEqual(["Plan.md"]);
	});
});

/** Waits until `done` holds, looking every few milliseconds, for at most `ms`. */
async function until(done: () => Promise<boolean>, ms = 10_000): Promise<void> {
	for (const end = Date.now() + ms; !(await done()) && Date.now() < end;) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A pause that gives the event loop back, counting how much work of a kind ran between two pauses (the most in one piece). */
function piecesCounted(): { pause: () => Promise<void>; add: (amount: number) => void; most: () => number; pauses: () => number } {
	let current = 0;
	let most = 0;
	let pauses = 0;
	return {
		pause: () => {
			most = Math.max(most, current);
			current = 0;
			pauses++;
			return new Promise((resolve) => setImmediate(resolve));
		},
		add: (amount) => {
			current += amount;
		},
		most: () => Math.max(most, current),
		pauses: () => pauses,
	};
}

/** The headless vault's edit of a long note holds the server a bounded piece at a time. */
describe("DiskWriter.editOnce on long notes", () => {
	let root: string;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
	const fsModule = require("node:fs") as typeof nodeFs;

	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(root);
	});

	test("a megabyte note is read, decoded, made into bytes and written a piece at a time, by an edit that replaces it and by an append", async () => {
		// Two-, three- and four-byte characters, so pieces are cut inside characters.
		const line = "- [ ] é€😀 water the plants 📅 2025-01-01\n";
		const body = `# Big\n\n${line.repeat(Math.ceil(1_000_000 / Buffer.byteLength(line)))}`;
		root = await makeVault({ "Big.md": body });
		const note = nodePath.join(root, "Big.md");
		const counted = piecesCounted();
		const writer = new DiskWriter(await FolderJail.open(root), counted.pause);
		// Characters decoded from bytes, or made into bytes, between two pauses. Before: the whole note in one piece.
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the buffer as `this`
		const realToString = (Buffer.prototype as Buffer).toString as (this: Buffer, encoding?: string, start?: number, end?: number) => string;
		jest.spyOn(Buffer.prototype as Buffer, "toString").mockImplementation(function (this: Buffer, ...args: unknown[]) {
			const [encoding, start, end] = args as [string | undefined, number | undefined, number | undefined];
			if (encoding === "utf8") counted.add(Math.min(end ?? this.length, this.length) - (start ?? 0));
			return realToString.call(this, encoding, start, end);
		});
		const realFrom = Buffer.from.bind(Buffer) as (value: unknown, encoding?: string) => Buffer;
		jest.spyOn(Buffer, "from").mockImplementation(((value: unknown, encoding?: string) => {
			if (typeof value === "string") counted.add(value.length);
			return realFrom(value, encoding);
		}) as typeof Buffer.from);
		const replaced = await writer.editOnce(note, (text) => text.replace("# Big", "# Bigger"));
		const appended = await writer.editOnce(note, (text) => `${text}- [ ] one more\n`);
		jest.restoreAllMocks();
		expect(replaced).toMatchObject({ exact: true });
		expect(appended).toMatchObject({ exact: true });
		expect(await fs.readFile(note, "utf8")).toBe(`${body.replace("# Big", "# Bigger")}- [ ] one more\n`);
		// At most the last piece read and the first piece written in one piece.
		expect(counted.most()).toBeLessThanOrEqual(2 * NOTE_TEXT_PIECE_CHARS);
		expect(counted.pauses()).toBeGreaterThanOrEqual(Buffer.byteLength(body) / NOTE_TEXT_PIECE_CHARS);
	});

	test("a note of one piece is edited without a pause (a rename's thousand small notes take no more turns)", async () => {
		root = await makeVault({ "Small.md": "# Small\n\n- one\n" });
		const counted = piecesCounted();
		const writer = new DiskWriter(await FolderJail.open(root), counted.pause);
		expect(await writer.editOnce(nodePath.join(root, "Small.md"), (text) => text.replace("# Small", "# Smaller"))).not.toBeNull();
		expect(await writer.editOnce(nodePath.join(root, "Small.md"), (text) => `${text}- two\n`)).not.toBeNull();
		expect(counted.pauses()).toBe(0);
		expect(await fs.readFile(nodePath.join(root, "Small.md"), "utf8")).toBe("# Smaller\n\n- one\n- two\n");
	});

	/** Bytes read between two pauses while megabytes appended to the replaced file are carried over. */
	function countReads(counted: ReturnType<typeof piecesCounted>): void {
		const realRead = fsModule.readSync;
		jest.spyOn(fsModule, "readSync").mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number, position: number) => {
			const got = realRead(fd, buffer, offset, length, position);
			counted.add(got);
			return got;
		}) as typeof nodeFs.readSync);
	}

	test("megabytes another program writes to the note's old file a moment after the edit replaced it are carried over a piece at a time, none lost", async () => {
		const before = "# Log\n\n- start\n";
		root = await makeVault({ "Log.md": before });
		const note = nodePath.join(root, "Log.md");
		const counted = piecesCounted();
		const writer = new DiskWriter(await FolderJail.open(root), counted.pause);
		const late = Array.from({ length: 60_000 }, (_, index) => `- line ${index} written late\n`).join("");
		// Opened for appending before the edit's rename, written after it: the bytes go to the file no name leads to.
		const logger = nodeFs.openSync(note, "a");
		try {
			expect(await writer.editOnce(note, (text) => text.replace("# Log", "# Log of May"))).not.toBeNull();
			countReads(counted);
			nodeFs.writeSync(logger, late);
		} finally {
			nodeFs.closeSync(logger);
		}
		const expected = `# Log of May\n\n- start\n${late}`;
		await until(async () => (await fs.stat(note)).size >= Buffer.byteLength(expected));
		await new Promise((resolve) => setTimeout(resolve, 50));
		jest.restoreAllMocks();
		expect(await fs.readFile(note, "utf8")).toBe(expected);
		// Before: the whole 1.6 MB read in one piece.
		// A piece read, and the piece carried before it compared again (the old file may have been rewritten in place meanwhile).
		expect(counted.most()).toBeLessThanOrEqual(2 * LATE_APPEND_PIECE_BYTES + Buffer.byteLength(before) + 1);
	});

	test("megabytes another program appends to the old file in the instant before the rename are carried over, the first piece at once and the rest a piece at a time", async () => {
		const before = "# Log\n\n- start\n";
		root = await makeVault({ "Log.md": before });
		const note = nodePath.join(root, "Log.md");
		const counted = piecesCounted();
		const writer = new DiskWriter(await FolderJail.open(root), counted.pause);
		const late = Array.from({ length: 60_000 }, (_, index) => `- line ${index} appended at the rename\n`).join("");
		const realRename = fsModule.renameSync;
		jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
			// After the last look, before the rename over the note: another program appends to it.
			if (to === note) {
				appendFileSync(note, late);
				countReads(counted);
			}
			realRename(from, to);
		});
		const result = await writer.editOnce(note, (text) => text.replace("# Log", "# Log of May"));
		expect(result).toMatchObject({ exact: false });
		const expected = `# Log of May\n\n- start\n${late}`;
		// The first piece is in the note when the edit returns.
		expect((await fs.readFile(note, "utf8")).startsWith(`# Log of May\n\n- start\n${late.slice(0, 1000)}`)).toBe(true);
		await until(async () => (await fs.stat(note)).size >= Buffer.byteLength(expected));
		await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS + 50));
		jest.restoreAllMocks();
		expect(await fs.readFile(note, "utf8")).toBe(expected);
		// A piece read, and the piece carried before it compared again (the old file may have been rewritten in place meanwhile).
		expect(counted.most()).toBeLessThanOrEqual(2 * LATE_APPEND_PIECE_BYTES + Buffer.byteLength(before) + 1);
	});
	/**
	 * Another program appends faster than the edit reads (`yes >> note.md`): here 256 KiB of whole lines
	 * between any two pieces. Before, the read chased the file's end for as long as it grew (stopped
	 * here after 2,000 pieces): the note's write lock held and memory growing. Now it stops at the
	 * growth bound: an append goes in after the lines added meanwhile, and an edit that replaces the
	 * note is made again on the fresh text; the other program's lines are all there, in order, either way.
	 */
	test("an edit beside a program appending faster than the note is read ends, and every line the other program added is kept", async () => {
		const start = "# Log\n\n" + "- é€😀 entry\n".repeat(20_000);
		root = await makeVault({ "Log.md": start });
		const note = nodePath.join(root, "Log.md");
		let written = 0;
		let pauses = 0;
		const appender = (): Promise<void> => {
			if (++pauses > 2_000) throw new Error("still reading");
			let lines = "";
			for (let index = 0; index < 8_192; index++) lines += `- outside ${written++}\n`;
			appendFileSync(note, lines);
			return new Promise((resolve) => setImmediate(resolve));
		};
		const writer = new DiskWriter(await FolderJail.open(root), appender);
		const appended = await writer.editOnce(note, (text) => `${text}- mine\n`);
		expect(appended).toMatchObject({ exact: false });
		const replaced = await writer.editOnce(note, (text) => text.replace("# Log", "# Log of May"));
		// More than a piece of lines added since the read: made again on the fresh text (by the vault's retries), nothing written.
		expect(replaced).toBeNull();
		expect(pauses).toBeLessThan(100);
		const onDisk = await fs.readFile(note, "utf8");
		expect(onDisk.startsWith(start)).toBe(true);
		const outside = Array.from({ length: written }, (_, index) => `- outside ${index}\n`).join("");
		// Ours once, after whole lines of the other program's; the other program's lines all there, in order.
		expect(onDisk.split("- mine\n")).toHaveLength(2);
		expect(onDisk.replace("- mine\n", "")).toBe(start + outside);
	});
});

describe("isBeingRewritten: a note read empty", () => {
	/** A file's stats as the tests need them: changed `ageMs` ago, born `bornBeforeChangeMs` before that. */
	const statsOf = (fields: { size: number; blocks: number; ageMs: number; bornBeforeChangeMs: number; ino?: number }): nodeFs.Stats => {
		const mtimeMs = Date.now() - fields.ageMs;
		return Object.assign(nodeFs.statSync(process.cwd()), {
			dev: 1,
			ino: fields.ino ?? 7,
			mode: 0o100644,
			size: fields.size,
			blocks: fields.blocks,
			mtimeMs,
			ctimeMs: mtimeMs,
			birthtimeMs: mtimeMs - fields.bornBeforeChangeMs,
		});
	};

	test("0 bytes still holding blocks (a truncation the file system has not finished) is being rewritten past EMPTY_NOTE_SETTLE_MS, up to TRUNCATING_NOTE_SETTLE_MS", () => {
		const ageMs = (EMPTY_NOTE_SETTLE_MS + TRUNCATING_NOTE_SETTLE_MS) / 2;
		expect(isBeingRewritten(statsOf({ size: 0, blocks: 8, ageMs, bornBeforeChangeMs: 5_000 }))).toBe(true);
		// Its blocks let go, or changed longer ago: taken as emptied.
		expect(isBeingRewritten(statsOf({ size: 0, blocks: 0, ageMs, bornBeforeChangeMs: 5_000 }))).toBe(false);
		expect(isBeingRewritten(statsOf({ size: 0, blocks: 8, ageMs: TRUNCATING_NOTE_SETTLE_MS * 2, bornBeforeChangeMs: 5_000 }))).toBe(false);
		// Read empty, but bytes there now: the blocks are the new text's, and only the time since the change counts.
		expect(isBeingRewritten(statsOf({ size: 120, blocks: 8, ageMs, bornBeforeChangeMs: 5_000 }))).toBe(false);
	});

	test("changed within a clock tick of its birth: made empty and never written, unless it is the file this vault's edit wrote with text", () => {
		const truncated = statsOf({ size: 0, blocks: 0, ageMs: 10, bornBeforeChangeMs: 0 });
		expect(isBeingRewritten(truncated)).toBe(false);
		const ours = statsOf({ size: 2_000, blocks: 8, ageMs: 10, bornBeforeChangeMs: 0 });
		expect(isBeingRewritten(truncated, 0, ours)).toBe(true);
		// Another file than ours: made empty.
		expect(isBeingRewritten(truncated, 0, statsOf({ size: 2_000, blocks: 8, ageMs: 10, bornBeforeChangeMs: 0, ino: 8 }))).toBe(false);
	});
});

describe("DiskWriter.trash beside many notes of its name in the trash", () => {
	let root: string;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
	const fsModule = require("node:fs") as typeof nodeFs;

	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(root);
	});

	test("the names taken are tried a piece at a time, the event loop given back between pieces; none of them replaced", async () => {
		const taken = 3 * TRASH_NAMES_PER_PIECE + 7;
		const inTrash = Object.fromEntries(
			Array.from({ length: taken }, (_, index) => [`.trash/Plan${index === 0 ? "" : ` ${index}`}.md`, `trashed ${index}\n`]),
		);
		root = await makeVault({ "Notes/Plan.md": "the plan\n", ...inTrash });
		let triedSincePause = 0;
		let mostTriedInOnePiece = 0;
		const writer = new DiskWriter(await FolderJail.open(root), () => {
			triedSincePause = 0;
			return Promise.resolve();
		});
		const realOpenSync = fsModule.openSync.bind(fsModule) as (...args: unknown[]) => number;
		jest.spyOn(fsModule, "openSync").mockImplementation((...args: unknown[]) => {
			// A name tried in the trash: an exclusive create of "Plan….md".
			if (typeof args[0] === "string" && nodePath.basename(args[0]).startsWith("Plan") && ((args[1] as number) & nodeFs.constants.O_EXCL) !== 0)
				mostTriedInOnePiece = Math.max(mostTriedInOnePiece, ++triedSincePause);
			return realOpenSync(...args);
		});
		await writer.trash(nodePath.join(root, "Notes/Plan.md"), nodePath.join(root, ".trash"), "Plan", "md");
		jest.restoreAllMocks();
		// Before: all 158 names tried in one piece of the event loop (3,000 names: 121-141 ms of CPU).
		expect(mostTriedInOnePiece).toBeLessThanOrEqual(TRASH_NAMES_PER_PIECE);
		expect(await fs.readFile(nodePath.join(root, `.trash/Plan ${taken}.md`), "utf8")).toBe("the plan\n");
		for (const [path, text] of Object.entries(inTrash)) expect(await fs.readFile(nodePath.join(root, path), "utf8")).toBe(text);
		expect(nodeFs.existsSync(nodePath.join(root, "Notes/Plan.md"))).toBe(false);
	});
});

/**
 * A trash or a move opens the note first, then makes the folders it needs (through the thread pool),
 * then moves it: another program saving the note by rename in between puts another file at its name.
 * That file is not the one the call opened: it is left where it is, nothing moved or made.
 */
describe("DiskWriter.trash and move when another program replaces the note after it was opened", () => {
	let root: string;
	let jail: FolderJail;
	let writer: DiskWriter;
	const plan = () => nodePath.join(root, "Notes/Plan.md");

	beforeEach(async () => {
		root = await makeVault({ "Notes/Plan.md": "the plan\n" });
		jail = await FolderJail.open(root);
		writer = new DiskWriter(jail);
		// The moment between the call's open and its act: the folders made for the move. There the other program saves.
		const makeFolders = jail.makeFolders.bind(jail);
		jest.spyOn(jail, "makeFolders").mockImplementation(async (folder: string) => {
			writeFileSync(`${plan()}.saving`, "the other program's plan\n");
			nodeFs.renameSync(`${plan()}.saving`, plan());
			await makeFolders(folder);
		});
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(root);
	});

	test("trash refuses, saying the note changed; the other program's file stays at its name and nothing is left in the trash", async () => {
		await expect(writer.trash(plan(), nodePath.join(root, ".trash"), "Plan", "md")).rejects.toThrow(
			"The note changed while it was being moved to the trash (another program replaced it), so nothing was moved.",
		);
		expect(await fs.readFile(plan(), "utf8")).toBe("the other program's plan\n");
		expect(await fs.readdir(nodePath.join(root, ".trash"))).toEqual([]);
	});

	test("move refuses, saying the note changed; the other program's file stays at its name and nothing is made at the new one", async () => {
		await expect(writer.move(plan(), nodePath.join(root, "Archive/Plan.md"))).rejects.toThrow(
			"The note changed while it was being moved (another program replaced it), so nothing was moved.",
		);
		expect(await fs.readFile(plan(), "utf8")).toBe("the other program's plan\n");
		expect(nodeFs.existsSync(nodePath.join(root, "Archive/Plan.md"))).toBe(false);
	});
});

/**
 * The caller read the note before the trash or move opened it (undo's look at a created note, a rename's read): given
 * that text, a file that holds another by the open (another program's save by rename, or an edit, since the read) is
 * left where it is; one that holds it, read as the vault reads (in pieces, bytes that are not UTF-8 as U+FFFD), moves.
 */
describe("DiskWriter.trash and move given the text the caller read", () => {
	let root: string;
	let writer: DiskWriter;
	const plan = () => nodePath.join(root, "Notes/Plan.md");

	beforeEach(async () => {
		root = await makeVault({ "Notes/Plan.md": "the other program's plan\n" });
		writer = new DiskWriter(await FolderJail.open(root));
	});
	afterEach(async () => {
		await removeDir(root);
	});

	test("trash of a note that no longer holds the text read: refused, the note where it was, nothing in the trash", async () => {
		await expect(writer.trash(plan(), nodePath.join(root, ".trash"), "Plan", "md", "the plan\n")).rejects.toThrow(
			"The note changed while it was being moved to the trash (another program replaced it), so nothing was moved.",
		);
		expect(await fs.readFile(plan(), "utf8")).toBe("the other program's plan\n");
		expect(nodeFs.existsSync(nodePath.join(root, ".trash/Plan.md"))).toBe(false);
	});

	test("move of a note that no longer holds the text read: refused, the note where it was, nothing at the new name", async () => {
		await expect(writer.move(plan(), nodePath.join(root, "Archive/Plan.md"), "the plan\n")).rejects.toThrow(
			"The note changed while it was being moved (another program replaced it), so nothing was moved.",
		);
		expect(await fs.readFile(plan(), "utf8")).toBe("the other program's plan\n");
		expect(nodeFs.existsSync(nodePath.join(root, "Archive/Plan.md"))).toBe(false);
	});

	test("a note of several pieces holding the text read, a byte that is not UTF-8 in it, is moved and then trashed", async () => {
		const bytes = Buffer.concat([Buffer.from("a".repeat(NOTE_TEXT_PIECE_CHARS * 2)), Buffer.from([0xff]), Buffer.from("end\n")]);
		writeFileSync(plan(), bytes);
		const text = bytes.toString("utf8");
		await writer.move(plan(), nodePath.join(root, "Archive/Plan.md"), text);
		await writer.trash(nodePath.join(root, "Archive/Plan.md"), nodePath.join(root, ".trash"), "Plan", "md", text);
		expect(await fs.readFile(nodePath.join(root, ".trash/Plan.md"))).toEqual(bytes);
		expect(nodeFs.existsSync(plan())).toBe(false);
	});
});

/**
 * Another program deletes the note between a trash's or a move's open and its act (while the folders it needs are made):
 * the call is refused as a note gone (the code tools answer "That note is gone"), named by its vault path only, and
 * nothing is made in the trash or at the new name.
 */
describe("DiskWriter.trash and move when another program deletes the note after it was opened", () => {
	let root: string;
	let jail: FolderJail;
	let writer: DiskWriter;
	const plan = () => nodePath.join(root, "Notes/Plan.md");

	beforeEach(async () => {
		root = await makeVault({ "Notes/Plan.md": "the plan\n" });
		jail = await FolderJail.open(root);
		writer = new DiskWriter(jail);
		const makeFolders = jail.makeFolders.bind(jail);
		jest.spyOn(jail, "makeFolders").mockImplementation(async (folder: string) => {
			nodeFs.rmSync(plan());
			await makeFolders(folder);
		});
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(root);
	});

	test("trash refuses as gone, by the note's vault path; nothing is left in the trash", async () => {
		const refused = writer.trash(plan(), nodePath.join(root, ".trash"), "Plan", "md");
		await expect(refused).rejects.toMatchObject({ code: "ENOENT", message: "File does not exist: Notes/Plan.md" });
		expect(await fs.readdir(nodePath.join(root, ".trash"))).toEqual([]);
	});

	test("move refuses as gone, by the note's vault path; nothing is made at the new name", async () => {
		await expect(writer.move(plan(), nodePath.join(root, "Archive/Plan.md"))).rejects.toMatchObject({
			code: "ENOENT",
			message: "File does not exist: Notes/Plan.md",
		});
		expect(await fs.readdir(nodePath.join(root, "Archive"))).toEqual([]);
	});
});

/**
 * A move takes the new name with a hard link, then removes the old name: another program's save by rename can land at
 * the old name between the last look and the link (the link then names that program's file), or between the link and
 * the removal of the old name (the removal then removed that program's save). Either way the move is refused, the name
 * it made taken back, and that program's file stays at the old name, as if it had saved just before the move.
 */
describe("DiskWriter.move when another program saves the note by rename at the moment of the link", () => {
	let root: string;
	let writer: DiskWriter;
	const plan = () => nodePath.join(root, "Notes/Plan.md");
	const archived = () => nodePath.join(root, "Archive/Plan.md");
	const otherSave = () => {
		writeFileSync(`${plan()}.saving`, "the other program's plan\n");
		nodeFs.renameSync(`${plan()}.saving`, plan());
	};
	/** The real link, with the other program's save just before or just after it (the first link only). */
	const saveAtLink = (when: "before" | "after") => {
		const actualFs = jest.requireActual<typeof nodeFs>("node:fs");
		const link = actualFs.linkSync;
		let saved = false;
		jest.spyOn(actualFs, "linkSync").mockImplementation((existing: nodeFs.PathLike, made: nodeFs.PathLike) => {
			if (!saved && when === "before") otherSave();
			link(existing, made);
			if (!saved && when === "after") otherSave();
			saved = true;
		});
	};

	beforeEach(async () => {
		root = await makeVault({ "Notes/Plan.md": "the plan\n", "Archive/Other.md": "other\n" });
		writer = new DiskWriter(await FolderJail.open(root));
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(root);
	});

	test.each(["before", "after"] as const)(
		"saved just %s the link: refused, the other program's file at the old name, nothing at the new one",
		async (when) => {
			saveAtLink(when);
			await expect(writer.move(plan(), archived())).rejects.toThrow(
				"The note changed while it was being moved (another program replaced it), so nothing was moved.",
			);
			expect(await fs.readFile(plan(), "utf8")).toBe("the other program's plan\n");
			expect(nodeFs.existsSync(archived())).toBe(false);
			expect((await fs.lstat(plan())).nlink).toBe(1);
			expect((await fs.readdir(nodePath.join(root, "Archive"))).sort()).toEqual(["Other.md"]);
		},
	);

	test("with no save at the link the move is made through the link watched above: the note at the new name only, one link", async () => {
		const actualFs = jest.requireActual<typeof nodeFs>("node:fs");
		const links = jest.spyOn(actualFs, "linkSync");
		await writer.move(plan(), archived());
		expect(links).toHaveBeenCalledTimes(1);
		expect(await fs.readFile(archived(), "utf8")).toBe("the plan\n");
		expect(nodeFs.existsSync(plan())).toBe(false);
		expect((await fs.lstat(archived())).nlink).toBe(1);
	});
});
