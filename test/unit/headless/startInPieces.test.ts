import { promises as fs, renameSync } from "node:fs";
import * as nodePath from "node:path";
import { NodeVault } from "../../../src/headless/NodeVault";
import { NodeHost } from "../../../src/headless/NodeHost";
import { LinkFileIndex } from "../../../src/paths/linkResolution";
import {
	MAX_READ_NOTE_BYTES,
	MAX_STARTUP_PARSE_BYTES,
	NOTE_READ_RETRY_PAUSES_MS,
	RESOLVE_CHECK_INTERVAL,
	SCAN_BATCH_FILES,
	STARTUP_PARSE_SLICES_PER_NOTE,
} from "../../../src/config/limits";
import { NodeMetadataCache } from "../../../src/headless/NodeMetadataCache";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { makeVault, removeDir } from "../../helpers/vault";

/**
 * Opening a vault (before `serve`, `inspect` or `undo` answers anything) runs in pieces: the files'
 * stats are asked for a few at a time and the links resolved a run at a time, with a pause between,
 * so the server (and, in Obsidian, the app) keeps answering while a big vault is opened. Counted
 * as work between pauses, not timed: a vault of 20,002 notes showed pieces of 300–450 ms.
 */
describe("opening a vault of many notes", () => {
	const NOTES = 2_000;
	let root: string;

	beforeAll(async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < NOTES; index++) {
			files[`F${index % 4}/Note ${index}.md`] = `# Note ${index}\nsee [[Note ${(index + 1) % NOTES}]] and [[Nowhere ${index}]]\n`;
		}
		root = await makeVault(files);
	});

	afterAll(async () => {
		await removeDir(root);
	});

	test("stats files and resolves links in pieces, and finds every note and link as before", async () => {
		const pieces = countWorkPerPiece();
		const lstat = fs.lstat.bind(fs);
		const statted = jest.spyOn(fs, "lstat").mockImplementation((...args: Parameters<typeof fs.lstat>) => {
			pieces.count();
			return lstat(...args);
		});
		const resolve = Object.getOwnPropertyDescriptor(LinkFileIndex.prototype, "resolve")?.value as LinkFileIndex<never>["resolve"];
		const resolved = jest.spyOn(LinkFileIndex.prototype, "resolve").mockImplementation(function (this: LinkFileIndex<never>, ...args) {
			pieces.count();
			return resolve.apply(this, args) as never;
		});
		let host: NodeHost | undefined;
		try {
			host = await NodeHost.open(root);
		} finally {
			statted.mockRestore();
			resolved.mockRestore();
			pieces.restore();
		}
		try {
			expect(host.vault.getMarkdownFiles()).toHaveLength(NOTES);
			expect(host.metadataCache.resolvedLinks["F1/Note 5.md"]).toEqual({ "F2/Note 6.md": 1 });
			expect(host.metadataCache.unresolvedLinks["F1/Note 5.md"]).toEqual({ "Nowhere 5": 1 });
			// Every file's stats and both links of every note were counted.
			expect(pieces.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(3 * NOTES);
			// Before: each folder's 500 files statted in one piece, and all 4,000 links resolved in one.
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(SCAN_BATCH_FILES + 2);
		} finally {
			await host.close();
		}
	});

	test("with the watcher (as serve opens it), the folders are watched as they are listed: no second listing of every file in one piece", async () => {
		const pieces = countWorkPerPiece();
		const lstat = fs.lstat.bind(fs);
		const statted = jest.spyOn(fs, "lstat").mockImplementation((...args: Parameters<typeof fs.lstat>) => {
			pieces.count();
			return lstat(...args);
		});
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const nodeFs = require("node:fs") as typeof import("node:fs");
		const watch = nodeFs.watch;
		const watched = jest.spyOn(nodeFs, "watch").mockImplementation((...args: Parameters<typeof nodeFs.watch>) => {
			pieces.count();
			return watch(...args);
		});
		let vault: NodeVault | undefined;
		try {
			vault = await NodeVault.open(root, { watch: true });
		} finally {
			statted.mockRestore();
			watched.mockRestore();
			pieces.restore();
		}
		try {
			expect(vault.getMarkdownFiles()).toHaveLength(NOTES);
			// Before: chokidar listed the vault again after ours and put a watch on each of the 2,000 files, in one piece.
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(SCAN_BATCH_FILES + 2);
			// And the watcher follows the vault once open.
			await fs.writeFile(nodePath.join(root, "F2", "Later.md"), "later\n");
			await until(() => vault?.getFileByPath("F2/Later.md") !== null);
			expect(vault.getFileByPath("F2/Later.md")).not.toBeNull();
		} finally {
			await vault.close();
			await fs.rm(nodePath.join(root, "F2", "Later.md"), { force: true });
		}
	});
});

/** Waits until `done` holds, for at most 5 s. */
async function until(done: () => boolean): Promise<void> {
	const deadline = Date.now() + 5_000;
	while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("a change another program makes while the vault is being opened", () => {
	let root: string;

	beforeEach(async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < 200; index++) files[`F${index % 4}/Note ${index}.md`] = `# Note ${index}\n`;
		root = await makeVault(files);
	});

	afterEach(async () => {
		await removeDir(root);
	});

	test("a note made, changed or deleted in a folder already listed, before the watcher would be ready, is seen", async () => {
		// Once the first folder is listed, when the next one is read, another program changes the first.
		const readdir = fs.readdir.bind(fs) as (...args: unknown[]) => Promise<unknown>;
		const listed: string[] = [];
		let changed: { folder: string; size: number } | null = null;
		const reading = jest.spyOn(fs, "readdir").mockImplementation((async (...args: unknown[]) => {
			const folder = String(args[0]);
			if (/[/\\]F\d$/.test(folder)) {
				listed.push(folder);
				if (listed.length === 2 && changed === null) {
					const first = nodePath.basename(listed[0] ?? "");
					const notes = (await readdir(nodePath.join(root, first))) as string[];
					const [kept, deleted] = notes.filter((name) => name.endsWith(".md"));
					await fs.writeFile(nodePath.join(root, first, "Made.md"), "made\n");
					await fs.appendFile(nodePath.join(root, first, kept ?? ""), "more text\n");
					await fs.rm(nodePath.join(root, first, deleted ?? ""));
					changed = { folder: first, size: (await fs.stat(nodePath.join(root, first, kept ?? ""))).size };
					changedNames = { kept: kept ?? "", deleted: deleted ?? "" };
				}
			}
			return readdir(...args);
		}) as unknown as typeof fs.readdir);
		let changedNames = { kept: "", deleted: "" };
		let vault: NodeVault | undefined;
		try {
			vault = await NodeVault.open(root, { watch: true });
		} finally {
			reading.mockRestore();
		}
		try {
			if (changed === null) throw new Error("the change was not made");
			const { folder, size } = changed as { folder: string; size: number };
			const opened = vault;
			const made = `${folder}/Made.md`;
			const kept = `${folder}/${changedNames.kept}`;
			const deleted = `${folder}/${changedNames.deleted}`;
			await until(() => opened.getFileByPath(made) !== null && opened.getFileByPath(deleted) === null && opened.getFileByPath(kept)?.stat.size === size);
			// Before: the watcher's first listing came after ours and said nothing, so none of the three was ever seen.
			expect(opened.getFileByPath(made)).not.toBeNull();
			expect(opened.getFileByPath(deleted)).toBeNull();
			expect(opened.getFileByPath(kept)?.stat.size).toBe(size);
			expect(opened.getMarkdownFiles()).toHaveLength(200);
		} finally {
			await vault.close();
		}
	});
});

/**
 * A note another program grows between the vault's listing and the parse of its notes (a sync
 * client writing as the server starts) is read by its size when opened, not the size listed: one
 * grown past MAX_STARTUP_PARSE_BYTES is parsed after start in slices, like a note that size when
 * listed, and one grown past MAX_READ_NOTE_BYTES has no links, like any note over that bound.
 */
describe("a note grown between the vault's listing and the start's parse", () => {
	test.each([
		["past MAX_STARTUP_PARSE_BYTES: parsed after start, its links all known then", MAX_STARTUP_PARSE_BYTES + 1024, true],
		["past MAX_READ_NOTE_BYTES: never read, no links", MAX_READ_NOTE_BYTES + 1024, false],
	])(
		"%s",
		async (_, bytes, linked) => {
			const root = await makeVault({ "Grown.md": "# Grown\n", "Target.md": "# Target\n" });
			try {
				const vault = await NodeVault.open(root);
				const line = "- see [[Target]]\n";
				await fs.writeFile(nodePath.join(root, "Grown.md"), line.repeat(Math.ceil(bytes / line.length)));
				const metadata = await NodeMetadataCache.build(vault);
				try {
					// Not parsed before the server listens: that would be one read and a parse of megabytes before it answers anything.
					expect(metadata.getCache("Grown.md")).toBeNull();
					await metadata.settled();
					expect(metadata.resolvedLinks["Grown.md"]?.["Target.md"]).toBe(linked ? Math.ceil(bytes / line.length) : undefined);
				} finally {
					metadata.close();
					await vault.close();
				}
			} finally {
				await removeDir(root);
			}
		},
		120_000,
	);
});

/**
 * Serve opens the vault with a bound on the slices one note's parse may take before it listens: a
 * note under MAX_STARTUP_PARSE_BYTES that is costly to parse (one of 100,000 `- [ ]` lines held
 * serve's start 400-580 ms of CPU; this one of 30,000, over 100 ms) is parsed after, like a huge note.
 */
describe("a note costly to parse, opened as serve opens the vault", () => {
	test("is parsed after the vault opens, its tasks all known then; a small note is parsed before", async () => {
		const tasks = "- [ ] a\n".repeat(30_000);
		expect(tasks.length).toBeLessThan(MAX_STARTUP_PARSE_BYTES);
		const root = await makeVault({ "Costly.md": tasks, "Small.md": "# Small\n\nSee [[Costly]].\n" });
		try {
			const host = await NodeHost.open(root, { parseSlicesPerNote: STARTUP_PARSE_SLICES_PER_NOTE });
			try {
				// On main: parsed before `open` returned (serve listened 0.4-0.6 s later per such note).
				expect(host.metadataCache.getCache("Costly.md")).toBeNull();
				expect(host.metadataCache.resolvedLinks["Small.md"]).toEqual({ "Costly.md": 1 });
				await host.metadataCache.settled();
				const items = host.metadataCache.getCache("Costly.md")?.listItems ?? [];
				expect(items).toHaveLength(30_000);
				expect(items.every((item) => item.task === " ")).toBe(true);
			} finally {
				await host.close();
			}
		} finally {
			await removeDir(root);
		}
	}, 60_000);
});

describe("a note renamed by another program between the vault's listing and the start's parse", () => {
	test("is parsed at its new path once the watcher reports the move: its links are known, and its metadata is never missing for good", async () => {
		const root = await makeVault({ "Moving.md": "# Moving\n\nSee [[Target]].\n", "Target.md": "# Target\n" });
		try {
			const vault = await NodeVault.open(root, { watch: true });
			// Before the watcher reports it: the listing still names the old path, which the parse then cannot read.
			renameSync(nodePath.join(root, "Moving.md"), nodePath.join(root, "Moved.md"));
			const metadata = await NodeMetadataCache.build(vault);
			try {
				for (const deadline = Date.now() + 10_000; vault.getFileByPath("Moved.md") === null;) {
					if (Date.now() > deadline) throw new Error("the watcher never reported the move");
					await new Promise((resolve) => setTimeout(resolve, 10));
				}
				await metadata.settled();
				expect(metadata.getCache("Moved.md")?.headings?.[0]?.heading).toBe("Moving");
				expect(metadata.resolvedLinks["Moved.md"]).toEqual({ "Target.md": 1 });
			} finally {
				metadata.close();
				await vault.close();
			}
		} finally {
			await removeDir(root);
		}
	}, 60_000);
});

describe("a note whose reads fail for a passing reason (too many open files)", () => {
	/** Makes the vault's reads of `path` fail with EMFILE `failures` times (start's read included), as when the process ran out of file handles. */
	function failReads(vault: NodeVault, path: string, failures: number): { reads: () => number; restore: () => void } {
		let reads = 0;
		const tooMany = () => Object.assign(new Error("EMFILE: too many open files"), { code: "EMFILE" });
		const readSync = vault.readSync.bind(vault);
		const read = vault.read.bind(vault);
		const syncSpy = jest.spyOn(vault, "readSync").mockImplementation((file, ...rest) => {
			if (file.path === path && reads++ < failures) throw tooMany();
			return readSync(file, ...rest);
		});
		const readSpy = jest.spyOn(vault, "read").mockImplementation(async (file) => {
			if (file.path === path && reads++ < failures) throw tooMany();
			return read(file);
		});
		return {
			reads: () => reads,
			restore: () => {
				syncSpy.mockRestore();
				readSpy.mockRestore();
			},
		};
	}

	test("is read again later until it reads: its links and headings are known (it stayed without them until it changed)", async () => {
		const root = await makeVault({ "Busy.md": "# Busy\n\nSee [[Target]].\n", "Target.md": "# Target\n" });
		try {
			const vault = await NodeVault.open(root);
			// Start's read, the read after start and the first retry fail (the last two try the synchronous read, then the other).
			const failing = failReads(vault, "Busy.md", 5);
			// The second retry comes after the second pause (5 s): its timer is asked for with that pause, and run after
			// 50 ms rather than waited out (5 s of an idle core in the unit tier).
			const realSetTimeout = globalThis.setTimeout;
			const secondPause = NOTE_READ_RETRY_PAUSES_MS[1];
			const secondPauses: number[] = [];
			const timers = jest.spyOn(globalThis, "setTimeout").mockImplementation(((run: () => void, ms?: number, ...rest: unknown[]) => {
				if (ms === undefined || ms !== secondPause) return realSetTimeout(run, ms, ...rest);
				secondPauses.push(ms);
				return realSetTimeout(run, 50, ...rest);
			}) as typeof setTimeout);
			const metadata = await NodeMetadataCache.build(vault);
			try {
				for (const deadline = Date.now() + 30_000; metadata.getCache("Busy.md") === null;) {
					if (Date.now() > deadline) throw new Error(`never read again (${failing.reads()} reads)`);
					await new Promise((resolve) => realSetTimeout(resolve, 50));
				}
				await metadata.settled();
				expect(metadata.getCache("Busy.md")?.headings?.[0]?.heading).toBe("Busy");
				expect(metadata.resolvedLinks["Busy.md"]).toEqual({ "Target.md": 1 });
				expect(secondPauses).toEqual([secondPause]);
			} finally {
				timers.mockRestore();
				failing.restore();
				metadata.close();
				await vault.close();
			}
		} finally {
			await removeDir(root);
		}
	}, 60_000);

	test("a read the permissions refuse is not tried again, and the note is known as holding nothing", async () => {
		const root = await makeVault({ "Gone.md": "# Gone\n", "Target.md": "# Target\n" });
		try {
			const vault = await NodeVault.open(root);
			let reads = 0;
			const denied = () => Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
			const syncSpy = jest.spyOn(vault, "readSync").mockImplementation((file) => {
				if (file.path === "Gone.md") reads++;
				throw denied();
			});
			const readSpy = jest.spyOn(vault, "read").mockImplementation(async (file) => {
				if (file.path === "Gone.md") reads++;
				throw denied();
			});
			const metadata = await NodeMetadataCache.build(vault);
			try {
				await metadata.settled();
				const readsAfterStart = reads;
				expect(readsAfterStart).toBeGreaterThan(1);
				// Past the first retry's pause: no read more.
				await new Promise((resolve) => setTimeout(resolve, (NOTE_READ_RETRY_PAUSES_MS[0] ?? 0) + 500));
				await metadata.settled();
				expect(reads).toBe(readsAfterStart);
				// Known as a note holding nothing, not as one still being read (tools would say so for ever).
				expect(metadata.getCache("Gone.md")).not.toBeNull();
				expect(metadata.getCache("Gone.md")?.headings).toBeUndefined();
			} finally {
				syncSpy.mockRestore();
				readSpy.mockRestore();
				metadata.close();
				await vault.close();
			}
		} finally {
			await removeDir(root);
		}
	}, 60_000);
});

/**
 * A link is resolved by comparing it with every file of the name it asks for, so a name many folders
 * hold (`index.md`, `README.md`, or a planted name) makes each link cost that many comparisons:
 * 3,000 `Same.md` and one note of 60,000 `[[Same]]` held `serve` 250 ms at a time, for 20 s after
 * it started. Counted as files compared between pauses, not timed.
 */
describe("links to a name that hundreds of folders hold", () => {
	const SAME_NAMED = 300;
	const LINKS = 2_000;
	let root: string;

	beforeAll(async () => {
		// Distinct link paths, each asking for the name: one path repeated is resolved once between two pauses.
		const asking = Array.from({ length: LINKS }, (_, index) => `[[Gone ${index}/Same]]`).join(" ");
		const files: Record<string, string> = { "Hub.md": `# Hub\n${asking}\n[[Same]] [[D7/Same]]\n` };
		for (let index = 0; index < SAME_NAMED; index++) files[`D${index}/Same.md`] = `# Same ${index}\n`;
		root = await makeVault(files);
	});

	afterAll(async () => {
		await removeDir(root);
	});

	/** Counts, per piece, the files each resolution compares its link with: every file of the name it asks for. */
	function countFilesCompared(): { perPiece: number[]; restore: () => void } {
		const pieces = countWorkPerPiece();
		const resolve = Object.getOwnPropertyDescriptor(LinkFileIndex.prototype, "resolve")?.value as LinkFileIndex<never>["resolve"];
		const resolved = jest.spyOn(LinkFileIndex.prototype, "resolve").mockImplementation(function (this: LinkFileIndex<never>, ...args) {
			pieces.count(/same$/i.test(args[0]) ? SAME_NAMED : 1);
			return resolve.apply(this, args) as never;
		});
		return {
			perPiece: pieces.perPiece,
			restore: () => {
				resolved.mockRestore();
				pieces.restore();
			},
		};
	}

	test("are resolved at start in pieces of a bounded number of comparisons, to the same files as before", async () => {
		const compared = countFilesCompared();
		let host: NodeHost | undefined;
		try {
			host = await NodeHost.open(root);
		} finally {
			compared.restore();
		}
		try {
			// Obsidian's rule: the shortest path of the name, then the first in path order.
			expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "D0/Same.md": 1, "D7/Same.md": 1 });
			expect(compared.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(LINKS * SAME_NAMED);
			// Before: 512 links a piece whatever each cost, 153,600 files compared in one piece.
			expect(Math.max(...compared.perPiece)).toBeLessThanOrEqual(RESOLVE_CHECK_INTERVAL + SAME_NAMED + 1);
		} finally {
			await host.close();
		}
	});

	test("are resolved again in bounded pieces when a file of that name is created", async () => {
		// Counted from before the cache is made: its clock keeps the way to pause it was made with.
		const compared = countFilesCompared();
		let afterOpen = 0;
		let host: NodeHost | undefined;
		try {
			host = await NodeHost.open(root);
			afterOpen = compared.perPiece.length;
			const cache = host.metadataCache;
			const resolvedAgain = new Promise<void>((done) => cache.on("resolved", () => done()));
			await host.vault.create("A/Same.md", "# closer\n");
			await resolvedAgain;
		} finally {
			compared.restore();
		}
		try {
			const onCreate = compared.perPiece.slice(afterOpen);
			expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "A/Same.md": 1, "D7/Same.md": 1 });
			expect(onCreate.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(LINKS * SAME_NAMED);
			expect(Math.max(...onCreate)).toBeLessThanOrEqual(RESOLVE_CHECK_INTERVAL + SAME_NAMED + 1);
		} finally {
			await host.close();
		}
	}, 60_000);
});
