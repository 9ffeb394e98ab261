import { Notice, Setting, type App } from "obsidian";
import { ACTIVITY_CHANGES_SHOWN } from "../config/limits";
import type { JournalEntry } from "../journal/entry";
import type { VaultMcpPort } from "./port";
import { drawnAsWritten } from "./diffView";
import { describeCall, ShowChangeModal } from "./ShowChangeModal";
import { undoChangeFlow } from "./undoFlows";

/**
 * The Activity section's list of changes: each journalled call, newest first, with its token,
 * tool, notes (links that open them), time, "Show change" and Undo. Drawn again after an undo (the
 * undone call shows as undone, the undo itself appears) and whenever `refresh` finds the journal
 * changed, so writes an app makes while the tab is open show up.
 */
export class ChangesList {
	/** The ids (and undone marks) of the calls drawn, to tell whether the journal changed since. */
	private drawn = "";

	constructor(
		private readonly containerEl: HTMLElement,
		private readonly plugin: VaultMcpPort,
	) {}

	/** Draws the list again if the journal has other calls, or other undone marks, than the list shows. */
	refresh(): void {
		const entries = this.read();
		if (typeof entries === "string" || signature(entries) !== this.drawn) this.draw(entries);
	}

	/** Draws the list from the journal as it is now. */
	render(): void {
		this.draw(this.read());
	}

	/** The newest calls, or why the journal file could not be read. */
	private read(): JournalEntry[] | string {
		try {
			return this.plugin.journal.list(ACTIVITY_CHANGES_SHOWN);
		} catch (error) {
			return error instanceof Error ? error.message : String(error);
		}
	}

	private draw(entries: JournalEntry[] | string): void {
		const { containerEl, plugin } = this;
		containerEl.empty();
		if (typeof entries === "string") {
			this.drawn = "";
			containerEl.createEl("p", { cls: "vault-mcp-error", text: `The write journal could not be read: ${entries}` });
			return;
		}
		this.drawn = signature(entries);
		if (entries.length === 0) {
			containerEl.createEl("p", { cls: "vault-mcp-muted", text: "No changes yet." });
			return;
		}
		for (const entry of entries) {
			const row = new Setting(containerEl).setName(describeCall(entry));
			row.settingEl.addClass("vault-mcp-change");
			row.settingEl.toggleClass("vault-mcp-undone", entry.undone !== null);
			row.descEl.createSpan({ text: new Date(entry.time).toLocaleString() });
			for (const change of entry.changes) {
				row.descEl.createSpan({ text: change.movedFrom === undefined ? " · " : ` · ${drawnAsWritten(change.movedFrom)} → ` });
				noteLink(row.descEl, plugin.app, change.path);
			}
			if (entry.undone) row.descEl.createSpan({ cls: "vault-mcp-undone-label", text: " · undone" });
			row.addButton((button) => button.setButtonText("Show change").onClick(() => new ShowChangeModal(plugin.app, entry).open()));
			row.addButton((button) => {
				button.setButtonText(entry.undone ? "Undone" : "Undo").setDisabled(entry.undone !== null);
				if (!entry.undone) button.onClick(() => undoChangeFlow(plugin, entry, () => this.render()));
			});
		}
	}
}

function signature(entries: readonly JournalEntry[]): string {
	return entries.map((entry) => `${entry.id}${entry.undone ? "-undone" : ""}`).join(" ");
}

/**
 * A note's path as a link that opens it; a note no longer in the vault is plain text (opening a
 * missing link would create it). The path is drawn as the approval window draws it (`drawnAsWritten`), so a
 * name holding a bidi override reads as it is written.
 */
function noteLink(parent: HTMLElement, app: App, path: string): void {
	if (!app.vault.getFileByPath(path)) {
		parent.createSpan({ cls: "vault-mcp-gone", text: drawnAsWritten(path), attr: { title: "No longer at this path" } });
		return;
	}
	const link = parent.createEl("a", { cls: "vault-mcp-note-link", text: drawnAsWritten(path), attr: { href: "#" } });
	// The row is rebuilt with the tab; its listener goes with it, so nothing outlives the tab's contents.
	link.addEventListener("click", (event) => {
		event.preventDefault();
		void openNote(app, path);
	});
}

async function openNote(app: App, path: string): Promise<void> {
	const file = app.vault.getFileByPath(path);
	if (!file) {
		new Notice(`"${drawnAsWritten(path)}" is no longer in the vault.`);
		return;
	}
	// The file itself, never link text: a path holding `#` (made outside Obsidian) would be read as a link to another note.
	await app.workspace.getLeaf(false).openFile(file, { active: true });
	// Obsidian has no public call to close the settings window; without this the note opens behind it.
	(app as unknown as { setting?: { close?(): void } }).setting?.close?.();
}
