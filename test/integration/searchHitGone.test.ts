import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

interface SearchAnswer {
	total: number;
	results: Array<{ path: string; snippets: string[] }>;
}

/**
 * A note another program deleted after it was indexed, before the server noticed (an unwatched
 * host here; in `serve`, within the watcher's delay), is left out of a search's answer: the other
 * hits are still answered, not one error about a write that never happened.
 */
test("search_notes answers the other hits when one hit's file was deleted a moment ago", async () => {
	const vault = await makeVault({
		"Alpha.md": "# Alpha\n\nThe garden plan for spring.\n",
		"Beta.md": "# Beta\n\nA garden plan, deleted soon.\n",
		"Gamma.md": "# Gamma\n\nAnother garden plan.\n",
	});
	const running = await startService(vault);
	const client = await connectClient(running.url, running.tokens.read ?? "");
	try {
		const before = await callOk<SearchAnswer>(client, "search_notes", { query: "garden plan" });
		expect(before.results.map((hit) => hit.path).sort()).toEqual(["Alpha.md", "Beta.md", "Gamma.md"]);
		await fs.rm(nodePath.join(vault, "Beta.md"));
		const after = await callOk<SearchAnswer>(client, "search_notes", { query: "garden plan" });
		expect(after.results.map((hit) => hit.path).sort()).toEqual(["Alpha.md", "Gamma.md"]);
		expect(after.total).toBe(2);
		expect(after.results.every((hit) => hit.snippets.join(" ").includes("garden"))).toBe(true);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
