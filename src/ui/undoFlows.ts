import { Notice } from "obsidian";
import type { JournalEntry } from "../journal/entry";
import { describeNotes, UNDO_TOOL } from "../journal/undo";
import { drawnAsWritten } from "./diffView";
import { ConfirmModal } from "./modals";
import type { VaultMcpPort } from "./port";
import { describeCall } from "./ShowChangeModal";

/**
 * The newest change an app made that is not undone yet. Undos a person made are passed over, so
 * the command run again walks further back instead of redoing what it just undid.
 */
function lastUndoable(newestFirst: readonly JournalEntry[]): JournalEntry | null {
	return newestFirst.find((entry) => entry.undone === null && entry.tool !== UNDO_TOOL) ?? null;
}

/** Asks first, then undoes one journalled call and says in a notice what happened to each note. */
export function undoChangeFlow(plugin: VaultMcpPort, entry: JournalEntry, onDone: () => void = () => undefined): void {
	// Paths are drawn as the approval window draws them: a bidi override in a name must not reorder what is asked.
	const paths = entry.changes.map((change) => `"${drawnAsWritten(change.path)}"`).join(", ");
	new ConfirmModal(
		plugin.app,
		`Undo ${describeCall(entry)}?`,
		[
			`Made ${new Date(entry.time).toLocaleString()}, to ${paths}.`,
			"A note still as this change left it gets its earlier text back. A note edited since is left as it is, and its earlier text is saved beside it. A note this change created is moved to the trash.",
		],
		"Undo",
		async () => {
			await undoAndTell(plugin, entry);
			onDone();
		},
	).open();
}

/** The command "Undo the last change an app made" (Obsidian shows it as "Vault MCP: Undo the last change an app made"). */
export function undoLastChangeFlow(plugin: VaultMcpPort): void {
	const entry = lastUndoable(plugin.journal.list());
	if (!entry) {
		new Notice("Nothing to undo: no change an app made is waiting to be undone.");
		return;
	}
	undoChangeFlow(plugin, entry);
}

async function undoAndTell(plugin: VaultMcpPort, entry: JournalEntry): Promise<void> {
	try {
		const outcome = await plugin.undoChange(entry.id);
		const told = outcome.ok ? `Vault MCP undid ${describeCall(entry)}: ${describeNotes(outcome.notes)}.` : `Vault MCP could not undo: ${outcome.reason}`;
		new Notice(drawnAsWritten(told));
	} catch (error) {
		// The journal file could not be read or written: nothing was undone past what the message says.
		new Notice(`Vault MCP could not undo: ${error instanceof Error ? error.message : String(error)}`);
	}
}
