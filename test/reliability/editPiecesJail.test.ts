import * as nodeFs from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { LATE_APPEND_PIECE_BYTES, LATE_APPEND_RECHECK_MS, NOTE_TEXT_PIECE_CHARS } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/** What a test's other program works against: the vault's real folder, a folder outside it, and a write token's client. */
interface Writer {
	root: string;
	outside: string;
	client: Awaited<ReturnType<typeof connectClient>>;
}

/** Runs `run` against a write server over a vault of `files`; every spy it made is restored after, and everything closed and removed. */
async function withWriter(files: Record<string, string>, run: (writer: Writer) => Promise<void>): Promise<void> {
	const vault = await makeVault(files);
	const outside = await makeTempDir("edit-pieces-outside-");
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await run({ root: running.host.vault.root, outside, client });
	} finally {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
}

/**
 * A headless edit of a note over NOTE_TEXT_PIECE_CHARS reads it a piece at a time, giving the event
 * loop back between pieces, and only then makes its temporary file beside the note. Another program
 * has all that time to swap the note's folder for a link to a folder outside the vault: the
 * temporary file, holding the note's new text, must never be made (and left) there.
 */
test("set_property on a long note whose folder is swapped for a link out of the vault while it is read: nothing of the note is written outside", async () => {
	const lines = Array.from({ length: Math.ceil((3 * NOTE_TEXT_PIECE_CHARS) / 40) }, (_, index) => `- line ${index} of the long plan\n`);
	await withWriter({ "Notes/Plan.md": `# Plan\n\n${lines.join("")}` }, async ({ root, outside, client }) => {
		const folder = nodePath.join(root, "Notes");
		const moved = nodePath.join(root, "Notes-real");
		const original = nodeFs.openSync;
		const originalWrite = nodeFs.writeSync;
		let swapped = false;
		let swappedBack = false;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		// While the note is read (before its temporary file is made) the other program swaps the folder for a link out of the vault…
		jest.spyOn(fsModule, "openSync").mockImplementation((path: nodeFs.PathLike, ...rest: unknown[]) => {
			if (!swapped && typeof path === "string" && nodePath.basename(path).startsWith(".vault-mcp-")) {
				swapped = true;
				nodeFs.renameSync(folder, moved);
				nodeFs.symlinkSync(outside, folder);
			}
			return (original as (...args: unknown[]) => number)(path, ...rest);
		});
		// …and back again once the server starts writing the new text.
		jest.spyOn(fsModule, "writeSync").mockImplementation((...args: unknown[]) => {
			if (swapped && !swappedBack) {
				swappedBack = true;
				nodeFs.unlinkSync(folder);
				nodeFs.renameSync(moved, folder);
			}
			return (originalWrite as (...a: unknown[]) => number)(...args);
		});
		await callTool(client, "set_property", { path: "Notes/Plan.md", name: "status", value: "done" });
		expect(swapped).toBe(true);
		// Nothing the server made is left in the outside folder.
		expect(await fs.readdir(outside)).toEqual([]);
		if (!swappedBack) {
			nodeFs.unlinkSync(folder);
			nodeFs.renameSync(moved, folder);
		}
		// The note is as it was: the edit was not made through the link.
		expect(await fs.readFile(nodePath.join(folder, "Plan.md"), "utf8")).toBe(`# Plan\n\n${lines.join("")}`);
	});
});

/**
 * The temporary file of a long note's edit is written a piece at a time, with turns between pieces:
 * another program has that time to put something else at its name. What the rename then puts at the
 * note's name must be the file the server wrote, or the edit is made again.
 */
test("set_property on a long note whose temporary file is swapped, while written, for a hard link to a file outside the vault: the note gets the edit, not the outside file", async () => {
	const lines = Array.from({ length: Math.ceil((3 * NOTE_TEXT_PIECE_CHARS) / 40) }, (_, index) => `- line ${index} of the long plan\n`);
	const text = `# Plan\n\n${lines.join("")}`;
	await withWriter({ "Notes/Plan.md": text }, async ({ root, outside, client }) => {
		const secret = nodePath.join(outside, "secret.txt");
		await fs.writeFile(secret, "SECRET outside the vault\n");
		const original = nodeFs.openSync;
		const originalWrite = nodeFs.writeSync;
		let temporary: { path: string; fd: number } | null = null;
		let swapped = false;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		jest.spyOn(fsModule, "openSync").mockImplementation((path: nodeFs.PathLike, ...rest: unknown[]) => {
			const fd = (original as (...args: unknown[]) => number)(path, ...rest);
			// By its name in the note's folder: the server may have opened it by its folder held open (/proc/self/fd/<folder>/<name>).
			if (temporary === null && typeof path === "string" && nodePath.basename(path).startsWith(".vault-mcp-"))
				temporary = { path: nodePath.join(root, "Notes", nodePath.basename(path)), fd };
			return fd;
		});
		// Once the server has written its first piece, the other program puts a hard link to the outside file at the temporary name.
		jest.spyOn(fsModule, "writeSync").mockImplementation((fd: number, ...rest: unknown[]) => {
			const written = (originalWrite as (...a: unknown[]) => number)(fd, ...rest);
			if (!swapped && temporary !== null && fd === temporary.fd) {
				swapped = true;
				const linked = nodePath.join(root, "Notes/.other");
				nodeFs.linkSync(secret, linked);
				nodeFs.renameSync(linked, temporary.path);
			}
			return written;
		});
		const answer = await callTool(client, "set_property", { path: "Notes/Plan.md", name: "status", value: "done" });
		expect(swapped).toBe(true);
		expect(answer.ok).toBe(true);
		// The note holds the edit the answer reports, not the outside file's text.
		expect(await fs.readFile(nodePath.join(root, "Notes/Plan.md"), "utf8")).toBe(`---\nstatus: done\n---\n${text}`);
		expect(JSON.stringify(await callTool(client, "read_note", { path: "Notes/Plan.md" }))).not.toContain("SECRET");
		expect(await fs.readFile(secret, "utf8")).toBe("SECRET outside the vault\n");
	});
});

/**
 * Bytes another program appends to a replaced note's old file are carried over LATE_APPEND_PIECE_BYTES
 * at a time, with turns between pieces. If that program rewrites the old file in place meanwhile
 * (truncates it and writes something else), what follows is no longer an addition to the note:
 * none of it may be carried.
 */
test("set_property: the old file rewritten in place between two pieces of a late carry: nothing of the rewrite reaches the note", async () => {
	await withWriter({ "Notes/Plan.md": "# Plan\n\n- one\n" }, async ({ root, client }) => {
		const diskNote = nodePath.join(root, "Notes/Plan.md");
		const oldInode = nodeFs.statSync(diskNote).ino;
		const oldSize = nodeFs.statSync(diskNote).size;
		// Another program opened the note for appending before the edit.
		const logger = nodeFs.openSync(diskNote, "a");
		const late = "- logged late\n".repeat(Math.ceil((3 * LATE_APPEND_PIECE_BYTES) / 14));
		const originalRename = nodeFs.renameSync;
		const originalRead = nodeFs.readSync;
		let appended = false;
		let carryReads = 0;
		let rewritten = false;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		// Right after the edit's rename, the program appends three pieces' worth of lines to the old file…
		jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
			originalRename(from, to);
			if (!appended && to === diskNote) {
				appended = true;
				nodeFs.writeSync(logger, late);
			}
		});
		// …and, before the carry's second piece is read, rewrites the old file in place with other lines of the same length.
		jest.spyOn(fsModule, "readSync").mockImplementation((fd: number, buffer: NodeJS.ArrayBufferView, ...rest: unknown[]) => {
			const position = rest.length >= 3 ? rest[2] : undefined;
			if (appended && !rewritten && typeof position === "number" && position >= oldSize && nodeFs.fstatSync(fd).ino === oldInode) {
				carryReads++;
				if (carryReads === 2) {
					rewritten = true;
					const size = nodeFs.fstatSync(logger).size;
					nodeFs.ftruncateSync(logger, 0);
					nodeFs.writeSync(logger, "REWRITTEN\n".repeat(Math.ceil(size / 10)).slice(0, size));
				}
			}
			return (originalRead as (...a: unknown[]) => number)(fd, buffer, ...rest);
		});
		try {
			expect((await callTool(client, "set_property", { path: "Notes/Plan.md", name: "status", value: "done" })).ok).toBe(true);
			await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS * 4));
			expect(rewritten).toBe(true);
			const text = await fs.readFile(diskNote, "utf8");
			expect(text.startsWith("---\nstatus: done\n---\n# Plan\n\n- one\n- logged late\n")).toBe(true);
			expect(text).not.toContain("REWRITTEN");
		} finally {
			nodeFs.closeSync(logger);
		}
	});
});

/**
 * create_note makes the note's folders, then the note (two steps through the thread pool, turns between
 * them), then writes its text a piece at a time. Another program may swap the folder for a link out of
 * the vault before the note is made, and back before the server's last look: the text must not be left there.
 */
test("create_note while another program swaps the folder for a link out of the vault and back: none of the note's text is left outside", async () => {
	await withWriter({ "Notes/Old.md": "# Old\n" }, async ({ root, outside, client }) => {
		const folder = nodePath.join(root, "Notes");
		const moved = nodePath.join(root, "Notes-real");
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		let swapped = false;
		// Around the open that makes the note, made through the thread pool or on the event loop.
		const around = <T>(path: unknown, open: () => T): T => {
			if (swapped || typeof path !== "string" || !path.endsWith("Secret plan.md")) return open();
			swapped = true;
			nodeFs.renameSync(folder, moved);
			nodeFs.symlinkSync(outside, folder);
			const back = () => {
				nodeFs.unlinkSync(folder);
				nodeFs.renameSync(moved, folder);
			};
			let result: T;
			try {
				result = open();
			} catch (error) {
				back();
				throw error;
			}
			if (result instanceof Promise) return result.finally(back) as T;
			back();
			return result;
		};
		const open = fsModule.promises.open.bind(fsModule.promises);
		jest.spyOn(fsModule.promises, "open").mockImplementation((path, ...rest) => around(path, () => open(path, ...rest)));
		const openSync = fsModule.openSync;
		jest.spyOn(fsModule, "openSync").mockImplementation((path, ...rest: unknown[]) =>
			around(path, () => (openSync as (...args: unknown[]) => number)(path, ...rest)),
		);
		await callTool(client, "create_note", { path: "Notes/Secret plan.md", content: "# Secret plan\n\nthe launch codes\n" });
		expect(swapped).toBe(true);
		// Not even an empty file is made there.
		expect(await fs.readdir(outside)).toEqual([]);
	});
});

/**
 * rename_note takes the new name with a hard link, then removes the old one. Another program may swap
 * the new name's folder for a link out of the vault just before the link is made, and back just after:
 * the note must not then be removed from the vault, leaving it only outside.
 */
test("rename_note while another program swaps the target folder for a link out of the vault and back: the note stays in the vault", async () => {
	await withWriter({ "Notes/Plan.md": "# Plan\n\nthe launch codes\n", "Archive/Old.md": "# Old\n" }, async ({ root, outside, client }) => {
		const folder = nodePath.join(root, "Archive");
		const moved = nodePath.join(root, "Archive-real");
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		let swapped = false;
		const swapOut = (to: unknown): boolean => {
			if (swapped || typeof to !== "string" || !to.endsWith("/Plan.md") || to.endsWith("Notes/Plan.md")) return false;
			swapped = true;
			nodeFs.renameSync(folder, moved);
			nodeFs.symlinkSync(outside, folder);
			return true;
		};
		const swapBack = () => {
			nodeFs.unlinkSync(folder);
			nodeFs.renameSync(moved, folder);
		};
		// Around the link that takes the new name, made through the thread pool or on the event loop.
		const link = fsModule.promises.link.bind(fsModule.promises);
		jest.spyOn(fsModule.promises, "link").mockImplementation(async (from, to) => {
			if (!swapOut(to)) return link(from, to);
			try {
				return await link(from, to);
			} finally {
				swapBack();
			}
		});
		const linkSync = fsModule.linkSync;
		jest.spyOn(fsModule, "linkSync").mockImplementation((from, to) => {
			if (!swapOut(to)) return linkSync(from, to);
			try {
				return linkSync(from, to);
			} finally {
				swapBack();
			}
		});
		await callTool(client, "rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" });
		expect(swapped).toBe(true);
		// The note is in the vault, under one of its two names.
		const inVault = [nodePath.join(root, "Notes/Plan.md"), nodePath.join(root, "Archive/Plan.md")].filter((path) => nodeFs.existsSync(path));
		expect(inVault.length).toBe(1);
		expect(await fs.readFile(inVault[0] ?? "", "utf8")).toBe("# Plan\n\nthe launch codes\n");
	});
});
