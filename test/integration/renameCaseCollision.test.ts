import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { setTokenFolders } from "../../src/auth/tokenList";
import { WRITE_RETRY_BUDGET_MS } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * On a disk that folds case (macOS, Windows), `Work/X.md` is taken when `WORK/x.md` exists. A token
 * limited to `Work` cannot see `WORK/x.md`. Renaming a note to `Work/X.md` cannot succeed there, so
 * any answer tells that the path is unusable; it must say no more than that, and at once (it used to
 * plan the write again for 3 s and answer that the path "kept changing": read the note and retry).
 * The disk's case folding is emulated where the server asks the disk whether a name is free.
 */
test("rename_note onto a name a hidden file holds in another case, on a case-folding disk", async () => {
	const vault = await makeVault({ "Work/Plan.md": "# Plan\n", "WORK/x.md": "hidden words\n" });
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const limited = setTokenFolders(running.settings, "write", ["Work"]);
	if ("error" in limited) throw new Error(limited.error);
	await running.service.apply(limited.settings);
	const adapter = running.host.vault.adapter;
	const exists = adapter.exists.bind(adapter);
	const folded = async (path: string) => {
		const all = await fs.readdir(vault, { recursive: true });
		return (await exists(path)) || all.some((entry) => entry.split(nodePath.sep).join("/").toLowerCase() === path.toLowerCase());
	};
	const spy = jest.spyOn(adapter, "exists").mockImplementation(folded);
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		const started = Date.now();
		const answer = await callTool(client, "rename_note", { path: "Work/Plan.md", new_path: "Work/X.md" });
		const tookMs = Date.now() - started;
		expect(answer.ok).toBe(false);
		const error = answer.ok ? "" : answer.error;
		// Refused at once, not after the write's retries; as the refusal of a path that cannot be used, naming nothing else.
		expect(tookMs).toBeLessThan(WRITE_RETRY_BUDGET_MS);
		expect(error).toBe('"Work/X.md" cannot be used for this note. Nothing was changed. Choose another new_path.');
		expect(await fs.readFile(nodePath.join(vault, "Work/Plan.md"), "utf8")).toBe("# Plan\n");
		// On this disk (case-sensitive) the same rename goes through once nothing folds case.
		spy.mockRestore();
		expect((await callTool(client, "rename_note", { path: "Work/Plan.md", new_path: "Work/X.md" })).ok).toBe(true);
		expect(await fs.readFile(nodePath.join(vault, "WORK/x.md"), "utf8")).toBe("hidden words\n");
	} finally {
		spy.mockRestore();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
