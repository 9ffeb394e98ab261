/**
 * A note change drawn as lines for a person to read: the approval window and "Show change" in the
 * activity list both use it, so what is approved looks exactly like what is reviewed afterwards.
 * Note text is set as text nodes only (never HTML): it is untrusted. Worked out and drawn in slices
 * on Obsidian's UI thread: two 1 MiB texts took 0.1–0.3 s in one piece.
 */
import { NOTE_TEXT_SLICE_MS, WINDOW_DIFF_LINES, WINDOW_DIFF_LINES_PER_STEP } from "../config/limits";
import type { NoteDiff } from "../journal/noteDiff";
import { diffNoteSteps, unmatchedNotice } from "../journal/noteDiff";
import { visibleInTerminal } from "../headless/terminalText";
import { SliceClock, type Steps } from "../markdown/steps";
import { yieldToEventLoop } from "../vault/workBudget";

/** What one note goes through: its path (and the path it had, when moved) and the text before (null: a new note) and after (null: moved to the trash). */
export interface NoteChangeView {
	path: string;
	movedFrom?: string;
	before: string | null;
	after: string | null;
}

const LINE_CLASS = { same: "vault-mcp-diff-same", added: "vault-mcp-diff-added", removed: "vault-mcp-diff-removed" } as const;
const LINE_SIGN = { same: " ", added: "+", removed: "-" } as const;

/** What a window hears of the pages drawn on request past each note's first WINDOW_DIFF_LINES lines. */
export interface NoteChangesPaging {
	/** A page asked for is being drawn: true once it is, false if it failed (the buttons that write wait for it, as for the first). */
	pageDrawing?(drawn: Promise<boolean>): void;
	/** Lines of every note's diff not drawn yet: after the first pages, and after each page asked for. */
	linesNotShown?(lines: number): void;
}

/** One note's diff and how much of it is on screen. */
interface ShownDiff {
	lines: NoteDiff["lines"];
	body: HTMLElement;
	drawn: number;
}

/** A diff longer than a page: the line saying what is left and the button that draws the next page. */
interface DrawnDiff extends ShownDiff {
	more: HTMLElement;
	moreText: HTMLElement;
	moreButton: HTMLButtonElement;
}

/**
 * Appends one block per note: a heading line saying what happens to it, then its lines, each
 * worked out and drawn in slices (the event loop given back between them), up to
 * WINDOW_DIFF_LINES a note; under a longer diff a button draws the next page, on the same clock.
 * Resolves once each note's first page is drawn; `closed` aborted (the window was closed) stops the
 * work at its next pause and removes the buttons' listeners.
 */
export async function renderNoteChanges(
	parent: HTMLElement,
	changes: readonly NoteChangeView[],
	closed: AbortSignal = new AbortController().signal,
	paging: NoteChangesPaging = {},
): Promise<void> {
	const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
	const stillShown = () => !closed.aborted;
	const paged: DrawnDiff[] = [];
	// One drawing at a time on the clock: the buttons that draw a page wait while another is drawn.
	let drawing = true;
	const notShown = () => paged.reduce((sum, each) => sum + each.lines.length - each.drawn, 0);
	const showMoreButtons = () => {
		for (const each of paged) {
			const left = each.lines.length - each.drawn;
			if (left === 0) {
				each.more.remove();
				continue;
			}
			each.moreText.setText(`… and ${countOf(left, "more line")} of this change, not shown yet.`);
			each.moreButton.setText(`Show the next ${countOf(Math.min(left, WINDOW_DIFF_LINES), "line")}`);
			each.moreButton.disabled = drawing;
		}
	};
	const drawNextPage = (diff: DrawnDiff) => {
		if (drawing || !stillShown() || diff.drawn === diff.lines.length) return;
		drawing = true;
		showMoreButtons();
		const page = clock
			.runWhile(renderLines(diff, diff.drawn + WINDOW_DIFF_LINES), stillShown)
			.then(({ done }) => {
				if (!done || !stillShown()) return false;
				drawing = false;
				showMoreButtons();
				paging.linesNotShown?.(notShown());
				return true;
			})
			.catch(() => false);
		paging.pageDrawing?.(page);
	};
	for (const change of changes) {
		if (!stillShown()) return;
		const block = parent.createDiv({ cls: "vault-mcp-diff" });
		block.createDiv({
			cls: "vault-mcp-diff-path",
			text: drawnAsWritten(`${change.movedFrom === undefined ? "" : `${change.movedFrom} → `}${change.path}${describe(change)}`),
		});
		// Working out a diff of a big change went on for seconds after its window was closed.
		const diff = await clock.runWhile(diffNoteSteps(change.before, change.after ?? ""), stillShown);
		if (!diff.done || !stillShown()) return;
		const body = block.createEl("pre", { cls: "vault-mcp-diff-lines" });
		if (diff.value.unmatched) body.createDiv({ cls: "vault-mcp-diff-gap", text: unmatchedNotice(diff.value.unmatched) });
		if (!diff.value.lines.some((line) => line.kind === "added" || line.kind === "removed")) {
			body.createDiv({ cls: "vault-mcp-diff-gap", text: "No change to the text." });
			continue;
		}
		const shown = { lines: diff.value.lines, body, drawn: 0 };
		if (!(await clock.runWhile(renderLines(shown, WINDOW_DIFF_LINES), stillShown)).done) return;
		if (shown.drawn === shown.lines.length) continue;
		// Under the lines drawn: what is left, and the button that draws the next page of it.
		const more = block.createDiv({ cls: "vault-mcp-diff-more" });
		const rest: DrawnDiff = { ...shown, more, moreText: more.createSpan({ cls: "vault-mcp-diff-gap" }), moreButton: more.createEl("button") };
		listenUntilClosed(rest.moreButton, "click", () => drawNextPage(rest), closed);
		paged.push(rest);
	}
	if (!stillShown()) return;
	drawing = false;
	showMoreButtons();
	paging.linesNotShown?.(notShown());
}

/**
 * Adds a listener that `closed` removes. Not addEventListener's own `signal` option: an AbortSignal
 * made outside the page's window (as in the tests' host double) is refused there.
 */
export function listenUntilClosed<K extends keyof HTMLElementEventMap>(
	target: HTMLElement,
	type: K,
	listener: (event: HTMLElementEventMap[K]) => void,
	closed: AbortSignal,
	options: AddEventListenerOptions = {},
): void {
	if (closed.aborted) return;
	target.addEventListener(type, listener, options);
	closed.addEventListener("abort", () => target.removeEventListener(type, listener, options), { once: true });
}

/** "1 line", "5,000 lines": a count as the windows write it. */
export function countOf(count: number, noun: string): string {
	return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}

function describe(change: NoteChangeView): string {
	if (change.before === null) return " (new note)";
	if (change.after === null) return " (moved to the trash)";
	if (change.movedFrom !== undefined) return change.before === change.after ? " (moved; text unchanged)" : " (moved)";
	return "";
}

/**
 * The lines of one diff from those drawn up to line `until`, pausing every WINDOW_DIFF_LINES_PER_STEP
 * lines. A change too different to match line by line is drawn whole, new lines first, under a line
 * saying so (drawn with the first page).
 */
function* renderLines(diff: ShownDiff, until: number): Steps<void> {
	const end = Math.min(until, diff.lines.length);
	for (; diff.drawn < end; diff.drawn++) {
		const line = diff.lines[diff.drawn]!;
		if (diff.drawn % WINDOW_DIFF_LINES_PER_STEP === WINDOW_DIFF_LINES_PER_STEP - 1) yield;
		if (line.kind === "gap") {
			diff.body.createDiv({ cls: "vault-mcp-diff-gap", text: `… ${line.linesSkipped} unchanged line${line.linesSkipped === 1 ? "" : "s"} …` });
			continue;
		}
		diff.body.createDiv({ cls: LINE_CLASS[line.kind], text: `${LINE_SIGN[line.kind]} ${drawnAsWritten(line.text)}` });
	}
}

/**
 * Text of a note or path as the window draws it: a text node still acts on bidi overrides, and
 * draws zero-width characters and carriage returns as nothing, so a line could read otherwise than
 * it is written; each such character is drawn as its code, as the terminal's approval shows it.
 * The activity list draws its paths through it too.
 */
export function drawnAsWritten(text: string): string {
	return visibleInTerminal(text, "\t");
}
