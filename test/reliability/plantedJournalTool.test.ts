import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { run } from "../../src/headless/cli/run";
import type { CliIo } from "../../src/headless/cli/io";
import { hashText } from "../../src/vault/writes";
import { makeVault, removeDir } from "../helpers/vault";

function cliIo(): CliIo & { out: string; err: string } {
	const io = {
		out: "",
		err: "",
		stdout: (text: string) => void (io.out += text),
		stderr: (text: string) => void (io.err += text),
		terminal: null,
		stopRequested: () => Promise.resolve(),
	};
	return io;
}

/**
 * `vault-mcp undo` of a change whose note was edited since saves the earlier text beside the note,
 * under a name made of the note's, the tool's and the time. The journal is a file another program
 * can write: a line planted there must not make undo write anywhere a token could not, and the
 * tool's name in it is part of that name.
 */
describe("undo of a planted journal line whose tool name holds a path", () => {
	test.each([
		["an excluded folder", "Private", "Private"],
		["the config folder", ".obsidian/plugins/vault-mcp", ".obsidian/plugins/vault-mcp"],
		["outside the vault", "..", ".."],
	])("the conflict copy is not written into %s", async (_where, target, folder) => {
		const vault = await makeVault({ "Notes/Plan.md": "# Plan\n\nedited since\n", "Private/Keep.md": "private\n" });
		const pluginFolder = nodePath.join(vault, ".obsidian", "plugins", "vault-mcp");
		await fs.mkdir(pluginFolder, { recursive: true });
		await fs.writeFile(nodePath.join(pluginFolder, "data.json"), JSON.stringify({ excludedFolders: ["Private"], tokens: [] }));
		const before = "# Plan\n\nthe earlier words\n";
		const after = "# Plan\n\nwhat the call wrote\n";
		// The copy is named `Notes/Plan (before <tool> <time>).md`: this tool leaves Notes and names a file in `target`.
		const planted = `planted-${nodePath.basename(vault)}`;
		const tool = `set_property/../../${target}/${planted}`;
		const line = {
			kind: "change",
			id: "c0ffee000001",
			time: new Date().toISOString(),
			tokenName: "agent",
			tool,
			path: "Notes/Plan.md",
			before,
			beforeHash: hashText(before),
			after,
			afterHash: hashText(after),
		};
		await fs.writeFile(nodePath.join(pluginFolder, "journal.jsonl"), `${JSON.stringify(line)}\n`);
		const watched = nodePath.resolve(vault, folder);
		const plantedFiles = async () => (await fs.readdir(watched)).filter((name) => name.startsWith(planted));
		const io = cliIo();
		try {
			await run(["undo", vault, "c0ffee000001"], io);
			expect(await plantedFiles()).toEqual([]);
			expect(await fs.readFile(nodePath.join(vault, "Notes", "Plan.md"), "utf8")).toBe("# Plan\n\nedited since\n");
			// The earlier text is saved, if at all, beside the note.
			const copies = (await fs.readdir(nodePath.join(vault, "Notes"))).filter((name) => name !== "Plan.md");
			for (const copy of copies) expect(await fs.readFile(nodePath.join(vault, "Notes", copy), "utf8")).toBe(before);
		} finally {
			for (const name of await plantedFiles()) await fs.rm(nodePath.join(watched, name), { force: true });
			await removeDir(vault);
		}
	});
});
