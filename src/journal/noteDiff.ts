/**
 * What a planned change does to a note, as a person reads it: the lines removed and added, with a few
 * lines of context, in hunks. Pure; used by the approval window, the terminal prompt of `serve`
 * and "Show change" in the activity list. Written as steps (`diffNoteSteps`): two 1 MiB texts took
 * 0.1–0.3 s in one piece, on Obsidian's UI thread in its windows.
 */
import { DIFF_CONTEXT_LINES, DIFF_MAX_EDIT_LENGTH, DIFF_MAX_MATCH_WORK, DIFF_STEP_WORK } from "../config/limits";
import { runSteps, type Steps } from "../markdown/steps";

type DiffLine = { kind: "same" | "added" | "removed"; text: string } | { kind: "gap"; linesSkipped: number };
type LineKind = "same" | "added" | "removed";

/**
 * A change shown as lines. `unmatched` is set when the changed part was too different to match
 * line by line (more than DIFF_MAX_EDIT_LENGTH lines removed and added, or more than
 * DIFF_MAX_MATCH_WORK work to find which): it is then shown whole, its
 * new lines first (what will be written is what a person must see, even in a view cut short), then
 * the old lines they replace.
 */
export interface NoteDiff {
	lines: DiffLine[];
	unmatched?: { linesRemoved: number; linesAdded: number };
}

/** `diffNoteSteps` run to its end at once (the terminal, and the compare of a change planned again). */
export function diffNote(before: string | null, after: string): NoteDiff {
	return runSteps(diffNoteSteps(before, after));
}

/**
 * The lines that differ between `before` (null: a new note) and `after`, with `DIFF_CONTEXT_LINES`
 * of context around each change. The lines both share at the start and end are set aside first,
 * so an edit to one place of a huge note costs only the lines it touches. Yields after about
 * DIFF_STEP_WORK lines looked at.
 */
export function* diffNoteSteps(before: string | null, after: string): Steps<NoteDiff> {
	const work = new StepWork();
	const oldLines = yield* splitLines(before ?? "", work);
	const newLines = yield* splitLines(after, work);
	let prefix = 0;
	while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) {
		prefix++;
		if (work.done()) yield;
	}
	let suffix = 0;
	while (
		suffix < oldLines.length - prefix &&
		suffix < newLines.length - prefix &&
		oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
	) {
		suffix++;
		if (work.done()) yield;
	}
	const removed = oldLines.slice(prefix, oldLines.length - suffix);
	const added = newLines.slice(prefix, newLines.length - suffix);
	// Only added or only removed lines (a new note, an append, a cut) need no search, whatever their
	// number: the approval window must show every line of a new note, not a line count.
	const matched: ChangedLine[] | null =
		removed.length === 0 || added.length === 0
			? [...removed.map((text) => ({ kind: "removed" as const, text })), ...added.map((text) => ({ kind: "added" as const, text }))]
			: yield* matchLines(removed, added, work);
	const middle = matched ?? [...added.map((text) => ({ kind: "added" as const, text })), ...removed.map((text) => ({ kind: "removed" as const, text }))];
	const all: LineAt = (index) =>
		index < prefix
			? { kind: "same", text: oldLines[index]! }
			: index < prefix + middle.length
				? middle[index - prefix]!
				: { kind: "same", text: oldLines[oldLines.length - suffix + (index - prefix - middle.length)]! };
	const lines = yield* withContext(all, prefix + middle.length + suffix, work);
	return matched === null ? { lines, unmatched: { linesRemoved: removed.length, linesAdded: added.length } } : { lines };
}

interface ChangedLine {
	kind: LineKind;
	text: string;
}
type LineAt = (index: number) => ChangedLine;

/** Counts work done since the last pause: `done()` is true once DIFF_STEP_WORK units were counted (the caller yields). */
class StepWork {
	private count = 0;
	/** Units counted in all. */
	total = 0;
	done(amount = 1): boolean {
		this.total += amount;
		this.count += amount;
		if (this.count < DIFF_STEP_WORK) return false;
		this.count = 0;
		return true;
	}
}

/**
 * The shortest edit between two line lists (Myers' O(ND) walk, each diagonal's furthest point kept
 * per edit count to walk back), or null past DIFF_MAX_EDIT_LENGTH edits or DIFF_MAX_MATCH_WORK
 * units of work. A count of work, not a clock, bounds it: the same change is drawn the same in the
 * approval window, the terminal and "Show change". Lines removed are listed before lines added in
 * each changed run.
 */
function* matchLines(a: readonly string[], b: readonly string[], work: StepWork): Steps<ChangedLine[] | null> {
	const n = a.length;
	const m = b.length;
	const workBound = work.total + DIFF_MAX_MATCH_WORK;
	const max = Math.min(n + m, DIFF_MAX_EDIT_LENGTH);
	const offset = max + 1;
	// Furthest x on each diagonal k = x - y; -1: no valid point there.
	const furthest = new Int32Array(2 * max + 3).fill(-1);
	furthest[offset + 1] = 0;
	const trace: Int32Array[] = [];
	for (let d = 0; d <= max; d++) {
		for (let k = -d; k <= d; k += 2) {
			const from = predecessor((kk) => furthest[offset + kk]!, k, n, m);
			if (from === null) {
				furthest[offset + k] = -1;
				continue;
			}
			let x = from.x;
			let y = x - k;
			while (x < n && y < m && a[x] === b[y]) {
				x++;
				y++;
				if (work.done()) {
					if (work.total > workBound) return null;
					yield;
				}
			}
			furthest[offset + k] = x;
			if (x === n && y === m) {
				trace.push(furthest.slice(offset - d, offset + d + 1));
				return yield* walkBack(a, b, trace, work);
			}
			if (work.done()) yield;
		}
		trace.push(furthest.slice(offset - d, offset + d + 1));
		// Past the bound the change is shown whole (every line it removes and adds) instead: a person reviews it in full, never a line count.
		if (work.total > workBound) return null;
	}
	return null;
}

/**
 * Where diagonal `k` is reached from after one more edit: down from diagonal k + 1 (a line of `b`
 * added) or right from k - 1 (a line of `a` removed), the one reaching further, down on a tie;
 * null when neither lands inside the grid.
 */
function predecessor(furthestAt: (k: number) => number, k: number, n: number, m: number): { down: boolean; x: number } | null {
	const downX = furthestAt(k + 1);
	const downOk = downX >= 0 && downX - k <= m;
	const rightFrom = furthestAt(k - 1);
	const rightOk = rightFrom >= 0 && rightFrom + 1 <= n;
	if (downOk && (!rightOk || downX >= rightFrom + 1)) return { down: true, x: downX };
	if (rightOk) return { down: false, x: rightFrom + 1 };
	return null;
}

/** The lines of the shortest edit `matchLines` found, walked back from the end through `trace`. */
function* walkBack(a: readonly string[], b: readonly string[], trace: readonly Int32Array[], work: StepWork): Steps<ChangedLine[]> {
	const reversed: ChangedLine[] = [];
	let x = a.length;
	let y = b.length;
	for (let d = trace.length - 1; d > 0; d--) {
		const before = trace[d - 1]!;
		const k = x - y;
		const from = predecessor((kk) => (kk < -(d - 1) || kk > d - 1 ? -1 : before[kk + d - 1]!), k, a.length, b.length)!;
		const prevK = from.down ? k + 1 : k - 1;
		const prevX = before[prevK + d - 1]!;
		while (x > from.x) {
			x--;
			reversed.push({ kind: "same", text: a[x]! });
			if (work.done()) yield;
		}
		reversed.push(from.down ? { kind: "added", text: b[prevX - prevK]! } : { kind: "removed", text: a[prevX]! });
		x = prevX;
		y = prevX - prevK;
	}
	while (x > 0) {
		x--;
		reversed.push({ kind: "same", text: a[x]! });
		if (work.done()) yield;
	}
	reversed.reverse();
	return removedFirst(reversed);
}

/** Each run of changed lines with its removed lines first, as a person reads a replacement. */
function removedFirst(lines: ChangedLine[]): ChangedLine[] {
	const ordered: ChangedLine[] = [];
	let run: ChangedLine[] = [];
	const flush = () => {
		for (const line of run) if (line.kind === "removed") ordered.push(line);
		for (const line of run) if (line.kind === "added") ordered.push(line);
		run = [];
	};
	for (const line of lines) {
		if (line.kind === "same") {
			flush();
			ordered.push(line);
		} else run.push(line);
	}
	flush();
	return ordered;
}

/** Runs of unchanged lines longer than the context on both sides become a gap. */
function* withContext(all: LineAt, length: number, work: StepWork): Steps<DiffLine[]> {
	const lines: DiffLine[] = [];
	let index = 0;
	while (index < length) {
		const line = all(index);
		if (line.kind !== "same") {
			lines.push(line);
			index++;
			if (work.done()) yield;
			continue;
		}
		let end = index;
		while (end < length && all(end).kind === "same") {
			end++;
			if (work.done()) yield;
		}
		const keepBefore = index === 0 ? 0 : DIFF_CONTEXT_LINES;
		const keepAfter = end === length ? 0 : DIFF_CONTEXT_LINES;
		if (end - index <= keepBefore + keepAfter) {
			for (let at = index; at < end; at++) lines.push(all(at));
		} else {
			for (let at = index; at < index + keepBefore; at++) lines.push(all(at));
			lines.push({ kind: "gap", linesSkipped: end - index - keepBefore - keepAfter });
			for (let at = end - keepAfter; at < end; at++) lines.push(all(at));
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
function* splitLines(text: string, work: StepWork): Steps<string[]> {
	const lines: string[] = [];
	let start = 0;
	while (start < text.length) {
		const end = text.indexOf("\n", start);
		const line = text.slice(start, end === -1 ? text.length : end);
		lines.push(line.endsWith("\r") ? line.slice(0, -1) : line);
		if (end === -1) break;
		start = end + 1;
		if (work.done()) yield;
	}
	return lines;
}
