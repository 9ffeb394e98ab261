import { addToken, revokeToken, withToolRight } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { ALL_TOOLS } from "../../src/mcp/tools/index";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";
import { HoldingApprover } from "../helpers/holdingApprover";

/**
 * "Always allow" clicked on one token's question sets the right of that token, never of another
 * token that has its name. `serve` saves the click through its settings store, into data.json as it
 * is on disk: the owner may have revoked the token there (from another terminal, say) and made a
 * new one of the same name, with `append_to_note` at Ask, before the running server read the file again.
 */
test("'always allow' on a revoked token's question does not allow the tool for a new token of the same name", async () => {
	const vault = await makeVault({ "Home.md": "# Home\n" });
	const host = await NodeHost.open(vault);
	let settings: VaultMcpSettings = { ...defaultSettings(), serverEnabled: true, port: 0, writeEnabled: true, writeDisclosureAccepted: true };
	const made = addToken(settings, "claude", "write", { append_to_note: "ask" });
	if ("error" in made) throw new Error(made.error);
	settings = made.settings;
	// data.json as `serve`'s store reads it when the person answers.
	let onDisk = settings;
	const approver = new HoldingApprover();
	const service = new McpService({
		host,
		serverVersion: "test",
		logger: new RecordingLogger(),
		journal: new MemoryJournal(),
		approver,
		// As `serve` does: the store's update, applied to the settings on disk.
		setToolRight: (tokenName, tool, right, tokenHash) => {
			onDisk = withToolRight(onDisk, tokenName, tool, right, ALL_TOOLS, tokenHash);
			return Promise.resolve();
		},
	});
	const status = await service.apply(settings);
	if (status.state !== "listening") throw new Error("the server did not start");
	const client = await connectClient(status.url, made.token);
	try {
		const call = callTool(client, "append_to_note", { path: "Home", content: "Pay Bob" });
		for (const started = Date.now(); approver.held.length === 0; await new Promise((resolve) => setTimeout(resolve, 20))) {
			if (Date.now() - started > 10_000) throw new Error("the call was not put to the person");
		}
		// Meanwhile, on disk: the old "claude" revoked, a new "claude" made, its appends at Ask.
		const revoked = revokeToken(onDisk, "claude");
		if ("error" in revoked) throw new Error(revoked.error);
		const remade = addToken(revoked.settings, "claude", "write", { append_to_note: "ask" });
		if ("error" in remade) throw new Error(remade.error);
		onDisk = remade.settings;
		approver.held[0]?.answer("always");
		await call;
		const fresh = onDisk.tokens.find((record) => record.name === "claude");
		expect(fresh?.hash).not.toBe(made.settings.tokens[0]?.hash);
		expect(fresh?.rights?.append_to_note).toBe("ask");
	} finally {
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(vault);
	}
});
