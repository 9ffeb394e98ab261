/**
 * Calls set to Ask over real HTTP: a call waiting for the person does no work, so it must not hold
 * one of the token's places in flight. Otherwise a few waiting calls lock the token out of
 * everything else, reads included, until the person answers or the wait times out.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { MAX_IN_FLIGHT_REQUESTS } from "../../src/config/limits";
import type { ApprovalDecision, ApprovalRequest, Approver } from "../../src/mcp/approval";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Holds every request until the test answers it. */
class HoldingApprover implements Approver {
	readonly held: Array<{ request: ApprovalRequest; answer: (decision: ApprovalDecision) => void }> = [];
	decide(request: ApprovalRequest): Promise<ApprovalDecision> {
		return new Promise((resolve) => this.held.push({ request, answer: resolve }));
	}
}

async function until(condition: () => boolean, what: string): Promise<void> {
	for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
		if (Date.now() - started > 5_000) throw new Error(`timed out waiting for ${what}`);
	}
}

describe("calls waiting for approval over HTTP", () => {
	let vault: string;
	let running: RunningService | null = null;
	beforeEach(async () => {
		vault = await makeVault({ "Home.md": "# Home\n" });
	});
	afterEach(async () => {
		await running?.stop();
		running = null;
		await removeDir(vault);
	});

	test("more calls than the server has places for can wait at once, and the token's reads still run meanwhile", async () => {
		const approver = new HoldingApprover();
		running = await startService(vault, {
			levels: ["write"],
			approver,
			rights: { write: { append_to_note: "ask" } },
			settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
		});
		const client = await connectClient(running.url, running.tokens.write!);
		try {
			const count = MAX_IN_FLIGHT_REQUESTS + 2;
			const calls = Array.from({ length: count }, (_, index) => callTool(client, "append_to_note", { path: "Home", content: `Line ${index}` }));
			await until(() => approver.held.length === count, `${count} calls to wait for approval`);
			expect(await callTool(client, "list_notes", {})).toMatchObject({ ok: true });
			for (const { answer } of approver.held) answer("approve");
			expect((await Promise.all(calls)).map((outcome) => outcome.ok)).toEqual(Array.from({ length: count }, () => true));
			const text = await fs.readFile(nodePath.join(vault, "Home.md"), "utf8");
			for (let index = 0; index < count; index++) expect(text).toContain(`Line ${index}`);
		} finally {
			await client.close();
		}
	});
});
