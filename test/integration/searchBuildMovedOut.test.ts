import { NodeVault } from "../../src/headless/NodeVault";
import type { HostFile } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

interface SearchAnswer {
	total: number;
	results: Array<{ path: string; snippets: string[] }>;
	index?: { state: string };
}

/**
 * The first index build lists the notes it will index, then indexes them over many slices. A
 * note the person moves into an excluded folder in between (in Obsidian, or on disk with `serve`
 * watching: the same file object, renamed) is excluded by then: the build must not index it at
 * its new path, where every search would find it and show its text.
 */
test("a note moved into an excluded folder while the first index build runs is never found", async () => {
	const notes: Record<string, string> = {
		"Shared/Secret plan.md": "# Secret plan\n\nThe zebracorn budget is 4,000.\n",
		"Private/Diary.md": "# Diary\n\nNothing for the apps.\n",
	};
	for (let index = 0; index < 40; index++) notes[`Shared/Note ${index}.md`] = `# Note ${index}\n\nA garden note.\n`;
	const vault = await makeVault(notes);
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
	const original = NodeVault.prototype.cachedRead;
	let moved = false;
	jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
		// The build's first read, of another note: the secret note is listed and not yet indexed.
		if (!moved && file.path !== "Shared/Secret plan.md" && /indexNextNote/.test(new Error().stack ?? "")) {
			moved = true;
			const secret = this.getFileByPath("Shared/Secret plan.md");
			if (secret) await this.rename(secret, "Private/Secret plan.md");
		}
		return original.call(this, file);
	});
	const running = await startService(vault, { settings: { excludedFolders: ["Private"] } });
	const client = await connectClient(running.url, running.tokens.read ?? "");
	try {
		// Waits without searching (a search helps the build, indexing notes beside it).
		while ((await callOk<{ search_index: { state: string } }>(client, "get_vault_status", {})).search_index.state === "building")
			await new Promise((resolve) => setTimeout(resolve, 20));
		const answer = await callOk<SearchAnswer>(client, "search_notes", { query: "zebracorn budget" });
		expect(moved).toBe(true);
		expect(answer.results.map((hit) => hit.path)).toEqual([]);
		expect(answer.total).toBe(0);
		// The notes it may show are all there.
		expect((await callOk<SearchAnswer>(client, "search_notes", { query: "garden note", limit: 50 })).total).toBe(40);
	} finally {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
