import type { HostFile } from "../../../../src/host/Host";
import { NOTE_LINKS_MAX_ENTRIES } from "../../../../src/config/limits";
import { getNoteLinksTool } from "../../../../src/mcp/tools/get_note_links";
import { openToolVault, pausingContext, type ToolVault } from "../../../helpers/toolVault";

describe("get_note_links", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{
				"Plan.md": "See [[Ideas]], [[Missing]] and [[Private/Diary]].\n",
				"Ideas.md": "Back to [[Plan]].\n",
				"Private/Diary.md": "[[Plan]] secretly\n",
			},
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("outgoing links with their targets, unresolved ones, and backlinks from visible notes only", async () => {
		const links = await tv.ok("get_note_links", { path: "Plan" });
		expect(links).toMatchObject({ path: "Plan.md", backlinks: [{ path: "Ideas.md", count: 1 }], backlinks_total: 1, truncated: false });
		expect(links.outgoing).toEqual(
			expect.arrayContaining([
				{ link: "Ideas", target: "Ideas.md", line: 0 },
				{ link: "Missing", target: null, line: 0 },
			]),
		);
		expect(JSON.stringify(links)).not.toContain('Diary.md"');
	});

	test("a missing note is refused", async () => {
		expect(await tv.error("get_note_links", { path: "Nope" })).toMatch(/^No note "Nope"/);
	});
});

describe("get_note_links while a link target moves during the call", () => {
	interface Links {
		outgoing: Array<{ link: string; target: string | null }>;
		unresolved: string[];
		unresolved_total: number;
	}

	/**
	 * Calls get_note_links on `path`, running `move` at the call's last pause, after the note's links were
	 * resolved (the same file object renamed, as Obsidian renames it): a first call counts the pauses.
	 */
	async function linksWithMove(notes: Record<string, string>, path: string, move: (tv: ToolVault) => Promise<void>): Promise<Links> {
		const tv = await openToolVault(notes, { excluded: ["Private"] });
		try {
			const { ctx, pauses } = pausingContext(tv.vault, "Private");
			const pause = ctx.callBudget?.pause;
			if (!ctx.callBudget || !pause) throw new Error("no call budget");
			const counted = await getNoteLinksTool.handler(ctx, { path, limit: 10 });
			if (!counted.ok) throw new Error(counted.error);
			const last = pauses();
			let seen = 0;
			let moved = false;
			ctx.callBudget.pause = async () => {
				if (++seen === last) {
					moved = true;
					await move(tv);
				}
				await pause();
			};
			const answer = await getNoteLinksTool.handler(ctx, { path, limit: 10 });
			expect(moved).toBe(true);
			if (!answer.ok) throw new Error(answer.error);
			return answer.value;
		} finally {
			await tv.close();
		}
	}

	const rename = (from: string, to: string) => async (tv: ToolVault) => {
		await tv.vault.host.vault.rename(tv.vault.host.vault.getFileByPath(from) as HostFile, to);
	};

	test("a target renamed to another visible path is answered at its new path, not unresolved", async () => {
		const links = await linksWithMove({ "Plan.md": "See [[Ideas]].\n", "Ideas.md": "x\n" }, "Plan.md", rename("Ideas.md", "Archive/Ideas.md"));
		expect(links.outgoing).toEqual([{ link: "Ideas", target: "Archive/Ideas.md", line: 0 }]);
		expect(links.unresolved).toEqual([]);
		expect(links.unresolved_total).toBe(0);
	});

	test("a target moved out of sight that only links past the first NOTE_LINKS_MAX_ENTRIES reach is counted unresolved", async () => {
		const text = `${"[[Stay]] ".repeat(NOTE_LINKS_MAX_ENTRIES)}[[Gone]]\n`;
		const links = await linksWithMove({ "Plan.md": text, "Stay.md": "x\n", "Gone.md": "y\n" }, "Plan.md", rename("Gone.md", "Private/Gone.md"));
		expect(links.unresolved).toEqual(["Gone"]);
		expect(links.unresolved_total).toBe(1);
		expect(JSON.stringify(links)).not.toContain("Private");
	});

	test("with NOTE_LINKS_MAX_ENTRIES unresolved link paths listed already, a target moved out of sight counts once however many links reach it", async () => {
		const missing = Array.from({ length: NOTE_LINKS_MAX_ENTRIES }, (_, index) => `[[Missing ${index}]]`).join(" ");
		const links = await linksWithMove({ "Plan.md": `[[Gone]] [[Gone]] ${missing}\n`, "Gone.md": "y\n" }, "Plan.md", rename("Gone.md", "Private/Gone.md"));
		expect(links.unresolved.length).toBe(NOTE_LINKS_MAX_ENTRIES);
		expect(links.unresolved_total).toBe(NOTE_LINKS_MAX_ENTRIES + 1);
	});
});
