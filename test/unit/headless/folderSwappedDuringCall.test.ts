/**
 * A write's file-system call that waits for a thread of the pool (or for a core) leaves another
 * program a window between the jail's look at the folder and the call itself. Here the program
 * swaps the folder for a link to a folder outside the vault just as the call is made, and back as
 * soon as it returns: nothing may be made, moved, linked or removed outside the vault, and the vault's
 * notes stay where they were. The swap is made at the call (the system call named, for the path
 * named), whichever way the writer makes it: through the thread pool or on the event loop.
 */
import nodeFs from "node:fs";
import { readdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { DiskWriter } from "../../../src/headless/DiskWriter";
import { FolderJail } from "../../../src/host/FolderJail";
import { makeTempDir, removeDir } from "../../helpers/vault";

type Swap = { folder: string; outside: string };

/** The calls spied on, each in its pooled and its synchronous form. */
type Call = "open" | "mkdir" | "rename" | "link" | "unlink" | "writeFile";

/**
 * Swaps `swap.folder` for a link to `swap.outside` around the first of the `calls` (pooled or
 * synchronous) whose path ends in `/${name}`, and back once it returns (or its promise settles).
 */
function swapAround(calls: ReadonlyArray<Call>, name: string, swap: Swap): { swapped: () => boolean } {
	let swapped = false;
	const swapOut = () => {
		renameSync(swap.folder, `${swap.folder}.real`);
		symlinkSync(swap.outside, swap.folder);
	};
	const swapBack = () => {
		unlinkSync(swap.folder);
		renameSync(`${swap.folder}.real`, swap.folder);
	};
	const matches = (args: unknown[]) => !swapped && args.some((arg) => typeof arg === "string" && arg.endsWith(`/${name}`));
	for (const call of calls) spyOn(call);
	return { swapped: () => swapped };

	function spyOn(call: Call): void {
		const pooled = nodeFs.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
		const original = pooled[call]?.bind(nodeFs.promises);
		jest.spyOn(pooled, call).mockImplementation(async (...args: unknown[]) => {
			if (!matches(args) || original === undefined) return original?.(...args);
			swapped = true;
			swapOut();
			try {
				return await original(...args);
			} finally {
				swapBack();
			}
		});
		const sync = nodeFs as unknown as Record<string, (...args: unknown[]) => unknown>;
		const syncName = `${call}Sync`;
		const originalSync = sync[syncName]?.bind(nodeFs);
		if (originalSync !== undefined)
			jest.spyOn(sync, syncName).mockImplementation((...args: unknown[]) => {
				if (!matches(args)) return originalSync(...args);
				swapped = true;
				swapOut();
				try {
					return originalSync(...args);
				} finally {
					swapBack();
				}
			});
	}
}

describe("a folder swapped for a link out of the vault at the moment of a write's call in it", () => {
	let vault: string;
	let outside: string;
	let writer: DiskWriter;
	let jail: FolderJail;

	beforeEach(async () => {
		vault = await makeTempDir();
		outside = await makeTempDir("swap-outside-");
		nodeFs.mkdirSync(nodePath.join(vault, "Notes"));
		nodeFs.mkdirSync(nodePath.join(vault, ".trash"));
		jail = await FolderJail.open(vault);
		writer = new DiskWriter(jail);
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(vault);
		await removeDir(outside);
	});

	test("create: the note is made in the vault or refused, never outside", async () => {
		const folder = nodePath.join(jail.root, "Notes");
		const spy = swapAround(["open"], "New.md", { folder, outside });
		const made = await writer.create(nodePath.join(folder, "New.md"), "# New\n\nthe vault's own words\n").then(
			() => true,
			(error: unknown) => (error as { code?: string }).code,
		);
		expect(spy.swapped()).toBe(true);
		expect(readdirSync(outside)).toEqual([]);
		// Made in the very folder it was asked for (held open), or refused as outside the vault and nothing left.
		if (made === true) expect(readFileSync(nodePath.join(folder, "New.md"), "utf8")).toBe("# New\n\nthe vault's own words\n");
		else expect([made, readdirSync(folder)]).toEqual(["EOUTSIDEVAULT", []]);
	});

	test("create into a new folder: no folder is made outside", async () => {
		const folder = nodePath.join(jail.root, "Notes");
		const spy = swapAround(["mkdir"], "Deep", { folder, outside });
		await writer.create(nodePath.join(folder, "Deep", "New.md"), "text\n").catch(() => undefined);
		expect(spy.swapped()).toBe(true);
		expect(readdirSync(outside)).toEqual([]);
	});

	test("copy: no copy is written outside", async () => {
		const folder = nodePath.join(jail.root, "Notes");
		writeFileSync(nodePath.join(folder, "Plan.md"), "the plan\n");
		const spy = swapAround(["writeFile", "open"], "Plan copy.md", { folder, outside });
		await writer.copy(nodePath.join(folder, "Plan.md"), nodePath.join(folder, "Plan copy.md")).catch(() => undefined);
		expect(spy.swapped()).toBe(true);
		expect(readdirSync(outside)).toEqual([]);
	});

	test("trash: the note never leaves the vault through the trash folder", async () => {
		const note = nodePath.join(jail.root, "Notes", "Plan.md");
		writeFileSync(note, "the plan\n");
		const trash = nodePath.join(jail.root, ".trash");
		const spy = swapAround(["rename"], "Plan.md", { folder: trash, outside });
		await writer.trash(note, trash, "Plan", "md").catch(() => undefined);
		expect(spy.swapped()).toBe(true);
		expect(readdirSync(outside)).toEqual([]);
		const kept = [note, nodePath.join(trash, "Plan.md")].filter((path) => nodeFs.existsSync(path)).map((path) => readFileSync(path, "utf8"));
		expect(kept).toEqual(["the plan\n"]);
	});

	test("move: a file of the note's name outside is not removed as the old name", async () => {
		writeFileSync(nodePath.join(jail.root, "Notes", "Plan.md"), "the plan\n");
		nodeFs.mkdirSync(nodePath.join(jail.root, "Done"));
		writeFileSync(nodePath.join(outside, "Plan.md"), "someone else's file\n");
		const spy = swapAround(["unlink"], "Plan.md", { folder: nodePath.join(jail.root, "Notes"), outside });
		await writer.move(nodePath.join(jail.root, "Notes", "Plan.md"), nodePath.join(jail.root, "Done", "Plan.md")).catch(() => undefined);
		expect(spy.swapped()).toBe(true);
		expect(readdirSync(outside)).toEqual(["Plan.md"]);
		expect(readFileSync(nodePath.join(outside, "Plan.md"), "utf8")).toBe("someone else's file\n");
	});

	test("move: the note is not linked outside under its new name", async () => {
		writeFileSync(nodePath.join(jail.root, "Notes", "Plan.md"), "the plan\n");
		nodeFs.mkdirSync(nodePath.join(jail.root, "Done"));
		const spy = swapAround(["link"], "Plan.md", { folder: nodePath.join(jail.root, "Done"), outside });
		await writer.move(nodePath.join(jail.root, "Notes", "Plan.md"), nodePath.join(jail.root, "Done", "Plan.md")).catch(() => undefined);
		expect(spy.swapped()).toBe(true);
		expect(readdirSync(outside)).toEqual([]);
	});
});
