import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NodeVault } from "../../src/headless/NodeVault";
import type { HostFile } from "../../src/host/Host";
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

/**
 * A hit's note the person moves into an excluded folder while search_notes reads it for its
 * snippets (the same file object, renamed) is left out, as a note deleted then is. It was answered
 * at its old path, with snippets of the text it held in the excluded folder.
 */
test("search_notes leaves out a hit moved into an excluded folder while its snippets' text is read", async () => {
	const vault = await makeVault({
		"Alpha.md": "# Alpha\n\nThe garden plan for spring.\n",
		"Beta.md": "# Beta\n\nA garden plan, moved away soon.\n",
	});
	const running = await startService(vault, { settings: { excludedFolders: ["Private"] } });
	await running.service.search?.whenReady();
	const client = await connectClient(running.url, running.tokens.read ?? "");
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
	const original = NodeVault.prototype.cachedRead;
	let moved = false;
	jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
		if (!moved && file.path === "Beta.md") {
			moved = true;
			await fs.mkdir(nodePath.join(vault, "Private"));
			await running.host.vault.rename(file, "Private/Beta.md");
			await fs.writeFile(nodePath.join(vault, "Private/Beta.md"), "# Beta\n\nA garden plan, and the private words kept here.\n");
		}
		return original.call(this, file);
	});
	try {
		const after = await callOk<SearchAnswer>(client, "search_notes", { query: "garden plan" });
		expect(moved).toBe(true);
		expect(JSON.stringify(after)).not.toMatch(/private|Beta/iu);
		expect(after.results.map((hit) => hit.path)).toEqual(["Alpha.md"]);
		expect(after.total).toBe(1);
	} finally {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
