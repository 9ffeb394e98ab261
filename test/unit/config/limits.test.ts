import * as limits from "../../../src/config/limits";
import { scanInlineSteps } from "../../../src/markdown/inline";
import { LineIndex } from "../../../src/markdown/lines";
import { metadataSteps } from "../../../src/markdown/metadata";
import type { Steps } from "../../../src/markdown/steps";

/** How many times stepped work offers to pause before it ends. */
function pausesOf(steps: Steps<unknown>): number {
	let pauses = 0;
	while (!steps.next().done) pauses++;
	return pauses;
}

describe("the Markdown parser's pause counts", () => {
	test("building a line index pauses once per LINE_INDEX_PAUSE_LINES lines in each of its two passes (counting the lines, then placing them)", () => {
		const lines = limits.LINE_INDEX_PAUSE_LINES * 3;
		expect(pausesOf(LineIndex.inSteps("x\n".repeat(lines)))).toBe(6);
	});

	test("the inline scan pauses once per INLINE_SCAN_PAUSE_STEPS characters it stops at", () => {
		// Every "#" is a character the scanner stops at.
		expect(pausesOf(scanInlineSteps("#".repeat(limits.INLINE_SCAN_PAUSE_STEPS * 2)))).toBe(2);
	});

	test("a huge paragraph's parse offers a pause at least as often as its line counts say", () => {
		const lines = 40_000;
		const text = "word [[link]] #tag\n".repeat(lines);
		const atLeast =
			Math.floor(lines / limits.LINE_INDEX_PAUSE_LINES) +
			Math.floor(lines / limits.LINE_SPLIT_PAUSE_LINES) +
			Math.floor(lines / limits.INLINE_ITEMS_PAUSE_COUNT);
		expect(pausesOf(metadataSteps(text))).toBeGreaterThanOrEqual(atLeast);
	});
});
