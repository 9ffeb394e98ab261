import type { Logger } from "../../activity";
import { JournalFile } from "../../journal/JournalFile";
import { DEFAULT_CONFIG_DIR } from "../NodeVault";

/** The vault's write journal, read whole, with a warning when lines of it could not be read (the CLI's `history` and `undo`: nothing else waits for it). */
export function openJournal(root: string, logger: Logger): JournalFile {
	const journal = JournalFile.forVault(root, DEFAULT_CONFIG_DIR, { onProblem: (message) => logger.warn(message) });
	warnAboutSkippedLines(journal, logger);
	return journal;
}

/**
 * The journal serve writes through. A linked one is said at once (writes stay refused until it is
 * fixed). A large one is read in pieces after opening (`readInPieces`), not whole before serve
 * listens: a 30 MB journal was a piece of about a second. Only `undo` asks the journal about its
 * calls, and it reads everything in first (`catchUp`); records go in meanwhile. Damaged lines are
 * said once the first read-in is done.
 */
export function servedJournal(root: string, logger: Logger): JournalFile {
	const journal = JournalFile.forVault(root, DEFAULT_CONFIG_DIR, { onProblem: (message) => logger.warn(message), readInPieces: true });
	if (journal.problem !== null) logger.warn(journal.problem);
	journal.catchUp().then(
		() => warnAboutSkippedLines(journal, logger),
		() => undefined,
	);
	return journal;
}

function warnAboutSkippedLines(journal: JournalFile, logger: Logger): void {
	if (journal.skippedLines > 0)
		logger.warn(
			`${journal.skippedLines} damaged line${journal.skippedLines === 1 ? " was" : "s were"} skipped in ${journal.path} (a write cut short by a crash?); the rest is intact.`,
		);
}
