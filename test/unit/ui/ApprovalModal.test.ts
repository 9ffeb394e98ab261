import "../../double/dom";
import type { App } from "obsidian";
import {
	APPROVAL_SWAP_GRACE_MS,
	DIFF_MAX_EDIT_LENGTH,
	DIFF_MAX_MATCH_WORK,
	DIFF_STEP_WORK,
	WINDOW_DIFF_LINES,
	WINDOW_DIFF_LINES_PER_STEP,
} from "../../../src/config/limits";
import type { ApprovalRequest } from "../../../src/mcp/approval";
import { ApprovalModal } from "../../../src/ui/ApprovalModal";
import { renderNoteChanges } from "../../../src/ui/diffView";
import { pressEnter, until } from "../../helpers/dom";
import { countWorkPerPiece } from "../../helpers/workPieces";

/** The approval window for `changes`, opened; the decisions it gave, and its buttons by their text. */
function openedFor(changes: ApprovalRequest["changes"]): { modal: ApprovalModal; decisions: string[]; button: (text: string) => HTMLButtonElement } {
	const decisions: string[] = [];
	const modal = new ApprovalModal(
		{} as App,
		{ id: "c1", tokenName: "Laptop", tool: "append_to_note", toolTitle: "Append to a note", changes },
		1,
		(decision) => decisions.push(decision),
	);
	modal.open();
	const button = (text: string) => [...modal.contentEl.querySelectorAll("button")].find((each) => each.textContent === text)!;
	return { modal, decisions, button };
}

/** Turns of the event loop, each letting one slice of the drawing run. */
async function turns(count: number): Promise<void> {
	for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** The approval window draws a long change in slices: nothing can be approved before all of it is on screen. */
describe("ApprovalModal", () => {
	afterEach(() => document.body.empty());

	test("Approve and Always allow wait until the whole change is drawn; Decline never waits", async () => {
		const before = Array.from({ length: 20_000 }, (_, index) => `line ${index} of a long note, lorem ipsum dolor sit amet`).join("\n");
		const after = `${before}\nthe line this call adds`;
		const decisions: string[] = [];
		const modal = new ApprovalModal(
			{} as App,
			{ id: "c1", tokenName: "Laptop", tool: "append_to_note", toolTitle: "Append to a note", changes: [{ path: "Long.md", before, after }] },
			1,
			(decision) => decisions.push(decision),
		);
		modal.open();
		const button = (text: string) => [...modal.contentEl.querySelectorAll("button")].find((each) => each.textContent === text)!;
		expect(modal.contentEl.querySelector(".vault-mcp-diff-added")).toBeNull();
		expect([button("Approve").disabled, button("Always allow this tool for this token").disabled, button("Decline").disabled]).toEqual([true, true, false]);
		button("Approve").click();
		expect(decisions).toEqual([]);
		await modal.drawing;
		await Promise.resolve();
		expect(modal.contentEl.querySelector(".vault-mcp-diff-added")?.textContent).toBe("+ the line this call adds");
		expect(button("Approve").disabled).toBe(false);
		button("Approve").click();
		expect(decisions).toEqual(["approve"]);
	});

	test("closing the window mid-draw stops working out the change at the next pause (it went on to the end: the whole diff of a big note)", async () => {
		const before = Array.from({ length: 20_000 }, (_, index) => `line ${index} of a long note`).join("\n");
		const after = before
			.split("\n")
			.map((line, index) => (index % 100 === 7 ? `${line} (edited)` : line))
			.join("\n");
		const pieces = countWorkPerPiece();
		try {
			const { modal, decisions } = openedFor([{ path: "Long.md", before, after }]);
			await turns(3);
			modal.close();
			expect(decisions).toEqual(["decline"]);
			const piecesAtClose = pieces.perPiece.length;
			await modal.drawing;
			// Every look at the clock finds the slice used up, so each step of the diff is a piece: one more at most.
			expect(pieces.perPiece.length - piecesAtClose).toBeLessThanOrEqual(1);
			expect(modal.contentEl.childElementCount).toBe(0);
		} finally {
			pieces.restore();
		}
	});

	test("a drawing that fails says the change cannot be approved; Approve and Always allow stay disabled, Decline works (the window waited in silence)", async () => {
		const change = {
			path: "Broken.md",
			after: "new text\n",
			get before(): string {
				throw new RangeError("Invalid string length");
			},
		};
		const { modal, decisions, button } = openedFor([change]);
		await modal.drawing;
		await turns(2);
		expect(modal.contentEl.querySelector(".vault-mcp-approval-not-drawn")?.textContent).toBe(
			"This change could not be shown in full, so it cannot be approved here. Decline it; the app that asked can try again.",
		);
		expect([button("Approve").disabled, button("Always allow this tool for this token").disabled, button("Decline").disabled]).toEqual([true, true, false]);
		button("Approve").click();
		button("Always allow this tool for this token").click();
		expect(decisions).toEqual([]);
		button("Decline").click();
		expect(decisions).toEqual(["decline"]);
	});

	test("a change too costly to match line by line is shown whole, every new then old line, and Approve waits only for the bounded work (it waited for the whole match)", async () => {
		// 2,400 lines each side, no line placed alike (nor the first or last), and over 1,000 lines of each side found nowhere in the other: the match tries edits up to its bound.
		const lines = (first: string, period: number, filler: string, last: string) =>
			[first, ...Array.from({ length: 2_398 }, (_, index) => (index % period ? filler : "z")), last].join("\n");
		const before = lines("old first", 3, "x", "old last");
		const after = lines("new first", 2, "y", "new last");
		const pieces = countWorkPerPiece();
		let piecesDrawing: number;
		let opened: ReturnType<typeof openedFor>;
		try {
			opened = openedFor([{ path: "Long.md", before, after }]);
			await opened.modal.drawing;
			await turns(1);
			piecesDrawing = pieces.perPiece.length;
		} finally {
			pieces.restore();
		}
		const { modal, button, decisions } = opened;
		// The bounded match, the lines split and placed (4,800 each, looked at a few times), and 4,800 lines drawn.
		expect(piecesDrawing).toBeLessThanOrEqual(DIFF_MAX_MATCH_WORK / DIFF_STEP_WORK + 8 + 4_800 / WINDOW_DIFF_LINES_PER_STEP + 4);
		const drawn = [...modal.contentEl.querySelectorAll(".vault-mcp-diff-lines > div")].map((el) => el.textContent);
		expect(drawn[0]).toBe("Too different to match line by line: the 2400 new lines first, then the 2400 old lines they replace.");
		expect(drawn.slice(1)).toEqual([...after.split("\n").map((line) => `+ ${line}`), ...before.split("\n").map((line) => `- ${line}`)]);
		expect(button("Approve").disabled).toBe(false);
		button("Approve").click();
		expect(decisions).toEqual(["approve"]);
	});

	/** Lines drawn in the window, and the text next to Approve saying how many are not shown yet. */
	const drawnLines = (modal: ApprovalModal) => [...modal.contentEl.querySelectorAll(".vault-mcp-diff-lines > div")].map((el) => el.textContent);
	const notShownNotice = (modal: ApprovalModal) => {
		const notice = modal.contentEl.querySelector(".setting-item-description .vault-mcp-approval-not-shown");
		return notice === null || notice.classList.contains("vault-mcp-hidden") ? null : notice.textContent;
	};
	const pageButton = (modal: ApprovalModal) => [...modal.contentEl.querySelectorAll(".vault-mcp-diff-more button")][0] as HTMLButtonElement | undefined;
	const unseenBox = (modal: ApprovalModal) => modal.contentEl.querySelector<HTMLInputElement>(".vault-mcp-approval-unseen input[type=checkbox]")!;
	const tick = (box: HTMLInputElement, checked: boolean) => {
		box.checked = checked;
		box.dispatchEvent(new Event("change"));
	};
	const notSeen = (lines: string) =>
		`${lines} lines of this change are not shown yet: "Show the next" above each note draws them. Approve waits until every line is drawn, or until you tick the box.Approve the ${lines} lines I have not seen too`;

	test("past the first 5,000 lines a button draws the next page in slices; Approve waits until every line is drawn (it could approve 7,345 lines unseen)", async () => {
		const lines = Array.from({ length: 2 * WINDOW_DIFF_LINES + 2_345 }, (_, index) => `Line ${index + 1}`);
		const { modal, button, decisions } = openedFor([{ path: "Long.md", before: null, after: lines.join("\n") }]);
		await modal.drawing;
		await turns(1);
		expect(drawnLines(modal)).toEqual(lines.slice(0, WINDOW_DIFF_LINES).map((line) => `+ ${line}`));
		expect(modal.contentEl.querySelector(".vault-mcp-diff-more")?.textContent).toBe(
			"… and 7,345 more lines of this change, not shown yet.Show the next 5,000 lines",
		);
		expect(notShownNotice(modal)).toBe(notSeen("7,345"));
		expect([button("Approve").disabled, button("Always allow this tool for this token").disabled, button("Decline").disabled]).toEqual([true, true, false]);
		button("Approve").click();
		expect(decisions).toEqual([]);

		const pieces = countWorkPerPiece();
		let piecesForPage: number;
		try {
			pageButton(modal)!.click();
			// Drawn in slices, like the first page: nothing writes until it is on screen, and it is not asked for twice.
			expect([button("Approve").disabled, button("Always allow this tool for this token").disabled, button("Decline").disabled]).toEqual([
				true,
				true,
				false,
			]);
			expect(pageButton(modal)!.disabled).toBe(true);
			button("Approve").click();
			expect(decisions).toEqual([]);
			await modal.drawing;
			await turns(1);
			piecesForPage = pieces.perPiece.length;
		} finally {
			pieces.restore();
		}
		expect(piecesForPage).toBeGreaterThanOrEqual(WINDOW_DIFF_LINES / WINDOW_DIFF_LINES_PER_STEP);
		expect(drawnLines(modal)).toEqual(lines.slice(0, 2 * WINDOW_DIFF_LINES).map((line) => `+ ${line}`));
		expect(notShownNotice(modal)).toBe(notSeen("2,345"));
		expect(pageButton(modal)?.textContent).toBe("Show the next 2,345 lines");
		expect(button("Approve").disabled).toBe(true);

		pageButton(modal)!.click();
		await modal.drawing;
		await turns(1);
		expect(drawnLines(modal)).toEqual(lines.map((line) => `+ ${line}`));
		expect(notShownNotice(modal)).toBeNull();
		expect(modal.contentEl.querySelector(".vault-mcp-diff-more")).toBeNull();
		button("Approve").click();
		expect(decisions).toEqual(["approve"]);
	});

	test("lines not shown can be approved unseen only by ticking the box that names their number; unticked, Approve waits again", async () => {
		const lines = Array.from({ length: WINDOW_DIFF_LINES + 7 }, (_, index) => `Line ${index + 1}`);
		const { modal, button, decisions } = openedFor([{ path: "Long.md", before: null, after: lines.join("\n") }]);
		await modal.drawing;
		await turns(1);
		expect(notShownNotice(modal)).toContain("Approve the 7 lines I have not seen too");
		expect(button("Approve").disabled).toBe(true);
		tick(unseenBox(modal), true);
		expect([button("Approve").disabled, button("Always allow this tool for this token").disabled]).toEqual([false, false]);
		tick(unseenBox(modal), false);
		expect([button("Approve").disabled, button("Always allow this tool for this token").disabled]).toEqual([true, true]);
		button("Approve").click();
		expect(decisions).toEqual([]);
		tick(unseenBox(modal), true);
		button("Approve").click();
		expect(decisions).toEqual(["approve"]);
	});

	test("a change shown whole (too different to match) pages on from its new lines into its old ones, to the last line", async () => {
		const count = Math.max(DIFF_MAX_EDIT_LENGTH + 1, WINDOW_DIFF_LINES / 2 + 500);
		const before = Array.from({ length: count }, (_, index) => `old ${index}`).join("\n");
		const after = Array.from({ length: count }, (_, index) => `new ${index}`).join("\n");
		const { modal, button, decisions } = openedFor([{ path: "Whole.md", before, after }]);
		await modal.drawing;
		await turns(1);
		const whole = [...after.split("\n").map((line) => `+ ${line}`), ...before.split("\n").map((line) => `- ${line}`)];
		expect(drawnLines(modal).slice(1)).toEqual(whole.slice(0, WINDOW_DIFF_LINES));
		expect(notShownNotice(modal)).toContain(`${(2 * count - WINDOW_DIFF_LINES).toLocaleString("en-US")} lines of this change are not shown yet`);
		pageButton(modal)!.click();
		await modal.drawing;
		await turns(1);
		expect(drawnLines(modal)[0]).toBe(`Too different to match line by line: the ${count} new lines first, then the ${count} old lines they replace.`);
		expect(drawnLines(modal).slice(1)).toEqual(whole);
		expect(notShownNotice(modal)).toBeNull();
		button("Approve").click();
		expect(decisions).toEqual(["approve"]);
	});

	/**
	 * The whole-change review of the forty-eighth session: "Always allow" redrawn while Approve had the focus, and a page
	 * asked for during the hold still being drawn when the hold ended. Approve was still disabled then, so the focus was
	 * not given back, and nothing gave it back once the page was drawn: Enter did nothing until Tab. A page here is drawn
	 * when the test says (`drawNoteChanges`), so the hold surely ends first, however loaded the machine. On the base the
	 * look for the focus after the page is drawn fails (the body has it). With the focus put on the box meanwhile, it stays there.
	 */
	test.each(["left off the buttons", "put on the box meanwhile"])(
		"a hold ending while a page is drawn gives the focus back to Approve once the page is drawn (focus %s)",
		async (meanwhile) => {
			let pageDrawn: () => void = () => undefined;
			const pageGate = new Promise<void>((resolve) => (pageDrawn = resolve));
			const slowPages: typeof renderNoteChanges = (parent, changes, closed, paging = {}) =>
				renderNoteChanges(parent, changes, closed, {
					...paging,
					pageDrawing: (page) => paging.pageDrawing?.(page.then(async (whole) => (await pageGate, whole))),
				});
			const lines = Array.from({ length: WINDOW_DIFF_LINES + 7 }, (_, index) => `Line ${index + 1}`);
			const request: ApprovalRequest = {
				id: "c1",
				tokenName: "Laptop",
				tool: "append_to_note",
				toolTitle: "Append to a note",
				changes: [{ path: "Long.md", before: null, after: lines.join("\n") }],
				alwaysAllows: ["append_to_note", "create_note"],
			};
			const decisions: string[] = [];
			const modal = new ApprovalModal({} as App, request, 1, (decision) => decisions.push(decision), { drawNoteChanges: slowPages });
			modal.open();
			const button = (text: string) => [...modal.contentEl.querySelectorAll("button")].find((each) => each.textContent === text)!;
			await modal.drawing;
			await turns(1);
			tick(unseenBox(modal), true);
			const approve = button("Approve");
			approve.focus();
			expect(document.activeElement).toBe(approve);
			request.alwaysAllows = ["append_to_note"];
			modal.redrawAlways();
			pageButton(modal)!.click();
			await until(() => !button("Decline").disabled, APPROVAL_SWAP_GRACE_MS * 20);
			// The hold is over and the page is not drawn yet: Approve waits for it.
			expect(approve.disabled).toBe(true);
			expect(document.activeElement).not.toBe(approve);
			if (meanwhile === "put on the box meanwhile") unseenBox(modal).focus();
			const focusedMeanwhile = document.activeElement;
			pageDrawn();
			await until(() => !approve.disabled);
			expect(drawnLines(modal)).toHaveLength(lines.length);
			if (meanwhile === "put on the box meanwhile") {
				expect(document.activeElement).toBe(focusedMeanwhile);
				return;
			}
			expect(document.activeElement).toBe(approve);
			pressEnter();
			expect(decisions).toEqual(["approve"]);
		},
	);

	test("closing the window while a page is drawn stops drawing it at the next pause, and its button is gone with the window", async () => {
		const lines = Array.from({ length: 3 * WINDOW_DIFF_LINES }, (_, index) => `Line ${index + 1}`);
		const { modal, decisions } = openedFor([{ path: "Long.md", before: null, after: lines.join("\n") }]);
		await modal.drawing;
		await turns(1);
		const more = pageButton(modal)!;
		const pieces = countWorkPerPiece();
		const appendChild = Object.getOwnPropertyDescriptor(Node.prototype, "appendChild")?.value as (this: Node, node: Node) => Node;
		const drawn = jest.spyOn(Node.prototype, "appendChild").mockImplementation(function <T extends Node>(this: Node, node: T): T {
			pieces.count();
			return appendChild.call(this, node) as T;
		});
		let afterClose: number;
		try {
			more.click();
			await turns(3);
			modal.close();
			const countedAtClose = pieces.perPiece.reduce((sum, each) => sum + each, 0);
			await modal.drawing;
			await turns(3);
			more.click();
			await turns(3);
			afterClose = pieces.perPiece.reduce((sum, each) => sum + each, 0) - countedAtClose;
		} finally {
			drawn.mockRestore();
			pieces.restore();
		}
		expect(decisions).toEqual(["decline"]);
		expect(afterClose).toBe(0);
		expect(modal.contentEl.childElementCount).toBe(0);
	});
});
