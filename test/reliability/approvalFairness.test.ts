/**
 * Approvals under a flood, over real HTTP, headless: `serve`'s terminal approver (its input a
 * stream the test types into, as a person would) answers Ask calls from two tokens. One token
 * floods; the other's single question must reach the person after at most one of the flooder's (or
 * one turn, when nobody answers), and the flood past the per-token bound is refused at once with
 * nothing written.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { PassThrough } from "node:stream";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { APPROVAL_SWAP_GRACE_MS, APPROVAL_TURN_MS, MAX_WAITING_APPROVALS_PER_TOKEN } from "../../src/config/limits";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { addToken } from "../../src/auth/tokenList";
import { NodeHost } from "../../src/headless/NodeHost";
import { TerminalApprover } from "../../src/headless/TerminalApprover";
import { JournalFile } from "../../src/journal/JournalFile";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { RecordingLogger } from "../helpers/service";
import { callTool, type CallOutcome } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const NOTE = "# Inbox\n";
/** How long the person takes to read a question before answering: in arrival order the other token's would come after the flooder's 20 (12 s). */
const READING_MS = 600;
/** Twice the calls one token may have waiting: the second half is refused. */
const FLOOD = 2 * MAX_WAITING_APPROVALS_PER_TOKEN;
/**
 * How long the test waits for a question that should come after a turn (APPROVAL_TURN_MS, 5 s): 5-8 s here and at
 * loads of 12-20, which is under a fifth of this; without turns it comes when the flooder's question runs out of time
 * (DEFAULT_APPROVAL_TIMEOUT_SECONDS, 120 s), three times this.
 */
const TURN_DEADLINE_MS = 40_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	for (const started = Date.now(); !condition(); await sleep(20)) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
	}
}

describe("approvals in the terminal under a flood from one token (real HTTP, headless)", () => {
	let vault: string;
	let host: NodeHost;
	let service: McpService;
	let approver: TerminalApprover;
	let typed: PassThrough;
	let screen: string;
	const clients: Client[] = [];
	const tokens: Record<string, string> = {};

	beforeEach(async () => {
		vault = await makeVault({ "Inbox.md": NOTE });
		let settings: VaultMcpSettings = {
			...defaultSettings(),
			serverEnabled: true,
			port: 0,
			writeEnabled: true,
			writeDisclosureAccepted: true,
			rateLimitPerMinute: 100_000,
		};
		for (const name of ["flooder", "desktop"]) {
			const made = addToken(settings, name, "write", { append_to_note: "ask" });
			if ("error" in made) throw new Error(made.error);
			settings = made.settings;
			tokens[name] = made.token;
		}
		host = await NodeHost.open(vault);
		typed = new PassThrough();
		screen = "";
		approver = new TerminalApprover(typed, (text) => (screen += text));
		service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: JournalFile.forVault(vault, ".obsidian"), approver });
		const status = await service.apply(settings);
		if (status.state !== "listening") throw new Error("not listening");
		for (const name of ["flooder", "desktop"]) clients.push(await connectClient(status.url, tokens[name] ?? ""));
	});

	afterEach(async () => {
		approver.close();
		for (const client of clients.splice(0)) await client.close();
		await service.stop();
		await host.close();
		await removeDir(vault);
	});

	const noteText = () => fs.readFile(nodePath.join(vault, "Inbox.md"), "utf8");
	/** The questions printed so far, by the first line of each (who asks). */
	const questionsShown = () => screen.split("\n").filter((line) => line.includes(" asks to run "));

	test(`another token's question is shown after at most one of the flooder's while one token floods ${FLOOD} Ask calls; the flood past the bound is refused and writes nothing`, async () => {
		const [flooder, desktop] = clients as [Client, Client];
		const outcomes: CallOutcome[] = [];
		// A call may also be turned away by the HTTP layer (the token's places in flight are busy while the others plan): that too writes nothing.
		const flood = Array.from({ length: FLOOD }, (_, index) =>
			callTool(flooder, "append_to_note", { path: "Inbox", content: `flood ${index}` })
				.catch((error: unknown): CallOutcome => ({ ok: false, error: String(error) }))
				.then((outcome) => outcomes.push(outcome)),
		);
		const boundRefusal = new RegExp(`${MAX_WAITING_APPROVALS_PER_TOKEN} calls of this token already wait.*Nothing was written`, "s");
		// The flooder's line is full once the first refusal for the bound comes back.
		await until(() => outcomes.some((outcome) => !outcome.ok && boundRefusal.test(outcome.error)), "the first refusal for the bound");
		await until(
			() => questionsShown().length === 1 && screen.includes(`(${MAX_WAITING_APPROVALS_PER_TOKEN - 1} more waiting`),
			"the flooder's line to be full",
		);

		// The person reads each question for READING_MS, declines the flooder's and approves the desktop's.
		let answered = 0;
		let desktopShown = false;
		let stop = false;
		const person = (async () => {
			while (!stop) {
				const shown = questionsShown();
				if (shown.length > answered) {
					const asking = shown[answered] ?? "";
					if (asking.startsWith('"desktop"')) desktopShown = true;
					await sleep(READING_MS);
					typed.write(asking.startsWith('"desktop"') ? "y\n" : "n\n");
					answered++;
				}
				await sleep(20);
			}
		})();

		const desktopCall = callTool(desktop, "append_to_note", { path: "Inbox", content: "from the desktop" });
		// Counted, not timed: in arrival order the flooder's 20 questions would all go first.
		await until(() => desktopShown, "the desktop's question", 30_000);
		// At most the flooder's question already on screen went before it.
		const beforeDesktop = questionsShown().findIndex((line) => line.startsWith('"desktop"'));
		expect(beforeDesktop).toBeLessThanOrEqual(2);
		expect(await desktopCall).toMatchObject({ ok: true });
		stop = true;
		await person;
		approver.close();
		await Promise.all(flood);
		expect(outcomes.filter((outcome) => outcome.ok)).toEqual([]);
		const text = await noteText();
		expect(text).toContain("from the desktop");
		expect(text).not.toContain("flood");
	}, 60_000);

	test("nobody answers the flood: the other token's question is still shown, after a turn, long before the flooder's runs out of time (the untouched question gives way), and is answered there", async () => {
		const [flooder, desktop] = clients as [Client, Client];
		const flood = Array.from({ length: FLOOD }, (_, index) =>
			callTool(flooder, "append_to_note", { path: "Inbox", content: `flood ${index}` }).catch((error: unknown): CallOutcome => ({
				ok: false,
				error: String(error),
			})),
		);
		await until(() => screen.includes(`(${MAX_WAITING_APPROVALS_PER_TOKEN - 1} more waiting`), "the flooder's line to be full");
		const sent = Date.now();
		const desktopCall = callTool(desktop, "append_to_note", { path: "Inbox", content: "from the desktop" });
		// Without turns it is shown when the flooder's question times out: past this deadline (see TURN_DEADLINE_MS).
		await until(() => questionsShown().some((line) => line.startsWith('"desktop"')), "the desktop's question", TURN_DEADLINE_MS);
		// A lower bound, safe on a busy machine: the flooder's question had its whole turn first.
		expect(Date.now() - sent).toBeGreaterThanOrEqual(APPROVAL_TURN_MS);
		expect(screen).toContain('(no answer yet to append_to_note from "flooder": it goes back in line');
		// The person reads it, then answers.
		await sleep(APPROVAL_SWAP_GRACE_MS + 200);
		typed.write("y\n");
		expect(await desktopCall).toMatchObject({ ok: true });
		approver.close();
		expect((await Promise.all(flood)).filter((outcome) => outcome.ok)).toEqual([]);
		const text = await noteText();
		expect(text).toContain("from the desktop");
		expect(text).not.toContain("flood");
	}, 90_000);
});
