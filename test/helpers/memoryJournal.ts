import type { JournalCall, JournalChange, JournalEntry, WriteJournal } from "../../src/journal/entry";

/** A journal held in memory, for tests of the write path that do not look at the journal's file. */
export class MemoryJournal implements WriteJournal {
	private readonly entries = new Map<string, JournalEntry>();

	recordChange(call: JournalCall, change: JournalChange): void {
		const entry = this.entries.get(call.id) ?? { ...call, changes: [], undone: null };
		entry.changes.push(change);
		this.entries.set(call.id, entry);
	}

	recordChanges(call: JournalCall, changes: readonly JournalChange[]): void {
		for (const change of changes) this.recordChange(call, change);
	}

	recordChangesAhead(call: JournalCall, changes: readonly JournalChange[]): Promise<void> {
		this.recordChanges(call, changes);
		return Promise.resolve();
	}

	dropChange(callId: string, path: string): void {
		const entry = this.entries.get(callId);
		if (!entry) return;
		const index = entry.changes.map((change) => change.path).lastIndexOf(path);
		if (index >= 0) entry.changes.splice(index, 1);
		if (entry.changes.length === 0) this.entries.delete(callId);
	}

	markUndone(callId: string, by: string): void {
		const entry = this.entries.get(callId);
		if (entry) entry.undone = { time: new Date().toISOString(), by };
	}

	list(limit = Infinity): JournalEntry[] {
		return [...this.entries.values()].reverse().slice(0, limit);
	}

	get(callId: string): JournalEntry | null {
		return this.entries.get(callId) ?? null;
	}
}
