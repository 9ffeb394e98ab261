/**
 * What a planned change does to a note, as a person reads it: the lines removed and added, with a few
 * lines of context, in hunks. Pure; used by the approval window, the terminal prompt of `serve`
 * and "Show change" in the activity list.
 */
import { diffArrays } from "diff";
import { DIFF_CONTEXT_LINES, DIFF_MAX_EDIT_LENGTH, DIFF_TIMEOUT_MS } from "../config/limits";

type DiffLine = { kind: "same" | "added" | "removed"; text: string } | { kind: "gap"; linesSkipped: number };

/**
 * A change shown as lines. `unmatched` is set when the changed part was too different to match
 * line by line quickly: it is then shown whole, its new lines first (what will be written is what a
 * person must see, even in a view cut short), then the old lines they replace.
 */
export interface NoteDiff {
	lines: DiffLine[];
	unmatched?: { linesRemoved: number; linesAdded: number };
}

/**
 * The lines that differ between `before` (null: a new note) and `after`, with `DIFF_CONTEXT_LINES`
 * of context around each change. The lines both share at the start and end are set aside first,
 * so an edit to one place of a huge note costs only the lines it touches.
 */
export function diffNote(before: string | null, after: string): NoteDiff {
	const oldLines = splitLines(before ?? "");
	const newLines = splitLines(after);
	let prefix = 0;
	while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
	let suffix = 0;
	while (
		suffix < oldLines.length - prefix &&
		suffix < newLines.length - prefix &&
		oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
	)
		suffix++;
	const removed = oldLines.slice(prefix, oldLines.length - suffix);
	const added = newLines.slice(prefix, newLines.length - suffix);
	// Only added or only removed lines (a new note, an append, a cut) need no search, whatever their
	// number: the approval window must show every line of a new note, not a line count.
	const middle =
		removed.length === 0 || added.length === 0
			? [
					{ value: removed, removed: true, added: false },
					{ value: added, removed: false, added: true },
				]
			: diffArrays(removed, added, { maxEditLength: DIFF_MAX_EDIT_LENGTH, timeout: DIFF_TIMEOUT_MS });
	const all: Array<{ kind: "same" | "added" | "removed"; text: string }> = oldLines.slice(0, prefix).map((text) => ({ kind: "same" as const, text }));
	const parts = middle ?? [
		{ value: added, removed: false, added: true },
		{ value: removed, removed: true, added: false },
	];
	for (const part of parts) {
		const kind = part.added ? "added" : part.removed ? "removed" : "same";
		for (const text of part.value) all.push({ kind, text });
	}
	for (const text of oldLines.slice(oldLines.length - suffix)) all.push({ kind: "same", text });
	const lines = withContext(all);
	return middle === undefined ? { lines, unmatched: { linesRemoved: removed.length, linesAdded: added.length } } : { lines };
}

/** Runs of unchanged lines longer than the context on both sides become a gap. */
function withContext(all: ReadonlyArray<{ kind: "same" | "added" | "removed"; text: string }>): DiffLine[] {
	const changed = all.map((line) => line.kind !== "same");
	const lines: DiffLine[] = [];
	let index = 0;
	while (index < all.length) {
		if (changed[index]) {
			lines.push(all[index]!);
			index++;
			continue;
		}
		let end = index;
		while (end < all.length && !changed[end]) end++;
		const keepBefore = index === 0 ? 0 : DIFF_CONTEXT_LINES;
		const keepAfter = end === all.length ? 0 : DIFF_CONTEXT_LINES;
		if (end - index <= keepBefore + keepAfter) {
			lines.push(...all.slice(index, end));
		} else {
			lines.push(...all.slice(index, index + keepBefore));
			lines.push({ kind: "gap", linesSkipped: end - index - keepBefore - keepAfter });
			lines.push(...all.slice(end - keepAfter, end));
		}
		index = end;
	}
	return lines;
}

/** What a view says above an unmatched change, so nobody reads it as a line-by-line diff. */
export function unmatchedNotice(unmatched: NonNullable<NoteDiff["unmatched"]>): string {
	return `Too different to match line by line: the ${unmatched.linesAdded} new line${unmatched.linesAdded === 1 ? "" : "s"} first, then the ${unmatched.linesRemoved} old line${unmatched.linesRemoved === 1 ? "" : "s"} they replace.`;
}

/** The diff as plain text lines: `+ ` added, `- ` removed, `  ` context, `… N lines …` for a gap (for the terminal). */
export function diffAsText(diff: NoteDiff): string[] {
	const notice = diff.unmatched ? [`(${unmatchedNotice(diff.unmatched)})`] : [];
	return notice.concat(
		diff.lines.map((line) => {
			if (line.kind === "gap") return `  … ${line.linesSkipped} unchanged line${line.linesSkipped === 1 ? "" : "s"} …`;
			return `${line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "} ${line.text}`;
		}),
	);
}

/** A note's lines as a person sees them: no line ending, no carriage return, no empty "line" after a final newline. */
function splitLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
	if (text.endsWith("\n")) lines.pop();
	return lines;
}
