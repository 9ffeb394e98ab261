/**
 * What a token may do is what the person set in its rights, whichever tool does it, and an approval covers exactly
 * what the person saw. Over real HTTP (the SDK client against `McpService` on loopback, a real temp vault), with an
 * approver double that answers as the test says:
 * - a note or folder made by a tool other than create_note (add_task's daily note, a move into a new folder) follows
 *   create_note's right: Deny refuses it, Ask asks the person (the question shows the new note and folder);
 * - a call the person approved and then not written (its right taken just after) is told to the person, not only
 *   to the client;
 * - an approved change is written only to the note the person was shown: another note made at its path meanwhile is
 *   asked about again.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ToolRights } from "../../src/auth/rights";
import type { VaultMcpSettings } from "../../src/config/settings";
import { addToken, withToolRight } from "../../src/auth/tokenList";
import type { ApprovalAnswer, ApprovalRequest, Approver } from "../../src/mcp/approval";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Answers each question with what `answer` gives (after it has run), and keeps every question and every "not written" told. */
class AnsweringApprover implements Approver {
	readonly asked: ApprovalRequest[] = [];
	readonly notWrittenTold: Array<{ request: ApprovalRequest; why: string }> = [];
	constructor(private readonly answer: (request: ApprovalRequest, index: number) => Promise<ApprovalAnswer> | ApprovalAnswer) {}
	async decide(request: ApprovalRequest, _signal: AbortSignal, shown: () => void): Promise<ApprovalAnswer> {
		shown();
		this.asked.push(request);
		return this.answer(request, this.asked.length - 1);
	}
	notWritten(request: ApprovalRequest, why: string): void {
		this.notWrittenTold.push({ request, why });
	}
}

const DAILY_NOTE = /^Daily\/\d{4}-\d{2}-\d{2}\.md$/u;
const exists = (path: string) =>
	fs.stat(path).then(
		() => true,
		() => false,
	);

describe("rights a call needs besides its tool's, and approvals bound to what the person saw", () => {
	let vault: string;
	let running: RunningService | null = null;
	let client: Client | null = null;
	beforeEach(async () => {
		// Daily notes go in Daily/, which is not there yet: add_task without a path makes the folder and the note.
		vault = await makeVault({ "Home.md": "# Home\n", ".obsidian/daily-notes.json": JSON.stringify({ folder: "Daily" }) });
	});
	afterEach(async () => {
		await client?.close();
		client = null;
		await running?.stop();
		running = null;
		await removeDir(vault);
	});

	/** The settings in force, "always allow" clicks included (saved as the plugin saves them: into the settings, applied). */
	let settingsNow: VaultMcpSettings;
	/** `whileSaving`: what the person does in the settings while a click's right is being saved (before it lands). */
	async function serve(rights: ToolRights, approver?: Approver, whileSaving?: (tool: string) => VaultMcpSettings): Promise<Client> {
		running = await startService(vault, {
			levels: ["write"],
			approver,
			rights: { write: rights },
			settings: { writeEnabled: true, writeDisclosureAccepted: true },
			setToolRight: async (tokenName, tool, right, tokenHash) => {
				if (whileSaving) {
					settingsNow = whileSaving(tool);
					await running!.service.apply(settingsNow);
				}
				settingsNow = withToolRight(settingsNow, tokenName, tool, right, ALL_TOOLS, tokenHash);
				await running!.service.apply(settingsNow);
			},
		});
		settingsNow = running.settings;
		client = await connectClient(running.url, running.tokens.write!);
		return client;
	}

	describe("create_note set to Deny", () => {
		test.each<[string, ToolRights, string, Record<string, unknown>, RegExp]>([
			[
				"add_task without a path (today's daily note and its folder)",
				{ add_task: "allow", create_note: "deny" },
				"add_task",
				{ text: "Water the herbs" },
				/^add_task would create the note "Daily\/\d{4}-\d{2}-\d{2}\.md" and the folder "Daily", and this token may not create notes or folders \(its create_note right is Deny\)\. Nothing was written\./u,
			],
			[
				"rename_note into a folder not there yet",
				{ rename_note: "allow", create_note: "deny" },
				"rename_note",
				{ path: "Home", new_path: "Archive/Home.md" },
				/^rename_note would create the folder "Archive", and this token may not create notes or folders \(its create_note right is Deny\)\. Nothing was written\./u,
			],
		])("%s: refused, naming what it would make and the right; nothing made (it was made)", async (_door, rights, tool, args, message) => {
			const mcp = await serve(rights);
			const outcome = await callTool(mcp, tool, args);
			expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(message) as unknown });
			expect((await fs.readdir(vault)).sort()).toEqual([".obsidian", "Home.md"]);
			expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n");
		});
	});

	describe("create_note set to Ask, the tool itself allowed", () => {
		test("add_task without a path asks the person, showing the new note and its folder; approved, both are made (nobody was asked)", async () => {
			const approver = new AnsweringApprover(() => "approve");
			const mcp = await serve({ add_task: "allow", create_note: "ask" }, approver);
			const outcome = await callTool(mcp, "add_task", { text: "Water the herbs" });
			expect(outcome).toMatchObject({ ok: true, value: { created_note: true } });
			expect(approver.asked).toHaveLength(1);
			const [question] = approver.asked;
			expect(question?.newFolders).toEqual(["Daily"]);
			expect(question?.changes).toEqual([
				{ path: expect.stringMatching(DAILY_NOTE) as unknown, before: null, after: expect.stringContaining("- [ ] Water the herbs") as unknown },
			]);
			expect(await fs.readdir(nodePath.join(vault, "Daily"))).toHaveLength(1);
		});

		test.each<[string, ToolRights, string[], ToolRights]>([
			["add_task allowed: create_note's right", { add_task: "allow", create_note: "ask" }, ["create_note"], { add_task: "allow", create_note: "allow" }],
			["add_task at Ask too: both", { add_task: "ask", create_note: "ask" }, ["add_task", "create_note"], { add_task: "allow", create_note: "allow" }],
		])(
			"Always allow on a question asked for the note add_task makes saves what was asked for (%s): the next note made is not asked about (it was: add_task's right saved)",
			async (_what, rights, alwaysAllows, saved) => {
				const approver = new AnsweringApprover(() => "always");
				const mcp = await serve(rights, approver);
				expect(await callTool(mcp, "add_task", { text: "Water the herbs" })).toMatchObject({ ok: true, value: { created_note: true } });
				expect(await callTool(mcp, "create_note", { path: "Ideas.md", content: "- Plant basil\n" })).toMatchObject({ ok: true });
				expect(approver.asked).toHaveLength(1);
				expect(approver.asked[0]?.alwaysAllows).toEqual(alwaysAllows);
				expect(settingsNow.tokens[0]?.rights).toMatchObject(saved);
				expect(await fs.readFile(nodePath.join(vault, "Ideas.md"), "utf8")).toBe("- Plant basil\n");
			},
		);

		test("Always allow saves Allow over Ask only: create_note set to Deny while add_task's Allow was being saved stays Deny, and nothing is made (it was saved Allow and the note made)", async () => {
			const approver = new AnsweringApprover(() => "always");
			// The person sets create_note to Deny in the settings while the click's first right (add_task) is saved.
			const denyCreating = (tool: string) => (tool === "add_task" ? withToolRight(settingsNow, "write", "create_note", "deny", ALL_TOOLS) : settingsNow);
			const mcp = await serve({ add_task: "ask", create_note: "ask" }, approver, denyCreating);
			const outcome = await callTool(mcp, "add_task", { text: "Water the herbs" });
			expect(outcome).toMatchObject({ ok: false });
			expect(approver.asked.map((question) => question.alwaysAllows)).toEqual([["add_task", "create_note"]]);
			expect(settingsNow.tokens[0]?.rights).toMatchObject({ add_task: "allow", create_note: "deny" });
			expect(await exists(nodePath.join(vault, "Daily"))).toBe(false);
			expect(approver.notWrittenTold.map((told) => told.why)).toEqual([
				expect.stringMatching(/^"Daily\/[^"]+" was not created: .*its create_note right is Deny\)\. Nothing was written\.$/u),
			]);
		});

		/**
		 * review173: a right the person sets to Ask while the question is open is not raised back by its "always". The
		 * question offered add_task's right only (create_note was Allow); the person then set create_note to Ask; on the base
		 * the click saved both (the open question's list grew to what was at Ask now), so create_note was Allow again.
		 */
		test("Always allow saves only what the question offered: create_note set to Ask while it is open stays Ask (it was raised to Allow)", async () => {
			const offered: Array<string[] | undefined> = [];
			const approver = new AnsweringApprover(async (request): Promise<ApprovalAnswer> => {
				offered.push(request.alwaysAllows && [...request.alwaysAllows]);
				settingsNow = withToolRight(settingsNow, "write", "create_note", "ask", ALL_TOOLS);
				await running!.service.apply(settingsNow);
				return "always";
			});
			const mcp = await serve({ add_task: "ask", create_note: "allow" }, approver);
			// Approved as shown (the question listed the new note and its folder): written.
			expect(await callTool(mcp, "add_task", { text: "Water the herbs" })).toMatchObject({ ok: true, value: { created_note: true } });
			expect(offered).toEqual([["add_task"]]);
			expect(settingsNow.tokens[0]?.rights).toMatchObject({ add_task: "allow", create_note: "ask" });
		});

		test("with nobody to ask (a serve without a terminal), add_task without a path is refused, naming the right; nothing made (it was made)", async () => {
			const mcp = await serve({ add_task: "allow", create_note: "ask" });
			const outcome = await callTool(mcp, "add_task", { text: "Water the herbs" });
			expect(outcome).toMatchObject({
				ok: false,
				error: expect.stringMatching(
					/^add_task would create the note "Daily\/[^"]+" and the folder "Daily", which needs the person's approval for this token \(its create_note right is Ask\), and nobody can give it here/u,
				) as unknown,
			});
			expect(await exists(nodePath.join(vault, "Daily"))).toBe(false);
		});
	});

	describe("a call the person approved, then stopped before its write: the person is told which note and why, in their words (they were told the client's message)", () => {
		test.each<[string, () => VaultMcpSettings, string]>([
			[
				"its tool set to Deny",
				() => withToolRight(settingsNow, "write", "append_to_note", "deny", ALL_TOOLS),
				'"Notes/Home.md" was not changed: append_to_note was set to Deny for this token. Nothing was written.',
			],
			["the token revoked", () => ({ ...settingsNow, tokens: [] }), '"Notes/Home.md" was not changed: the token was revoked. Nothing was written.'],
			[
				"writing switched off",
				() => ({ ...settingsNow, writeEnabled: false }),
				'"Notes/Home.md" was not changed: writing was switched off in the settings. Nothing was written.',
			],
			[
				"the note's folder excluded",
				() => ({ ...settingsNow, excludedFolders: ["Notes"] }),
				'"Notes/Home.md" was not changed: "Notes/Home.md" is now in a folder you excluded. Nothing was written.',
			],
		])("%s at once after the click", async (_what, changed, told) => {
			await fs.mkdir(nodePath.join(vault, "Notes"));
			await fs.rename(nodePath.join(vault, "Home.md"), nodePath.join(vault, "Notes/Home.md"));
			const approver = new AnsweringApprover(() => {
				// The click, then the settings change, before the call reaches its write.
				void running!.service.apply(changed());
				return "approve";
			});
			const mcp = await serve({ append_to_note: "ask" }, approver);
			// A token revoked meanwhile is refused by the HTTP layer too (its answer is an HTTP error, not a tool result).
			const outcome = await callTool(mcp, "append_to_note", { path: "Notes/Home", content: "Line" }).catch((error: Error) => ({
				ok: false,
				error: error.message,
			}));
			expect(outcome).toMatchObject({ ok: false });
			expect(await fs.readFile(nodePath.join(vault, "Notes/Home.md"), "utf8")).toBe("# Home\n");
			expect(approver.notWrittenTold).toEqual([{ request: approver.asked[0], why: told }]);
		});

		test("the heading it appends under renamed: the note named, not its headings (the client's error lists them)", async () => {
			await fs.writeFile(nodePath.join(vault, "Home.md"), "# Home\n## Plans\n");
			const approver = new AnsweringApprover(async (): Promise<ApprovalAnswer> => {
				await running!.host.vault.process(running!.host.vault.getFileByPath("Home.md")!, () => "# Home\n## Secret project\n");
				return "approve";
			});
			const mcp = await serve({ append_to_note: "ask" }, approver);
			const outcome = await callTool(mcp, "append_to_note", { path: "Home", heading: "Plans", content: "Line" });
			expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining("Secret project") as unknown });
			expect(approver.notWrittenTold).toEqual([
				{
					request: approver.asked[0],
					why: '"Home.md" was not changed: "Home.md" changed after you approved it, and the call no longer fits it. Nothing was written.',
				},
			]);
		});
	});

	describe("the folder a move goes into removed while the person decides (a folder the plan did not make)", () => {
		beforeEach(() => fs.mkdir(nodePath.join(vault, "Archive")));
		/** Approves the first question once the person (or another program) has removed the empty folder the move goes into. */
		const removingArchive = () =>
			new AnsweringApprover(async (_request, index) => {
				if (index > 0) return "decline";
				await fs.rmdir(nodePath.join(vault, "Archive"));
				return "approve";
			});

		test("create_note at Deny: the approved move is refused, naming the folder and the right; nothing moved or made (Archive was made)", async () => {
			const approver = removingArchive();
			const mcp = await serve({ rename_note: "ask", create_note: "deny" }, approver);
			const outcome = await callTool(mcp, "rename_note", { path: "Home", new_path: "Archive/Home.md" });
			expect(approver.asked).toHaveLength(1);
			expect(approver.asked[0]?.newFolders).toBeUndefined();
			expect(outcome).toMatchObject({
				ok: false,
				error: expect.stringMatching(
					/^rename_note would create the folder "Archive", and this token may not create notes or folders \(its create_note right is Deny\)\. Nothing was written\./u,
				) as unknown,
			});
			expect((await fs.readdir(vault)).sort()).toEqual([".obsidian", "Home.md"]);
			expect(approver.notWrittenTold.map((told) => told.why)).toEqual([
				'"Home.md" was not moved to "Archive/Home.md": it would create the folder "Archive", and this token may not create notes or folders (its create_note right is Deny). Nothing was written.',
			]);
		});

		test("create_note at Ask: the person is asked again, the question listing the folder; declined, nothing moved or made (moved unasked)", async () => {
			const approver = removingArchive();
			const mcp = await serve({ rename_note: "ask", create_note: "ask" }, approver);
			const outcome = await callTool(mcp, "rename_note", { path: "Home", new_path: "Archive/Home.md" });
			expect(approver.asked).toHaveLength(2);
			expect(approver.asked[1]?.newFolders).toEqual(["Archive"]);
			expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining("The person declined") as unknown });
			expect((await fs.readdir(vault)).sort()).toEqual([".obsidian", "Home.md"]);
			expect(approver.notWrittenTold).toEqual([]);
		});
	});

	describe("the note renamed away while the person decides, and another made at its path", () => {
		test.each([
			["with other text", "# Other\n"],
			["with the same text", "# Home\n"],
		])(
			"%s: the approved append is not written into it; the person is asked again about the note now there (it took the append)",
			async (_what, otherText) => {
				const approver = new AnsweringApprover(async (_request, index) => {
					if (index > 0) return "decline";
					// The person renames the note they are looking at, and makes another at its path, then approves.
					const host = running!.host;
					await host.vault.rename(host.vault.getFileByPath("Home.md")!, "Home (old).md");
					await host.vault.create("Home.md", otherText);
					return "approve";
				});
				const mcp = await serve({ append_to_note: "ask" }, approver);
				const outcome = await callTool(mcp, "append_to_note", { path: "Home", content: "Line" });
				expect(approver.asked).toHaveLength(2);
				expect(approver.asked[1]?.changes).toEqual([{ path: "Home.md", before: otherText, after: expect.stringContaining("Line") as unknown }]);
				expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining("The person declined") as unknown });
				expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe(otherText);
				expect(await fs.readFile(nodePath.join(vault, "Home (old).md"), "utf8")).toBe("# Home\n");
				// Declined in the second question: nothing to tell the person, who saw it.
				expect(approver.notWrittenTold).toEqual([]);
			},
		);
	});

	/**
	 * review173: two tokens of one name (data.json edited by hand; the settings tab and the command line refuse a second).
	 * "Always allow" on one token's question saved the token's whole rights map into every token of its name: the other
	 * token, denied append_to_note (and read_note), could then append and read, unasked.
	 */
	test("Always allow on one token's question leaves another token of the same name as it was (it got the first's rights)", async () => {
		const mcp = await serve({ append_to_note: "ask" }, new AnsweringApprover(() => "always"));
		const other = addToken(settingsNow, "twin", "write", { append_to_note: "deny", read_note: "deny" });
		if ("error" in other) throw new Error(other.error);
		const [first, twin] = other.settings.tokens;
		settingsNow = { ...other.settings, tokens: [first!, { ...twin!, name: first!.name }] };
		await running!.service.apply(settingsNow);
		expect(await callTool(mcp, "append_to_note", { path: "Home", content: "- milk" })).toMatchObject({ ok: true });
		expect(settingsNow.tokens.map((record) => record.rights?.append_to_note)).toEqual(["allow", "deny"]);
		const twinClient = await connectClient(running!.url, other.token);
		try {
			// Denied: not even listed, so the call answers like an unknown tool.
			const twinAppend = await callTool(twinClient, "append_to_note", { path: "Home", content: "- eggs" }).catch((error: Error) => ({
				ok: false,
				error: error.message,
			}));
			expect(twinAppend).toMatchObject({ ok: false, error: expect.stringContaining("Tool append_to_note not found") as unknown });
		} finally {
			await twinClient.close();
		}
		expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n\n- milk\n");
	});

	test("a call whose tool is allowed while its question is open (its section moved meanwhile) is answered by the right: written at the new place, not asked again (it was asked again, offering Always allow)", async () => {
		await fs.writeFile(nodePath.join(vault, "Home.md"), "# Home\n\n## Shopping\n- apples\n\n## Later\n- bread\n");
		const approver = new AnsweringApprover(async (_request, index): Promise<ApprovalAnswer> => {
			if (index > 0) return "approve";
			// While the question is open: another program moves the section, and the tool is set to Allow (another
			// question's "always", or the settings tab).
			const host = running!.host;
			await host.vault.process(host.vault.getFileByPath("Home.md")!, () => "# Home\n\n## Later\n- bread\n\n## Shopping\n- apples\n");
			settingsNow = withToolRight(settingsNow, "write", "append_to_note", "allow", ALL_TOOLS);
			await running!.service.apply(settingsNow);
			return "approve";
		});
		const mcp = await serve({ append_to_note: "ask" }, approver);
		expect(await callTool(mcp, "append_to_note", { path: "Home", heading: "Shopping", content: "- milk" })).toMatchObject({ ok: true });
		expect(approver.asked.map((question) => question.alwaysAllows)).toEqual([["append_to_note"]]);
		expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n\n## Later\n- bread\n\n## Shopping\n- apples\n- milk\n");
	});

	test("a rename's linking note replaced by another file with the same text while the person decides: not relinked; asked again (it was relinked unasked)", async () => {
		await fs.writeFile(nodePath.join(vault, "Links.md"), "See [[Home]].\n");
		const approver = new AnsweringApprover(async (_request, index) => {
			if (index > 0) return "decline";
			// The person (or a sync) deletes the note whose link the question shows rewritten, and another note takes its path.
			const host = running!.host;
			await host.vault.trash(host.vault.getFileByPath("Links.md")!);
			await host.vault.create("Links.md", "See [[Home]].\n");
			return "approve";
		});
		const mcp = await serve({ rename_note: "ask" }, approver);
		const outcome = await callTool(mcp, "rename_note", { path: "Home", new_path: "Start.md" });
		expect(approver.asked[0]?.changes.map((change) => change.path)).toEqual(["Start.md", "Links.md"]);
		expect(approver.asked).toHaveLength(2);
		expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining("The person declined") as unknown });
		expect(await fs.readFile(nodePath.join(vault, "Links.md"), "utf8")).toBe("See [[Home]].\n");
		expect(await exists(nodePath.join(vault, "Home.md"))).toBe(true);
		expect(approver.notWrittenTold).toEqual([]);
	});
});
