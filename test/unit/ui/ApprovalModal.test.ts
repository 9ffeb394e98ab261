import "../../double/dom";
import type { App } from "obsidian";
import { ApprovalModal } from "../../../src/ui/ApprovalModal";

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
});
