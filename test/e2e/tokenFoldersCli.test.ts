import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { runCli, startServe } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** The paths `list_notes` gives this token now. */
async function listed(url: string, token: string): Promise<string[]> {
	const client = await connectClient(url, token);
	try {
		const outcome = await callTool(client, "list_notes", { limit: 100 });
		if (!outcome.ok) throw new Error(outcome.error);
		return (outcome.value.notes as Array<{ path: string }>).map((note) => note.path).sort();
	} finally {
		await client.close();
	}
}

describe("token new --folders and token folders on the command line", () => {
	let vault: string;
	beforeEach(async () => {
		vault = await makeVault({ "Projects/Plan.md": "# Plan\n", "Areas/Work.md": "work\n", "Root.md": "root\n" });
	});
	afterEach(async () => removeDir(vault));

	test("a token made with --folders sees only them; token folders narrows, widens and clears it for a running serve", async () => {
		const made = await runCli(["token", "new", vault, "--name", "scoped", "--folders", "Projects,Areas/", "--json"]);
		expect(made.code).toBe(0);
		const { token, folders } = JSON.parse(made.stdout) as { token: string; folders: string[] };
		expect(folders).toEqual(["Projects", "Areas"]);
		const listedJson = JSON.parse((await runCli(["token", "list", vault, "--json"])).stdout) as Array<{ name: string; folders: string[] }>;
		expect(listedJson[0]?.folders).toEqual(["Projects", "Areas"]);

		const serving = await startServe([vault, "--port", "0"]);
		try {
			expect(await listed(serving.url, token)).toEqual(["Areas/Work.md", "Projects/Plan.md"]);
			const narrowed = await runCli(["token", "folders", vault, "scoped", "Projects"]);
			expect(narrowed.code).toBe(0);
			expect(narrowed.stdout).toBe('Folders of "scoped": Projects\n');
			// serve polls data.json: the token's next call, on a new connection or not, sees the change.
			const deadline = Date.now() + 10_000;
			while ((await listed(serving.url, token)).length !== 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
			expect(await listed(serving.url, token)).toEqual(["Projects/Plan.md"]);
			const cleared = await runCli(["token", "folders", vault, "scoped", "--whole-vault", "--json"]);
			expect(JSON.parse(cleared.stdout)).toEqual({ name: "scoped", folders: [] });
			while ((await listed(serving.url, token)).length !== 3 && Date.now() < deadline + 10_000) await new Promise((resolve) => setTimeout(resolve, 200));
			expect(await listed(serving.url, token)).toEqual(["Areas/Work.md", "Projects/Plan.md", "Root.md"]);
		} finally {
			await serving.stop();
		}
	});

	test("folders outside the vault, hidden ones and an empty list are refused; nothing is saved", async () => {
		const outside = await runCli(["token", "new", vault, "--name", "bad", "--folders", "../Elsewhere"]);
		expect(outside.code).toBe(2);
		expect(outside.stderr).toContain("names no folder inside the vault");
		const hidden = await runCli(["token", "new", vault, "--name", "bad", "--folders", ".obsidian"]);
		expect(hidden.code).toBe(2);
		expect(JSON.parse((await runCli(["token", "list", vault, "--json"])).stdout)).toEqual([]);

		expect((await runCli(["token", "new", vault, "--name", "ok", "--folders", "Projects"])).code).toBe(0);
		const saved = () => fs.readFile(nodePath.join(vault, ".obsidian/plugins/vault-mcp/data.json"), "utf8").then((text) => JSON.parse(text) as unknown);
		const before = await saved();
		const empty = await runCli(["token", "folders", vault, "ok", ","]);
		expect(empty.code).toBe(2);
		expect(empty.stderr).toContain("--whole-vault");
		const ghost = await runCli(["token", "folders", vault, "ghost", "Projects"]);
		expect(ghost.code).toBe(1);
		expect(ghost.stderr).toContain('No token named "ghost"');
		expect(await saved()).toEqual(before);
		const missing = await runCli(["token", "folders", vault, "ok", "Later"]);
		expect(missing.code).toBe(0);
		expect(missing.stderr).toContain('no folder "Later" in the vault yet');
	});
});
