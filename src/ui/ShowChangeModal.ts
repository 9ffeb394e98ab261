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
		renderNoteChanges(
			this.contentEl,
			entry.changes.map(({ path, movedFrom, before, after }) => ({ path, movedFrom, before, after })),
		);
	}

	override onClose(): void {
		// Note text leaves the DOM with the window.
		this.contentEl.empty();
	}
}
