import type { Logger } from "../../activity";
import type { JournalEntry, WriteJournal } from "../../journal/entry";
import { JournalFile, journalPathFor } from "../../journal/JournalFile";
import { DEFAULT_CONFIG_DIR } from "../NodeVault";

/** The vault's write journal opened as serve opens it, whole: for `history` and `undo` of a linked journal, which it refuses and says why (nothing is read through the link). */
export function openJournal(root: string, logger: Logger): JournalFile {
	const journal = JournalFile.forVault(root, DEFAULT_CONFIG_DIR, { onProblem: (message) => logger.warn(message) });
	warnAboutSkippedLines(journal.skippedLines, journal.path, logger);
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
		() => warnAboutSkippedLines(journal.skippedLines, journal.path, logger),
		() => undefined,
	);
	return journal;
}

/**
 * The newest `limit` calls for `history`, without their note texts, read a piece at a time (a 30 MB
 * journal was read whole, with every text, about three times the file in memory). Nothing is
 * rewritten: a journal past a bound is listed whole, damaged lines are skipped and said (serve and
 * the plugin trim it and rewrite them away, off their write path).
 */
export function listJournal(root: string, limit: number, logger: Logger): JournalEntry[] {
	const path = journalPathFor(root, DEFAULT_CONFIG_DIR);
	const listed = JournalFile.listWithoutTexts(path, limit, { vaultRoot: root });
	if (listed === null) return openJournal(root, logger).list(limit);
	warnAboutSkippedLines(listed.skippedLines, path, logger);
	return listed.entries;
}

/**
 * The journal `undo` reads the call `id` from and records the undo in: read a piece at a time, only
 * the lines naming that call parsed, then appended to (a 200 MB journal was read whole, every text in
 * memory). Never trimmed or rewritten here (see `listJournal`); a linked one is refused.
 */
export function journalToUndo(root: string, id: string, logger: Logger): WriteJournal {
	const path = journalPathFor(root, DEFAULT_CONFIG_DIR);
	const opened = JournalFile.openToUndo(path, id, { vaultRoot: root });
	if (opened === null) return openJournal(root, logger);
	warnAboutSkippedLines(opened.skippedLines, path, logger);
	return opened.journal;
}

function warnAboutSkippedLines(skippedLines: number, path: string, logger: Logger): void {
	if (skippedLines > 0)
		logger.warn(
			`${skippedLines} damaged line${skippedLines === 1 ? " was" : "s were"} skipped in ${path} (a write cut short by a crash?); the rest is intact.`,
		);
}
