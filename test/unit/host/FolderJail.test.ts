import { execFileSync, spawn } from "node:child_process";
import * as nodeFs from "node:fs";
import { appendFileSync, promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { FolderJail, OUTSIDE_VAULT, OutsideVaultError } from "../../../src/host/FolderJail";
import { NoteTooLargeError } from "../../../src/host/NoteTooLargeError";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/**
 * The jail the plugin puts in front of Obsidian's adapter (which follows links): every path with
 * a link in it is refused the same way, whether or not anything is behind the link.
 */
describe("FolderJail", () => {
	let root: string;
	let outside: string;
	let jail: FolderJail;

	beforeAll(async () => {
		root = await makeVault({ "Note.md": "n", "Folder/Inner.md": "i", "Private/Secret.md": "s" });
		outside = await makeTempDir("jail-outside-");
		await fs.writeFile(nodePath.join(outside, "there.md"), "outside");
		await fs.symlink(outside, nodePath.join(root, "LinkedDir"));
		await fs.symlink(nodePath.join(outside, "there.md"), nodePath.join(root, "Linked.md"));
		await fs.symlink(nodePath.join(outside, "missing.md"), nodePath.join(root, "Dangling.md"));
		await fs.symlink(nodePath.join(root, "Private"), nodePath.join(root, "Folder", "ToPrivate"));
		jail = await FolderJail.open(root);
	});
	afterAll(async () => {
		await removeDir(root);
		await removeDir(outside);
	});

	test("makeFolder says whether it made the folder, and never makes one through a link", async () => {
		const made = nodePath.join(jail.root, "Made once");
		await expect(jail.makeFolder(made)).resolves.toBe(true);
		await expect(jail.makeFolder(made)).resolves.toBe(false);
		await expect(jail.makeFolder(nodePath.join(jail.root, "LinkedDir", "new"))).rejects.toMatchObject({ code: OUTSIDE_VAULT });
		await expect(fs.access(nodePath.join(outside, "new"))).rejects.toThrow();
		await expect(jail.makeFolder(nodePath.join(jail.root, "LinkedDir"))).rejects.toMatchObject({ code: OUTSIDE_VAULT });
		await fs.rmdir(made);
		// A parent removed since it was seen is made again.
		await expect(jail.makeFolder(nodePath.join(jail.root, "Gone parent", "Inner"))).resolves.toBe(true);
		await fs.rm(nodePath.join(jail.root, "Gone parent"), { recursive: true });
	});

	test.each(["Note.md", "Folder/Inner.md", "Folder/New note.md", "New folder/deeper/New.md", "/"])(
		"lets %j through: every part that exists is real",
		async (path) => {
			await expect(jail.check(path)).resolves.toBeUndefined();
		},
	);

	test.each([
		["a linked folder, target exists", "LinkedDir/there.md"],
		["a linked folder, target missing", "LinkedDir/missing.md"],
		["a new note under a linked folder", "LinkedDir/new/x.md"],
		["a linked file", "Linked.md"],
		["a dangling link", "Dangling.md"],
		["a link inside the vault to an excluded folder", "Folder/ToPrivate/Secret.md"],
		["a path that climbs out", "../outside.md"],
	])("refuses %s with one error, whatever is behind it", async (_kind, path) => {
		await expect(jail.check(path)).rejects.toMatchObject({
			code: OUTSIDE_VAULT,
			message: "That path is not part of the vault this server gives access to.",
		});
	});

	test("finds every link in the vault folder, without following any", async () => {
		expect(await jail.findLinks()).toEqual(["Dangling.md", "Folder/ToPrivate", "Linked.md", "LinkedDir"]);
	});
	describe("readTextSync", () => {
		// The module object itself (the namespace import's properties cannot be redefined).
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		afterEach(() => jest.restoreAllMocks());

		/** Writes `text` to a new note and grows it by `added` right after the jail learns its size (its fstat once open). */
		async function grownWhileOpen(name: string, text: string, added: string): Promise<string> {
			const path = nodePath.join(jail.root, name);
			await fs.writeFile(path, text);
			const realFstat = nodeFs.fstatSync;
			jest.spyOn(fsModule, "fstatSync").mockImplementation((fd: number) => {
				const stats = realFstat(fd);
				appendFileSync(path, added);
				return stats;
			});
			return path;
		}

		test.each([
			["an empty note", ""],
			["a short note", "n"],
			["characters of two to four bytes", "é中😀".repeat(3000)],
			["a note of several pages", "line of text\n".repeat(20_000)],
		])("reads %s whole", async (_kind, text) => {
			const path = nodePath.join(jail.root, "Read whole.md");
			await fs.writeFile(path, text);
			expect(jail.readTextSync(path)).toBe(text);
			expect(jail.readTextSync(path, Buffer.byteLength(text))).toBe(text);
			await fs.rm(path);
		});

		test("a note that grows after it is opened is read to its end, not cut at the size it had", async () => {
			const path = await grownWhileOpen("Grows.md", "start\n", "added later\n".repeat(5000));
			expect(jail.readTextSync(path)).toBe(`start\n${"added later\n".repeat(5000)}`);
			jest.restoreAllMocks();
			await fs.rm(path);
		});

		test("a note read back in short pieces (as some file systems give it) is read whole", async () => {
			const text = "a line of a note\n".repeat(100);
			const path = nodePath.join(jail.root, "Short reads.md");
			await fs.writeFile(path, text);
			const realRead = nodeFs.readSync;
			const read = jest
				.spyOn(fsModule, "readSync")
				.mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number, position: null) =>
					realRead(fd, buffer, offset, Math.min(length, 7), position)) as typeof nodeFs.readSync);
			expect(jail.readTextSync(path)).toBe(text);
			expect(read).toHaveBeenCalled();
			jest.restoreAllMocks();
			await fs.rm(path);
		});

		test("a note over the bound is refused, also when it grows past it after it is opened", async () => {
			const path = nodePath.join(jail.root, "Big.md");
			await fs.writeFile(path, "x".repeat(101));
			expect(() => jail.readTextSync(path, 100)).toThrow(NoteTooLargeError);
			await fs.rm(path);
			const grown = await grownWhileOpen("Grows past.md", "x".repeat(60), "y".repeat(60));
			expect(() => jail.readTextSync(grown, 100)).toThrow(NoteTooLargeError);
			jest.restoreAllMocks();
			await fs.rm(grown);
		});

		test("a note in a real folder is read without walking its folders: the kernel names the file opened, once", () => {
			const realpaths = jest.spyOn(fsModule.realpathSync, "native");
			const lstats = jest.spyOn(fsModule, "lstatSync");
			const looks = jest.spyOn(fsModule, "readlinkSync");
			expect(jail.readTextSync(nodePath.join(jail.root, "Folder", "Inner.md"))).toBe("i");
			// Before, each read walked its folder's real path twice (a readlink per folder from the disk's root down, a
			// search result or a note read for the index alike) and looked at the folder twice and the note once more.
			// Linux names an open file by its real path (/proc/self/fd); elsewhere the walks stay.
			const namesOpenFiles = process.platform === "linux";
			expect(realpaths).toHaveBeenCalledTimes(namesOpenFiles ? 0 : 2);
			// Linux: one lstat, that what is there is a plain file before it is opened (see the named pipe test below).
			expect(lstats).toHaveBeenCalledTimes(namesOpenFiles ? 1 : 3);
			expect(looks).toHaveBeenCalledTimes(namesOpenFiles ? 1 : 0);
		});

		test("a name holding U+FFFD, or asked for with a lone surrogate (written as U+FFFD's bytes), is read, and refused behind a link", async () => {
			// The kernel's name is compared as text, and as bytes only when the text holds U+FFFD (what a name that is not
			// UTF-8 decodes to): "\uD800" is no text a name decodes to, but its bytes are U+FFFD's, the note's.
			const written = nodePath.join(jail.root, "Folder", "Odd \uFFFD name.md");
			await fs.writeFile(written, "odd");
			await fs.writeFile(nodePath.join(outside, "Odd \uFFFD name.md"), "outside");
			try {
				for (const asked of [written, nodePath.join(jail.root, "Folder", "Odd \uD800 name.md")]) {
					expect(jail.readTextSync(asked)).toBe("odd");
					expect((await jail.readFile(asked)).toString()).toBe("odd");
				}
				for (const linked of ["Odd \uFFFD name.md", "Odd \uD800 name.md"].map((name) => nodePath.join(jail.root, "LinkedDir", name))) {
					expect(() => jail.readTextSync(linked)).toThrow(OutsideVaultError);
					await expect(jail.readFile(linked)).rejects.toThrow(OutsideVaultError);
				}
			} finally {
				await fs.rm(written);
				await fs.rm(nodePath.join(outside, "Odd \uFFFD name.md"));
			}
		});

		test("the kernel's name is compared exactly: a name ending ' (deleted)' (its word for a removed file) or holding a newline is read; a folder link whose name is another normalization of a real folder's is refused", async () => {
			const names = ["Gone.md (deleted)", "Two\nlines.md"];
			const nfcFolder = nodePath.join(jail.root, "Caf\u00e9");
			const nfdLink = nodePath.join(jail.root, "Cafe\u0301");
			await fs.mkdir(nfcFolder);
			await fs.writeFile(nodePath.join(nfcFolder, "Inner.md"), "nfc");
			await fs.symlink(nfcFolder, nfdLink);
			await Promise.all(
				names.flatMap((name) => [fs.writeFile(nodePath.join(jail.root, "Folder", name), name), fs.writeFile(nodePath.join(outside, name), "outside")]),
			);
			try {
				for (const name of names) {
					expect(jail.readTextSync(nodePath.join(jail.root, "Folder", name))).toBe(name);
					expect((await jail.readFile(nodePath.join(jail.root, "Folder", name))).toString()).toBe(name);
					expect(() => jail.readTextSync(nodePath.join(jail.root, "LinkedDir", name))).toThrow(OutsideVaultError);
					await expect(jail.readFile(nodePath.join(jail.root, "LinkedDir", name))).rejects.toThrow(OutsideVaultError);
				}
				// Through the link, the file opened is named by its real (NFC) folder: the same text once normalized, not the same name.
				expect(jail.readTextSync(nodePath.join(nfcFolder, "Inner.md"))).toBe("nfc");
				expect(() => jail.readTextSync(nodePath.join(nfdLink, "Inner.md"))).toThrow(OutsideVaultError);
				await expect(jail.readFile(nodePath.join(nfdLink, "Inner.md"))).rejects.toThrow(OutsideVaultError);
			} finally {
				await fs.rm(nfdLink);
				await fs.rm(nfcFolder, { recursive: true });
				await Promise.all(names.flatMap((name) => [fs.rm(nodePath.join(jail.root, "Folder", name)), fs.rm(nodePath.join(outside, name))]));
			}
		});

		test("a named pipe outside the vault, behind a folder swapped for a link, is not opened: a program waiting to write into it waits on (it went on, and died of the closed pipe)", async () => {
			const pipes = await makeTempDir("jail-pipes-");
			const folder = nodePath.join(jail.root, "Piped");
			await fs.mkdir(folder);
			await fs.writeFile(nodePath.join(folder, "Note.md"), "inside");
			execFileSync("mkfifo", [nodePath.join(pipes, "Note.md")]);
			// Another program opens the pipe to write into it, and waits there for a reader.
			const writer = spawn("sh", ["-c", `echo written > "${nodePath.join(pipes, "Note.md")}"`], { stdio: "ignore" });
			const ended = new Promise<string>((resolve) => writer.on("exit", (code, signal) => resolve(`${String(code)} ${String(signal)}`)));
			try {
				await fs.rm(folder, { recursive: true });
				await fs.symlink(pipes, folder);
				await new Promise((resolve) => setTimeout(resolve, 200));
				expect(() => jail.readTextSync(nodePath.join(folder, "Note.md"))).toThrow(OutsideVaultError);
				const result = await Promise.race([ended, new Promise<string>((resolve) => setTimeout(() => resolve("still waiting"), 500))]);
				expect(result).toBe("still waiting");
			} finally {
				writer.kill();
				await ended;
				await fs.rm(folder);
				await removeDir(pipes);
			}
		});

		test("a folder swapped for a link just after the open, or back just after it, is never read through", async () => {
			const swapped = nodePath.join(jail.root, "Swapped");
			const aside = nodePath.join(jail.root, "Swapped aside");
			await fs.mkdir(swapped);
			await fs.writeFile(nodePath.join(swapped, "there.md"), "inside");
			const realFstat = nodeFs.fstatSync;
			/** Runs `swap` right after the jail opens the note (its first fstat), once. */
			const afterOpen = (swap: () => void) => {
				let done = false;
				jest.spyOn(fsModule, "fstatSync").mockImplementation((fd: number) => {
					if (!done) swap();
					done = true;
					return realFstat(fd);
				});
			};
			// Opened in the real folder, which is then moved aside for a link out: the path no longer names the file opened.
			afterOpen(() => {
				nodeFs.renameSync(swapped, aside);
				nodeFs.symlinkSync(outside, swapped);
			});
			expect(() => jail.readTextSync(nodePath.join(swapped, "there.md"))).toThrow(OutsideVaultError);
			jest.restoreAllMocks();
			// Opened through the link (the outside file), and the real folder put back before the jail looks: the inside
			// note read again, or the read refused (a jail that looks at the folder before opening sees the link).
			afterOpen(() => {
				nodeFs.unlinkSync(swapped);
				nodeFs.renameSync(aside, swapped);
			});
			let answer: unknown;
			try {
				answer = jail.readTextSync(nodePath.join(swapped, "there.md"));
			} catch (error) {
				answer = (error as NodeJS.ErrnoException).code;
			}
			expect(["inside", OUTSIDE_VAULT]).toContain(answer);
			jest.restoreAllMocks();
			await fs.rm(swapped, { recursive: true });
		});

		test("an append opened through a folder swapped for a link, real again for the folder's check and a link again for the path's: nothing is written outside", async () => {
			const swapped = nodePath.join(jail.root, "Appended");
			const aside = nodePath.join(jail.root, "Appended aside");
			const note = nodePath.join(swapped, "there.md");
			await fs.mkdir(swapped);
			await fs.writeFile(note, "inside");
			const toLink = () => {
				nodeFs.renameSync(swapped, aside);
				nodeFs.symlinkSync(outside, swapped);
			};
			const toReal = () => {
				nodeFs.unlinkSync(swapped);
				nodeFs.renameSync(aside, swapped);
			};
			const realOpen = nodeFs.openSync;
			const realLstat = nodeFs.lstatSync;
			let opens = 0;
			// The first open goes through the link; the folder is real again for the check after it, and a link when the path is looked up.
			jest.spyOn(fsModule, "openSync").mockImplementation(((path: string, flags: number, mode?: number) => {
				if (opens++ > 0) return realOpen(path, flags, mode);
				toLink();
				const fd = realOpen(path, flags, mode);
				toReal();
				return fd;
			}) as typeof nodeFs.openSync);
			jest.spyOn(fsModule, "lstatSync").mockImplementation(((path: string, options?: never) => {
				if (path === note && !realLstat(swapped).isSymbolicLink()) toLink();
				return realLstat(path, options);
			}) as typeof nodeFs.lstatSync);
			let code: unknown;
			try {
				const { fd } = jail.openSync(note, nodeFs.constants.O_RDWR | nodeFs.constants.O_APPEND);
				nodeFs.writeSync(fd, " appended");
				nodeFs.closeSync(fd);
			} catch (error) {
				code = (error as NodeJS.ErrnoException).code;
			}
			jest.restoreAllMocks();
			expect(code).toBe(OUTSIDE_VAULT);
			expect(await fs.readFile(nodePath.join(outside, "there.md"), "utf8")).toBe("outside");
			if (realLstat(swapped).isSymbolicLink()) toReal();
			await fs.rm(swapped, { recursive: true });
		});

		test.each(["Linked.md", "LinkedDir/there.md"])("refuses %j, a link", (path) => {
			let code: unknown;
			try {
				jail.readTextSync(nodePath.join(jail.root, path));
			} catch (error) {
				code = (error as NodeJS.ErrnoException).code;
			}
			expect(code).toBe(OUTSIDE_VAULT);
		});
	});
});

describe("FolderJail.readFile with a bound", () => {
	/**
	 * Another program makes the file 64 MiB (sparse) just after the jail opened it and read its size: a settings file (read
	 * under OBSIDIAN_SETTINGS_MAX_BYTES) or a note (MAX_READ_NOTE_BYTES) that a size check alone let through.
	 */
	test("a file grown past the bound after it was opened is refused once a byte past the bound is read, not read whole first", async () => {
		const root = await makeVault({ "app.json": "{}" });
		const diskPath = nodePath.join(root, "app.json");
		const jail = await FolderJail.open(root);
		const open = jail.open.bind(jail);
		let bytesRead = 0;
		const opening = jest.spyOn(jail, "open").mockImplementation(async (...args) => {
			const opened = await open(...args);
			await fs.truncate(diskPath, 64 * 1024 * 1024);
			const { handle } = opened;
			const read = handle.read.bind(handle) as (...rest: unknown[]) => Promise<{ bytesRead: number; buffer: Buffer }>;
			const readFile = handle.readFile.bind(handle) as (...rest: unknown[]) => Promise<Buffer>;
			Object.assign(handle, {
				read: async (...rest: unknown[]) => {
					const result = await read(...rest);
					bytesRead += result.bytesRead;
					return result;
				},
				readFile: async (...rest: unknown[]) => {
					const bytes = await readFile(...rest);
					bytesRead += bytes.length;
					return bytes;
				},
			});
			return opened;
		});
		try {
			await expect(jail.readFile(diskPath, 1024)).rejects.toBeInstanceOf(NoteTooLargeError);
			// 64 MiB read into memory on c9445824 before the length was compared.
			expect(bytesRead).toBeLessThanOrEqual(1025);
		} finally {
			opening.mockRestore();
			await removeDir(root);
		}
	});

	test("a file within the bound, or with none, is read whole, the same bytes", async () => {
		const text = "é".repeat(5000);
		const root = await makeVault({ "Note.md": text });
		try {
			const jail = await FolderJail.open(root);
			const diskPath = nodePath.join(root, "Note.md");
			expect((await jail.readFile(diskPath, 10_000)).toString("utf8")).toBe(text);
			expect((await jail.readFile(diskPath)).toString("utf8")).toBe(text);
			await expect(jail.readFile(diskPath, 9_999)).rejects.toBeInstanceOf(NoteTooLargeError);
		} finally {
			await removeDir(root);
		}
	});
});

describe("FolderJail.makeFolders", () => {
	let root: string;
	let outside: string;
	let jail: FolderJail;
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
	const fsModule = require("node:fs") as typeof nodeFs;

	beforeEach(async () => {
		root = await makeVault({ "Notes/Plan.md": "the plan\n" });
		outside = await makeTempDir("make-folders-outside-");
		await fs.symlink(outside, nodePath.join(root, "Notes", "Linked"));
		jail = await FolderJail.open(root);
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(root);
		await removeDir(outside);
	});

	test("folders 60 deep are made one per turn of the event loop, not all in one piece", async () => {
		let madeSinceTurn = 0;
		let mostInOnePiece = 0;
		const counted = () => (mostInOnePiece = Math.max(mostInOnePiece, ++madeSinceTurn));
		const pooled = fsModule.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
		const realMkdir = pooled.mkdir!.bind(fsModule.promises);
		jest.spyOn(pooled, "mkdir").mockImplementation((...args: unknown[]) => (counted(), realMkdir(...args)));
		const realMkdirSync = fsModule.mkdirSync.bind(fsModule) as (...args: unknown[]) => unknown;
		jest.spyOn(fsModule, "mkdirSync").mockImplementation(((...args: unknown[]) => (counted(), realMkdirSync(...args))) as typeof nodeFs.mkdirSync);
		let turning = true;
		const turn = () => {
			madeSinceTurn = 0;
			if (turning) setImmediate(turn);
		};
		setImmediate(turn);
		const deep = nodePath.join(jail.root, "Notes", ...Array.from({ length: 60 }, (_, index) => `level ${index}`));
		await jail.makeFolders(deep);
		turning = false;
		jest.restoreAllMocks();
		expect((await fs.lstat(deep)).isDirectory()).toBe(true);
		// Before: all 60 made on the event loop in one piece (500 deep: 50-220 ms of CPU).
		expect(mostInOnePiece).toBeLessThanOrEqual(10);
	});

	test("a link or a file on the way is refused, and nothing is made through the link", async () => {
		await expect(jail.makeFolders(nodePath.join(jail.root, "Notes", "Linked", "New", "Deeper"))).rejects.toMatchObject({ code: OUTSIDE_VAULT });
		await expect(jail.makeFolders(nodePath.join(jail.root, "Notes", "Plan.md", "New"))).rejects.toMatchObject({
			code: "ENOTDIR",
			message: "Not a folder: Notes/Plan.md",
		});
		expect(nodeFs.readdirSync(outside)).toEqual([]);
		expect(nodeFs.readdirSync(nodePath.join(jail.root, "Notes")).sort()).toEqual(["Linked", "Plan.md"]);
	});
});
