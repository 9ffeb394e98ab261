/**
 * A map of vault paths to files that also counts, for each folder, the files it holds at any depth, so whether a
 * folder holds any is one look, not a walk of every file. The watcher asks so for every path it finds gone (a
 * folder's notes are unlinked with it): an editor's atomic saver leaves a gone temporary file per save, and a walk
 * of a 10,000-note vault's files for each cost about 330 µs of the event loop. The watcher keeps its watched
 * folders so too, by disk path, for the same question.
 */
export class FilesByPath<F> extends Map<string, F> {
	/** Files at any depth under each folder path ("A", "A/B") that holds one; a folder absent holds none. */
	private readonly held = new Map<string, number>();

	/** `separator`: what parts a path ("/" in a vault path; the watcher's disk paths use the system's). */
	constructor(private readonly separator = "/") {
		super();
	}

	override set(path: string, file: F): this {
		// Map's constructor calls set before this class's fields exist; nothing is passed to it here.
		if (!this.has(path)) this.count(path, 1);
		return super.set(path, file);
	}

	override delete(path: string): boolean {
		if (!super.delete(path)) return false;
		this.count(path, -1);
		return true;
	}

	override clear(): void {
		super.clear();
		this.held.clear();
	}

	/** Whether any file lies inside `folder` ("" for the vault), at any depth. */
	holdsUnder(folder: string): boolean {
		return folder === "" ? this.size > 0 : this.held.has(folder);
	}

	private count(path: string, by: 1 | -1): void {
		for (let slash = path.indexOf(this.separator); slash !== -1; slash = path.indexOf(this.separator, slash + 1)) {
			const folder = path.slice(0, slash);
			const held = (this.held.get(folder) ?? 0) + by;
			if (held === 0) this.held.delete(folder);
			else this.held.set(folder, held);
		}
	}
}
