import { promises as fs, renameSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { FolderJail } from "../../src/host/FolderJail";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

for (const watch of [false, true])
	describe(`S6 rename refused by identity then retried (watch ${watch})`, () => {
		let vault: string;
		let running: RunningService;
		let client: Client;
		beforeEach(async () => {
			vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "Notes/Linker.md": "See [[Notes/Plan]].\n" });
			running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true }, host: { watch } });
			client = await connectClient(running.url, running.tokens.write ?? "");
		});
		afterEach(async () => {
			jest.restoreAllMocks();
			await client.close();
			await running.stop();
			await removeDir(vault);
		});
		test("retry moves the saved text; read and undo say what is on disk", async () => {
			const plan = nodePath.join(vault, "Notes/Plan.md");
			console.log("S6 read0", JSON.stringify(await callTool(client, "read_note", { path: "Notes/Plan.md" })).slice(0, 200));
			// eslint-disable-next-line @typescript-eslint/unbound-method
			const makeFolders = FolderJail.prototype.makeFolders;
			let made = 0;
			jest.spyOn(FolderJail.prototype, "makeFolders").mockImplementation(async function (this: FolderJail, folder: string) {
				if (folder === nodePath.join(vault, "Archive") && ++made === 2) {
					writeFileSync(`${plan}.saving`, "# Plan\n\nSaved by another program.\n");
					renameSync(`${plan}.saving`, plan);
				}
				await makeFolders.call(this, folder);
			});
			const error = await callError(client, "rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" });
			console.log("S6 err", error);
			const retry = await callTool(client, "rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" });
			console.log("S6 retry", JSON.stringify(retry));
			const read = await callTool(client, "read_note", { path: "Archive/Plan.md" });
			console.log("S6 read", JSON.stringify(read).slice(0, 300));
			console.log("S6 disk", JSON.stringify(await fs.readFile(nodePath.join(vault, "Archive/Plan.md"), "utf8").catch(() => null)), JSON.stringify(await fs.readFile(nodePath.join(vault, "Notes/Linker.md"), "utf8")));
			const entries = running.journal.list(10).filter((entry) => entry.tool === "rename_note");
			console.log("S6 journal", entries.length);
			if (entries[0]) {
				const undo = await callTool(client, "undo", { call_id: (entries[0] as { id: string }).id }).catch((e) => String(e));
				console.log("S6 undo", JSON.stringify(undo).slice(0, 400));
				console.log("S6 after undo", JSON.stringify(await fs.readFile(plan, "utf8").catch(() => null)), await fs.readdir(nodePath.join(vault, "Archive")), await fs.readdir(nodePath.join(vault, "Notes")));
			}
			expect(JSON.stringify(read)).toContain("Saved by another program");
		});
	});
