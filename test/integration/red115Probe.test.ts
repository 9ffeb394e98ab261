import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { HUGE_NOTE_LINKS, SLICED_TASKS } from "../../src/config/limits";
import { NodeVault } from "../../src/headless/NodeVault";
import type { HostFile } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("S1 huge unresolved record in a folder excluded later", () => {
	let vault = "";
	let running: RunningService;
	let client: Client;
	beforeAll(async () => {
		const links = Array.from({ length: HUGE_NOTE_LINKS + 50 }, (_, index) => `[[n${index}]]`).join("") + "[[Secretive]]";
		vault = await makeVault({ "Hide/Planted.md": `${links}\n`, "Keep/A.md": "See [[n5]] and [[Secretive]] and [[Keep/B]].\n", "Keep/B.md": "b\n" });
		running = await startService(vault, {
			levels: ["write"],
			settings: { rateLimitPerMinute: 1_000_000, writeEnabled: true, writeDisclosureAccepted: true },
			host: { watch: true },
			rights: { write: { rename_note: "allow" } },
		});
		await running.host.metadataCache.settled();
		await running.service.search?.whenReady();
		client = await connectClient(running.url, running.tokens.write ?? "");
		const before = await callOk<{ unresolved_links: number }>(client, "get_graph_stats", {});
		expect(before.unresolved_links).toBeGreaterThan(HUGE_NOTE_LINKS);
		await running.service.apply({ ...running.settings, excludedFolders: ["Hide"] });
	}, 60_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});
	test("graph stats, links, search, list do not count or name it", async () => {
		const graph = await callOk<Record<string, unknown>>(client, "get_graph_stats", {});
		console.log("S1 graph", JSON.stringify(graph).slice(0, 400));
		expect(graph.unresolved_links).toBe(2);
		const links = await callOk<Record<string, unknown>>(client, "get_note_links", { path: "Keep/A" });
		console.log("S1 links", JSON.stringify(links).slice(0, 600));
		expect(JSON.stringify(links)).not.toContain("Hide");
		const search = await callOk<Record<string, unknown>>(client, "search_notes", { query: "n100" });
		expect(JSON.stringify(search)).not.toContain("Hide");
		const renamed = await callOk<Record<string, unknown>>(client, "rename_note", { path: "Keep/B.md", new_path: "Keep/n7.md" });
		console.log("S1 rename", JSON.stringify(renamed).slice(0, 600));
		expect(JSON.stringify(renamed)).not.toContain("Hide");
		expect((await fs.readFile(nodePath.join(vault, "Hide/Planted.md"), "utf8")).endsWith("[[Secretive]]\n")).toBe(true);
		const after = await callOk<Record<string, unknown>>(client, "get_graph_stats", {});
		console.log("S1 graph after", JSON.stringify(after).slice(0, 400));
	});
});

describe("S3 list_tasks while another program moves a note into an excluded folder", () => {
	let vault = "";
	let running: RunningService;
	let client: Client;
	beforeAll(async () => {
		vault = await makeVault({
			"Alpha.md": "- [ ] alpha task\n",
			"Moving.md": Array.from({ length: SLICED_TASKS + 10 }, (_, index) => `- [ ] moving ${index}`).join("\n") + "\n",
			"Hide/Old.md": "- [ ] hidden task\n",
			"Zulu.md": "- [ ] zulu task\n",
		});
		running = await startService(vault, { settings: { excludedFolders: ["Hide"] }, host: { watch: true } });
		await running.host.metadataCache.settled();
		await running.service.search?.whenReady();
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	});
	test("the moved note is neither listed nor named", async () => {
		// eslint-disable-next-line @typescript-eslint/unbound-method
		const original = NodeVault.prototype.cachedRead;
		let moved = false;
		jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			if (file.path === "Moving.md" && !moved) {
				moved = true;
				await fs.rename(nodePath.join(vault, "Moving.md"), nodePath.join(vault, "Hide/Moving.md"));
				await running.host.metadataCache.caughtUpWithDisk();
			}
			return original.call(this, file);
		});
		const listed = await callOk<Record<string, unknown>>(client, "list_tasks", { limit: 1000 });
		console.log("S3", JSON.stringify(listed).slice(0, 300), JSON.stringify((listed as { still_being_read?: unknown }).still_being_read));
		expect(moved).toBe(true);
		expect(JSON.stringify(listed)).not.toContain("Hide");
		expect(JSON.stringify(listed)).not.toContain("moving 1");
	});
});
