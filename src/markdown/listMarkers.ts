import type MarkdownIt from "markdown-it";

/**
 * markdown-it's list markers (lib/rules_block/list.mjs, 14.1.0), which it keeps to its list rule:
 * the list rule parsed in steps (blocks.ts) reads them the same way.
 */

type StateBlock = MarkdownIt.StateBlock;

function isSpace(code: number): boolean {
	return code === 0x09 || code === 0x20;
}

/** The position after a `-`, `+` or `*` marker starting `line` (followed by a space, a tab or the line's end), or -1. */
export function skipBulletListMarker(state: StateBlock, line: number): number {
	const max = state.eMarks[line] ?? 0;
	let pos = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
	const marker = state.src.charCodeAt(pos++);
	if (marker !== 0x2a && marker !== 0x2d && marker !== 0x2b) return -1;
	// " -test " is no list item.
	if (pos < max && !isSpace(state.src.charCodeAt(pos))) return -1;
	return pos;
}

/** The position after a `1.` or `1)` marker (at most 9 digits) starting `line`, followed as a bullet's is, or -1. */
export function skipOrderedListMarker(state: StateBlock, line: number): number {
	const start = (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
	const max = state.eMarks[line] ?? 0;
	let pos = start;
	if (pos + 1 >= max) return -1;
	let ch = state.src.charCodeAt(pos++);
	if (ch < 0x30 || ch > 0x39) return -1;
	for (;;) {
		if (pos >= max) return -1;
		ch = state.src.charCodeAt(pos++);
		if (ch >= 0x30 && ch <= 0x39) {
			// At most 9 digits (markdown-it: no integer overflow in browsers).
			if (pos - start >= 10) return -1;
			continue;
		}
		if (ch === 0x29 || ch === 0x2e) break;
		return -1;
	}
	if (pos < max && !isSpace(state.src.charCodeAt(pos))) return -1;
	return pos;
}
