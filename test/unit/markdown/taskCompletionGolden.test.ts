import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { changeTaskStatus } from "../../../src/markdown/taskCompletion";
import { TASKS_DEMO_VAULT } from "../../helpers/vault";

/**
 * Chains of recurring tasks completed one after another by the real Tasks plugin, kept in the
 * tasks-demo vault (obsidian-tasks, MIT): newest occurrence on top, each done on 2022-10-03.
 * Completing the oldest, then each new occurrence in turn, must write exactly those lines.
 */
const NOTE = readFileSync(nodePath.join(TASKS_DEMO_VAULT, "Manual Testing/Recurrence handling invalid dates.md"), "utf8");
const CHAINS = NOTE.split(/\n\s*\n/)
	.map((block) => block.split("\n").filter((line) => line.startsWith("- [")))
	.filter((lines) => lines.length > 1);

describe("recurring tasks completed as the Tasks plugin completed them (tasks-demo captures)", () => {
	test("the note holds the chains this test walks", () => {
		expect(CHAINS.length).toBeGreaterThanOrEqual(6);
	});

	test.each(CHAINS.map((chain) => [chain[0] ?? "", chain] as const))("%s", (_top, chain) => {
		const oldest = chain[chain.length - 1] ?? "";
		let open = oldest.replace("- [x]", "- [ ]").replace(/ ✅ \d{4}-\d{2}-\d{2}$/, "");
		const written: string[] = [];
		for (let step = 0; step < chain.length - 1; step++) {
			const result = changeTaskStatus(open, "x", "2022-10-03", "emoji");
			if (!result.ok) throw new Error(result.error);
			const [next = "", done = ""] = result.value.lines;
			written.unshift(done);
			open = next;
		}
		written.unshift(open);
		expect(written).toEqual(chain);
	});
});
