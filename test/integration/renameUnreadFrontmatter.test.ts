import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** More lines than MAX_FRONTMATTER_ENTRIES: not read as properties here, while Obsidian reads its `[[links]]`. */
const FILLER = Array.from({ length: 2_100 }, (_, index) => `k${index}: v`).join("\n");

/**
 * Headless, a note whose only link to the renamed note is a property `[[link]]` in a frontmatter
 * over the YAML bounds: the rename cannot rewrite it, and Obsidian would still read the old name
 * there, so the answer must name the note (it was not looked at: its only link was never resolved).
 */
test("rename_note names a note whose only link to it is in a frontmatter too large to be read as properties", async () => {
	const onlyInFrontmatter = `---\nup: "[[Hub]]"\n${FILLER}\n---\nNo link in the text.\n`;
	const hiddenAlike = `---\nup: "[[Hub]]"\n${FILLER}\n---\nPrivate.\n`;
	const brokenYaml = `---\nup: "[[Hub]]\n  : : [\n---\nBroken YAML is read by nobody.\n`;
	const vault = await makeVault({
		"Hub.md": "# Hub\n",
		"Big.md": onlyInFrontmatter,
		"Private/Big.md": hiddenAlike,
		"Broken.md": brokenYaml,
		"Body.md": "See [[Hub]].\n",
	});
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, excludedFolders: ["Private"] } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		const answer = await callOk(client, "rename_note", { path: "Hub", new_path: "Centre" });
		// Before: { notes_updated: 1, links_updated: 1 } and no word of Big.md.
		expect(answer).toEqual({ path: "Hub.md", new_path: "Centre.md", notes_updated: 1, links_updated: 1, frontmatter_not_rewritten: ["Big.md"] });
		expect(await callOk(client, "read_note", { path: "Big.md" })).toMatchObject({ content: onlyInFrontmatter });
		expect(await callOk(client, "read_note", { path: "Body.md" })).toMatchObject({ content: "See [[Centre]].\n" });
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
