/**
 * Whether a change planned again on a note another writer changed meanwhile is the change the
 * person approved. Pure, in steps (two 1 MiB notes are compared in slices).
 *
 * The same lines removed and added are not enough: a replacement that now hits another occurrence,
 * or an append that now lands under a section moved elsewhere, removes and adds the same lines at
 * another place, which the person never saw. So the approved change is carried over the other
 * writer's change, hunk by hunk at its place in the text both started from, and the change
 * planned again must give exactly that text. Where the two touch the same lines it is not the same
 * change. Where both add lines at one place (two appends), the other writer's lines come first, as
 * an append made again after them writes.
 */
import { DIFF_STEP_WORK } from "../config/limits";
import { type Steps } from "../markdown/steps";
import { diffNoteSteps, noteLineSteps, type NoteDiff } from "./noteDiff";

/** One changed run of a diff: at line `at` of the text before, `removed` lines replaced by `added`. */
interface Hunk {
	at: number;
	removed: number;
	added: string[];
	/** The other writer's: at one place, its added lines come first. */
	theirs: boolean;
}

/**
 * True when `againAfter` is what the approved change (`approvedBefore` → `approvedAfter`) makes of
 * `againBefore`, the note as another writer left it, at the places it was approved for.
 */
export function* isSameNoteChange(approvedBefore: string, approvedAfter: string, againBefore: string, againAfter: string): Steps<boolean> {
	const ours = yield* hunksOf(yield* diffNoteSteps(approvedBefore, approvedAfter), false);
	const theirs = againBefore === approvedBefore ? [] : yield* hunksOf(yield* diffNoteSteps(approvedBefore, againBefore), true);
	const base = yield* noteLineSteps(approvedBefore);
	const expected = yield* carried(
		base,
		[...ours, ...theirs].sort((a, b) => a.at - b.at || Number(b.theirs) - Number(a.theirs)),
	);
	if (expected === null) return false;
	const written = yield* noteLineSteps(againAfter);
	if (written.length !== expected.length) return false;
	for (let index = 0; index < written.length; index++) {
		if (written[index] !== expected[index]) return false;
		if (index % DIFF_STEP_WORK === DIFF_STEP_WORK - 1) yield;
	}
	return true;
}

/** The changed runs of a diff, each at its line of the text before (a gap skips its lines, an unmatched change is one run). */
function* hunksOf(diff: NoteDiff, theirs: boolean): Steps<Hunk[]> {
	const hunks: Hunk[] = [];
	let line = 0;
	let open: Hunk | null = null;
	for (const [index, each] of diff.lines.entries()) {
		if (index % DIFF_STEP_WORK === DIFF_STEP_WORK - 1) yield;
		if (each.kind === "same" || each.kind === "gap") {
			open = null;
			line += each.kind === "gap" ? each.linesSkipped : 1;
			continue;
		}
		if (open === null) {
			open = { at: line, removed: 0, added: [], theirs };
			hunks.push(open);
		}
		if (each.kind === "removed") {
			open.removed++;
			line++;
		} else open.added.push(each.text);
	}
	return hunks;
}

/** `base` with every hunk made, in order; null when two of them touch the same lines of `base`. */
function* carried(base: readonly string[], hunks: readonly Hunk[]): Steps<string[] | null> {
	const lines: string[] = [];
	let next = 0;
	let work = 0;
	for (const hunk of hunks) {
		if (hunk.at < next) return null;
		for (; next < hunk.at; next++) {
			lines.push(base[next]!);
			if (++work % DIFF_STEP_WORK === 0) yield;
		}
		for (const added of hunk.added) {
			lines.push(added);
			if (++work % DIFF_STEP_WORK === 0) yield;
		}
		next += hunk.removed;
	}
	for (; next < base.length; next++) {
		lines.push(base[next]!);
		if (++work % DIFF_STEP_WORK === 0) yield;
	}
	return lines;
}
