import type { Logger } from "../../activity";
import { JournalFile } from "../../journal/JournalFile";
import { DEFAULT_CONFIG_DIR } from "../NodeVault";

/** The vault's write journal, with a warning when lines of it could not be read. */
export function openJournal(root: string, logger: Logger): JournalFile {
	const journal = JournalFile.forVault(root, DEFAULT_CONFIG_DIR, { onProblem: (message) => logger.warn(message) });
	if (journal.skippedLines > 0)
		logger.warn(
			`${journal.skippedLines} damaged line${journal.skippedLines === 1 ? " was" : "s were"} skipped in ${journal.path} (a write cut short by a crash?); the rest is intact.`,
		);
	return journal;
}

/** The journal serve writes through; a linked one is said at once (writes stay refused until it is fixed). */
export function servedJournal(root: string, logger: Logger): JournalFile {
	const journal = openJournal(root, logger);
	if (journal.problem !== null) logger.warn(journal.problem);
	return journal;
}
