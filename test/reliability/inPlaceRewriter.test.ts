import { execFileSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { EMPTY_NOTE_SETTLE_MS, EMPTY_PLAN_READ_POLL_MS, EMPTY_PLAN_READ_WAIT_MS, LATE_APPEND_RECHECK_MS } from "../../src/config/limits";
import { copyNameBeside } from "../../src/vault/copyName";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/**
 * Another program keeps a log note by reading it and writing it back with one line more, in place
 * (`fs.writeFileSync`: truncate, then write). A headless edit replaces the note with a new file
 * (temporary file, rename). A cycle of the other program that opened the note just before that
 * rename writes its line into the replaced file, and its next cycle reads the new one: the line is
 * then only in the replaced file. The server copies it into the note, but a copy that lands between
 * the other program's read and its truncation is written over. Each test plays one such interleaving
 * exactly, through `renameSync` (or a descriptor held between the truncation and the write); every
 * line the other program wrote must still be in the vault, and an edit acknowledged in the note.
 */

const LOG = "# Log\noutside-0\n";

/** Every file's text in the vault's top folder (the note and anything kept beside it), by name. */
async function topFiles(vault: string): Promise<Map<string, string>> {
	const texts = new Map<string, string>();
	for (const entry of await fs.readdir(vault, { withFileTypes: true }))
		if (entry.isFile()) texts.set(entry.name, await fs.readFile(nodePath.join(vault, entry.name), "utf8"));
	return texts;
}

/**
 * Runs one `set_property` of `Log.md` while `interleave` plays the other program around the edit's
 * rename (`rename` does it), then `after` once the call is answered; returns the answer and the files.
 */
async function beside(
	interleave: (parts: { note: string; rename: () => void }) => void,
	after: (note: string) => Promise<void>,
	noteMode = 0o644,
): Promise<{ ok: boolean; files: Map<string, string> }> {
	const vault = await makeVault({ "Log.md": LOG });
	await fs.chmod(nodePath.join(vault, "Log.md"), noteMode);
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	const root = running.host.vault.root;
	const note = nodePath.join(root, "Log.md");
	const originalRename = nodeFs.renameSync;
	let played = false;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
	const fsModule = require("node:fs") as typeof nodeFs;
	const spy = jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
		if (played || to !== note) return originalRename(from, to);
		played = true;
		interleave({ note, rename: () => originalRename(from, to) });
	});
	try {
		const answer = await callTool(client, "set_property", { path: "Log.md", name: "status", value: "done" });
		expect(played).toBe(true);
		await after(note);
		return { ok: answer.ok, files: await topFiles(root) };
	} finally {
		spy.mockRestore();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}

/** The numbers of the other program's lines found anywhere in `files`. */
function outsideLines(files: Map<string, string>): Set<number> {
	const found = new Set<number>();
	for (const text of files.values()) for (const match of text.matchAll(/^outside-(\d+)$/gmu)) found.add(Number(match[1]));
	return found;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("set_property beside a program that rewrites the note in place", () => {
	test("its line written to the replaced file, and the copy of it in the note written over by its next cycle: the line is kept beside the note", async () => {
		let nextRead = "";
		const { ok, files } = await beside(
			({ note, rename }) => {
				// A cycle of the other program opens the note (truncating it) in the instant between the server's last look and its rename…
				const replaced = nodeFs.openSync(note, "w");
				rename();
				// …writes its line into the file just replaced, and its next cycle reads the note as the rename left it.
				nodeFs.writeSync(replaced, `${LOG}outside-1\n`);
				nodeFs.closeSync(replaced);
				nextRead = nodeFs.readFileSync(note, "utf8");
			},
			async (note) => {
				// That cycle writes back what it read, one line more, over whatever the server added in the meantime.
				nodeFs.writeFileSync(note, `${nextRead}outside-2\n`);
				await pause(LATE_APPEND_RECHECK_MS * 4);
			},
		);
		expect(ok).toBe(true);
		expect([...outsideLines(files)].sort()).toEqual([0, 1, 2]);
		// The other program's own version of the note, whole, in a file of its own beside it.
		expect([...files.entries()].filter(([name]) => name !== "Log.md").map(([, text]) => text)).toEqual([`${LOG}outside-1\n`]);
	});

	test("it truncated the replaced file and wrote its line there only after the late re-check: the line is kept beside the note", async () => {
		let replaced = -1;
		const { ok, files } = await beside(
			({ note, rename }) => {
				replaced = nodeFs.openSync(note, "w");
				rename();
			},
			async (note) => {
				// Descheduled between its truncation and its write for longer than the server's late re-check.
				await pause(LATE_APPEND_RECHECK_MS * 2);
				nodeFs.writeSync(replaced, `${LOG}outside-1\n`);
				nodeFs.closeSync(replaced);
				nodeFs.writeFileSync(note, `${nodeFs.readFileSync(note, "utf8")}outside-2\n`);
				await pause(LATE_APPEND_RECHECK_MS * 4);
			},
		);
		expect(ok).toBe(true);
		expect([...outsideLines(files)].sort()).toEqual([0, 1, 2]);
	});

	test("the note found empty a moment after another program truncated it: the edit waits for its text and is made on it, not on the empty file", async () => {
		const vault = await makeVault({ "Log.md": LOG });
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		const note = nodePath.join(running.host.vault.root, "Log.md");
		try {
			// Truncated just before the call; its text written back EMPTY_NOTE_SETTLE_MS / 4 later.
			const truncated = nodeFs.openSync(note, "w");
			const written = pause(EMPTY_NOTE_SETTLE_MS / 4).then(() => {
				nodeFs.writeSync(truncated, `${LOG}outside-1\n`);
				nodeFs.closeSync(truncated);
			});
			const answer = await callTool(client, "set_property", { path: "Log.md", name: "status", value: "done" });
			await written;
			expect(answer.ok).toBe(true);
			// Made on the empty file, the edit's bytes were written over by the other program's text: acknowledged, and gone.
			expect(await fs.readFile(note, "utf8")).toBe(`---\nstatus: done\n---\n${LOG}outside-1\n`);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});

	test("the names the copy would take are links (one out of the vault, one dangling) or a folder: the other program's version is kept under the next free name, and nothing is written through a link", async () => {
		const outside = await makeTempDir("vault-mcp-outside-");
		const outsideFile = nodePath.join(outside, "target.md");
		await fs.writeFile(outsideFile, "outside the vault\n");
		let nextRead = "";
		const planted: string[] = [];
		try {
			const { ok, files } = await beside(
				({ note, rename }) => {
					// Another program took the names the copy of this minute (and the next) would be given, before the server needed them.
					const folder = nodePath.dirname(note);
					for (const time of [new Date(), new Date(Date.now() + 60_000)]) {
						const names = [0, 1, 2].map((number) => copyNameBeside("Log.md", "another program's version", time, number));
						nodeFs.symlinkSync(outsideFile, nodePath.join(folder, names[0] ?? ""));
						nodeFs.symlinkSync(nodePath.join(outside, "missing.md"), nodePath.join(folder, names[1] ?? ""));
						nodeFs.mkdirSync(nodePath.join(folder, names[2] ?? ""));
						planted.push(...names);
					}
					const replaced = nodeFs.openSync(note, "w");
					rename();
					nodeFs.writeSync(replaced, `${LOG}outside-1\n`);
					nodeFs.closeSync(replaced);
					nextRead = nodeFs.readFileSync(note, "utf8");
				},
				async (note) => {
					nodeFs.writeFileSync(note, `${nextRead}outside-2\n`);
					await pause(LATE_APPEND_RECHECK_MS * 4);
				},
			);
			expect(ok).toBe(true);
			// Kept in a plain file of its own, under a name nobody had taken.
			expect([...outsideLines(files)].sort()).toEqual([0, 1, 2]);
			expect([...files.entries()].filter(([name]) => name !== "Log.md" && !planted.includes(name)).map(([, text]) => text)).toEqual([
				`${LOG}outside-1\n`,
			]);
			expect(await fs.readFile(outsideFile, "utf8")).toBe("outside the vault\n");
			expect(await fs.readdir(outside)).toEqual(["target.md"]);
		} finally {
			await removeDir(outside);
		}
	});

	test("a note only its owner may read: the copy of the other program's version is as private", async () => {
		let nextRead = "";
		let modes: number[] = [];
		const { ok, files } = await beside(
			({ note, rename }) => {
				const replaced = nodeFs.openSync(note, "w");
				rename();
				nodeFs.writeSync(replaced, `${LOG}outside-1\n`);
				nodeFs.closeSync(replaced);
				nextRead = nodeFs.readFileSync(note, "utf8");
			},
			async (note) => {
				nodeFs.writeFileSync(note, `${nextRead}outside-2\n`);
				await pause(LATE_APPEND_RECHECK_MS * 4);
				const folder = nodePath.dirname(note);
				modes = nodeFs
					.readdirSync(folder, { withFileTypes: true })
					.filter((entry) => entry.isFile())
					.map((entry) => nodeFs.statSync(nodePath.join(folder, entry.name)).mode & 0o777);
			},
			0o600,
		);
		expect(ok).toBe(true);
		expect(files.size).toBe(2);
		expect(modes).toEqual([0o600, 0o600]);
	});

	test("the person moves the note away right after its line went to the replaced file: the line is kept beside where the note was", async () => {
		let movedText = "";
		const { ok, files } = await beside(
			({ note, rename }) => {
				const replaced = nodeFs.openSync(note, "w");
				rename();
				nodeFs.writeSync(replaced, `${LOG}outside-1\n`);
				nodeFs.closeSync(replaced);
				// Before the server's late look at the replaced file: nothing is then where its lines would be carried.
				nodeFs.mkdirSync(nodePath.join(nodePath.dirname(note), "Archive"));
				nodeFs.renameSync(note, nodePath.join(nodePath.dirname(note), "Archive", "Log.md"));
			},
			async (note) => {
				await pause(LATE_APPEND_RECHECK_MS * 4);
				movedText = nodeFs.readFileSync(nodePath.join(nodePath.dirname(note), "Archive", "Log.md"), "utf8");
			},
		);
		expect(ok).toBe(true);
		expect(movedText).toBe(`---\nstatus: done\n---\n${LOG}`);
		// Before: outside-1 in no file (the late carry found no note, and the copy was never made).
		expect([...files.values()]).toEqual([`${LOG}outside-1\n`]);
	});

	test("the person moves the note away and another program makes a note of that name: the lines appended late to the replaced file are kept beside it, not appended to that other note", async () => {
		let unrelated = "";
		const { ok, files } = await beside(
			({ note, rename }) => {
				// A logger that opened the note just before the rename appends its line to the file replaced…
				const replaced = nodeFs.openSync(note, "a");
				rename();
				nodeFs.writeSync(replaced, "outside-1\n");
				nodeFs.closeSync(replaced);
				// …and before the server carries it over, the person moves the note away and another program makes a new note there.
				nodeFs.mkdirSync(nodePath.join(nodePath.dirname(note), "Archive"));
				nodeFs.renameSync(note, nodePath.join(nodePath.dirname(note), "Archive", "Log.md"));
				nodeFs.writeFileSync(note, "an unrelated note\n");
			},
			async (note) => {
				await pause(LATE_APPEND_RECHECK_MS * 4);
				unrelated = nodeFs.readFileSync(note, "utf8");
			},
		);
		expect(ok).toBe(true);
		// Before: "an unrelated note\noutside-1\n".
		expect(unrelated).toBe("an unrelated note\n");
		expect([...files.entries()].filter(([name]) => name !== "Log.md").map(([, text]) => text)).toEqual([`${LOG}outside-1\n`]);
	});

	/**
	 * One set_property of `Log.md` while the other program's rewrite of it (truncate, then one write of
	 * its text with lines added) is half done: the kernel has put its first `shown` bytes in place (a
	 * page, a folio: a file's end moves in those steps while one write is under way), the rest comes
	 * EMPTY_NOTE_SETTLE_MS / 4 later, or as the server renames if that comes first. `when`: before the
	 * server's read (its plan was made on the note before), or between its read and its last look.
	 * The other program's next cycle then reads the note as the rename left it and writes it back with
	 * one line more (over whatever the server carried into it meanwhile); the note's text is returned.
	 */
	async function editDuringHalfDoneWrite(before: string, rewritten: string, shown: number, when: "read" | "look"): Promise<string> {
		const vault = await makeVault({ "Log.md": before });
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		const note = nodePath.join(running.host.vault.root, "Log.md");
		let writing = -1;
		let timer: NodeJS.Timeout | undefined;
		const start = () => {
			if (timer !== undefined) return;
			writing = nodeFs.openSync(note, "w");
			nodeFs.writeSync(writing, rewritten.slice(0, shown));
			timer = setTimeout(finish, EMPTY_NOTE_SETTLE_MS / 4);
		};
		const finish = () => {
			if (writing === -1) return;
			nodeFs.writeSync(writing, rewritten.slice(shown));
			nodeFs.closeSync(writing);
			writing = -1;
		};
		const vaultHost = running.host.vault;
		const process = vaultHost.process.bind(vaultHost);
		const processSpy = jest.spyOn(vaultHost, "process").mockImplementation((file, fn, options) => {
			if (file.path !== "Log.md") return process(file, fn, options);
			if (when === "read") start();
			// The edit's function runs between the read and the last look.
			return process(
				file,
				(data) => {
					if (when === "look") start();
					return fn(data);
				},
				options,
			);
		});
		const originalRename = nodeFs.renameSync;
		let nextRead = "";
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		const spy = jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
			originalRename(from, to);
			if (to !== note || nextRead !== "") return;
			finish();
			nextRead = nodeFs.readFileSync(note, "utf8");
		});
		try {
			const answer = await callTool(client, "set_property", { path: "Log.md", name: "status", value: "done" });
			expect(answer.ok).toBe(true);
			expect(timer).toBeDefined();
			nodeFs.writeFileSync(note, `${nextRead}outside-next\n`);
			await pause(LATE_APPEND_RECHECK_MS * 4);
			return await fs.readFile(note, "utf8");
		} finally {
			clearTimeout(timer);
			finish();
			spy.mockRestore();
			processSpy.mockRestore();
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	}

	/** `# The log` and the other program's lines `from` to `to` (not included): its first 4,096 bytes end inside a line, its first 8,192 after one. */
	const logLines = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => `outside-${from + index}\n`).join("");
	const PAGE = 4096;

	test("the note read while the other program's write of it is half done (its first page on disk): the edit waits for the rest, and none of that program's lines is cut", async () => {
		const before = `# The log\n${logLines(0, 600)}`;
		const rewritten = `${before}outside-600\n`;
		expect(rewritten[PAGE - 1]).not.toBe("\n");
		const text = await editDuringHalfDoneWrite(before, rewritten, PAGE, "read");
		// Made on the first page, the edit cut the note inside line outside-349: the rest was only in a copy, and the next line was written onto half a line.
		expect(text).toBe(`---\nstatus: done\n---\n${rewritten}outside-next\n`);
	});

	test("the other program's write half done at the edit's last look, its first two pages ending a line: the edit waits for the rest, and none of that program's lines is left out", async () => {
		const before = `# The log\n${logLines(0, 600)}`;
		// Many lines more (it wrote several times since the server read the note): the first 8,192 bytes hold the note as read and whole lines after it.
		const rewritten = `${before}${logLines(600, 750)}`;
		expect(before.length).toBeLessThan(2 * PAGE);
		expect(rewritten[2 * PAGE - 1]).toBe("\n");
		const text = await editDuringHalfDoneWrite(before, rewritten, 2 * PAGE, "look");
		// Taken as whole lines added at the end, the two pages went after the edit and its rename left lines 691-749 out of the note.
		expect(text).toBe(`---\nstatus: done\n---\n${rewritten}outside-next\n`);
	});

	test("the person deletes the note and another program makes a new one of that name (given the freed inode number, as ext4 does): the late lines are kept beside it, not appended to the new note", async () => {
		let unrelated = "";
		const { ok, files } = await beside(
			({ note, rename }) => {
				const replaced = nodeFs.openSync(note, "a");
				rename();
				nodeFs.writeSync(replaced, "outside-1\n");
				nodeFs.closeSync(replaced);
				// The file the edit wrote deleted, and a new note made at once: ext4 gives it the number just freed.
				nodeFs.unlinkSync(note);
				nodeFs.writeFileSync(note, "an unrelated note\n");
			},
			async (note) => {
				await pause(LATE_APPEND_RECHECK_MS * 4);
				unrelated = nodeFs.readFileSync(note, "utf8");
			},
		);
		expect(ok).toBe(true);
		// Before (on ext4): "an unrelated note\noutside-1\n", and no copy.
		expect(unrelated).toBe("an unrelated note\n");
		expect([...files.entries()].filter(([name]) => name !== "Log.md").map(([, text]) => text)).toEqual([`${LOG}outside-1\n`]);
	});

	test("nothing raced the rename: the edit is made and nothing is kept beside the note", async () => {
		const { ok, files } = await beside(
			({ rename }) => rename(),
			() => pause(LATE_APPEND_RECHECK_MS * 4),
		);
		expect(ok).toBe(true);
		expect([...files.keys()]).toEqual(["Log.md"]);
		expect(files.get("Log.md")).toBe(`---\nstatus: done\n---\n${LOG}`);
	});
});

describe("complete_task beside a program that rewrites the note in place", () => {
	const TASKS = "# Tasks\n- [ ] first\n- [ ] second\n";

	/**
	 * One complete_task of line 2 played against the other program's rewrite: when the call asks the
	 * metadata cache for the note's tasks, the note has just been truncated, the cache holds the parse
	 * of it empty, and the other program writes the text it read back `writeAfterMs` later. `truncate`
	 * empties the note as the other program's truncation leaves it (by default, one that has finished).
	 */
	async function completeDuringRewrite(
		writeAfterMs: number,
		{ truncate = (note: string) => nodeFs.openSync(note, "w") } = {},
	): Promise<{ answer: { ok: boolean; error?: string }; text: string }> {
		const vault = await makeVault({ "Tasks.md": TASKS, "Empty.md": "" });
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		const note = nodePath.join(running.host.vault.root, "Tasks.md");
		const cache = running.host.metadataCache;
		await cache.settled();
		const emptyParse = cache.getCache("Empty.md");
		const getFileCache = cache.getFileCache.bind(cache);
		let written: Promise<void> | undefined;
		const spy = jest.spyOn(cache, "getFileCache").mockImplementation((file) => {
			if (file.path !== "Tasks.md" || written) return getFileCache(file);
			const read = nodeFs.readFileSync(note);
			const truncated = truncate(note);
			written = pause(writeAfterMs).then(() => {
				nodeFs.writeSync(truncated, read);
				nodeFs.closeSync(truncated);
			});
			return emptyParse;
		});
		try {
			const answer = await callTool(client, "complete_task", { path: "Tasks.md", line: 2, text: "second", status: "x" });
			expect(written).toBeDefined();
			await written;
			return { answer, text: await fs.readFile(note, "utf8") };
		} finally {
			spy.mockRestore();
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	}

	test("the note caught empty between the other program's truncation and its write, and cached so: the task is completed on its text once written", async () => {
		// Before, the plan took its tasks from the cache's empty parse (and read the note empty): "Line 2 is not the task … It has no open tasks".
		const { answer, text } = await completeDuringRewrite(EMPTY_PLAN_READ_POLL_MS * 10);
		expect(answer.ok).toBe(true);
		expect(text).toMatch(/^# Tasks\n- \[ \] first\n- \[x\] second ✅ \d{4}-\d{2}-\d{2}\n$/u);
	});

	test("a truncation the file system has not finished (0 bytes, its blocks still held) past EMPTY_NOTE_SETTLE_MS: the task is completed once the text is back", async () => {
		// ext4 ends a truncation only once the disk has written the pages it drops: beside a busy disk the note stayed
		// 0 bytes with its blocks held for 230+ ms. Before, an empty note changed over EMPTY_NOTE_SETTLE_MS ago was taken
		// as emptied for good: "Line 2 is not the task … It has no open tasks", and every call in that time refused so.
		// Played here by keeping a block for the emptied file (fallocate, its size kept at 0).
		const { answer, text } = await completeDuringRewrite(EMPTY_NOTE_SETTLE_MS * 2, {
			truncate: (note) => {
				const truncated = nodeFs.openSync(note, "w");
				execFileSync("fallocate", ["--keep-size", "--length", "4096", note]);
				expect(nodeFs.fstatSync(truncated).size).toBe(0);
				expect(nodeFs.fstatSync(truncated).blocks).toBeGreaterThan(0);
				return truncated;
			},
		});
		expect(answer).toMatchObject({ ok: true });
		expect(text).toMatch(/^# Tasks\n- \[ \] first\n- \[x\] second ✅ \d{4}-\d{2}-\d{2}\n$/u);
	});

	test("the other program never writes its text back within the plan's wait: refused, and the note left as the other program writes it", async () => {
		// Longer than the plan waits for the text, and than a note read empty is taken as being rewritten.
		const { answer, text } = await completeDuringRewrite(EMPTY_PLAN_READ_WAIT_MS + EMPTY_NOTE_SETTLE_MS);
		expect(answer.ok).toBe(false);
		expect(answer.error).toMatch(/Line 2 is not the task "second".*Nothing was changed/su);
		expect(text).toBe(TASKS);
	});
});
