// First: the collator the path order uses is counted from when the code under test loads.
import { collatorCalls } from "../../helpers/collatorCalls";
import { NoteMemo } from "../../../src/vault/noteMemo";
import { findTaskPage, type TaskFilter } from "../../../src/vault/tasks";
import { CallBudget } from "../../../src/vault/workBudget";
import type { Host } from "../../../src/host/Host";
import { openVault, type OpenVault } from "../../helpers/hostVault";

const NOTES_WITH_TASKS = 1500;

/** Notes with tasks spread over folders, written in no path order; names a collator orders apart from their code units. */
function files(): Record<string, string> {
	const files: Record<string, string> = {
		"Same/\u00e9.md": "- [ ] accented\n- [x] done accented\n",
		"Same/e.md": "- [ ] small\n",
		"Same/E.md": "- [ ] capital\n",
	};
	for (let index = 0; index < NOTES_WITH_TASKS; index++) {
		const shuffled = (index * 7919) % NOTES_WITH_TASKS;
		files[`F${shuffled % 7}/Note ${shuffled}.md`] = `# ${shuffled}\n- [ ] open ${shuffled}\n- [x] done ${shuffled} 📅 2025-0${1 + (shuffled % 9)}-01\n`;
	}
	return files;
}

/** A budget that never pauses: the call's work is counted, not timed. */
function unhurried(): CallBudget {
	return new CallBudget(async () => undefined, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
}

/**
 * The host with its notes listed in no path order, as Obsidian lists them (in the order it read the
 * folders; the headless host lists them sorted, which a sort passes over in one comparison a note).
 */
function listedInNoOrder(vault: OpenVault): Host {
	const notes = vault.host.vault.getMarkdownFiles();
	const shuffled = notes.map((_, index) => notes[(index * 7919) % notes.length] as (typeof notes)[number]);
	const files = Object.create(vault.host.vault, { getMarkdownFiles: { value: () => shuffled } }) as Host["vault"];
	return { ...vault.host, hiddenLinks: () => vault.host.hiddenLinks(), vault: files };
}

describe("list_tasks: a page costs the notes it reaches in path order, not a sort of every note with tasks", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault(files());
		await vault.host.metadataCache.settled();
	});
	afterAll(async () => {
		await vault.close();
	});

	test(`a page of 10 compares about one path per note with tasks (${NOTES_WITH_TASKS + 3}), not n log n`, async () => {
		const memo = new NoteMemo();
		const host = listedInNoOrder(vault);
		// Each note's tasks read once, so the counted call is the page alone.
		await findTaskPage(host, vault.scope(), { status: "open" }, 10, unhurried(), memo);
		const before = collatorCalls();
		const page = await findTaskPage(host, vault.scope(), { status: "open" }, 10, unhurried(), memo);
		const compared = collatorCalls() - before;
		expect(page.tasks.map((task) => task.path)).toEqual([
			"F0/Note 0.md",
			"F0/Note 1001.md",
			"F0/Note 1008.md",
			"F0/Note 1015.md",
			"F0/Note 1022.md",
			"F0/Note 1029.md",
			"F0/Note 1036.md",
			"F0/Note 1043.md",
			"F0/Note 105.md",
			"F0/Note 1050.md",
		]);
		expect(page.total).toBe(NOTES_WITH_TASKS + 3);
		// A sort of them all: about n log2 n, 15,000 and more.
		expect(compared).toBeLessThan(2 * NOTES_WITH_TASKS);
	});

	test("every page, status, due range and folder: the same answer, byte for byte, as sorting every note", async () => {
		const filters: TaskFilter[] = [
			{ status: "any" },
			{ status: "open" },
			{ status: "done", dueBefore: "2025-05-01" },
			{ status: "any", folder: "Same" },
			{ status: "open", folder: "F3" },
		];
		for (const filter of filters)
			for (const limit of [1, 2, 3, 10, 200, 1000]) {
				// Without a budget the call sorts every note with a task, as before.
				const sorted = await findTaskPage(listedInNoOrder(vault), vault.scope(), filter, limit, undefined, new NoteMemo());
				const picked = await findTaskPage(listedInNoOrder(vault), vault.scope(), filter, limit, unhurried(), new NoteMemo());
				expect(JSON.stringify(picked)).toBe(JSON.stringify(sorted));
			}
	});
});
