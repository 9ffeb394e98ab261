/**
 * A write is planned once, approved exactly, applied with compare-and-swap, over real HTTP: what
 * the person saw is what is written (or nothing), a revoked or denied token writes nothing after
 * the revocation, an undo keeps every acknowledged line, and a rename's link text never depends
 * on what an excluded folder holds.
 */
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import { revokeToken, setTokenRights } from "../../src/auth/tokenList";
import { MAX_JOURNAL_CALL_BYTES } from "../../src/config/limits";
import { undoCall } from "../../src/journal/undo";
import { connectClient, mcpHeaders, rawRequest } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { toolCall } from "../helpers/sockets";
import { workClock } from "../helpers/threadCpu";
import { callError, callOk, callTool } from "../helpers/tools";
import { makeVault, readAllFiles, removeDir } from "../helpers/vault";
import { HoldingApprover } from "../helpers/holdingApprover";

async function until(condition: () => boolean | Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
	for (const started = Date.now(); !(await condition()); await new Promise((resolve) => setTimeout(resolve, 20))) {
		if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
	}
}

/** Every file of the vault but the journal and the plugin's settings: path → text. */
async function vaultFiles(root: string): Promise<Record<string, string>> {
	const files = (await readAllFiles(root)).map((file) => ({ path: nodePath.relative(root, file.path).split(nodePath.sep).join("/"), text: file.text }));
	return Object.fromEntries(files.filter((file) => !file.path.startsWith(".obsidian/")).map((file) => [file.path, file.text]));
}

const WRITE_SETTINGS = { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 };

describe("plan, approve exactly, apply: over real HTTP", () => {
	let vault: string;
	let running: RunningService | null = null;
	afterEach(async () => {
		await running?.stop();
		running = null;
		await removeDir(vault);
	});

	// A revoked token is sent nothing of the batch (401, as a request whose token was revoked while it
	// arrived); a token denied the tools is told which calls were refused.
	const TOLD_WHEN_DENIED = [
		"The person declined this create_note call",
		"append_to_note is no longer allowed for this token",
		"set_property is no longer allowed for this token",
		"read_note is no longer allowed for this token",
	];
	test.each([
		["the token is revoked", (settings: RunningService["settings"]) => revokeToken(settings, "write"), 401, ["A valid bearer token is required"]],
		[
			"its rights set append_to_note and set_property to Deny",
			(settings: RunningService["settings"]) =>
				setTokenRights(settings, "write", { create_note: "ask", append_to_note: "deny", set_property: "deny", read_note: "deny" }),
			200,
			TOLD_WHEN_DENIED,
		],
	])(
		"a held 2025-era batch [create_note (Ask), append_to_note, set_property, read_note]: once %s, nothing more is written or read",
		async (_name, change, status, told) => {
			vault = await makeVault({ "Home.md": "# Home\n", "Projects/Garden.md": "# Garden\n" });
			const approver = new HoldingApprover();
			running = await startService(vault, {
				levels: ["write"],
				approver,
				rights: { write: { create_note: "ask", append_to_note: "allow", set_property: "allow" } },
				settings: WRITE_SETTINGS,
			});
			const body = JSON.stringify([
				toolCall(1, "create_note", { path: "New.md", content: "new" }),
				toolCall(2, "append_to_note", { path: "Home", content: "appended after the question" }),
				toolCall(3, "set_property", { path: "Projects/Garden", name: "status", value: "done" }),
				toolCall(4, "read_note", { path: "Home" }),
			]);
			const answer = rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.write ?? ""), body });
			await until(() => approver.held.length === 1, "the create_note question");
			const changed = change(running.settings);
			if ("error" in changed) throw new Error(changed.error);
			await running.service.apply(changed.settings);
			const atRevocation = await vaultFiles(vault);
			const entriesAtRevocation = running.journal.list().length;
			approver.held[0]?.answer("decline");
			const response = await answer;
			// The batch's calls run one after another: the two allowed calls came after the revocation and were refused.
			expect(response.status).toBe(status);
			for (const text of told) expect(response.body).toContain(text);
			expect(response.body).not.toContain("# Home");
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(await vaultFiles(vault)).toEqual(atRevocation);
			expect(running.journal.list()).toHaveLength(entriesAtRevocation);
			expect(await vaultFiles(vault)).not.toHaveProperty("New.md");
		},
	);

	test("an approval shown for note X writes X: create_note Garden.md approved first does not redirect the queued append shown for Projects/Garden.md", async () => {
		vault = await makeVault({ "Projects/Garden.md": "# Garden\n\nBeans.\n" });
		const approver = new HoldingApprover();
		running = await startService(vault, {
			levels: ["write"],
			approver,
			rights: { write: { create_note: "ask", append_to_note: "ask" } },
			settings: WRITE_SETTINGS,
		});
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const created = callTool(client, "create_note", { path: "Garden.md", content: "A new note at the root." });
			await until(() => approver.held.length === 1, "the create_note question");
			const appended = callTool(client, "append_to_note", { path: "Garden", content: "Peas too." });
			await until(() => approver.held.length === 2, "the append_to_note question");
			const shown = approver.held[1]?.request.changes ?? [];
			expect(shown.map((change) => change.path)).toEqual(["Projects/Garden.md"]);
			approver.held[0]?.answer("approve");
			expect((await created).ok).toBe(true);
			approver.held[1]?.answer("approve");
			expect(await appended).toMatchObject({ ok: true, value: { path: "Projects/Garden.md" } });
			const files = await vaultFiles(vault);
			expect(files["Projects/Garden.md"]).toBe(shown[0]?.after);
			expect(files["Projects/Garden.md"]).toContain("Peas too.");
			expect(files["Garden.md"]).toBe("A new note at the root.\n");
		} finally {
			await client.close();
		}
	});

	test("undo of a rename during which another token appended 10 lines keeps all 10 (in the notes or a conflict copy)", async () => {
		const linking: Record<string, string> = {};
		for (let index = 0; index < 300; index++) linking[`Notes/Linker ${index}.md`] = `Linker ${index} points at [[Plan]] and [[Plan#Goals]].\n`;
		vault = await makeVault({ "Plan.md": "# Plan\n\n## Goals\n", ...linking });
		running = await startService(vault, { levels: ["write"], settings: WRITE_SETTINGS });
		const renamer = await connectClient(running.url, running.tokens.write ?? "");
		const other = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const rename = callOk(renamer, "rename_note", { path: "Plan", new_path: "Archive/Plan 2026.md" });
			const lines = Array.from({ length: 10 }, (_, index) => `Appended line ${index} by the other client`);
			const acknowledged: string[] = [];
			for (const [index, line] of lines.entries()) {
				// Half to a linking note, half to the renamed note (under whichever name it has at that moment).
				const target =
					index % 2 === 0
						? "Notes/Linker 150"
						: await fs.stat(nodePath.join(vault, "Plan.md")).then(
								() => "Plan",
								() => "Archive/Plan 2026",
							);
				const outcome = await callTool(other, "append_to_note", { path: target, content: line });
				if (outcome.ok) acknowledged.push(line);
			}
			await rename;
			expect(acknowledged.length).toBeGreaterThanOrEqual(5);
			const entry = running.journal.list().find((candidate) => candidate.tool === "rename_note");
			const outcome = await undoCall(running.host, running.journal, entry?.id ?? "");
			expect(outcome.ok).toBe(true);
			const everything = Object.values(await vaultFiles(vault)).join("\n");
			expect(acknowledged.filter((line) => !everything.includes(line))).toEqual([]);
		} finally {
			await renamer.close();
			await other.close();
		}
	}, 120_000);

	test("a call whose journal records would pass MAX_JOURNAL_CALL_BYTES is refused with the limit, before anything is written or asked", async () => {
		const big = `${"x".repeat(79)}\n`.repeat((1024 * 1024) / 80);
		const linking: Record<string, string> = {};
		const notes = Math.ceil(MAX_JOURNAL_CALL_BYTES / (2 * big.length)) + 1;
		for (let index = 0; index < notes; index++) linking[`Big ${index}.md`] = `[[Plan]]\n${big}\n`;
		vault = await makeVault({ "Plan.md": "# Plan\n", ...linking });
		const approver = new HoldingApprover();
		running = await startService(vault, { levels: ["write"], approver, rights: { write: { rename_note: "ask" } }, settings: WRITE_SETTINGS });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const before = await vaultFiles(vault);
			const message = await callError(client, "rename_note", { path: "Plan", new_path: "Plan 2.md" });
			expect(message).toContain(`${MAX_JOURNAL_CALL_BYTES / (1024 * 1024)} MiB`);
			expect(approver.held).toHaveLength(0);
			expect(await vaultFiles(vault)).toEqual(before);
			expect(running.journal.list()).toHaveLength(0);
		} finally {
			await client.close();
		}
	}, 120_000);
});

describe("a 20 MB call beside other tokens", () => {
	test("a rename linked from 20 MB of notes is refused with the limit before anything is written, another token's reads keep answering (each behind under 0.5 s of work), and the undo of an earlier call still works", async () => {
		const megabyte = `${"x".repeat(79)}\n`.repeat((1024 * 1024) / 80);
		const linking: Record<string, string> = {};
		for (let index = 0; index < 20; index++) linking[`Big/Big ${index}.md`] = `[[Plan]]\n${megabyte}`;
		const vault = await makeVault({ "Plan.md": "# Plan\n", "Home.md": "# Home\n", ...linking });
		const running = await startService(vault, { levels: ["read", "write"], settings: WRITE_SETTINGS });
		const writer = await connectClient(running.url, running.tokens.write ?? "");
		const reader = await connectClient(running.url, running.tokens.read ?? "");
		try {
			await callOk(writer, "append_to_note", { path: "Home", content: "an earlier call" });
			const earlier = running.journal.list(1)[0];
			const before = await vaultFiles(vault);
			// Counted in the main thread's CPU, not wall time: at load 12 the rename took 6.9-9.2 s of wall time and
			// 1.5-1.9 s of CPU, and a read 0.6 s of wall time and 30 ms of CPU; at load 20 the wall time passed the bounds.
			const work = workClock();
			const latencies: number[] = [];
			let renaming = true;
			const reads = (async () => {
				while (renaming) {
					const started = work();
					await callOk(reader, "read_note", { path: "Home" });
					latencies.push(work() - started);
				}
			})();
			const started = work();
			const message = await callError(writer, "rename_note", { path: "Plan", new_path: "Plan 2.md" });
			const refusedAfterMs = work() - started;
			renaming = false;
			await reads;
			expect(message).toContain(`${MAX_JOURNAL_CALL_BYTES / (1024 * 1024)} MiB`);
			expect(message).toContain("Nothing was written.");
			expect(await vaultFiles(vault)).toEqual(before);
			expect(latencies.length).toBeGreaterThan(0);
			// A read waited behind a few slices of the rename's work, not behind its planning (1.5 s and more).
			expect(Math.max(...latencies)).toBeLessThan(500);
			// Planning stopped at the bound: far less work than reading and rewriting 20 MB would take here.
			expect(refusedAfterMs).toBeLessThan(10_000);
			expect(running.journal.list()).toHaveLength(1);
			const undone = await undoCall(running.host, running.journal, earlier?.id ?? "");
			expect(undone.ok).toBe(true);
			expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n");
		} finally {
			await writer.close();
			await reader.close();
			await running.stop();
			await removeDir(vault);
		}
	}, 120_000);
});

describe("undo of a rename whose old folder became a symbolic link", () => {
	test("is refused whole before the first byte: no link is restored, nothing is moved, nothing outside changes", async () => {
		const vault = await makeVault({ "Sub/Plan.md": "# Plan\n", "Home.md": "See [[Sub/Plan]].\n" });
		const outside = await fs.mkdtemp(nodePath.join(os.tmpdir(), "vault-mcp-outside-"));
		const running = await startService(vault, { levels: ["write"], settings: WRITE_SETTINGS });
		const writer = await connectClient(running.url, running.tokens.write ?? "");
		try {
			await callOk(writer, "rename_note", { path: "Sub/Plan", new_path: "Plan.md" });
			const rename = running.journal.list(1)[0];
			await fs.rm(nodePath.join(vault, "Sub"), { recursive: true });
			await fs.symlink(outside, nodePath.join(vault, "Sub"));
			const before = await vaultFiles(vault);
			const undone = await undoCall(running.host, running.journal, rename?.id ?? "");
			expect(undone.ok).toBe(false);
			expect(await vaultFiles(vault)).toEqual(before);
			expect(await fs.readdir(outside)).toEqual([]);
		} finally {
			await writer.close();
			await running.stop();
			await removeDir(vault);
			await removeDir(outside);
		}
	}, 60_000);
});

describe("undo of a create while another client appends to the note", () => {
	test("an append acknowledged while the undo moves the note to the trash is never taken with it", async () => {
		const vault = await makeVault({ "Home.md": "# Home\n" });
		const running = await startService(vault, { levels: ["write"], settings: WRITE_SETTINGS });
		const writer = await connectClient(running.url, running.tokens.write ?? "");
		try {
			await callOk(writer, "create_note", { path: "Draft.md", content: "first\n" });
			const create = running.journal.list(1)[0];
			// The host's trash takes a moment (Obsidian's is async too); an append is sent in that moment.
			const trashFile = running.host.fileManager.trashFile.bind(running.host.fileManager);
			let appended: Promise<unknown> = Promise.resolve();
			running.host.fileManager.trashFile = async (file) => {
				appended = callTool(writer, "append_to_note", { path: "Draft", content: "second" });
				// Until the append is answered (on a vault that lets it in), or long enough for it to be.
				await Promise.race([appended, new Promise((resolve) => setTimeout(resolve, 2_000))]);
				await trashFile(file);
			};
			const undone = await undoCall(running.host, running.journal, create?.id ?? "");
			const append = (await appended) as Awaited<ReturnType<typeof callTool>>;
			const draft = await fs.readFile(nodePath.join(vault, "Draft.md"), "utf8").catch(() => null);
			// Either the append was refused (the note was going to the trash), or its line is still in the vault.
			if (append.ok) expect(draft).toContain("second");
			else expect([undone.ok, draft]).toEqual([true, null]);
		} finally {
			await writer.close();
			await running.stop();
			await removeDir(vault);
		}
	}, 60_000);
});

describe("renames among visible notes only", () => {
	/** Renames Draft.md to each target in a fresh vault, with or without the excluded notes of the same names: the answers and the notes written. */
	async function renameAll(withExcluded: boolean, targets: readonly string[]): Promise<{ answers: unknown[]; files: Record<string, string> }> {
		const excluded: Record<string, string> = withExcluded
			? { "Private/Diary.md": "secret", "Private/Lawyer.md": "secret", "Private/Plumber.md": "secret" }
			: {};
		const root = await makeVault({
			"Probe.md": "[[Diary]] and [[Draft 0]] [[Draft 1]] [[Draft 2]]\n",
			"Draft 0.md": "d0",
			"Draft 1.md": "d1",
			"Draft 2.md": "d2",
			...excluded,
		});
		const service = await startService(root, { levels: ["write"], settings: { ...WRITE_SETTINGS, excludedFolders: ["Private"] } });
		const client = await connectClient(service.url, service.tokens.write ?? "");
		try {
			const answers: unknown[] = [];
			for (const [index, target] of targets.entries()) answers.push(await callTool(client, "rename_note", { path: `Draft ${index}`, new_path: target }));
			const files = await vaultFiles(root);
			for (const path of Object.keys(files)) if (path.startsWith("Private/")) delete files[path];
			return { answers, files };
		} finally {
			await client.close();
			await service.stop();
			await removeDir(root);
		}
	}

	test("renames to names excluded notes have write no excluded path, and give the same answers and link forms whether or not those notes exist", async () => {
		const targets = ["Diary.md", "B/Lawyer.md", "B/Plumber.md"];
		const withExcluded = await renameAll(true, targets);
		const without = await renameAll(false, targets);
		expect(withExcluded).toEqual(without);
		expect(withExcluded.files["Probe.md"]).toBe("[[Diary]] and [[Diary]] [[Lawyer]] [[Plumber]]\n");
		expect(JSON.stringify(withExcluded)).not.toContain("Private");
	}, 120_000);
});

describe("undo writes only where a token may", () => {
	let vault: string;
	afterEach(() => removeDir(vault));

	test("a planted journal line cannot make undo write into the config folder, an excluded folder or outside the vault; nothing is changed", async () => {
		vault = await makeVault({ "Home.md": "# Home\n", "Private/Diary.md": "secret\n" });
		const running = await startService(vault, { levels: ["write"], settings: { ...WRITE_SETTINGS, excludedFolders: ["Private"] } });
		try {
			const before = await readAllFiles(vault);
			const call = { id: "planted00001", time: new Date().toISOString(), tokenName: "laptop", tool: "create_note" };
			for (const path of [".obsidian/plugins/evil/main.js", "Private/Planted.md", "../outside.md", "Home.md"]) {
				running.journal.recordChange(call, { path, before: "module.exports = evil;", beforeHash: null, after: null, afterHash: null });
			}
			const outcome = await undoCall(running.host, running.journal, call.id, undefined, ["Private"]);
			expect(outcome.ok).toBe(false);
			if (!outcome.ok) expect(outcome.reason).toContain("Nothing was changed");
			const after = (await readAllFiles(vault)).filter((file) => !file.path.endsWith("journal.jsonl"));
			expect(after).toEqual(before.filter((file) => !file.path.endsWith("journal.jsonl")));
			await expect(fs.stat(nodePath.join(vault, "..", "outside.md"))).rejects.toThrow();
		} finally {
			await running.stop();
		}
	});
});
