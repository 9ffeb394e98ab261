/**
 * What a planned change does to a note, as a person reads it: the lines removed and added, with a few
 * lines of context, in hunks. Pure; used by the approval window, the terminal prompt of `serve`
 * and "Show change" in the activity list. Written as steps (`diffNoteSteps`): two 1 MiB texts took
 * 0.1–0.3 s in one piece, on Obsidian's UI thread in its windows.
 */
import { DIFF_CONTEXT_LINES, DIFF_LINE_CHARS, DIFF_MAX_EDIT_LENGTH, DIFF_MAX_MATCH_WORK, DIFF_STEP_WORK, NOTE_TEXT_PIECE_CHARS } from "../config/limits";
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
	// The changed middle is read in place (no copy of it, nor a list of it, made in one piece): a new note of a million lines was 0.66 s of one piece.
	const removedCount = oldLines.length - suffix - prefix;
	const addedCount = newLines.length - suffix - prefix;
	const removedAt = (index: number) => oldLines[prefix + index]!;
	const addedAt = (index: number) => newLines[prefix + index]!;
	// Only added or only removed lines (a new note, an append, a cut) need no search, whatever their
	// number: the approval window must show every line of a new note, not a line count.
	const matched: ChangedLine[] | null =
		removedCount === 0 || addedCount === 0 ? null : yield* matchLines({ at: removedAt, length: removedCount }, { at: addedAt, length: addedCount }, work);
	const unmatched = matched === null && removedCount > 0 && addedCount > 0;
	// Unmatched, the new lines come first: what will be written is what a person must see, even in a view cut short.
	const middleAt: LineAt = matched
		? (index) => matched[index]!
		: unmatched
			? (index) => (index < addedCount ? { kind: "added", text: addedAt(index) } : { kind: "removed", text: removedAt(index - addedCount) })
			: (index) => (index < removedCount ? { kind: "removed", text: removedAt(index) } : { kind: "added", text: addedAt(index - removedCount) });
	const middleLength = matched ? matched.length : removedCount + addedCount;
	const all: LineAt = (index) =>
		index < prefix
			? { kind: "same", text: oldLines[index]! }
			: index < prefix + middleLength
				? middleAt(index - prefix)
				: { kind: "same", text: oldLines[oldLines.length - suffix + (index - prefix - middleLength)]! };
	const lines = yield* withContext(all, prefix + middleLength + suffix, work);
	return unmatched ? { lines, unmatched: { linesRemoved: removedCount, linesAdded: addedCount } } : { lines };
}

/** Lines read in place, by index (a part of a note's lines, not copied out). */
interface LineList {
	at(index: number): string;
	length: number;
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
function* matchLines(a: LineList, b: LineList, work: StepWork): Steps<ChangedLine[] | null> {
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
			while (x < n && y < m && a.at(x) === b.at(y)) {
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
function* walkBack(a: LineList, b: LineList, trace: readonly Int32Array[], work: StepWork): Steps<ChangedLine[]> {
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
			reversed.push({ kind: "same", text: a.at(x) });
			if (work.done()) yield;
		}
		reversed.push(from.down ? { kind: "added", text: b.at(prevX - prevK) } : { kind: "removed", text: a.at(prevX) });
		x = prevX;
		y = prevX - prevK;
	}
	while (x > 0) {
		x--;
		reversed.push({ kind: "same", text: a.at(x) });
		if (work.done()) yield;
	}
	return yield* removedFirst(reversed, work);
}

/** `reversed` (the edit walked back from its end) in reading order, each run of changed lines with its removed lines first, as a person reads a replacement. */
function* removedFirst(reversed: readonly ChangedLine[], work: StepWork): Steps<ChangedLine[]> {
	const ordered: ChangedLine[] = [];
	let run: ChangedLine[] = [];
	function* flush(): Steps<void> {
		for (const line of run) if (line.kind === "removed") ordered.push(line);
		for (const line of run) if (line.kind === "added") ordered.push(line);
		if (work.done(run.length)) yield;
		run = [];
	}
	for (let index = reversed.length - 1; index >= 0; index--) {
		const line = reversed[index]!;
		if (line.kind === "same") {
			yield* flush();
			ordered.push(line);
		} else run.push(line);
		if (work.done()) yield;
	}
	yield* flush();
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
	const notice = diff.unmatched ? [unmatchedText(diff.unmatched)] : [];
	return notice.concat(diff.lines.map(diffLineAsText));
}

/** The line a text view puts above an unmatched change. */
export function unmatchedText(unmatched: NonNullable<NoteDiff["unmatched"]>): string {
	return `(${unmatchedNotice(unmatched)})`;
}

/** One line of a diff as plain text, as `diffAsText` writes it. */
export function diffLineAsText(line: NoteDiff["lines"][number]): string {
	if (line.kind === "gap") return `  … ${line.linesSkipped} unchanged line${line.linesSkipped === 1 ? "" : "s"} …`;
	return `${line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "} ${line.text}`;
}

/**
 * A note's lines as a person sees them: no line ending, no carriage return, no empty "line" after a
 * final newline. Looks for each line's end NOTE_TEXT_PIECE_CHARS characters at a time, counted as
 * work: a note of one 50 MiB line (no line break) was one piece of 0.14 s.
 */
function* splitLines(text: string, work: StepWork): Steps<string[]> {
	const lines: string[] = [];
	let start = 0;
	let from = 0;
	while (start < text.length) {
		const windowEnd = Math.min(text.length, from + NOTE_TEXT_PIECE_CHARS);
		const found = text.slice(from, windowEnd).indexOf("\n");
		if (found === -1 && windowEnd < text.length) {
			from = windowEnd;
			if (work.done(NOTE_TEXT_PIECE_CHARS / DIFF_LINE_CHARS)) yield;
			continue;
		}
		const end = found === -1 ? text.length : from + found;
		const line = text.slice(start, end);
		lines.push(line.endsWith("\r") ? line.slice(0, -1) : line);
		if (work.done(1 + Math.floor((end - from) / DIFF_LINE_CHARS))) yield;
		start = from = end + 1;
	}
	return lines;
}

/** A note's lines as `diffNoteSteps` reads them (no line endings), split in steps. */
export function* noteLineSteps(text: string): Steps<string[]> {
	return yield* splitLines(text, new StepWork());
}
