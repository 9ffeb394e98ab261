import "../../double/dom";
import type { App } from "obsidian";
import { WINDOW_DIFF_LINES } from "../../../src/config/limits";
import type { JournalEntry } from "../../../src/journal/entry";
import { ShowChangeModal } from "../../../src/ui/ShowChangeModal";

/** "Show change" opened on a journalled call that made `changes`. */
function openedFor(changes: Array<Pick<JournalEntry["changes"][number], "path" | "before" | "after">>): ShowChangeModal {
	const entry = { id: "c1", time: "2026-12-05T04:00:00.000Z", tokenName: "Laptop", tool: "create_note", changes, undone: null } as unknown as JournalEntry;
	const modal = new ShowChangeModal({} as App, entry);
	modal.open();
	return modal;
}

const drawnLines = (modal: ShowChangeModal) => [...modal.contentEl.querySelectorAll(".vault-mcp-diff-lines > div")].map((el) => el.textContent);
const pageButton = (modal: ShowChangeModal) => [...modal.contentEl.querySelectorAll(".vault-mcp-diff-more button")][0] as HTMLButtonElement | undefined;
const turns = async (count: number) => {
	for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** What a person reviews of a call afterwards: the same diff, paged the same way, as the approval window. */
describe("ShowChangeModal", () => {
	afterEach(() => document.body.empty());

	test("a drawing that fails says the change could not be shown in full, above what was drawn (it was an unhandled rejection and a part-drawn change)", async () => {
		const unhandled: unknown[] = [];
		const onUnhandled = (reason: unknown) => unhandled.push(reason);
		process.on("unhandledRejection", onUnhandled);
		const appendChild = Object.getOwnPropertyDescriptor(Node.prototype, "appendChild")?.value as (this: Node, node: Node) => Node;
		const failing = jest.spyOn(Node.prototype, "appendChild").mockImplementation(function <T extends Node>(this: Node, node: T): T {
			if ((node as Node & { className?: unknown }).className === "vault-mcp-diff-added" && node.textContent === "+ b")
				throw new RangeError("Invalid string length");
			return appendChild.call(this, node) as T;
		});
		let modal: ShowChangeModal;
		try {
			modal = openedFor([{ path: "Note.md", before: "keep\n", after: "keep\na\nb\nc\n" }]);
			await modal.drawn;
			await turns(2);
		} finally {
			failing.mockRestore();
			process.off("unhandledRejection", onUnhandled);
		}
		expect(unhandled).toEqual([]);
		expect(modal.contentEl.firstElementChild?.textContent).toBe("This change could not be shown in full.");
		expect(drawnLines(modal)).toEqual(["  keep", "+ a"]);
	});

	test("past the first 5,000 lines a button draws the next page, to the last line (the rest was counted, never shown)", async () => {
		const lines = Array.from({ length: WINDOW_DIFF_LINES + 1_234 }, (_, index) => `Line ${index + 1}`);
		const modal = openedFor([{ path: "Long.md", before: null, after: lines.join("\n") }]);
		await modal.drawn;
		expect(drawnLines(modal)).toHaveLength(WINDOW_DIFF_LINES);
		expect(modal.contentEl.querySelector(".vault-mcp-diff-more")?.textContent).toBe(
			"… and 1,234 more lines of this change, not shown yet.Show the next 1,234 lines",
		);
		pageButton(modal)!.click();
		await modal.drawn;
		expect(drawnLines(modal)).toEqual(lines.map((line) => `+ ${line}`));
		expect(modal.contentEl.querySelector(".vault-mcp-diff-more")).toBeNull();
		expect(modal.contentEl.querySelector(".vault-mcp-approval-not-drawn")).toBeNull();
	});
});
