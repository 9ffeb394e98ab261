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

/**
 * Appends one block per note: a heading line saying what happens to it, then its lines, each
 * worked out and drawn in slices (the event loop given back between them). Resolves once every
 * line is drawn; `stillShown` false (the window was closed) stops the work at its next pause.
 */
export async function renderNoteChanges(parent: HTMLElement, changes: readonly NoteChangeView[], stillShown: () => boolean = () => true): Promise<void> {
	const clock = new SliceClock(NOTE_TEXT_SLICE_MS, yieldToEventLoop);
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
		if (!(await clock.runWhile(renderDiffLines(block, diff.value), stillShown)).done) return;
	}
}

function describe(change: NoteChangeView): string {
	if (change.before === null) return " (new note)";
	if (change.after === null) return " (moved to the trash)";
	if (change.movedFrom !== undefined) return change.before === change.after ? " (moved; text unchanged)" : " (moved)";
	return "";
}

/**
 * The lines of one diff, cut at `WINDOW_DIFF_LINES` with a count. A change too different to match
 * line by line is drawn whole, new lines first, under a line saying so.
 */
function* renderDiffLines(parent: HTMLElement, diff: NoteDiff): Steps<void> {
	const body = parent.createEl("pre", { cls: "vault-mcp-diff-lines" });
	if (diff.unmatched) body.createDiv({ cls: "vault-mcp-diff-gap", text: unmatchedNotice(diff.unmatched) });
	if (!diff.lines.some((line) => line.kind === "added" || line.kind === "removed")) {
		body.createDiv({ cls: "vault-mcp-diff-gap", text: "No change to the text." });
		return;
	}
	for (const [index, line] of diff.lines.slice(0, WINDOW_DIFF_LINES).entries()) {
		if (index % WINDOW_DIFF_LINES_PER_STEP === WINDOW_DIFF_LINES_PER_STEP - 1) yield;
		if (line.kind === "gap") {
			body.createDiv({ cls: "vault-mcp-diff-gap", text: `… ${line.linesSkipped} unchanged line${line.linesSkipped === 1 ? "" : "s"} …` });
			continue;
		}
		body.createDiv({ cls: LINE_CLASS[line.kind], text: `${LINE_SIGN[line.kind]} ${drawnAsWritten(line.text)}` });
	}
	const notDrawn = diff.lines.length - WINDOW_DIFF_LINES;
	if (notDrawn > 0)
		body.createDiv({ cls: "vault-mcp-diff-gap", text: `… and ${notDrawn} more line${notDrawn === 1 ? "" : "s"} of this change, not drawn here.` });
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
