import { Modal, type App } from "obsidian";
import type { JournalEntry } from "../journal/entry";
import { renderNoteChanges } from "./diffView";

/** "append_to_note by Laptop": how the Activity section and its windows name one journalled call. */
export function describeCall(entry: Pick<JournalEntry, "tool" | "tokenName">): string {
	return `${entry.tool} by ${entry.tokenName}`;
}

/** "Show change": what one journalled call did to each note, drawn exactly as the approval window draws a change. */
export class ShowChangeModal extends Modal {
	constructor(
		app: App,
		private readonly entry: JournalEntry,
	) {
		super(app);
	}

	override onOpen(): void {
		const { entry } = this;
		this.setTitle(describeCall(entry));
		const when = new Date(entry.time).toLocaleString();
		this.contentEl.createEl("p", {
			cls: "vault-mcp-muted",
			text: entry.undone ? `${when} · undone ${new Date(entry.undone.time).toLocaleString()}` : when,
		});
		this.shown = true;
		// Worked out in slices: a change to a 1 MiB note was 0.1–0.3 s of Obsidian's UI thread in one piece.
		this.drawn = renderNoteChanges(
			this.contentEl,
			entry.changes.map(({ path, movedFrom, before, after }) => ({ path, movedFrom, before, after })),
			() => this.shown,
		);
	}

	/** Drawing under way; stops once the window is closed. */
	private shown = false;
	/** Resolves once every change is drawn (or the window was closed first). */
	drawn: Promise<void> = Promise.resolve();

	override onClose(): void {
		this.shown = false;
		// Note text leaves the DOM with the window.
		this.contentEl.empty();
	}
}
