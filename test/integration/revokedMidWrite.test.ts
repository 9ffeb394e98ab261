/**
 * A token revoked while its write is under way stops at once, over real HTTP, headless (`serve`'s terminal approver
 * answering, its input a stream the test types into): in the middle of a rename's linking notes (allowed, or approved
 * by the person), and while its question waits in line behind another token's. After the revocation nothing more is
 * written, the client is refused as a revoked token is (401), and the person is told what they approved was stopped.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { PassThrough } from "node:stream";
import { addToken, revokeToken } from "../../src/auth/tokenList";
import type { ToolRights } from "../../src/auth/rights";
import { APPROVAL_SWAP_GRACE_MS } from "../../src/config/limits";
import { TerminalApprover } from "../../src/headless/TerminalApprover";
import type { HostFile, ProcessOptions } from "../../src/host/Host";
import { mcpHeaders, rawRequest, type RawResponse } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { toolCall } from "../helpers/sockets";
import { makeVault, readAllFiles, removeDir } from "../helpers/vault";

/** Notes linking to the renamed one: the rename writes them one after another, with turns between (few enough that the question fits one page of the terminal). */
const LINKING_NOTES = 12;
/** Linking notes written before the owner revokes the token. */
const WRITTEN_BEFORE = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	for (const started = Date.now(); !condition(); await sleep(20)) {
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
	}
}

/** Every file of the vault but the plugin's own: path → text. */
async function vaultFiles(root: string): Promise<Record<string, string>> {
	const files = (await readAllFiles(root)).map((file) => ({ path: nodePath.relative(root, file.path).split(nodePath.sep).join("/"), text: file.text }));
	return Object.fromEntries(files.filter((file) => !file.path.startsWith(".obsidian/")).map((file) => [file.path, file.text]));
}

describe("a token revoked while its write is under way (real HTTP, headless, the terminal approver)", () => {
	let vault: string;
	let running: RunningService;
	let approver: TerminalApprover;
	let typed: PassThrough;
	let screen: string;

	async function start(files: Record<string, string>, rights: ToolRights): Promise<void> {
		vault = await makeVault(files);
		typed = new PassThrough();
		screen = "";
		approver = new TerminalApprover(typed, (text) => (screen += text));
		running = await startService(vault, {
			levels: ["write"],
			approver,
			rights: { write: rights },
			settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
		});
	}
	const call = (token: string, name: string, args: Record<string, unknown>): Promise<RawResponse> =>
		rawRequest(running.port, { headers: mcpHeaders(running.port, token), body: JSON.stringify(toolCall(1, name, args)) });
	const revoke = async (name: string) => {
		const revoked = revokeToken(running.settings, name);
		if ("error" in revoked) throw new Error(revoked.error);
		running.settings = revoked.settings;
		await running.service.apply(revoked.settings);
	};

	afterEach(async () => {
		jest.restoreAllMocks();
		approver.close();
		await running.stop();
		await removeDir(vault);
	});

	const linkingNotes = (): Record<string, string> => {
		const notes: Record<string, string> = { "Target.md": "# Target\n" };
		for (let index = 0; index < LINKING_NOTES; index++) notes[`Notes/Linking ${index}.md`] = `Points at [[Target]] from ${index}.\n`;
		return notes;
	};
	const relinked = (files: Record<string, string>) => Object.values(files).filter((text) => text.includes("[[Goal]]")).length;

	/** Revokes the token when the rename comes to its (WRITTEN_BEFORE + 1)th linking note, before that note is written; what was on disk then. */
	function revokeMidSet(): { atRevocation: () => Record<string, string> | null } {
		const vaultProcess = running.host.vault.process.bind(running.host.vault);
		let linkingSeen = 0;
		let atRevocation: Record<string, string> | null = null;
		jest.spyOn(running.host.vault, "process").mockImplementation(async (file: HostFile, fn: (text: string) => string, options?: ProcessOptions) => {
			if (file.path.startsWith("Notes/") && ++linkingSeen === WRITTEN_BEFORE + 1) {
				await revoke("write");
				atRevocation = await vaultFiles(vault);
			}
			return vaultProcess(file, fn, options);
		});
		return { atRevocation: () => atRevocation };
	}

	test.each([
		["allowed", "allow"],
		["approved by the person", "ask"],
	] as const)("a rename %s, revoked in the middle of its linking notes, writes none after the revocation; the client is refused", async (_, right) => {
		await start(linkingNotes(), { rename_note: right });
		const { atRevocation } = revokeMidSet();
		const answer = call(running.tokens.write ?? "", "rename_note", { path: "Target.md", new_path: "Goal.md" });
		if (right === "ask") {
			await until(() => screen.includes("Approve?"), "the question");
			typed.write("y\n");
		}
		const response = await answer;
		const revokedAt = atRevocation();
		if (revokedAt === null) throw new Error("the rename never came to the note where the token is revoked");
		// The notes written before the revocation stay (the journal can undo them); the rename stopped at the next.
		expect(relinked(revokedAt)).toBe(WRITTEN_BEFORE);
		await sleep(100);
		expect(await vaultFiles(vault)).toEqual(revokedAt);
		// Refused as a revoked token's request is, and nothing of the call's answer sent.
		expect(response.status).toBe(401);
		expect(response.body).toContain("A valid bearer token is required");
		expect(response.body).not.toContain("notes_updated");
		// The person who approved it is told it was stopped, and why.
		if (right === "ask")
			expect(screen).toContain(
				`(Stopped: rename_note from "write", which you approved. Only ${WRITTEN_BEFORE + 1} of its ${LINKING_NOTES + 1} notes were written`,
			);
		if (right === "ask") expect(screen).toMatch(/then it stopped: the token was revoked\. Undo id \S+ reverses them\.\)/u);
	});

	test("a call whose question is on screen is taken back when its token is revoked: 401, nothing written, the next token's question shown in its place", async () => {
		await start({ "Inbox.md": "# Inbox\n" }, { append_to_note: "ask" });
		const phone = addToken(running.settings, "phone", "write", { append_to_note: "ask" });
		if ("error" in phone) throw new Error(phone.error);
		running.settings = phone.settings;
		await running.service.apply(phone.settings);
		let shownDone = false;
		const shown = call(phone.token, "append_to_note", { path: "Inbox", content: "- from the phone" }).finally(() => (shownDone = true));
		await until(() => screen.includes('"phone" asks'), "the phone's question");
		const next = call(running.tokens.write ?? "", "append_to_note", { path: "Inbox", content: "- from the laptop" });
		await until(() => screen.includes("1 more waiting"), "the other token's call in line");
		const before = screen.length;
		await revoke("phone");
		await until(() => shownDone, "the revoked token's call to be answered");
		const refused = await shown;
		expect(refused.status).toBe(401);
		expect(screen.slice(before)).toContain(
			'(append_to_note from "phone" was not answered in time, was cancelled, or its token may no longer make it: nothing was written)',
		);
		await until(() => screen.slice(before).includes('"write" asks'), "the next question in its place");
		// It took the place of a question taken back: it takes keys once the grace is over (approvalFairness tests the grace).
		await sleep(APPROVAL_SWAP_GRACE_MS + 100);
		typed.write("y\n");
		const written = await next;
		expect(written.status).toBe(200);
		expect(written.body).not.toContain("isError");
		expect(await fs.readFile(nodePath.join(vault, "Inbox.md"), "utf8")).toBe("# Inbox\n\n- from the laptop\n");
		expect(running.journal.list().map((entry) => entry.tool)).toEqual(["append_to_note"]);
	});

	test("a call whose question waits in line behind another token's is answered at once when its token is revoked, never shown, writes nothing", async () => {
		await start({ "Inbox.md": "# Inbox\n" }, { append_to_note: "ask" });
		const phone = addToken(running.settings, "phone", "write", { append_to_note: "ask" });
		if ("error" in phone) throw new Error(phone.error);
		running.settings = phone.settings;
		await running.service.apply(phone.settings);
		const first = call(running.tokens.write ?? "", "append_to_note", { path: "Inbox", content: "- from the laptop" });
		await until(() => screen.includes("Approve?"), "the first token's question");
		let queuedDone = false;
		const queued = call(phone.token, "append_to_note", { path: "Inbox", content: "- from the phone" }).finally(() => (queuedDone = true));
		await until(() => screen.includes("1 more waiting"), "the second token's call in line");
		await revoke("phone");
		// Answered while the other token's question is still on screen, unanswered: it did not wait its turn.
		await until(() => queuedDone, "the revoked token's call to be answered while the other question is on screen");
		const refused = await queued;
		expect(refused.status).toBe(401);
		expect(refused.body).not.toContain("# Inbox");
		expect(await fs.readFile(nodePath.join(vault, "Inbox.md"), "utf8")).toBe("# Inbox\n");
		// The question on screen is the first token's still, and answering it writes only that call.
		typed.write("y\n");
		const written = await first;
		expect(written.status).toBe(200);
		expect(written.body).not.toContain("isError");
		expect(queuedDone).toBe(true);
		await sleep(100);
		expect(await fs.readFile(nodePath.join(vault, "Inbox.md"), "utf8")).toBe("# Inbox\n\n- from the laptop\n");
		expect(screen).not.toContain("from the phone");
		expect(screen).not.toContain('"phone" asks');
		expect(running.journal.list().map((entry) => entry.tool)).toEqual(["append_to_note"]);
	});
});
