import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { journalPathFor } from "../../src/journal/JournalFile";
import { makeTokenOnce, runCli, startServe, type MadeToken } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const dataJson = (vault: string) => nodePath.join(vault, ".obsidian", "plugins", "vault-mcp", "data.json");

/** A write token with every write allowed, made by `token new` once for the file's tests. */
let writer: MadeToken;
beforeAll(async () => {
	writer = await makeTokenOnce(["--name", "w", "--level", "write", "--allow-all-writes"]);
});

/** Waits until the journal holds `count` lines saying a note moved (serve's watcher saw the person's moves). */
async function movesRecorded(vault: string, count: number): Promise<void> {
	const journal = journalPathFor(vault, ".obsidian");
	for (let tries = 0; tries < 200; tries++) {
		const text = await fs.readFile(journal, "utf8");
		if (text.split('"kind":"moved"').length - 1 >= count) return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error("serve never recorded the moves");
}

/**
 * A note an AI wrote that the person then moves, while serve runs: `vault-mcp undo` of the AI's
 * write finds it where it went. Moved into an excluded folder, it is left alone there and that
 * folder is never named; moved to a visible folder, it is undone there; deleted, its earlier text
 * is saved beside where it was, as before moves were followed.
 */
describe("undo of a write to a note the person moved since", () => {
	let vault: string;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Secret.md": "# Secret\n", "Notes/Plan.md": "# Plan\n", "Notes/Gone.md": "# Gone\n", "Private/Old.md": "old" });
	});
	afterEach(async () => {
		await removeDir(vault);
	});

	test("moved into an excluded folder: nothing written, nothing named; moved to a visible folder: undone there; deleted: a copy where it was", async () => {
		const token = await writer.putInto(vault);
		const settings = JSON.parse(await fs.readFile(dataJson(vault), "utf8")) as Record<string, unknown>;
		await fs.writeFile(dataJson(vault), JSON.stringify({ ...settings, excludedFolders: ["Private"] }));
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		const ids = new Map<string, string>();
		let secretByAi = "";
		try {
			const client = await connectClient(serving.url, token);
			for (const name of ["Secret", "Plan", "Gone"]) {
				expect((await callTool(client, "append_to_note", { path: `Notes/${name}.md`, content: "- by the AI\n" })).ok).toBe(true);
			}
			await client.close();
			const listed = JSON.parse((await runCli(["history", vault, "--json"])).stdout) as Array<{ id: string; changes: Array<{ path: string }> }>;
			for (const entry of listed) ids.set(entry.changes[0]?.path ?? "", entry.id);
			secretByAi = await fs.readFile(nodePath.join(vault, "Notes/Secret.md"), "utf8");
			expect(secretByAi).toContain("- by the AI");
			await fs.mkdir(nodePath.join(vault, "Archive"));
			await fs.rename(nodePath.join(vault, "Notes/Secret.md"), nodePath.join(vault, "Private/Secret.md"));
			await fs.rename(nodePath.join(vault, "Notes/Plan.md"), nodePath.join(vault, "Archive/Plan.md"));
			await fs.unlink(nodePath.join(vault, "Notes/Gone.md"));
			await movesRecorded(vault, 2);
		} finally {
			await serving.stop();
		}

		const outOfReach = await runCli(["undo", vault, ids.get("Notes/Secret.md") ?? ""]);
		expect(outOfReach.code).toBe(0);
		expect(outOfReach.stdout).toContain('"Notes/Secret.md" was moved since to a place undo may not write');
		expect(outOfReach.stdout + outOfReach.stderr).not.toContain("Private");
		expect(await fs.readFile(nodePath.join(vault, "Private/Secret.md"), "utf8")).toBe(secretByAi);

		const visible = await runCli(["undo", vault, ids.get("Notes/Plan.md") ?? ""]);
		expect(visible.code).toBe(0);
		expect(visible.stdout).toContain('restored "Archive/Plan.md"');
		expect(await fs.readFile(nodePath.join(vault, "Archive/Plan.md"), "utf8")).toBe("# Plan\n");

		const deleted = await runCli(["undo", vault, ids.get("Notes/Gone.md") ?? ""]);
		expect(deleted.code).toBe(0);
		expect(deleted.stdout).toContain('"Notes/Gone.md" had changed since');
		// Only the deleted note's earlier text came back in its old folder: no copy of the moved ones' texts there.
		const left = await fs.readdir(nodePath.join(vault, "Notes"));
		expect(left).toHaveLength(1);
		expect(await fs.readFile(nodePath.join(vault, "Notes", left[0] ?? ""), "utf8")).toBe("# Gone\n");
		expect((await fs.readdir(nodePath.join(vault, "Private"))).sort()).toEqual(["Old.md", "Secret.md"]);
	}, 60_000);
});

/**
 * `vault-mcp undo` of a rename moves the note back: serve, which followed the rename itself, has
 * the earlier write to that note at the renamed path. Undone later, that write is undone where the
 * note is again, not taken for deleted with a copy of its earlier text left at the renamed path.
 */
describe("undo of a write to a note whose rename was undone since with serve stopped", () => {
	let vault: string;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n" });
	});
	afterEach(async () => {
		await removeDir(vault);
	});

	test("the write is undone on the note back at its first path, and nothing is left at the renamed one", async () => {
		const token = await writer.putInto(vault);
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		try {
			const client = await connectClient(serving.url, token);
			expect((await callTool(client, "append_to_note", { path: "Notes/Plan.md", content: "- by the AI\n" })).ok).toBe(true);
			expect((await callTool(client, "rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" })).ok).toBe(true);
			await client.close();
			await movesRecorded(vault, 1);
		} finally {
			await serving.stop();
		}
		const listed = JSON.parse((await runCli(["history", vault, "--json"])).stdout) as Array<{ id: string; tool: string }>;
		const rename = listed.find((entry) => entry.tool === "rename_note")?.id ?? "";
		const append = listed.find((entry) => entry.tool === "append_to_note")?.id ?? "";

		const renameUndone = await runCli(["undo", vault, rename]);
		expect(renameUndone.code).toBe(0);
		expect(await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toContain("- by the AI");

		const appendUndone = await runCli(["undo", vault, append]);
		expect(appendUndone.code).toBe(0);
		expect(appendUndone.stdout).toContain('restored "Notes/Plan.md"');
		expect(await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("# Plan\n");
		// Before: the note was taken for deleted at Archive/Plan.md, and its earlier text saved there as a copy.
		expect(await fs.readdir(nodePath.join(vault, "Archive")).catch(() => [])).toEqual([]);
	}, 60_000);
});

/**
 * A note moved while serve runs and moved back while it is stopped: nothing saw it come back. Undo
 * finds it where the call left it, as it was left, and undoes the change there: it was taken for
 * out of reach (moved out of an excluded folder) and marked undone with the AI's text kept, or for
 * deleted (moved out of a visible one) with its earlier text saved beside where it had gone.
 */
describe("undo of a write to a note moved away while serve ran and moved back while it was stopped", () => {
	let vault: string;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Secret.md": "# Secret\n", "Notes/Plan.md": "# Plan\n", "Private/Old.md": "old" });
	});
	afterEach(async () => {
		await removeDir(vault);
	});

	test("both writes are undone on the notes back at their paths, and no copy is left anywhere", async () => {
		const token = await writer.putInto(vault);
		const settings = JSON.parse(await fs.readFile(dataJson(vault), "utf8")) as Record<string, unknown>;
		await fs.writeFile(dataJson(vault), JSON.stringify({ ...settings, excludedFolders: ["Private"] }));
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		try {
			const client = await connectClient(serving.url, token);
			for (const name of ["Secret", "Plan"])
				expect((await callTool(client, "append_to_note", { path: `Notes/${name}.md`, content: "- by the AI\n" })).ok).toBe(true);
			await client.close();
			await fs.mkdir(nodePath.join(vault, "Archive"));
			await fs.rename(nodePath.join(vault, "Notes/Secret.md"), nodePath.join(vault, "Private/Secret.md"));
			await fs.rename(nodePath.join(vault, "Notes/Plan.md"), nodePath.join(vault, "Archive/Plan.md"));
			await movesRecorded(vault, 2);
		} finally {
			await serving.stop();
		}
		await fs.rename(nodePath.join(vault, "Private/Secret.md"), nodePath.join(vault, "Notes/Secret.md"));
		await fs.rename(nodePath.join(vault, "Archive/Plan.md"), nodePath.join(vault, "Notes/Plan.md"));
		const listed = JSON.parse((await runCli(["history", vault, "--json"])).stdout) as Array<{ id: string; changes: Array<{ path: string }> }>;

		for (const entry of listed) {
			const undone = await runCli(["undo", vault, entry.id]);
			expect(undone.code).toBe(0);
			expect(undone.stdout).toContain(`restored "${entry.changes[0]?.path ?? ""}"`);
		}
		expect(await fs.readFile(nodePath.join(vault, "Notes/Secret.md"), "utf8")).toBe("# Secret\n");
		expect(await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("# Plan\n");
		expect((await fs.readdir(nodePath.join(vault, "Notes"))).sort()).toEqual(["Plan.md", "Secret.md"]);
		expect(await fs.readdir(nodePath.join(vault, "Archive"))).toEqual([]);
	}, 60_000);
});
