import * as nodePath from "node:path";
import { parseArgs } from "node:util";
import { lock } from "proper-lockfile";
import { UNDO_LOCK_RETRIES, UNDO_LOCK_RETRY_MS, UNDO_LOCK_STALE_MS } from "../../config/limits";
import { checkOwnFolder } from "../../config/ownFiles";
import { DEFAULT_CONFIG_DIR } from "../NodeVault";
import { journalPathFor } from "../../journal/JournalFile";
import type { WriteJournal } from "../../journal/entry";
import { followMoves } from "../../journal/followMoves";
import { describeUndo, undoCall, unknownCallReason } from "../../journal/undo";
import { UNDO_COMMAND } from "../cliHelp";
import { NodeHost } from "../NodeHost";
import { visibleInTerminal } from "../terminalText";
import type { Logger } from "../../activity";
import { asUsage, loggerFor, quoted, UsageError, vaultRootFrom, type CliIo } from "./io";
import { loadSettings, settingsStoreOf } from "./vaultSettings";
import { journalToUndo } from "./journal";

/** `vault-mcp undo`: undoes one journalled call; exit 0 with what was done, or 1 with why not. */
export async function undo(args: string[], io: CliIo): Promise<number> {
	const { positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: UNDO_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const id = positionals[1];
	if (id === undefined) throw new UsageError(`undo needs the id of a change; \`vault-mcp history ${quoted(root)}\` lists them.`);
	if (positionals.length > 2) throw new UsageError(`undo takes one id; unexpected: ${positionals.slice(2).join(" ")}`);
	const logger = loggerFor(io);
	// One `vault-mcp undo` of a vault at a time: a second waits, then opens the journal and finds the call undone.
	const release = await takeUndoLock(root);
	if (release === null) {
		logger.error(`Another vault-mcp undo of this vault has been running for over a minute. Nothing was changed. Run this one again when it has finished.`);
		return 1;
	}
	try {
		const journal = journalToUndo(root, id, logger);
		if (!journal.get(id)) {
			// Said before the vault is read, which can take a while.
			logger.error(`${unknownCallReason(id)} \`vault-mcp history ${quoted(root)}\` lists them.`);
			return 1;
		}
		return await undoHoldingLock(root, id, journal, io, logger);
	} finally {
		await release().catch(() => undefined);
	}
}

/**
 * The lock held while one `vault-mcp undo` runs: a folder beside the journal, kept fresh while held and taken over once a
 * crashed process left it UNDO_LOCK_STALE_MS old; null when another undo held it through every try (UNDO_LOCK_RETRIES). Taken
 * before the journal is opened: opened before, it did not see the first undo's mark, and the second undid the call again.
 */
async function takeUndoLock(root: string): Promise<(() => Promise<void>) | null> {
	const path = journalPathFor(root, DEFAULT_CONFIG_DIR);
	// The journal's folder is a real one in the vault (it was read from there a moment ago): the lock is not made through a link.
	// No journal folder, no journal: nothing to undo, and the id is said unknown.
	if (checkOwnFolder(root, nodePath.dirname(path), false) === null) return () => Promise.resolve();
	try {
		return await lock(path, {
			realpath: false,
			lockfilePath: `${path}.undo.lock`,
			stale: UNDO_LOCK_STALE_MS,
			retries: { retries: UNDO_LOCK_RETRIES, factor: 1, minTimeout: UNDO_LOCK_RETRY_MS, maxTimeout: UNDO_LOCK_RETRY_MS },
			onCompromised: () => undefined,
		});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ELOCKED") return null;
		throw error;
	}
}

async function undoHoldingLock(root: string, id: string, journal: WriteJournal, io: CliIo, logger: Logger): Promise<number> {
	// Undo writes nowhere a token could not: the saved excluded folders hold for it too.
	const { excludedFolders } = await loadSettings(settingsStoreOf(root), logger);
	const host = await NodeHost.open(root, { metadata: false });
	// And for the copy of another program's version of a note that raced the undo's write, as serve does.
	host.vault.followExcludedFolders(
		() => excludedFolders,
		() => logger.warn("Another program's version of a note, written while the undo replaced it, was not kept beside it: its folder is excluded."),
	);
	// The note a rename's undo moves back is followed, as serve follows it: a later undo of an earlier write finds it there.
	const stopFollowingMoves = followMoves(host.vault, journal);
	try {
		const outcome = await undoCall(host, journal, id, undefined, excludedFolders);
		if (!outcome.ok) {
			logger.error(outcome.reason);
			return 1;
		}
		io.stdout(`${visibleInTerminal(describeUndo(outcome), "\n")}\n`);
		return 0;
	} finally {
		stopFollowingMoves();
		// What the journal still owes (a drop whose append failed) is written before the process ends.
		journal.close?.();
		await host.close();
	}
}
