/**
 * A property over interleavings of write tool calls (renames with their link rewrites among them), edits by other programs and undo: no
 * acknowledged byte is lost (every line a call or another program added is in a note, a backup, a
 * conflict copy or the trash, unless an undo of that very call took it back), and every undo is
 * either exact (the note holds the text from before the call) or leaves a conflict copy holding it.
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
import { IndexedNoteSearch } from "../../../src/vault/search";
import { RecordingLogger } from "../../helpers/service";
import { callTool } from "../../helpers/tools";
import { makeVault, readAllFiles, removeDir } from "../../helpers/vault";

type Step =
	| { kind: "append"; note: "A" | "B" }
	| { kind: "overwrite"; note: "A" | "B" }
	| { kind: "property"; note: "A" | "B" }
	| { kind: "outside"; note: "A" | "B" }
	| { kind: "rename" }
	| { kind: "undo"; pick: number };

const note = fc.constantFrom("A" as const, "B" as const);
const step: fc.Arbitrary<Step> = fc.oneof(
	fc.record({ kind: fc.constant("append" as const), note }),
	fc.record({ kind: fc.constant("overwrite" as const), note }),
	fc.record({ kind: fc.constant("property" as const), note }),
	fc.record({ kind: fc.constant("outside" as const), note }),
	fc.record({ kind: fc.constant("rename" as const) }),
	fc.record({ kind: fc.constant("undo" as const), pick: fc.nat(20) }),
);

describe("interleavings of tool calls, outside edits and undo", () => {
	test("no acknowledged byte is lost, and every undo is exact or leaves a conflict copy", async () => {
		let run = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 9 }), async (steps) => {
				run++;
				const root = await makeVault({
					"A.md": "# A\n\nstart a, see [[C]]\n",
					"B.md": "---\nstatus: new\n---\n# B\n\n[[C#Heading|c]]\n",
					"C.md": "# C\n\n## Heading\n",
				});
				const host = await NodeHost.open(root);
				const scope = { configDir: ".obsidian", excludedFolders: [] };
				const search = new IndexedNoteSearch(host, scope, () => new Promise((resolve) => setImmediate(resolve)));
				const journal = JournalFile.forVault(root, ".obsidian");
				const { record } = generateToken("writer", "write", undefined);
				const writes: WriteServices = {
					journal,
					approver: null,
					approvalTimeoutMs: 5_000,
					writesBeforeReleased: new WritesBeforeReleased(),
					currentRight: (tool) => effectiveRight(record, tool, true),
					allowAlways: () => Promise.resolve(),
				};
				const ctx: ToolContext = {
					host,
					serverVersion: "test",
					scope,
					grant: { token: record, canWrite: true },
					search,
					dailyNotesAreOutlines: false,
					writes,
				};
				const server = createMcpServer(ctx, { activity: new ActivityLog(), logger: new RecordingLogger() });
				const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
				await server.connect(serverSide);
				const client = new Client({ name: "in-memory", version: "1" });
				await client.connect(clientSide);
				/** Lines that must survive: each with the journal id of the call that wrote it (null: another program). */
				const kept: Array<{ line: string; callId: string | null }> = [];
				const undone = new Set<string>();
				try {
					for (const [index, current] of steps.entries()) {
						const line = `marker ${run}-${index}-${current.kind}`;
						const newest = () => journal.list(1)[0]?.id ?? null;
						if (current.kind === "outside") {
							await fs.appendFile(nodePath.join(root, `${current.note}.md`), `${line}\n`);
							kept.push({ line, callId: null });
						} else if (current.kind === "undo") {
							const entries = journal.list().filter((entry) => entry.undone === null && entry.tool !== "undo");
							const entry = entries[current.pick % Math.max(1, entries.length)];
							if (!entry) continue;
							const outcome = await undoCall(host, journal, entry.id);
							expect(outcome.ok).toBe(true);
							if (!outcome.ok) continue;
							undone.add(entry.id);
							for (const done of outcome.notes) {
								const change = entry.changes.find((candidate) => candidate.path === done.path || candidate.movedFrom === done.path);
								if (done.result === "restored") expect(await fs.readFile(nodePath.join(root, done.path), "utf8")).toBe(change?.before);
								if (done.result === "moved back") expect(await fs.readFile(nodePath.join(root, done.path), "utf8")).toBe(change?.before);
								if (done.result === "conflict") expect(await fs.readFile(nodePath.join(root, done.copy), "utf8")).toBe(change?.before);
								expect(["restored", "moved back", "conflict", "unchanged", "trashed", "kept", "gone"]).toContain(done.result);
							}
						} else if (current.kind === "rename") {
							// C moves between two folders; A and B link to it, so each rename rewrites their links too.
							const at = (await fs.stat(nodePath.join(root, "C.md")).then(
								() => true,
								() => false,
							))
								? "C.md"
								: "Moved/C.md";
							const outcome = await callTool(client, "rename_note", { path: at, new_path: at === "C.md" ? "Moved/C.md" : "C.md" });
							if (!outcome.ok) expect(outcome.error).toMatch(/exists|changed|not found|No note/i);
						} else {
							const args =
								current.kind === "append"
									? { name: "append_to_note", arguments: { path: current.note, content: line } }
									: current.kind === "overwrite"
										? { name: "create_note", arguments: { path: `${current.note}.md`, content: line, overwrite: true } }
										: // A property of its own per call: a second set_property of the same name replaces the value by design.
											{
												name: "set_property",
												arguments: { path: current.note, name: `marker_${line.replace(/\W/g, "_")}`, value: line },
											};
							const before = newest();
							const outcome = await callTool(client, args.name, args.arguments);
							const id = newest();
							if (outcome.ok && id !== before && id !== null) kept.push({ line, callId: id });
						}
					}
					const everything = (await readAllFiles(root))
						.filter((file) => !file.path.endsWith("journal.jsonl"))
						.map((file) => file.text)
						.join("\n");
					// A line an undone call wrote may be gone with it; every other acknowledged line is somewhere in the vault.
					const lost = kept.filter(({ line, callId }) => (callId === null || !undone.has(callId)) && !everything.includes(line));
					expect(lost).toEqual([]);
				} finally {
					await client.close();
					await host.close();
					await removeDir(root);
				}
			}),
			{ numRuns: 15 },
		);
	}, 240_000);
});
