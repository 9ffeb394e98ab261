/**
 * Undo with the real write tools, on generated note texts: whatever a note's bytes were (CRLF or
 * LF, a byte-order mark, non-ASCII, no final line end, empty), undoing the call that changed it
 * gives back exactly those bytes; and an expected_hash that is not the note's writes nothing.
 */
import { promises as fs } from "node:fs";
import { WritesBeforeReleased } from "../../../src/mcp/releasedCalls";
import * as nodePath from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import * as fc from "fast-check";
import { ActivityLog } from "../../../src/activity";
import { effectiveRight } from "../../../src/auth/rights";
import { generateToken } from "../../../src/auth/tokens";
import { NodeHost } from "../../../src/headless/NodeHost";
import { JournalFile } from "../../../src/journal/JournalFile";
import { undoCall } from "../../../src/journal/undo";
import type { WriteServices } from "../../../src/mcp/approval";
import type { ToolContext } from "../../../src/mcp/context";
import { createMcpServer } from "../../../src/mcp/server";
import { ALL_TOOLS } from "../../../src/mcp/tools";
import { IndexedNoteSearch } from "../../../src/vault/search";
import { hashText } from "../../../src/vault/writes";
import { RecordingLogger } from "../../helpers/service";
import { callTool } from "../../helpers/tools";
import { makeVault, removeDir } from "../../helpers/vault";

const NOTE = "Target.md";
const BOM = "\uFEFF";

/** A note's parts: the tool's anchor line sits among generated lines, in the generated line ending. */
interface NoteShape {
	bom: boolean;
	eol: "\n" | "\r\n";
	before: string[];
	after: string[];
	finalEol: boolean;
}

/** Free text on one line: ASCII, accents, CJK, emoji; never a line end, and never starting like Markdown structure. */
const freeLine = fc
	.string({ unit: fc.constantFrom("a", "Z", " ", "é", "ß", "日", "本", "😀", "—", "“", "\t", "#x", "1."), maxLength: 12 })
	.map((text) => `w${text}`);

const shape = fc.record({
	bom: fc.boolean(),
	eol: fc.constantFrom("\n" as const, "\r\n" as const),
	before: fc.array(freeLine, { maxLength: 4 }),
	after: fc.array(freeLine, { maxLength: 4 }),
	finalEol: fc.boolean(),
});

function noteText({ bom, eol, before, after, finalEol }: NoteShape, anchor: string[], shapeLine: (line: string) => string = (line) => line): string {
	const lines = [...before.map(shapeLine), ...anchor, ...after.map(shapeLine)];
	const body = lines.join(eol);
	return `${bom ? BOM : ""}${body}${finalEol && lines.length > 0 ? eol : ""}`;
}

/** Each write tool: the anchor lines its call needs in the note, and the call's arguments. */
interface ToolCase {
	anchor: (shape: NoteShape) => string[];
	args: (shape: NoteShape) => Record<string, unknown>;
	/** The generated lines as this tool needs them (insert_under_bullet writes only into outlines). */
	lines?: (line: string) => string;
}

const CASES: Record<string, ToolCase> = {
	append_to_note: { anchor: () => [], args: () => ({ path: "Target", content: "Appended ünïcode ✓" }) },
	insert_under_bullet: {
		lines: (line) => `- ${line}`,
		anchor: () => ["- Parent bullet"],
		args: () => ({ path: "Target", bullet: "Parent bullet", content: "Child ✓" }),
	},
	complete_task: {
		anchor: () => ["- [ ] Task ☕ one"],
		args: (note) => ({ path: "Target", line: note.before.length, text: "Task ☕ one", status: "x" }),
	},
	add_task: { anchor: () => [], args: () => ({ path: "Target", text: "New task ✓" }) },
	set_property: { anchor: () => [], args: () => ({ path: "Target", name: "status", value: "done ✓" }) },
	create_note: { anchor: () => [], args: () => ({ path: "Target", content: "Replaced ✓", overwrite: true }) },
};

/** Waits (bounded) for the host to catch up with a change made on disk. */
async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
	for (const started = Date.now(); !condition() && Date.now() - started < timeoutMs;) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("undo of every write tool gives back the note's exact bytes", () => {
	let root: string;
	let host: NodeHost;
	let search: IndexedNoteSearch;
	let journal: JournalFile;
	let client: Client;
	const scope = { configDir: ".obsidian", excludedFolders: [] };

	beforeAll(async () => {
		root = await makeVault({ [NOTE]: "" });
		host = await NodeHost.open(root);
		search = new IndexedNoteSearch(host, scope, () => new Promise((resolve) => setImmediate(resolve)));
		// The index the server searches with, built: a search must not fall back to a scan here.
		search.start();
		await search.whenReady();
		journal = JournalFile.forVault(root, ".obsidian");
		const { record } = generateToken("writer", "write", undefined);
		const writes: WriteServices = {
			journal,
			approver: null,
			approvalTimeoutMs: 5_000,
			writesBeforeReleased: new WritesBeforeReleased(),
			currentRight: (tool) => effectiveRight(record, tool, true),
			allowAlways: () => Promise.resolve(),
		};
		const ctx: ToolContext = { host, serverVersion: "test", scope, grant: { token: record, canWrite: true }, search, dailyNotesAreOutlines: false, writes };
		const server = createMcpServer(ctx, { activity: new ActivityLog(), logger: new RecordingLogger() });
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		client = new Client({ name: "in-memory", version: "1" });
		await client.connect(clientSide);
	});
	afterAll(async () => {
		await client.close();
		await search.stop();
		await host.close();
		await removeDir(root);
	});

	/** Puts `text` on disk as the note and waits until the host sees exactly it. */
	async function setNote(text: string): Promise<Buffer> {
		const bytes = Buffer.from(text, "utf8");
		const file = host.vault.getFileByPath(NOTE);
		if (file) await host.vault.process(file, () => text);
		else await host.vault.create(NOTE, text);
		// Backups and conflict copies of the run before.
		for (const name of await fs.readdir(root)) if (name.startsWith("Target") && name !== NOTE) await fs.rm(nodePath.join(root, name));
		expect(await fs.readFile(nodePath.join(root, NOTE))).toEqual(bytes);
		return bytes;
	}

	test("the journal is not a note: no read tool lists, finds or reads it, though it holds text no note has any more", async () => {
		expect(search.status().state).toBe("ready");
		await setNote("---\nstatus: zebraquokka\n---\nBody\n");
		expect(await callTool(client, "set_property", { path: "Target", name: "status", value: "done" })).toMatchObject({ ok: true });
		expect(await fs.readFile(journal.path, "utf8")).toContain("zebraquokka");
		const listed = await callTool(client, "list_notes", { limit: 500 });
		expect(JSON.stringify(listed)).not.toMatch(/journal|plugins/);
		const found = await callTool(client, "search_notes", { query: "zebraquokka" });
		expect(JSON.stringify(found)).not.toContain("journal");
		expect(found).toMatchObject({ ok: true, value: { results: [] } });
		// The search itself works: the word now in the note is found, in the note.
		expect(JSON.stringify(await callTool(client, "search_notes", { query: "done" }))).toContain("Target.md");
		for (const path of [nodePath.relative(root, journal.path), nodePath.relative(root, journal.path).replace(".jsonl", "")]) {
			expect(await callTool(client, "read_note", { path })).toMatchObject({ ok: false });
		}
	});

	test("every write tool is covered here", () => {
		expect([...Object.keys(CASES), "rename_note"].sort()).toEqual(
			ALL_TOOLS.filter((tool) => tool.access === "write")
				.map((tool) => tool.name)
				.sort(),
		);
	});

	test("rename_note: undo moves the note back and gives every note it touched its exact bytes; undoing the undo renames again", async () => {
		const linker = "Linker.md";
		const moved = "Moved/Target renamed.md";
		await fc.assert(
			fc.asyncProperty(shape, fc.constantFrom("[[Target]]", "[[Target#Part|see]]", "![[Target]]", "[t](Target.md)"), async (generated, link) => {
				const original = await setNote(noteText(generated, ["# Part"]));
				const linkerText = noteText({ ...generated, bom: false }, [`See ${link} here.`]);
				await host.vault.create(linker, linkerText);
				await until(() => (host.metadataCache.resolvedLinks[linker]?.[NOTE] ?? 0) > 0);
				expect(host.metadataCache.resolvedLinks[linker]?.[NOTE]).toBe(1);
				const outcome = await callTool(client, "rename_note", { path: "Target", new_path: moved });
				if (!outcome.ok) throw new Error(`rename_note failed on ${JSON.stringify(generated)}: ${outcome.error}`);
				const renamedLinker = await fs.readFile(nodePath.join(root, linker));
				expect(renamedLinker.toString()).not.toBe(linkerText);
				const [entry] = journal.list(1);
				const undone = await undoCall(host, journal, entry!.id);
				expect(undone).toMatchObject({ ok: true });
				expect(await fs.readFile(nodePath.join(root, NOTE))).toEqual(original);
				expect((await fs.readFile(nodePath.join(root, linker))).toString()).toBe(linkerText);
				await expect(fs.stat(nodePath.join(root, moved))).rejects.toMatchObject({ code: "ENOENT" });
				expect(await undoCall(host, journal, (undone as { undoId: string }).undoId)).toMatchObject({ ok: true });
				expect(await fs.readFile(nodePath.join(root, moved))).toEqual(original);
				expect(await fs.readFile(nodePath.join(root, linker))).toEqual(renamedLinker);
				// Back where the next run expects it, through the tool itself.
				const back = await callTool(client, "rename_note", { path: moved, new_path: NOTE });
				if (!back.ok) throw new Error(back.error);
				await host.vault.trash(host.vault.getFileByPath(linker)!);
			}),
			{ numRuns: 10 },
		);
	});

	test.each(Object.keys(CASES))(
		"%s: undo gives back the exact bytes, undoing the undo the tool's; after an outside edit a conflict copy holds them",
		async (toolName) => {
			const spec = CASES[toolName]!;
			const disk = () => fs.readFile(nodePath.join(root, NOTE));
			await fc.assert(
				fc.asyncProperty(shape, fc.boolean(), async (note, editedSince) => {
					const original = await setNote(noteText(note, spec.anchor(note), spec.lines));
					const outcome = await callTool(client, toolName, spec.args(note));
					if (!outcome.ok) throw new Error(`${toolName} failed on ${JSON.stringify(note)}: ${outcome.error}`);
					const [entry] = journal.list(1);
					expect(entry?.tool).toBe(toolName);
					const written = await disk();
					if (editedSince) {
						// Another program writes after the tool: undo must keep that and save the earlier text beside it.
						await host.vault.process(host.vault.getFileByPath(NOTE)!, (text) => `${text}outside ✓\r\n`);
						const edited = await disk();
						const undone = await undoCall(host, journal, entry!.id);
						expect(undone).toMatchObject({
							ok: true,
							notes: expect.arrayContaining([expect.objectContaining({ path: NOTE, result: "conflict" })]),
						});
						expect(await disk()).toEqual(edited);
						const copy = (undone as { notes: Array<{ path: string; copy?: string }> }).notes.find((each) => each.path === NOTE)?.copy;
						expect(await fs.readFile(nodePath.join(root, copy!))).toEqual(original);
						return;
					}
					const undone = await undoCall(host, journal, entry!.id);
					expect(undone).toMatchObject({ ok: true });
					expect(await disk()).toEqual(original);
					const redone = await undoCall(host, journal, (undone as { undoId: string }).undoId);
					expect(redone).toMatchObject({ ok: true });
					expect(await disk()).toEqual(written);
				}),
				{ numRuns: 25 },
			);
		},
	);

	test("create_note of a new note: undo moves it to the vault's .trash with its exact text, never deletes it; undoing that brings it back", async () => {
		await fc.assert(
			fc.asyncProperty(fc.string({ unit: fc.constantFrom("a", "\r\n", "\n", "é", "日", "😀"), maxLength: 30 }), async (content) => {
				await fs.rm(nodePath.join(root, ".trash"), { recursive: true, force: true });
				const made = await callTool(client, "create_note", { path: "Fresh/New note", content });
				if (!made.ok) throw new Error(made.error);
				const path = nodePath.join(root, "Fresh/New note.md");
				const written = await fs.readFile(path);
				const [entry] = journal.list(1);
				const undone = await undoCall(host, journal, entry!.id);
				expect(undone).toMatchObject({ ok: true, notes: [{ path: "Fresh/New note.md", result: "trashed" }] });
				await expect(fs.stat(path)).rejects.toMatchObject({ code: "ENOENT" });
				const trashed = await fs.readdir(nodePath.join(root, ".trash"), { recursive: true });
				const inTrash = await Promise.all(trashed.map((name) => fs.readFile(nodePath.join(root, ".trash", name)).catch(() => null)));
				expect(inTrash.some((bytes) => bytes?.equals(written))).toBe(true);
				expect(await undoCall(host, journal, (undone as { undoId: string }).undoId)).toMatchObject({ ok: true });
				expect(await fs.readFile(path)).toEqual(written);
				await host.vault.trash(host.vault.getFileByPath("Fresh/New note.md")!);
			}),
			{ numRuns: 15 },
		);
	});

	test.each(Object.keys(CASES))("%s: a stale expected_hash writes nothing on a generated note and gives the current hash", async (toolName) => {
		const spec = CASES[toolName]!;
		await fc.assert(
			fc.asyncProperty(shape, async (note) => {
				const text = noteText(note, spec.anchor(note), spec.lines);
				const original = await setNote(text);
				const entries = journal.list().length;
				const outcome = await callTool(client, toolName, { ...spec.args(note), expected_hash: hashText(`${text}stale`) });
				expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining(hashText(text)) });
				expect(await fs.readFile(nodePath.join(root, NOTE))).toEqual(original);
				expect(journal.list().length).toBe(entries);
			}),
			{ numRuns: 10 },
		);
	});
});
