import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

describe("get_graph_stats", () => {
	let tv: ToolVault;
	afterEach(() => tv.close());

	test("counts notes, links, unresolved links, orphans and tags of the visible notes", async () => {
		tv = await openToolVault(
			{ "Hub.md": "[[A]] [[B]] [[Ghost]] #x\n", "A.md": "[[Hub]] #y\n", "B.md": "", "Lonely.md": "", "Private/P.md": "[[Hub]] [[Hub]] #secret\n" },
			{ excluded: ["Private"] },
		);
		const stats = await tv.ok<{
			notes: number;
			links: number;
			unresolved_links: number;
			orphans: number;
			tags: number;
			top_linked: Array<{ path: string; backlinks: number }>;
		}>("get_graph_stats");
		expect(stats).toMatchObject({ notes: 4, unresolved_links: 1, orphans: 1, tags: 2 });
		expect(stats.top_linked[0]).toEqual({ path: "A.md", backlinks: 1 });
		expect(JSON.stringify(stats)).not.toContain("Private");
	});
});
