import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import * as nodePath from "node:path";
import * as nodeTimers from "node:timers";
import { UNDO_LOCK_RETRIES, UNDO_LOCK_RETRY_MS, UNDO_LOCK_STALE_MS } from "../config/limits";
import { checkOwnFolder } from "../config/ownFiles";
import { journalPathFor } from "./JournalFile";
import type { UndoOutcome } from "./undo";

/** Who holds an undo lock: written in it before it is put in place. */
interface UndoLockOwner {
	pid: number;
	host: string;
	/** This holding's own name: a release removes only the lock it took. */
	id: string;
}

/** The file in the lock folder naming its holder. */
const OWNER_FILE = "owner.json";

/** An undo lock another undo holds, through every try (UNDO_LOCK_RETRIES): its holder, as far as it is known. */
export class UndoLockHeldError extends Error {
	constructor(
		readonly lockPath: string,
		readonly holderPid: number | null,
	) {
		super(
			`Another undo of this vault${holderPid === null ? "" : ` (process ${holderPid})`} has been running for over a minute. Nothing was changed. Run this undo again when it has finished${holderPid === null ? "" : `; if no process ${holderPid} is running, delete the folder "${lockPath}" first`}.`,
		);
	}
}

/**
 * Runs `work` holding the vault's undo lock: the one lock every undo of a vault takes, in Obsidian (the plugin's Undo and
 * command) and in `vault-mcp undo`, so two undos never plan from the vault while the other writes (one said a renamed note
 * "had changed since" and saved a copy of it beside the one the other had just moved back). Taken before the journal is
 * read: the second finds the call undone. Throws UndoLockHeldError when another holds it through every try.
 *
 * The lock is a folder beside the journal (`journal.jsonl.undo.lock`), put in place whole with its holder's name in it (a
 * folder made with the file already inside, renamed to the lock's name: a rename does not replace a folder holding a file).
 * Its holder keeps its time fresh. It is taken over only from a holder that is gone: its time UNDO_LOCK_STALE_MS old and, on
 * this machine, no process with its id (a paused one, `kill -STOP`, keeps it however long it is paused; proper-lockfile's lock
 * was taken over from a process paused past 10 s, and both undos ran).
 */
export async function withUndoLock<T>(vaultRoot: string, configDir: string, work: () => Promise<T>): Promise<T> {
	const journal = journalPathFor(vaultRoot, configDir);
	// The journal's folder is a real one in the vault: the lock is not made through a link. No journal folder, no journal:
	// nothing to undo, and the caller says so.
	if (checkOwnFolder(vaultRoot, nodePath.dirname(journal), false) === null) return work();
	const release = await takeUndoLock(`${journal}.undo.lock`);
	try {
		return await work();
	} finally {
		release();
	}
}

/** Takes the lock at `lockPath` (see withUndoLock), trying UNDO_LOCK_RETRIES times UNDO_LOCK_RETRY_MS apart; returns its release. */
async function takeUndoLock(lockPath: string): Promise<() => void> {
	const owner: UndoLockOwner = { pid: process.pid, host: hostname(), id: randomBytes(6).toString("hex") };
	let holder: UndoLockOwner | null = null;
	for (let attempt = 0; ; attempt++) {
		if (putInPlace(lockPath, owner)) break;
		holder = ownerOf(lockPath);
		if (isAbandoned(lockPath, holder)) {
			takeAway(lockPath, holder);
			continue;
		}
		if (attempt >= UNDO_LOCK_RETRIES) throw new UndoLockHeldError(lockPath, holder?.pid ?? null);
		await new Promise((resolve) => nodeTimers.setTimeout(resolve, UNDO_LOCK_RETRY_MS));
	}
	// Kept fresh for a holder on another machine to see it held; a timer only: a paused process keeps it by its id.
	const fresh = nodeTimers.setInterval(() => {
		try {
			if (ownerOf(lockPath)?.id === owner.id) utimesSync(lockPath, new Date(), new Date());
		} catch {
			// Gone or unreadable: the release below finds it so.
		}
	}, UNDO_LOCK_STALE_MS / 2);
	fresh.unref();
	return () => {
		nodeTimers.clearInterval(fresh);
		// Only the lock this undo put there (one taken over meanwhile is another's).
		if (ownerOf(lockPath)?.id === owner.id) takeAway(lockPath, owner);
	};
}

/** Puts a lock naming `owner` at `lockPath` when none is there; false when one is. */
function putInPlace(lockPath: string, owner: UndoLockOwner): boolean {
	// An empty folder there is an older vault-mcp's lock (proper-lockfile's): a rename onto it would replace it.
	if (lstatSync(lockPath, { throwIfNoEntry: false }) !== undefined) return false;
	const made = `${lockPath}.${owner.id}.tmp`;
	mkdirSync(made, { mode: 0o700 });
	try {
		writeFileSync(nodePath.join(made, OWNER_FILE), JSON.stringify(owner), { mode: 0o600, flag: "wx" });
		renameSync(made, lockPath);
		return true;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOTEMPTY" || code === "EEXIST" || code === "EPERM" || code === "EACCES") {
			rmSync(made, { recursive: true, force: true });
			return false;
		}
		rmSync(made, { recursive: true, force: true });
		throw error;
	}
}

/** The holder named in the lock at `lockPath`; null when there is none, or it names none (an older vault-mcp's lock). */
function ownerOf(lockPath: string): UndoLockOwner | null {
	try {
		const stats = lstatSync(nodePath.join(lockPath, OWNER_FILE));
		if (!stats.isFile()) return null;
		const read = JSON.parse(readFileSync(nodePath.join(lockPath, OWNER_FILE), "utf8")) as Partial<UndoLockOwner>;
		return typeof read.pid === "number" && typeof read.host === "string" && typeof read.id === "string"
			? { pid: read.pid, host: read.host, id: read.id }
			: null;
	} catch {
		return null;
	}
}

/**
 * Whether the lock's holder is gone (see withUndoLock): its time is UNDO_LOCK_STALE_MS old (a holder keeps it fresh) and, on
 * this machine, no process has its id (a paused one keeps it). Both on this machine: a process in another id space of the same
 * host (Obsidian from Flathub runs in its own) does not see the other's id, and took a live lock over by the id alone.
 */
function isAbandoned(lockPath: string, holder: UndoLockOwner | null): boolean {
	const stats = lstatSync(lockPath, { throwIfNoEntry: false });
	// Gone meanwhile: the next try takes it.
	if (stats === undefined || Date.now() - stats.mtimeMs <= UNDO_LOCK_STALE_MS) return false;
	return holder === null || holder.host !== hostname() || !isRunning(holder.pid);
}

/** Whether a process with this id runs on this machine (one of another user's answers EPERM: it runs). */
function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code !== "ESRCH";
	}
}

/**
 * Moves the lock `seen` held away under a name of its own, then removes it. Another undo may have taken a gone holder's lock
 * over between this one's look and this move (both saw it gone): what was moved is then that undo's live lock, and it is put
 * back. Removed instead, both undos ran at once.
 */
function takeAway(lockPath: string, seen: UndoLockOwner | null): void {
	const away = `${lockPath}.${randomBytes(6).toString("hex")}.gone`;
	try {
		renameSync(lockPath, away);
	} catch {
		// Taken away by another already.
		return;
	}
	if ((ownerOf(away)?.id ?? null) !== (seen?.id ?? null)) {
		try {
			renameSync(away, lockPath);
			return;
		} catch {
			// A third put its lock in place in the moment between the two renames: the one moved is removed below, and its holder
			// and the third then run at once (a window of two renames, left: taking turns at takeovers would close it).
		}
	}
	rmSync(away, { recursive: true, force: true });
}

/** An undo (`undoCall`) run holding the vault's undo lock (withUndoLock); refused, nothing changed, when another holds it past every try. */
export async function undoHoldingLock(vaultRoot: string, configDir: string, run: () => Promise<UndoOutcome>): Promise<UndoOutcome> {
	try {
		return await withUndoLock(vaultRoot, configDir, run);
	} catch (error) {
		if (error instanceof UndoLockHeldError) return { ok: false, reason: error.message };
		throw error;
	}
}
