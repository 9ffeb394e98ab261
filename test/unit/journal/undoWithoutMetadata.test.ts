/**
 * `vault-mcp undo` opens the vault without parsing its notes (NodeHostOptions.metadata): undo
 * writes the journal's texts back and moves notes with `vault.rename`, so it must need no link or
 * metadata, even for a rename that rewrote links in other notes.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../../src/headless/NodeHost";
import { NodeVault } from "../../../src/headless/NodeVault";
import { undoCall } from "../../../src/journal/undo";
import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../helpers/toolVault";

describe("undo over a vault whose notes are not parsed", () => {
	let tools: ToolVault;

	beforeAll(async () => {
		tools = await openToolVault(
			{ "Target.md": "# Target\n", "Linker.md": "See [[Target]] and [[Target#Target|it]].\n", "Other.md": "# Other\n[[Linker]]\n" },
			{ canWrite: true, rights: WRITES_ALLOWED },
		);
	});
	afterAll(() => tools.close());

	test("a rename is undone: the note moves back and the note whose links it rewrote gets its text back; no other note is read", async () => {
		await tools.ok("rename_note", { path: "Target.md", new_path: "Moved/Renamed.md" });
		const disk = (path: string) => fs.readFile(nodePath.join(tools.vault.root, path), "utf8");
		expect(await disk("Linker.md")).toBe("See [[Renamed]] and [[Renamed#Target|it]].\n");
		const [entry] = tools.connection.journal.list(1);
		const read = jest.spyOn(NodeVault.prototype, "readSync");
		const bare = await NodeHost.open(tools.vault.root, { metadata: false });
		try {
			expect(await undoCall(bare, tools.connection.journal, entry?.id ?? "")).toMatchObject({ ok: true });
			expect(bare.metadataCache.resolvedLinks).toEqual({});
		} finally {
			read.mockRestore();
			await bare.close();
		}
		expect(await disk("Target.md")).toBe("# Target\n");
		expect(await disk("Linker.md")).toBe("See [[Target]] and [[Target#Target|it]].\n");
		await expect(fs.stat(nodePath.join(tools.vault.root, "Moved/Renamed.md"))).rejects.toMatchObject({ code: "ENOENT" });
		expect(read.mock.calls.map(([file]) => file.path)).not.toContain("Other.md");
	});
});
