/**
 * Calls set to Ask over real HTTP: a call waiting for the person does no work, so it must not hold
 * one of the token's places in flight. Otherwise a few waiting calls lock the token out of
 * everything else, reads included, until the person answers or the wait times out. Many approved
 * appends to one note at once (how many land depends on the machine's speed) are tested in
 * reliability/approvedAppendsToOneNote, which CI runs alone.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { addToken, revokeToken, setTokenRights, withToolRight } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import type { HostFile, HostVault } from "../../src/host/Host";
import { McpService } from "../../src/service";
import { MemoryJournal } from "../helpers/memoryJournal";
import { ALL_TOOLS } from "../../src/mcp/tools";
import type { Approver } from "../../src/mcp/approval";
import { connectClient } from "../helpers/http";
import { RecordingLogger, startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";
import { HoldingApprover } from "../helpers/holdingApprover";

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

	describe("a question whose call can no longer be written", () => {
		test.each([
			["its token revoked", (settings: VaultMcpSettings) => revokeToken(settings, "write")],
			["the tool set to Deny", (settings: VaultMcpSettings) => ({ settings: withToolRight(settings, "write", "append_to_note", "deny", ALL_TOOLS) })],
		])(
			"is withdrawn at once, %s while it waits for the person (it stayed on screen, ahead of others' questions, until answered)",
			async (_what, change) => {
				// Answers nothing of itself: only a withdrawal (its signal) ends the question.
				const asked: AbortSignal[] = [];
				const approver: Approver = {
					decide: (_request, signal) => {
						asked.push(signal);
						return new Promise(() => undefined);
					},
				};
				running = await startService(vault, {
					levels: ["write"],
					approver,
					rights: { write: { append_to_note: "ask" } },
					settings: { writeEnabled: true, writeDisclosureAccepted: true },
				});
				const client = await connectClient(running.url, running.tokens.write!);
				try {
					const call = callTool(client, "append_to_note", { path: "Home", content: "Line" }).catch((error: unknown) => ({
						ok: false,
						error: String(error),
					}));
					await until(() => asked.length === 1, "the call to be put to the person");
					const changed = change(running.settings);
					if ("error" in changed) throw new Error(changed.error);
					await running.service.apply(changed.settings);
					await until(() => asked[0]?.aborted === true, "the question to be withdrawn");
					expect((await call).ok).toBe(false);
					expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n");
				} finally {
					await client.close();
				}
			},
		);
	});
});

describe("a tool switched from Allow to Ask while an allowed call is planned", () => {
	let vault: string;
	beforeEach(async () => {
		vault = await makeVault({ "Home.md": "# Home\n" });
	});
	afterEach(() => removeDir(vault));

	test("the call is put to the person before anything is written, and a decline writes nothing", async () => {
		const host = await NodeHost.open(vault);
		// The call's plan reads Home.md: held there until the test has switched the tool to Ask.
		let armed = false;
		let reached = false;
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		const vaultHeld = new Proxy(host.vault, {
			get: (target, key) =>
				key === "cachedRead"
					? async (file: HostFile) => {
							if (armed && file.path === "Home.md") {
								reached = true;
								await held;
							}
							return target.cachedRead(file);
						}
					: (Reflect.get(target, key) as unknown),
		}) as HostVault;
		const heldHost = new Proxy(host, { get: (target, key) => (key === "vault" ? vaultHeld : (Reflect.get(target, key) as unknown)) });
		let settings: VaultMcpSettings = { ...defaultSettings(), serverEnabled: true, port: 0, writeEnabled: true, writeDisclosureAccepted: true };
		const made = addToken(settings, "writer", "write", { append_to_note: "allow" });
		if ("error" in made) throw new Error(made.error);
		settings = made.settings;
		const approver = new HoldingApprover();
		const service = new McpService({ host: heldHost, serverVersion: "test", logger: new RecordingLogger(), journal: new MemoryJournal(), approver });
		const status = await service.apply(settings);
		if (status.state !== "listening") throw new Error("the server did not start");
		await service.search?.whenReady();
		const client = await connectClient(status.url, made.token);
		armed = true;
		try {
			let settled = false;
			const call = callTool(client, "append_to_note", { path: "Home", content: "Pay Bob" }).finally(() => (settled = true));
			await until(() => reached, "the plan to read the note");
			const asked = setTokenRights(settings, "writer", { append_to_note: "ask" });
			if ("error" in asked) throw new Error(asked.error);
			await service.apply(asked.settings);
			release();
			await until(() => approver.held.length === 1 || settled, "the call to be asked about or answered");
			expect(approver.held.map(({ request }) => request.tool)).toEqual(["append_to_note"]);
			expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n");
			approver.held[0]?.answer("decline");
			const outcome = await call;
			expect(outcome.ok ? "" : outcome.error).toMatch(/declined/u);
			expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n");
		} finally {
			release();
			await client.close();
			await service.stop();
			await host.close();
		}
	});
});
