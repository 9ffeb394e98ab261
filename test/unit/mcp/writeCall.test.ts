import { promises as fs } from "node:fs";
import { WritesBeforeReleased } from "../../../src/mcp/releasedCalls";
import * as nodePath from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ActivityLog } from "../../../src/activity";
import { effectiveRight, type ToolRight, type ToolRights } from "../../../src/auth/rights";
import { generateToken, type TokenRecord } from "../../../src/auth/tokens";
import { NodeHost } from "../../../src/headless/NodeHost";
import { MemoryJournal } from "../../helpers/memoryJournal";
import type { ApprovalAnswer, ApprovalRequest, Approver, WriteServices } from "../../../src/mcp/approval";
import type { ToolContext } from "../../../src/mcp/context";
import { createMcpServer } from "../../../src/mcp/server";
import { ALL_TOOLS } from "../../../src/mcp/tools";
import { undoCall } from "../../../src/journal/undo";
import { hashText } from "../../../src/vault/writes";
import { IndexedNoteSearch } from "../../../src/vault/search";
import { RecordingLogger } from "../../helpers/service";
import { anyAnswerOf, callTool } from "../../helpers/tools";
import { removeDir, copyDemoVault } from "../../helpers/vault";

const WRITE_TOOLS = ALL_TOOLS.filter((tool) => tool.access === "write");

/** An approver a test answers: each request waits until the test decides. */
class ScriptedApprover implements Approver {
	readonly requests: ApprovalRequest[] = [];
	readonly withdrawn: string[] = [];
	private readonly waiting = new Map<string, (decision: ApprovalAnswer) => void>();
	private readonly arrivals: Array<(request: ApprovalRequest) => void> = [];

	decide(request: ApprovalRequest, signal: AbortSignal, shown: () => void): Promise<ApprovalAnswer> {
		this.requests.push(request);
		shown();
		signal.addEventListener("abort", () => {
			if (this.waiting.delete(request.id)) this.withdrawn.push(request.id);
		});
		const promise = new Promise<ApprovalAnswer>((resolve) => this.waiting.set(request.id, resolve));
		this.arrivals.shift()?.(request);
		return promise;
	}

	/** The next request to arrive (or the one already waiting). */
	next(): Promise<ApprovalRequest> {
		const pending = this.requests.find((request) => this.waiting.has(request.id));
		if (pending) return Promise.resolve(pending);
		return new Promise((resolve) => this.arrivals.push(resolve));
	}

	answer(request: ApprovalRequest, decision: ApprovalAnswer): void {
		const resolve = this.waiting.get(request.id);
		this.waiting.delete(request.id);
		resolve?.(decision);
	}
}

describe("write calls: rights per tool, approval, expected_hash and the journal (MCP layer)", () => {
	let root: string;
	let host: NodeHost;
	let search: IndexedNoteSearch;
	const scope = { configDir: ".obsidian", excludedFolders: [] };

	beforeEach(async () => {
		root = await copyDemoVault();
		host = await NodeHost.open(root);
		search = new IndexedNoteSearch(host, scope, () => new Promise((resolve) => setImmediate(resolve)));
	});
	afterEach(async () => {
		await search.stop();
		await host.close();
		await removeDir(root);
	});

	interface Connected {
		client: Client;
		journal: MemoryJournal;
		token: TokenRecord;
		/** Changes what currentRight answers, as a settings change would. */
		setLiveRight(right: ToolRight | null): void;
		allowedAlways: string[];
	}

	async function connect(rights: ToolRights | undefined, writes: Partial<WriteServices> = {}): Promise<Connected> {
		const { record } = generateToken("writer", "write", rights);
		const journal = new MemoryJournal();
		let live: ToolRight | null = null;
		const allowedAlways: string[] = [];
		const services: WriteServices = {
			journal,
			approver: null,
			approvalTimeoutMs: 5_000,
			writesBeforeReleased: new WritesBeforeReleased(),
			currentRight: (tool) => live ?? effectiveRight(record, tool, true),
			allowAlways: (tool) => {
				allowedAlways.push(tool);
				return Promise.resolve();
			},
			...writes,
		};
		const ctx: ToolContext = {
			host,
			serverVersion: "test",
			scope,
			grant: { token: record, canWrite: true },
			search,
			dailyNotesAreOutlines: false,
			writes: services,
		};
		const server = createMcpServer(ctx, { activity: new ActivityLog(), logger: new RecordingLogger() });
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		const client = new Client({ name: "in-memory", version: "1" });
		await client.connect(clientSide);
		return { client, journal, token: record, setLiveRight: (right) => (live = right), allowedAlways };
	}

	const read = (path: string) => fs.readFile(nodePath.join(root, path), "utf8");

	test("a denied tool is absent from tools/list and answers exactly like a tool that does not exist", async () => {
		const { client } = await connect({ append_to_note: "deny", read_note: "deny" });
		try {
			const names = (await client.listTools()).tools.map((tool) => tool.name);
			expect(names).not.toContain("append_to_note");
			expect(names).not.toContain("read_note");
			expect(names).toContain("create_note");
			// The SDK answers an unknown tool with a JSON-RPC error (-32602), as the spec says since 2025-11-25.
			const denied = await anyAnswerOf(client, "append_to_note", { path: "Welcome", content: "x" });
			const unknown = await anyAnswerOf(client, "no_such_tool", { path: "Welcome", content: "x" });
			expect(denied).toHaveProperty("error.code", -32602);
			expect(JSON.stringify(denied).replace("append_to_note", "TOOL")).toBe(JSON.stringify(unknown).replace("no_such_tool", "TOOL"));
		} finally {
			await client.close();
		}
	});

	test.each(ALL_TOOLS.filter((tool) => tool.needs !== "workspace").map((tool) => [tool.name, tool] as const))(
		"%s denied: absent from tools/list, and a call answers byte for byte like a tool that does not exist",
		async (name, tool) => {
			const { client } = await connect({ [name]: "deny" });
			try {
				expect((await client.listTools()).tools.map((listed) => listed.name)).not.toContain(name);
				const args = tool.examples[0] ?? {};
				const unknownName = "z".repeat(name.length);
				const denied = await anyAnswerOf(client, name, args);
				const unknown = await anyAnswerOf(client, unknownName, args);
				expect(JSON.stringify(denied).split(name).join("TOOL")).toBe(JSON.stringify(unknown).split(unknownName).join("TOOL"));
			} finally {
				await client.close();
			}
		},
	);

	test("every write tool takes expected_hash; read tools do not", async () => {
		const { client } = await connect(undefined);
		try {
			for (const tool of (await client.listTools()).tools) {
				const isWrite = WRITE_TOOLS.some((write) => write.name === tool.name);
				expect([tool.name, Object.keys(tool.inputSchema.properties ?? {}).includes("expected_hash")]).toEqual([tool.name, isWrite]);
			}
		} finally {
			await client.close();
		}
	});

	test.each(WRITE_TOOLS.map((tool) => [tool.name, tool] as const))(
		"%s: an expected_hash that is not the note's writes nothing and gives the current hash",
		async (_name, tool) => {
			const { client, journal } = await connect(undefined);
			try {
				const before = await snapshotVault(root);
				const example = {
					...tool.examples[0],
					...(tool.name === "create_note" ? { path: "Welcome", overwrite: true } : {}),
					expected_hash: "0".repeat(64),
				};
				const outcome = await callTool(client, tool.name, example);
				expect(outcome.ok).toBe(false);
				const error = (outcome as { error: string }).error;
				expect(error).toMatch(/Nothing was written/);
				const target = tool.name === "create_note" ? "Welcome.md" : tool.name === "add_task" ? "Projects/Garden.md" : `${String(example.path)}.md`;
				expect(error).toContain(hashText(await read(target)));
				expect(await snapshotVault(root)).toEqual(before);
				expect(journal.list()).toEqual([]);
			} finally {
				await client.close();
			}
		},
	);

	test("the right expected_hash writes, and the change is journalled with the exact text before and after", async () => {
		const { client, journal } = await connect(undefined);
		try {
			const before = await read("Welcome.md");
			const answer = await callTool(client, "append_to_note", { path: "Welcome", content: "Hashed append", expected_hash: hashText(before) });
			expect(answer.ok).toBe(true);
			const after = await read("Welcome.md");
			expect(after).toContain("Hashed append");
			const [entry] = journal.list();
			expect(entry).toMatchObject({
				tokenName: "writer",
				tool: "append_to_note",
				changes: [{ path: "Welcome.md", before, beforeHash: hashText(before), after, afterHash: hashText(after) }],
			});
		} finally {
			await client.close();
		}
	});

	test("create_note over an existing note journals the overwrite and the backup as one call", async () => {
		const { client, journal } = await connect(undefined);
		try {
			const before = await read("Welcome.md");
			expect((await callTool(client, "create_note", { path: "Welcome", content: "New text", overwrite: true })).ok).toBe(true);
			const [entry] = journal.list();
			expect(entry?.changes.map((change) => [change.path, change.before])).toEqual([
				["Welcome.md", before],
				["Welcome.md.bak", null],
			]);
			expect(await read("Welcome.md.bak")).toBe(before);
		} finally {
			await client.close();
		}
	});

	test("ask without anyone to answer: a clear error at once, nothing written", async () => {
		const { client, journal } = await connect({ append_to_note: "ask" });
		try {
			const before = await snapshotVault(root);
			const outcome = await callTool(client, "append_to_note", { path: "Welcome", content: "x" });
			expect(outcome).toEqual({
				ok: false,
				error: expect.stringMatching(/needs the person's approval.*in Obsidian.*vault-mcp serve.*terminal.*token rights.*Nothing was written/s),
			});
			expect(await snapshotVault(root)).toEqual(before);
			expect(journal.list()).toEqual([]);
		} finally {
			await client.close();
		}
	});

	test("ask: a question ended because nobody can answer any more (serve's terminal closed by Ctrl-D, the plugin unloading) is not told as the person's refusal; nothing is written", async () => {
		const approver = new ScriptedApprover();
		const { client, journal } = await connect({ append_to_note: "ask" }, { approver });
		try {
			const before = await read("Welcome.md");
			const asked = callTool(client, "append_to_note", { path: "Welcome", content: "Unanswered line" });
			approver.answer(await approver.next(), "closed");
			// It answered "The person declined… Do not retry it unless they ask you to", though nobody had seen it.
			expect(await asked).toEqual({
				ok: false,
				error: expect.stringMatching(/needs the person's approval.*nobody can give it here.*Nothing was written/s),
			});
			expect(await read("Welcome.md")).toBe(before);
			expect(journal.list()).toEqual([]);
		} finally {
			await client.close();
		}
	});

	test("ask: the person sees the exact change first; approve writes it once, decline writes nothing", async () => {
		const approver = new ScriptedApprover();
		const { client, journal } = await connect({ append_to_note: "ask" }, { approver });
		try {
			const before = await read("Welcome.md");
			const declined = callTool(client, "append_to_note", { path: "Welcome", content: "Declined line" });
			const first = await approver.next();
			expect(first).toMatchObject({ tokenName: "writer", tool: "append_to_note", changes: [{ path: "Welcome.md", before }] });
			expect(first.changes[0]?.after).toContain("Declined line");
			expect(await read("Welcome.md")).toBe(before);
			approver.answer(first, "decline");
			expect(await declined).toEqual({ ok: false, error: expect.stringMatching(/declined.*Nothing was written/s) });
			expect(await read("Welcome.md")).toBe(before);

			const approved = callTool(client, "append_to_note", { path: "Welcome", content: "Approved line" });
			const second = await approver.next();
			approver.answer(second, "approve");
			approver.answer(second, "approve");
			expect((await approved).ok).toBe(true);
			const after = await read("Welcome.md");
			expect(after.split("Approved line").length - 1).toBe(1);
			expect(after).not.toContain("Declined line");
			// The change written is the one shown.
			expect(after).toBe(second.changes[0]?.after);
			expect(journal.list().map((entry) => [entry.id, entry.tool])).toEqual([[second.id, "append_to_note"]]);
		} finally {
			await client.close();
		}
	});

	test("ask: approval runs against the note as it is then, so an edit made while waiting is kept", async () => {
		const approver = new ScriptedApprover();
		const { client } = await connect({ append_to_note: "ask" }, { approver });
		try {
			const pending = callTool(client, "append_to_note", { path: "Welcome", content: "After approval" });
			const request = await approver.next();
			await fs.appendFile(nodePath.join(root, "Welcome.md"), "\nWritten meanwhile\n");
			await waitFor(async () => (await host.vault.read(host.vault.getFileByPath("Welcome.md")!)).includes("Written meanwhile"));
			approver.answer(request, "approve");
			expect((await pending).ok).toBe(true);
			const after = await read("Welcome.md");
			expect(after).toContain("Written meanwhile");
			expect(after).toContain("After approval");
		} finally {
			await client.close();
		}
	});

	test("ask: two calls on the same note, approved in the opposite order, each runs on the note as it then is, journalled from the text the other left", async () => {
		const approver = new ScriptedApprover();
		const { client, journal } = await connect({ append_to_note: "ask" }, { approver });
		try {
			const before = await read("Welcome.md");
			const first = callTool(client, "append_to_note", { path: "Welcome", content: "First line" });
			const firstRequest = await approver.next();
			const second = callTool(client, "append_to_note", { path: "Welcome", content: "Second line" });
			await waitFor(() => Promise.resolve(approver.requests.length === 2));
			const secondRequest = approver.requests[1]!;
			// Both were shown against the same text.
			expect([firstRequest.changes[0]?.before, secondRequest.changes[0]?.before]).toEqual([before, before]);
			approver.answer(secondRequest, "approve");
			expect((await second).ok).toBe(true);
			approver.answer(firstRequest, "approve");
			expect((await first).ok).toBe(true);
			const after = await read("Welcome.md");
			expect(after.indexOf("Second line")).toBeLessThan(after.indexOf("First line"));
			expect(after.startsWith(before)).toBe(true);
			const [newest, oldest] = journal.list();
			expect([newest?.id, oldest?.id]).toEqual([firstRequest.id, secondRequest.id]);
			expect(newest?.changes[0]?.before).toBe(oldest?.changes[0]?.after);
			expect(newest?.changes[0]?.after).toBe(after);
		} finally {
			await client.close();
		}
	});

	test("ask: a note whose text the approved change depends on changed while the person decided: nothing unseen is written, they are asked again with the new diff", async () => {
		const approver = new ScriptedApprover();
		const { client, journal } = await connect({ set_property: "ask" }, { approver });
		try {
			const path = nodePath.join(root, "Projects/Garden.md");
			const pending = callTool(client, "set_property", { path: "Projects/Garden", name: "status", value: "paused" });
			const request = await approver.next();
			expect(request.changes[0]?.after).toContain("status: paused");
			const edited = (await read("Projects/Garden.md")).replace("status: active", "status: growing");
			expect(edited).toContain("status: growing");
			await fs.writeFile(path, edited);
			await waitFor(async () => (await host.vault.read(host.vault.getFileByPath("Projects/Garden.md")!)) === edited);
			approver.answer(request, "approve");
			const second = await approver.next();
			// The new question shows the note as it is now; nothing was written in between.
			expect(second.changes[0]?.before).toBe(edited);
			expect(await read("Projects/Garden.md")).toBe(edited);
			approver.answer(second, "approve");
			expect((await pending).ok).toBe(true);
			const after = await read("Projects/Garden.md");
			expect(after).toBe(second.changes[0]?.after);
			expect(journal.list()[0]?.changes[0]).toMatchObject({ before: edited, after });
		} finally {
			await client.close();
		}
	});

	test("ask: 'always allow' clicked on a change that then no longer fits, the tool set back to Ask: the new change is asked, not written unseen", async () => {
		const approver = new ScriptedApprover();
		// The person clicks "always allow", then sets the tool back to Ask before the call is planned again.
		let setLiveRight: (right: ToolRight | null) => void = () => undefined;
		const connected = await connect(
			{ set_property: "ask" },
			{
				approver,
				allowAlways: () => {
					setLiveRight("ask");
					return Promise.resolve();
				},
			},
		);
		setLiveRight = (right) => connected.setLiveRight(right);
		try {
			const path = nodePath.join(root, "Projects/Garden.md");
			const pending = callTool(connected.client, "set_property", { path: "Projects/Garden", name: "status", value: "paused" });
			const request = await approver.next();
			const edited = (await read("Projects/Garden.md")).replace("status: active", "status: growing");
			await fs.writeFile(path, edited);
			await waitFor(async () => (await host.vault.read(host.vault.getFileByPath("Projects/Garden.md")!)) === edited);
			approver.answer(request, "always");
			// Nothing the person did not see is written: they are asked with the change as it is now.
			const second = await Promise.race([approver.next(), pending.then(() => null)]);
			expect(await read("Projects/Garden.md")).toBe(edited);
			if (second === null) throw new Error("the call ended without asking again");
			expect(second.changes[0]?.before).toBe(edited);
			expect(await read("Projects/Garden.md")).toBe(edited);
			approver.answer(second, "decline");
			expect((await pending).ok).toBe(false);
			expect(await read("Projects/Garden.md")).toBe(edited);
		} finally {
			await connected.client.close();
		}
	});

	test("ask: an answer racing the time limit is taken once, and what the client is told matches the vault", async () => {
		const approver = new ScriptedApprover();
		const timeoutMs = 60;
		const { client, journal } = await connect({ append_to_note: "ask" }, { approver, approvalTimeoutMs: timeoutMs });
		try {
			for (let attempt = 0; attempt < 12; attempt++) {
				const before = await read("Welcome.md");
				const pending = callTool(client, "append_to_note", { path: "Welcome", content: `Race ${attempt}` });
				const request = await approver.next();
				await new Promise((resolve) => setTimeout(resolve, timeoutMs - 6 + attempt));
				approver.answer(request, "approve");
				const outcome = await pending;
				const after = await read("Welcome.md");
				const journalled = journal.list().some((entry) => entry.id === request.id);
				if (outcome.ok) expect([after.split(`Race ${attempt}`).length - 1, journalled]).toEqual([1, true]);
				else expect([outcome.error, after, journalled]).toEqual([expect.stringMatching(/Nothing was written/), before, false]);
			}
		} finally {
			await client.close();
		}
	});

	test("ask: rights revoked while the window is open run nothing", async () => {
		const approver = new ScriptedApprover();
		const connected = await connect({ append_to_note: "ask" }, { approver });
		try {
			const before = await snapshotVault(root);
			const pending = callTool(connected.client, "append_to_note", { path: "Welcome", content: "Too late" });
			const request = await approver.next();
			connected.setLiveRight("deny");
			approver.answer(request, "approve");
			expect(await pending).toEqual({ ok: false, error: expect.stringMatching(/no longer allowed.*Nothing was written/s) });
			expect(await snapshotVault(root)).toEqual(before);
			expect(connected.journal.list()).toEqual([]);
		} finally {
			await connected.client.close();
		}
	});

	test("ask: no answer within the limit writes nothing, and the request is withdrawn from the approver", async () => {
		const approver = new ScriptedApprover();
		const { client } = await connect({ append_to_note: "ask" }, { approver, approvalTimeoutMs: 200 });
		try {
			const before = await snapshotVault(root);
			const outcome = await callTool(client, "append_to_note", { path: "Welcome", content: "Nobody answered" });
			expect(outcome).toEqual({ ok: false, error: expect.stringMatching(/Nobody approved.*Nothing was written/s) });
			expect(approver.withdrawn).toEqual([approver.requests[0]?.id]);
			expect(await snapshotVault(root)).toEqual(before);
		} finally {
			await client.close();
		}
	});

	test("ask: 'always allow' writes and saves allow for this token and tool", async () => {
		const approver = new ScriptedApprover();
		const connected = await connect({ add_task: "ask" }, { approver });
		try {
			const pending = callTool(connected.client, "add_task", { text: "Always", path: "Projects/Garden" });
			approver.answer(await approver.next(), "always");
			expect((await pending).ok).toBe(true);
			expect(connected.allowedAlways).toEqual(["add_task"]);
		} finally {
			await connected.client.close();
		}
	});

	test("ask: a call that cannot succeed answers its error without asking", async () => {
		const approver = new ScriptedApprover();
		const { client } = await connect({ append_to_note: "ask" }, { approver });
		try {
			expect(await callTool(client, "append_to_note", { path: "No such note", content: "x" })).toMatchObject({ ok: false });
			expect(approver.requests).toEqual([]);
		} finally {
			await client.close();
		}
	});

	test("ask: add_task into a missing daily note previews the new note and writes nothing until approved", async () => {
		const approver = new ScriptedApprover();
		const { client } = await connect({ add_task: "ask" }, { approver });
		try {
			const before = await snapshotVault(root);
			const pending = callTool(client, "add_task", { text: "Preview me" });
			const request = await approver.next();
			expect(request.changes).toHaveLength(1);
			expect(request.changes[0]).toMatchObject({ before: null, after: expect.stringContaining("- [ ] Preview me") });
			expect(await snapshotVault(root)).toEqual(before);
			approver.answer(request, "decline");
			await pending;
			expect(await snapshotVault(root)).toEqual(before);
		} finally {
			await client.close();
		}
	});

	test("ask: rename_note previews the move and each linking note's diff, writes nothing while waiting, and once approved is one journal entry that one undo reverses", async () => {
		const approver = new ScriptedApprover();
		const { client, journal } = await connect({ rename_note: "ask" }, { approver });
		try {
			const before = await snapshotVault(root);
			const garden = await read("Projects/Garden.md");
			const welcome = await read("Welcome.md");
			const pending = callTool(client, "rename_note", { path: "Projects/Garden", new_path: "Archive/Garden plan.md" });
			const request = await approver.next();
			const welcomeAfter = welcome.replace("[[Projects/Garden|the garden project]]", "[[Garden plan|the garden project]]");
			expect(request.changes).toEqual([
				{ path: "Archive/Garden plan.md", movedFrom: "Projects/Garden.md", before: garden, after: garden },
				{ path: "Welcome.md", before: welcome, after: welcomeAfter },
			]);
			expect(await snapshotVault(root)).toEqual(before);
			approver.answer(request, "approve");
			expect(await pending).toEqual({
				ok: true,
				value: { path: "Projects/Garden.md", new_path: "Archive/Garden plan.md", notes_updated: 1, links_updated: 1 },
			});
			expect(await read("Welcome.md")).toBe(welcomeAfter);
			expect(await read("Archive/Garden plan.md")).toBe(garden);
			const [entry] = journal.list();
			expect(entry?.changes.map((change) => [change.path, change.movedFrom])).toEqual([
				["Archive/Garden plan.md", "Projects/Garden.md"],
				["Welcome.md", undefined],
			]);

			const outcome = await undoCall(host, journal, entry?.id ?? "");
			// The note moves back first, so a move that cannot be made leaves every link reaching it where it is.
			expect(outcome.ok && outcome.notes).toEqual([
				{ path: "Projects/Garden.md", result: "moved back", from: "Archive/Garden plan.md" },
				{ path: "Welcome.md", result: "restored" },
			]);
			expect(await snapshotVault(root)).toEqual(before);
		} finally {
			await client.close();
		}
	});
});

/** Every file under `root` (path → text), to show that nothing changed. */
async function snapshotVault(root: string): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const path = nodePath.join(entry.parentPath, entry.name);
		files[nodePath.relative(root, path)] = await fs.readFile(path, "utf8");
	}
	return files;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error("timed out waiting");
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}
