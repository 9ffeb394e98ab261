/**
 * Counts the flushes to disk made on the event loop (`fsyncSync`, `fdatasyncSync`) until `restore`: a thread asleep in
 * a flush holds every other client (in Obsidian, the UI), and no CPU measure sees it. The server's code calls into the
 * CommonJS module object, so patching it reaches every caller (a namespace import would be a frozen copy).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: only the CommonJS module object can be patched
const realFs = require("node:fs") as { fsyncSync: (descriptor: number) => void; fdatasyncSync: (descriptor: number) => void };

export interface LoopFlushCount {
	/** Flushes made on the event loop since the count began. */
	readonly count: () => number;
	/** Puts the real calls back. */
	readonly restore: () => void;
}

export function countLoopFlushes(): LoopFlushCount {
	const { fsyncSync, fdatasyncSync } = realFs;
	let flushes = 0;
	realFs.fsyncSync = (descriptor) => {
		flushes++;
		fsyncSync(descriptor);
	};
	realFs.fdatasyncSync = (descriptor) => {
		flushes++;
		fdatasyncSync(descriptor);
	};
	return {
		count: () => flushes,
		restore: () => {
			realFs.fsyncSync = fsyncSync;
			realFs.fdatasyncSync = fdatasyncSync;
		},
	};
}
