import { parseArgs } from "node:util";
import { DEFAULT_CONFIG_DIR } from "../NodeVault";
import { UndoLockHeldError, withUndoLock } from "../../journal/UndoLock";
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
	// One undo of a vault at a time, here or in Obsidian: a second waits, then opens the journal and finds the call undone.
	try {
		return await withUndoLock(root, DEFAULT_CONFIG_DIR, () => {
			const journal = journalToUndo(root, id, logger);
			if (!journal.get(id)) {
				// Said before the vault is read, which can take a while.
				logger.error(`${unknownCallReason(id)} \`vault-mcp history ${quoted(root)}\` lists them.`);
				return Promise.resolve(1);
			}
			return runUndo(root, id, journal, io, logger);
		});
	} catch (error) {
		if (!(error instanceof UndoLockHeldError)) throw error;
		logger.error(error.message);
		return 1;
	}
}

/** The undo of `id` as the CLI runs it, holding the vault's undo lock (withUndoLock): the vault read, the undo, what it did printed. */
async function runUndo(root: string, id: string, journal: WriteJournal, io: CliIo, logger: Logger): Promise<number> {
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
