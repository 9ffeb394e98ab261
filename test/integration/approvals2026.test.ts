import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import * as nodePath from "node:path";
import type { ApprovalDecision, ApprovalRequest, Approver } from "../../src/mcp/approval";
import { mcpHeaders, rawRequest } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeTempDir, removeDir } from "../helpers/vault";

/**
 * The approval and journal path at 2026-07-28, where the SDK's own handler serves the request:
 * an approved call is written and journaled, a declined one writes nothing, and a client that goes
 * away while its call waits withdraws the question.
 */
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": "2026-07-28",
	"io.modelcontextprotocol/clientInfo": { name: "approvals-2026", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

function appendCall(id: number, content: string): string {
	return JSON.stringify({
		jsonrpc: "2.0",
		id,
		method: "tools/call",
		params: { name: "append_to_note", arguments: { path: "Note.md", content }, _meta: ENVELOPE },
	});
}

/** Answers each question with the next scripted decision; "wait" never answers and reports the abort instead. */
class ScriptedApprover implements Approver {
	readonly asked: ApprovalRequest[] = [];
	readonly withdrawn: string[] = [];
	private readonly askedListeners: Array<() => void> = [];
	constructor(private readonly script: Array<ApprovalDecision | "wait">) {}

	decide(approval: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
		this.asked.push(approval);
		for (const listener of this.askedListeners.splice(0)) listener();
		const next = this.script.shift() ?? "decline";
		if (next !== "wait") return Promise.resolve(next);
		return new Promise((_resolve, reject) => {
			signal.addEventListener("abort", () => {
				this.withdrawn.push(approval.id);
				reject(new Error("withdrawn"));
			});
		});
	}

	whenAsked(): Promise<void> {
		return new Promise((resolve) => this.askedListeners.push(resolve));
	}
}

describe("approvals and the journal at 2026-07-28", () => {
	let vault: string;
	let running: RunningService;
	const approver = new ScriptedApprover(["approve", "decline", "wait"]);
	const notePath = () => nodePath.join(vault, "Note.md");
	const headers = () =>
		mcpHeaders(running.port, running.tokens.write ?? "", [
			["MCP-Protocol-Version", "2026-07-28"],
			["Mcp-Method", "tools/call"],
			["Mcp-Name", "append_to_note"],
		]);

	beforeAll(async () => {
		vault = await makeTempDir("vault-approvals-2026-");
		writeFileSync(notePath(), "first line\n");
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 10_000 },
			approver,
			rights: { write: { append_to_note: "ask" } },
		});
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test("an approved call is written and journaled; a declined one writes nothing", async () => {
		const approved = await rawRequest(running.port, { headers: headers(), body: appendCall(1, "approved line") });
		expect(approved.status).toBe(200);
		expect(JSON.parse(approved.body)).toMatchObject({ id: 1, result: { structuredContent: { path: "Note.md" } } });
		expect(approver.asked[0]).toMatchObject({ tool: "append_to_note", tokenName: "write" });
		expect(readFileSync(notePath(), "utf8")).toContain("approved line");
		expect(running.journal.list().map((entry) => entry.tool)).toEqual(["append_to_note"]);

		const declined = await rawRequest(running.port, { headers: headers(), body: appendCall(2, "declined line") });
		expect(declined.status).toBe(200);
		expect(JSON.parse(declined.body)).toMatchObject({ id: 2, result: { isError: true } });
		expect(readFileSync(notePath(), "utf8")).not.toContain("declined line");
		expect(running.journal.list()).toHaveLength(1);
	});

	test("a client that goes away while its call waits withdraws the question and writes nothing; the token is served on", async () => {
		const before = readFileSync(notePath(), "utf8");
		const asked = approver.whenAsked();
		const body = appendCall(3, "never written");
		const pending = request({
			host: "127.0.0.1",
			port: running.port,
			method: "POST",
			path: "/mcp",
			headers: Object.fromEntries(headers()),
			setHost: false,
		});
		pending.on("error", () => undefined);
		pending.end(body);
		await asked;
		pending.destroy();
		const deadline = Date.now() + 5_000;
		while (approver.withdrawn.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
		expect(approver.withdrawn).toHaveLength(1);
		expect(readFileSync(notePath(), "utf8")).toBe(before);
		const status = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "get_vault_status", arguments: {}, _meta: ENVELOPE } });
		const statusHeaders = mcpHeaders(running.port, running.tokens.write ?? "", [
			["MCP-Protocol-Version", "2026-07-28"],
			["Mcp-Method", "tools/call"],
			["Mcp-Name", "get_vault_status"],
		]);
		for (let call = 0; call < 6; call++) expect((await rawRequest(running.port, { headers: statusHeaders, body: status })).status).toBe(200);
	});
});
