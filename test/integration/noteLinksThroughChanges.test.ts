import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { NOTE_LINKS_MAX_ENTRIES } from "../../src/config/limits";
import type { HostFile } from "../../src/host/Host";
import { backlinks, noteLinks, noteLinksAsNow } from "../../src/vault/links";
import { startBudgetedLinksService, type BudgetedLinksService } from "../helpers/budgetedLinksService";
import type { RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";

/**
 * Another client making notes between a client's get_note_links calls dropped every kept walk at each
 * (any file's coming, going or moving did), so a busy vault kept a walk of more link paths than one
 * call may resolve from ever ending. Here 10,000 link paths and a budget of 5 ms need several calls;
 * between two, notes are made, moved or deleted: after the first call two the own links' walk must see
 * (a note of a name the note links to made, another deleted), after the second two the backlinks' walk
 * must see (a new linking note made, a linking note moved), then one unrelated change after each call.
 * On the base every call was stopped (80 of 80). Now it ends, each
 * link path resolved at most as many times as a related change restarted the walk, and the answer is
 * the one a single call without a budget gives on the vault as it ends. Bounded by counts. About
 * 1.2 s of CPU, 0.4–0.5 of it the server's start. The related changes come in the first two steps, in
 * pairs: a quiet machine's walk of 5,000 paths ended in four calls, before the fourth (one at a step) was made.
 */
const LINK_PATHS = 10_000;
const CALLS = 80;

interface LinksAnswer {
	outgoing: Array<{ link: string; target: string | null; line: number | null }>;
	outgoing_total: number;
	unresolved: string[];
	unresolved_total: number;
	backlinks: Array<{ path: string; count: number }>;
	backlinks_total: number;
}

describe("get_note_links walked over several calls while other notes come, go and move", () => {
	let served: BudgetedLinksService;
	let running: RunningService;
	let client: Client;
	beforeAll(async () => {
		const links = Array.from({ length: LINK_PATHS }, (_, index) => `[[n${index}]]`).join(" ");
		served = await startBudgetedLinksService(
			{
				"Hub.md": "# Hub\n",
				"n3.md": "Three.\n",
				"Private/Secret.md": "Hidden.\n",
				// Links into the excluded folder: its links to Planted are counted from its link texts.
				"Linker0.md": "[[Planted]] [[Private/Secret]]\n",
				"Planted.md": `[[Hub]] [[Private/Secret]] ${links}\n`,
			},
			{ level: "write", countedNote: "Planted.md", excludedFolders: ["Private"] },
		);
		({ running, client } = served);
	}, 60_000);
	afterAll(() => served.close());

	/** The change made after the `step`th stopped call. */
	async function change(step: number): Promise<void> {
		const { vault: files } = running.host;
		const at = (path: string) => files.getFileByPath(path) as HostFile;
		if (step === 0) {
			await files.create("n7.md", "Seven.\n");
			await files.trash(at("n3.md"));
		} else if (step === 1) {
			await files.create("Linker1.md", "[[Planted]] [[Planted#Top]]\n");
			await files.rename(at("Linker0.md"), "Moved/Linker0.md");
		}
		// Then in turn: a note made, moved, deleted.
		else if ((step - 2) % 3 === 0) await files.create(`Other/u${step}.md`, "Unrelated.\n");
		else if ((step - 2) % 3 === 1) await files.rename(at(`Other/u${step - 1}.md`), `Other/v${step}.md`);
		else await files.trash(at(`Other/v${step - 1}.md`));
		await running.host.metadataCache.settled();
	}

	test("ends, and answers as one call without a budget does on the vault as it ends", async () => {
		let answer: LinksAnswer | null = null;
		let calls = 0;
		for (let step = 0; answer === null && calls < CALLS; step++) {
			calls++;
			const outcome = await callTool(client, "get_note_links", { path: "Planted" });
			if (outcome.ok) answer = outcome.value as unknown as LinksAnswer;
			else {
				// Stopped at its budget (a budgeted write here could be stopped too: the changes are another program's).
				expect(outcome.error).toContain("was stopped");
				await change(step);
			}
		}
		// Dropping every walk at any change, no call ended.
		expect(answer).not.toBeNull();
		// Two calls stopped at least: the four related changes were made mid-walk (8 calls on a quiet machine, 4 at 5,000 paths).
		expect(calls).toBeGreaterThanOrEqual(3);
		// The related changes restart the own links' walk twice at most (n7 made, n3 deleted); unrelated ones never.
		expect(served.resolved()).toBeLessThanOrEqual(3 * (LINK_PATHS + 2));

		const { host } = running;
		const scope = { configDir: host.vault.configDir, excludedFolders: ["Private"] };
		const own = noteLinksAsNow(
			host,
			scope,
			await noteLinks(host, scope, host.vault.getFileByPath("Planted.md") as HostFile, NOTE_LINKS_MAX_ENTRIES),
			NOTE_LINKS_MAX_ENTRIES,
		);
		const incoming = await backlinks(host, scope, "Planted.md");
		expect(answer).toMatchObject({
			outgoing: own.outgoing,
			outgoing_total: own.outgoingTotal,
			unresolved: own.unresolved,
			unresolved_total: own.unresolvedTotal,
			backlinks: incoming,
			backlinks_total: incoming.length,
		});
		// What the changes did, seen in that answer.
		expect(own.outgoing.find((link) => link.link === "n7")?.target).toBe("n7.md");
		expect(own.outgoing.find((link) => link.link === "n3")?.target).toBeNull();
		expect(incoming).toEqual([
			{ path: "Linker1.md", count: 2 },
			{ path: "Moved/Linker0.md", count: 1 },
		]);
	});
});
