/**
 * The calls an "Always allow" releases wait for the approved call's write, in its own service only. Two services in one
 * process (the plugin loaded again in one Obsidian session while a call of the old one is still saving, or two in a test)
 * share the token (the same record, so the same hash): a call of the second, answered by its right, waited for a write of
 * the first while a module-level map kept that order for the whole process.
 * Cost: two service starts over one-note vaults and two appends over real HTTP, about 0.3 s of CPU.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken, withToolRight } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import type { ApprovalAnswer, ApprovalRequest, Approver } from "../../src/mcp/approval";
import { ALL_TOOLS } from "../../src/mcp/tools/index";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callTool, type CallOutcome } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Answers every question with `answer`, once the question is on screen; `asked` resolves at the first question. */
class AnsweringApprover implements Approver {
	private onAsked = () => undefined as void;
	readonly asked = new Promise<void>((resolve) => (this.onAsked = resolve));
	constructor(private readonly answer: () => Promise<ApprovalAnswer>) {}
	decide(_request: ApprovalRequest, _signal: AbortSignal, shown: () => void): Promise<ApprovalAnswer> {
		shown();
		this.onAsked();
		return this.answer();
	}
}

test("a call released by its right in one service does not wait for an 'always' still being saved in another service of the process", async () => {
	const made = addToken({ ...defaultSettings(), serverEnabled: true, port: 0, writeEnabled: true, writeDisclosureAccepted: true }, "claude", "write", {
		append_to_note: "ask",
	});
	if ("error" in made) throw new Error(made.error);
	const settings: VaultMcpSettings = made.settings;
	const vaults = [await makeVault({ "Home.md": "# Home\n" }), await makeVault({ "Home.md": "# Home\n" })];
	const hosts = await Promise.all(vaults.map((vault) => NodeHost.open(vault)));
	// The first service's "always" is saved only when the test says: its approved call's write is not tried before.
	let saveFirst = () => undefined as void;
	const firstSaved = new Promise<void>((resolve) => (saveFirst = resolve));
	let firstSaving = () => undefined as void;
	const firstHeld = new Promise<void>((resolve) => (firstSaving = resolve));
	const serviceOf = (host: NodeHost, approver: Approver, setToolRight: () => Promise<void>) =>
		new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: new MemoryJournal(), approver, setToolRight });
	const first = serviceOf(hosts[0]!, new AnsweringApprover(() => Promise.resolve("always")), () => {
		firstSaving();
		return firstSaved;
	});
	// The second's question stays open until its right is set to Allow (then answered by the right).
	const secondApprover = new AnsweringApprover(() => new Promise<ApprovalAnswer>(() => undefined));
	const second = serviceOf(hosts[1]!, secondApprover, () => Promise.resolve());
	const clients: Client[] = [];
	const connect = async (service: McpService): Promise<Client> => {
		const status = await service.apply(settings);
		if (status.state !== "listening") throw new Error("the server did not start");
		const client = await connectClient(status.url, made.token);
		clients.push(client);
		return client;
	};
	const append = (client: Client, content: string): Promise<CallOutcome> =>
		callTool(client, "append_to_note", { path: "Home", content }).catch((error: Error) => ({ ok: false, error: error.message }));
	try {
		const firstClient = await connect(first);
		const secondClient = await connect(second);
		const firstCall = append(firstClient, "Pay Bob");
		const secondCall = append(secondClient, "Pay Ann");
		// The first call answered "always", its save under way: the token's calls it releases wait for its write.
		await firstHeld;
		await secondApprover.asked;
		// The second service's person sets the tool to Allow: its open question is answered by that right and written. On the
		// base it waited for the first service's approved write, whose save is held until after it: the test timed out here.
		await second.apply(withToolRight(settings, "claude", "append_to_note", "allow", ALL_TOOLS));
		expect(await secondCall).toMatchObject({ ok: true });
		saveFirst();
		expect(await fs.readFile(nodePath.join(vaults[1]!, "Home.md"), "utf8")).toBe("# Home\n\nPay Ann\n");
		expect((await firstCall).ok).toBe(true);
		expect(await fs.readFile(nodePath.join(vaults[0]!, "Home.md"), "utf8")).toBe("# Home\n\nPay Bob\n");
	} finally {
		saveFirst();
		for (const client of clients) await client.close();
		await first.stop();
		await second.stop();
		for (const host of hosts) await host.close();
		for (const vault of vaults) await removeDir(vault);
	}
});
