import type { Host } from "../../src/host/Host";
import type { JournalCall, WriteJournal } from "../../src/journal/entry";
import { newCallId } from "../../src/journal/undo";
import { hashText } from "../../src/vault/writes";

/**
 * What a write tool does once the lead's recording wrapper is in place, done by hand: inside the
 * atomic write, compute the new text, record the change, then let the host write it.
 */
export class SimulatedTool {
	constructor(
		private readonly host: Host,
		private readonly journal: WriteJournal,
	) {}

	/** A new call of `tool` by `tokenName`. */
	call(tool = "append_to_note", tokenName = "laptop"): JournalCall {
		return { id: newCallId(), time: new Date().toISOString(), tokenName, tool };
	}

	/** Edits a note as `vault.process` would under a write tool. */
	async edit(call: JournalCall, path: string, change: (text: string) => string): Promise<void> {
		const file = this.host.vault.getFileByPath(path);
		if (!file) throw new Error(`no note ${path}`);
		await this.host.vault.process(file, (before) => {
			const after = change(before);
			this.journal.recordChange(call, { path, before, beforeHash: hashText(before), after, afterHash: hashText(after) });
			return after;
		});
	}

	/** Creates a note as `vault.create` would under create_note. */
	async create(call: JournalCall, path: string, text: string): Promise<void> {
		this.journal.recordChange(call, { path, before: null, beforeHash: null, after: text, afterHash: hashText(text) });
		await this.host.vault.create(path, text);
	}
}
