import { promises as fs, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { FolderJail } from "../../src/host/FolderJail";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

for (const watch of [false, true])
	describe(`S7 same size and mtime save before rename's open (watch ${watch})`, () => {
		let vault: string;
		let running: RunningService;
		let client: Client;
		beforeEach(async () => {
			vault = await makeVault({ "Notes/Plan.md": "# Plan\nold text\n", "Notes/Linker.md": "See [[Notes/Plan]].\n" });
			running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true }, host: { watch } });
			client = await connectClient(running.url, running.tokens.write ?? "");
		});
		afterEach(async () => {
			jest.restoreAllMocks();
			await client.close();
			await running.stop();
			await removeDir(vault);
		});
		test("read after the rename gives the text on disk", async () => {
			const plan = nodePath.join(vault, "Notes/Plan.md");
			console.log("S7 read0", JSON.stringify(await callTool(client, "read_note", { path: "Notes/Plan.md" })).slice(0, 80));
			// eslint-disable-next-line @typescript-eslint/unbound-method
			const makeFolders = FolderJail.prototype.makeFolders;
			let made = 0;
			jest.spyOn(FolderJail.prototype, "makeFolders").mockImplementation(async function (this: FolderJail, folder: string) {
				if (folder === nodePath.join(vault, "Archive") && ++made === 1) {
					const before = statSync(plan);
					writeFileSync(`${plan}.saving`, "# Plan\nNEW text\n");
					utimesSync(`${plan}.saving`, before.atime, before.mtime);
					renameSync(`${plan}.saving`, plan);
				}
				await makeFolders.call(this, folder);
			});
			const renamed = await callTool(client, "rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" });
			console.log("S7 rename", JSON.stringify(renamed));
			await new Promise((resolve) => setTimeout(resolve, 1500));
			await running.host.metadataCache.caughtUpWithDisk();
			const read = await callTool(client, "read_note", { path: "Archive/Plan.md" });
			console.log("S7 read", JSON.stringify(read).slice(0, 200));
			const search = await callTool(client, "search_notes", { query: "NEW" });
			console.log("S7 search", JSON.stringify(search).slice(0, 300));
			expect(await fs.readFile(nodePath.join(vault, "Archive/Plan.md"), "utf8")).toBe("# Plan\nNEW text\n");
			expect(JSON.stringify(read)).toContain("NEW text");
		});
	});
