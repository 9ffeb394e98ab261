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
		// Worked out in slices: a change to a 1 MiB note was 0.1–0.3 s of Obsidian's UI thread in one piece.
		const changes = entry.changes.map(({ path, movedFrom, before, after }) => ({ path, movedFrom, before, after }));
		this.drawn = renderNoteChanges(this.contentEl, changes, this.closed.signal, {
			pageDrawing: (page) => {
				this.drawn = page.then((whole) => this.sayIfNotDrawn(whole));
			},
		}).then(
			() => undefined,
			() => this.sayIfNotDrawn(false),
		);
	}

	/** Aborted when the window closes: the drawing stops at its next pause, the buttons' listeners go. */
	private readonly closed = new AbortController();
	/** Resolves once every change is drawn, or the page asked for (or the window was closed first, or the drawing failed and the window says so). */
	drawn: Promise<void> = Promise.resolve();

	/** A drawing that failed says so above what was drawn, where it is read first (it was an unhandled rejection under a part-drawn change). */
	private sayIfNotDrawn(whole: boolean): void {
		if (whole || this.closed.signal.aborted) return;
		this.contentEl.prepend(this.contentEl.createEl("p", { cls: "vault-mcp-approval-not-drawn", text: "This change could not be shown in full." }));
	}

	override onClose(): void {
		this.closed.abort();
		// Note text leaves the DOM with the window.
		this.contentEl.empty();
	}
}
