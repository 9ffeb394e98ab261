/**
 * Counts the files made on the event loop (`openSync` with O_CREAT) below a folder until `restore`: on a disk other
 * programs write to, making a file waits on the file system's journal, and every other client (in Obsidian, the UI)
 * waits with it. The server's code calls into the CommonJS module object, so patching it reaches every caller.
 */
import * as nodePath from "node:path";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: only the CommonJS module object can be patched
const realFs = require("node:fs") as { openSync: (path: unknown, flags?: unknown, mode?: unknown) => number; constants: { O_CREAT: number } };

export interface LoopFileCreates {
	/** Files made on the event loop below the folder since the count began. */
	readonly count: () => number;
	/** Puts the real call back. */
	readonly restore: () => void;
}

/** Counts files made with `openSync` below `folder`, leaving out `except` (a folder below it, e.g. the config folder, where the journal lives). */
export function countLoopFileCreates(folder: string, except: string): LoopFileCreates {
	const { openSync } = realFs;
	let creates = 0;
	const isCounted = (path: unknown) => {
		if (typeof path !== "string") return false;
		const inside = nodePath.relative(folder, path);
		return !inside.startsWith("..") && !nodePath.isAbsolute(inside) && inside.split(nodePath.sep)[0] !== except;
	};
	realFs.openSync = (path, flags, mode) => {
		if (typeof flags === "number" && (flags & realFs.constants.O_CREAT) !== 0 && isCounted(path)) creates++;
		return openSync(path, flags, mode);
	};
	return {
		count: () => creates,
		restore: () => {
			realFs.openSync = openSync;
		},
	};
}
