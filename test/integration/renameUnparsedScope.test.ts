/**
 * rename_note reads the notes the cache has not parsed yet, to relink those that name the note (here
 * notes over MAX_STARTUP_PARSE_BYTES, whose parse after start the test holds). Over real HTTP with a
 * token limited to one folder: a note in an excluded folder or outside the token's folders is neither
 * read, named nor changed, and a note another program swapped for a link to outside the vault is left
 * as a deleted one is, not read through, and does not fail the rename of another note.
 */
import { existsSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { MAX_STARTUP_PARSE_BYTES } from "../../src/config/limits";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { NodeVault } from "../../src/headless/NodeVault";
import type { HostFile } from "../../src/host/Host";
import { JournalFile } from "../../src/journal/JournalFile";
import { McpService } from "../../src/service";
import { Gate } from "../helpers/gate";
import { connectClient } from "../helpers/http";
import { RecordingLogger } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

const filler = "plain words for length\n".repeat(Math.ceil((MAX_STARTUP_PARSE_BYTES + 1) / 23));
const big = (secret: string) => `${secret}\n\nSee [[Target]].\n\n${filler}`;

test("rename_note beside notes not parsed yet: relinks the visible ones, leaves hidden ones and a note swapped for a link", async () => {
	const outside = await makeTempDir("red90-outside-");
	const vault = await makeVault({
		"Work/Target.md": "# Target\n",
		"Work/Big.md": big("visible"),
		"Work/Swapped.md": big("swapped"),
		"Work/Small.md": "[[Target]]\n",
		"Private/Big2.md": big("SECRET-EXCLUDED"),
		"Other/Big3.md": big("SECRET-OTHER"),
	});
	writeFileSync(nodePath.join(outside, "Out.md"), "SECRET-OUTSIDE [[Target]]\n");
	const parseRead = new Gate({ open: false });
	const held = new Set<string>();
	const read = Reflect.get<NodeVault, "cachedRead">(NodeVault.prototype, "cachedRead");
	const spy = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
		// The first read of each big note is the cache's parse after start: held. The plan's own reads go on.
		if (file.stat.size > MAX_STARTUP_PARSE_BYTES && !held.has(file.path)) {
			held.add(file.path);
			await parseRead.wait();
		}
		return read.call(this, file);
	});
	const host = await NodeHost.open(vault, { watch: false });
	let settings: VaultMcpSettings = {
		...defaultSettings(),
		excludedFolders: ["Private"],
		serverEnabled: true,
		port: 0,
		writeEnabled: true,
		writeDisclosureAccepted: true,
		rateLimitPerMinute: 1_000_000,
	};
	const made = addToken(settings, "limited", "write", undefined, ["Work"]);
	if ("error" in made) throw new Error(made.error);
	settings = made.settings;
	const service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: JournalFile.forVault(vault, ".obsidian") });
	const status = await service.apply(settings);
	if (status.state !== "listening") throw new Error(JSON.stringify(status));
	const client = await connectClient(status.url, made.token);
	try {
		// Another program swaps the note for a link to a file outside the vault (not watched: the vault still lists it).
		renameSync(nodePath.join(vault, "Work/Swapped.md"), nodePath.join(outside, "old.md"));
		symlinkSync(nodePath.join(outside, "Out.md"), nodePath.join(vault, "Work/Swapped.md"));
		// Not parsed yet: the plan finds the link to the note in its text, not in the cache.
		expect(["Work/Big.md", "Work/Swapped.md"].map((path) => host.metadataCache.getCache(path))).toEqual([null, null]);
		const outcome = await callTool(client, "rename_note", { path: "Work/Target.md", new_path: "Work/Goal.md" });
		const answer = JSON.stringify(outcome);
		expect(answer).not.toMatch(/SECRET|Private|Other|Big2|Big3/u);
		expect(readFileSync(nodePath.join(outside, "Out.md"), "utf8")).toBe("SECRET-OUTSIDE [[Target]]\n");
		expect(readFileSync(nodePath.join(vault, "Private/Big2.md"), "utf8")).toBe(big("SECRET-EXCLUDED"));
		expect(readFileSync(nodePath.join(vault, "Other/Big3.md"), "utf8")).toBe(big("SECRET-OTHER"));
		// On lead5 (81da6631) the rename failed: "That path is not part of the vault", for a note the client never named.
		expect(outcome).toMatchObject({ ok: true, value: { notes_updated: 2, links_updated: 2 } });
		expect(existsSync(nodePath.join(vault, "Work/Goal.md"))).toBe(true);
		expect(readFileSync(nodePath.join(vault, "Work/Big.md"), "utf8")).toBe(big("visible").replace("[[Target]]", "[[Goal]]"));
		expect(readFileSync(nodePath.join(vault, "Work/Small.md"), "utf8")).toBe("[[Goal]]\n");
	} finally {
		parseRead.open();
		spy.mockRestore();
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(vault);
		await removeDir(outside);
	}
}, 60_000);
