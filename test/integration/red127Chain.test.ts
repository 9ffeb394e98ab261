import { promises as fs, writeFileSync, renameSync } from "node:fs";
import * as nodePath from "node:path";
import type { HostFile } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { settingsWithWriteTokens, startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

jest.setTimeout(60_000);
for (const back of [false, true]) {
	test(`H rename_note while a linker was moved into an excluded folder${back ? " and out again" : ""}, the queue held`, async () => {
		const vault = await makeVault({ "Target.md": "# T\n", "Notes/Linker.md": "See [[Target]].\n", "Private/Keep.md": "k\n", "Notes/Other.md": "Also [[Target]].\n" });
		const { settings, tokens } = settingsWithWriteTokens(["writer"]);
		const running = await startService(vault, { levels: [], settings: { ...settings, excludedFolders: ["Private"] }, host: { watch: true } });
		await running.host.metadataCache.settled();
		const client = await connectClient(running.url, tokens[0] ?? "");
		const vaultFiles = running.host.vault;
		const cachedRead = vaultFiles.cachedRead.bind(vaultFiles);
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		let heldNow!: () => void;
		const heldOnce = new Promise<void>((resolve) => (heldNow = resolve));
		vaultFiles.cachedRead = async (file: HostFile) => {
			const text = await cachedRead(file);
			if (file.path === "Big.md") {
				heldNow();
				await released;
			}
			return text;
		};
		try {
			writeFileSync(nodePath.join(vault, "Big.md"), "- item #t\n".repeat(1000));
			await heldOnce;
			renameSync(nodePath.join(vault, "Notes/Linker.md"), nodePath.join(vault, "Private/Linker.md"));
			for (let i = 0; i < 200 && !vaultFiles.getFileByPath("Private/Linker.md"); i++) await new Promise((r) => setTimeout(r, 20));
			if (back) {
				renameSync(nodePath.join(vault, "Private/Linker.md"), nodePath.join(vault, "Notes/Back.md"));
				for (let i = 0; i < 200 && !vaultFiles.getFileByPath("Notes/Back.md"); i++) await new Promise((r) => setTimeout(r, 20));
			}
			const links = await callTool(client, "get_note_links", { path: "Target.md" });
			console.log("H links", back, JSON.stringify(links).slice(0, 400));
			const started = Date.now();
			const r = await callTool(client, "rename_note", { path: "Target.md", new_path: "Goal.md" });
			console.log("H rename", back, Date.now() - started, "ms", JSON.stringify(r).slice(0, 600));
			const files: Record<string, string> = {};
			for (const p of ["Private/Linker.md", "Notes/Back.md", "Notes/Other.md", "Goal.md", "Target.md", "Notes/Linker.md"])
				files[p] = await fs.readFile(nodePath.join(vault, p), "utf8").catch(() => "-");
			console.log("H files", back, JSON.stringify(files));
			console.log("H journal", JSON.stringify(running.journal.list(1)[0]?.changes.map((c) => c.path)));
		} finally {
			release();
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});
}
