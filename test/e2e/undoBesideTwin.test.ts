import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { makeTokenOnce, runCli, startServe, type MadeToken } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** A write token with every write allowed, made by `token new` once for the file's tests. */
let writer: MadeToken;
beforeAll(async () => {
	writer = await makeTokenOnce(["--name", "w", "--level", "write", "--allow-all-writes"]);
});

/** Every file's text at the vault's top (the config folder aside). */
async function topNotes(vault: string): Promise<Record<string, string>> {
	const names = (await fs.readdir(vault)).filter((name) => name !== ".obsidian").sort();
	return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await fs.readFile(nodePath.join(vault, name), "utf8")] as const)));
}

/**
 * `vault-mcp undo` of an AI's rename, after a note of the old name in other letter case was made: the note went back beside
 * it (two notes a link cannot tell apart on Linux; on macOS and Windows a copy of the note). The undo is refused, exit 1,
 * naming the twin and what to do; nothing is written, and after the person renames the twin, the same undo puts all back.
 */
describe("vault-mcp undo of a rename beside a twin of the old name made since", () => {
	let vault: string;

	beforeEach(async () => {
		vault = await makeVault({ "Plan.md": "# Plan\n", "Linker.md": "See [[Plan]].\n" });
	});
	afterEach(async () => {
		await removeDir(vault);
	});

	test("refused in one line naming the twin, nothing written; after the twin is renamed, the note and its links are back", async () => {
		const token = await writer.putInto(vault);
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		try {
			const client = await connectClient(serving.url, token);
			expect((await callTool(client, "rename_note", { path: "Plan.md", new_path: "Other.md" })).ok).toBe(true);
			expect((await callTool(client, "create_note", { path: "plan.md", content: "another plan" })).ok).toBe(true);
			await client.close();
		} finally {
			await serving.stop();
		}
		const listed = JSON.parse((await runCli(["history", vault, "--json"])).stdout) as Array<{ id: string; tool: string }>;
		const rename = listed.find((entry) => entry.tool === "rename_note")?.id ?? "";
		const before = await topNotes(vault);
		expect(before).toEqual({ "Linker.md": "See [[Other]].\n", "Other.md": "# Plan\n", "plan.md": "another plan\n" });

		const refused = await runCli(["undo", vault, rename]);
		expect(refused.code).toBe(1);
		expect(refused.stdout).toBe("");
		expect(refused.stderr).toContain(
			`Undo of ${rename} refused: "Other.md" cannot be moved back to "Plan.md": a note "plan.md" is there now, read as the same name (letter case and spaces aside). Nothing was changed. Rename or move "plan.md" first, then undo again.`,
		);
		expect(await topNotes(vault)).toEqual(before);

		await fs.rename(nodePath.join(vault, "plan.md"), nodePath.join(vault, "plan 2.md"));
		const undone = await runCli(["undo", vault, rename]);
		expect(undone.code).toBe(0);
		expect(undone.stdout).toContain('moved "Other.md" back to "Plan.md"');
		expect(await topNotes(vault)).toEqual({ "Linker.md": "See [[Plan]].\n", "Plan.md": "# Plan\n", "plan 2.md": "another plan\n" });
	}, 60_000);
});

/**
 * Two `vault-mcp undo` of one rename at once (two terminals, or a script run twice): each planned from the vault before the
 * other wrote, and the second said the renamed note "had changed since" and saved a copy of it beside the one the first had
 * just moved back, both exiting 0, history showing two undos. Now the second waits for the first's lock, then finds the call undone.
 */
describe("two vault-mcp undo of one rename at once", () => {
	let vault: string;

	afterEach(async () => {
		await removeDir(vault);
	});

	test("one moves it all back; the other waits, then exits 1 saying it was already undone; no copy is made", async () => {
		const linking: Record<string, string> = {};
		for (let index = 0; index < 40; index++) linking[`L${index}.md`] = "See [[Plan]].\n";
		vault = await makeVault({ "Plan.md": "# Plan\n", ...linking });
		const token = await writer.putInto(vault);
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		try {
			const client = await connectClient(serving.url, token);
			expect((await callTool(client, "rename_note", { path: "Plan.md", new_path: "Other.md" })).ok).toBe(true);
			await client.close();
		} finally {
			await serving.stop();
		}
		const listed = JSON.parse((await runCli(["history", vault, "--json"])).stdout) as Array<{ id: string; tool: string }>;
		const rename = listed.find((entry) => entry.tool === "rename_note")?.id ?? "";

		const outcomes = await Promise.all([runCli(["undo", vault, rename]), runCli(["undo", vault, rename])]);
		// On the base both exited 0, the second having saved "Plan (before rename_note …).md".
		expect(outcomes.map((outcome) => outcome.code).sort()).toEqual([0, 1]);
		expect(outcomes.find((outcome) => outcome.code === 1)?.stderr).toContain(`The change ${rename} was already undone`);
		const top = await topNotes(vault);
		expect(Object.keys(top).filter((name) => !/^L\d+\.md$/u.test(name))).toEqual(["Plan.md"]);
		expect(Object.values(top).filter((text) => text === "See [[Plan]].\n")).toHaveLength(40);
		const history = JSON.parse((await runCli(["history", vault, "--json"])).stdout) as Array<{ tool: string }>;
		expect(history.map((entry) => entry.tool)).toEqual(["undo", "rename_note"]);
	}, 60_000);
});
