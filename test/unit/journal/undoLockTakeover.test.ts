/**
 * Two undos taking over one gone holder's undo lock (`withUndoLock`) at once: each saw the holder gone, the first took the
 * lock away and put its own in place, and the second then took away the first's live lock (it removed whatever was at the
 * lock's path, not the gone holder's) and put its own: both undos ran at once. The interleaving of two processes is made
 * here in one: the second's look at the gone holder (process.kill(pid, 0)) is where the first takes the lock over.
 */
import { mkdirSync, promises as fs, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import * as nodePath from "node:path";
import { UNDO_LOCK_STALE_MS } from "../../../src/config/limits";
import { journalPathFor } from "../../../src/journal/JournalFile";
import { withUndoLock } from "../../../src/journal/UndoLock";
import { makeVault, removeDir } from "../../helpers/vault";

/** A process id no process has here: process.kill is told to answer ESRCH for it. */
const GONE_PID = 0x7ffffff0;

let vault: string;
let lockPath: string;
beforeEach(async () => {
	vault = await makeVault({ "a.md": "a\n" });
	lockPath = `${journalPathFor(vault, ".obsidian")}.undo.lock`;
	await fs.mkdir(lockPath, { recursive: true });
	await fs.writeFile(nodePath.join(lockPath, "owner.json"), JSON.stringify({ pid: GONE_PID, host: hostname(), id: "gone" }));
	// Left by a crashed undo: no longer kept fresh.
	const past = new Date(Date.now() - 2 * UNDO_LOCK_STALE_MS);
	await fs.utimes(lockPath, past, past);
}, 30_000);
afterEach(async () => {
	jest.restoreAllMocks();
	await removeDir(vault);
}, 30_000);

test("two undos taking over a gone holder's lock at once run one after the other", async () => {
	let running = 0;
	let mostAtOnce = 0;
	const work = async () => {
		running += 1;
		mostAtOnce = Math.max(mostAtOnce, running);
		await new Promise((resolve) => setTimeout(resolve, 30));
		running -= 1;
	};
	const others: Array<Promise<void>> = [];
	const kill = process.kill.bind(process);
	jest.spyOn(process, "kill").mockImplementation((pid: number, signal?: string | number) => {
		if (pid !== GONE_PID) return kill(pid, signal);
		// The other undo, in the same moment, finds the holder gone too and takes the lock over (synchronously, up to its work).
		if (others.length === 0) {
			others.push(Promise.resolve());
			others[0] = withUndoLock(vault, ".obsidian", work);
		}
		throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" });
	});
	await withUndoLock(vault, ".obsidian", work);
	await Promise.all(others);
	expect(others).toHaveLength(1);
	expect(mostAtOnce).toBe(1);
	// Both released theirs: nothing left at the lock's path, nor beside it.
	const left = (await fs.readdir(nodePath.dirname(lockPath))).filter((name) => name.includes(".undo.lock"));
	expect(left).toEqual([]);
}, 30_000);

test("a lock put in place by another after the gone holder's was seen is not taken away", async () => {
	// The lock the gone holder left is replaced by a live one (this process's) between the look and the takeover.
	const kill = process.kill.bind(process);
	let replaced = false;
	jest.spyOn(process, "kill").mockImplementation((pid: number, signal?: string | number) => {
		if (pid !== GONE_PID) return kill(pid, signal);
		if (!replaced) {
			replaced = true;
			// Synchronous, as another process's would be between two of this one's steps: a live owner's folder renamed into place.
			rmSync(lockPath, { recursive: true });
			mkdirSync(`${lockPath}.live`);
			writeFileSync(nodePath.join(`${lockPath}.live`, "owner.json"), JSON.stringify({ pid: process.pid, host: hostname(), id: "live" }));
			renameSync(`${lockPath}.live`, lockPath);
		}
		throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" });
	});
	let ran = false;
	const undo = withUndoLock(vault, ".obsidian", () => {
		ran = true;
		return Promise.resolve();
	});
	// The live lock stays where it is while its holder holds it: the undo waits.
	await new Promise((resolve) => setTimeout(resolve, 100));
	const owner = JSON.parse(await fs.readFile(nodePath.join(lockPath, "owner.json"), "utf8")) as { id: string };
	expect(owner.id).toBe("live");
	expect(ran).toBe(false);
	// Its holder releases it: the undo takes it.
	await fs.rm(lockPath, { recursive: true });
	await undo;
	expect(ran).toBe(true);
}, 30_000);

test("a lock kept fresh is not taken over though no process here has its holder's id (Obsidian from Flathub has ids of its own)", async () => {
	const now = new Date();
	await fs.utimes(lockPath, now, now);
	let ran = false;
	const undo = withUndoLock(vault, ".obsidian", () => {
		ran = true;
		return Promise.resolve();
	});
	// On the base the id alone said "gone": the lock was taken over at the first try and the undo ran beside its holder.
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect(ran).toBe(false);
	// The holder (in its own id space) ends its undo and lets the lock go: the waiting undo takes it.
	rmSync(lockPath, { recursive: true, force: true });
	await undo;
	expect(ran).toBe(true);
}, 30_000);
