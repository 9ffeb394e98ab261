/**
 * A settings file that cannot be read is never overwritten: it is left as it is, and one copy of
 * it, `<file>.unreadable-<time>`, is kept beside it, so a person can see what it held even if they
 * remove it to start again. Both the plugin (through Obsidian's adapter) and the CLI (through the
 * file system) keep it this way; only how a file is copied differs.
 */
export class UnreadableFileCopy {
	private made: string | null = null;

	/** `copyFile` copies `from` to a new file `to` (it fails rather than replace a file already there). */
	constructor(
		readonly path: string,
		private readonly copyFile: (from: string, to: string) => Promise<void>,
	) {}

	/** Copies the file aside the first time it is asked; returns the copy's path, the same one each time after. */
	async keep(now = new Date()): Promise<string> {
		if (this.made !== null) return this.made;
		const copy = unreadableCopyPath(this.path, now);
		await this.copyFile(this.path, copy);
		this.made = copy;
		return copy;
	}
}

/** Where the copy of an unreadable `path` made at `now` goes: beside it, stamped with the time (no `:` or `.`, which some file systems refuse). */
export function unreadableCopyPath(path: string, now: Date): string {
	return `${path}.unreadable-${now.toISOString().replace(/[:.]/g, "-")}`;
}
