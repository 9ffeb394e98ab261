import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { alwaysAllowSaver } from "../../src/headless/cli/serve";
import { token } from "../../src/headless/cli/token";
import { settingsStoreOf } from "../../src/headless/cli/vaultSettings";
import { NodeHost } from "../../src/headless/NodeHost";
import { McpService } from "../../src/service";
import { runCommand } from "../helpers/cliCommand";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";
import { HoldingApprover } from "../helpers/holdingApprover";

async function untilAsked(approver: HoldingApprover, count: number): Promise<void> {
	for (const started = Date.now(); approver.held.length < count; await new Promise((resolve) => setTimeout(resolve, 20))) {
		if (Date.now() - started > 10_000) throw new Error("the call was not put to the person");
	}
}

/**
 * `serve` reads data.json again about a second after it changes. A `token rights --deny` saved in
 * that second, while a question was open, was raised back to Allow by the person's "Always allow":
 * the "only from Ask" rule was checked on the server's copy of the settings, which still said Ask.
 * The save now re-checks the file as it is (serve's own saver, data.json on disk, the real `token`
 * command; the server never reads the file again here, as in that second).
 * Cost: two asked appends over HTTP and three `token rights` commands, about 0.2 s of CPU.
 */
test("'always allow' answered after `token rights --deny` saved the tool as Deny leaves it Deny; from Ask it allows", async () => {
	const vault = await makeVault({ "Home.md": "# Home\n" });
	const store = settingsStoreOf(vault);
	const made = addToken({ ...defaultSettings(), writeEnabled: true, writeDisclosureAccepted: true }, "claude", "write", { append_to_note: "ask" });
	if ("error" in made) throw new Error(made.error);
	await store.save(made.settings);
	const host = await NodeHost.open(vault);
	const approver = new HoldingApprover();
	const service: McpService = new McpService({
		host,
		serverVersion: "test",
		logger: new RecordingLogger(),
		journal: new MemoryJournal(),
		approver,
		// As serve does: the file as saved is put in force at once.
		setToolRight: alwaysAllowSaver(store, async (saved) => void (await service.apply(running(saved)))),
	});
	const running = (saved: VaultMcpSettings): VaultMcpSettings => ({ ...saved, serverEnabled: true, port: 0 });
	const status = await service.apply(running(made.settings));
	if (status.state !== "listening") throw new Error("the server did not start");
	const client = await connectClient(status.url, made.token);
	const savedRight = async () => (await store.read()).settings.tokens.find((record) => record.name === "claude")?.rights?.append_to_note;
	try {
		const first = callTool(client, "append_to_note", { path: "Home", content: "Pay Bob" });
		await untilAsked(approver, 1);
		expect((await runCommand(token, ["rights", vault, "claude", "--deny", "append_to_note"])).code).toBe(0);
		approver.held[0]?.answer("always");
		await first;
		expect(await savedRight()).toBe("deny");
		// The Deny found in the file is in force at once: the approved call is stopped, not written.
		expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n");

		// The same answer with the tool still at Ask in the file saves Allow.
		expect((await runCommand(token, ["rights", vault, "claude", "--ask", "append_to_note"])).code).toBe(0);
		await service.apply(running((await store.read()).settings));
		const second = callTool(client, "append_to_note", { path: "Home", content: "Pay Ann" });
		await untilAsked(approver, 2);
		approver.held[1]?.answer("always");
		await second;
		expect(await savedRight()).toBe("allow");
	} finally {
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(vault);
	}
});
