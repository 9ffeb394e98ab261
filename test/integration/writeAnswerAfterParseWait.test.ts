/**
 * A write call waits, before it answers, for the headless cache to parse what it wrote (up to
 * WRITTEN_NOTES_PARSED_WAIT_MS). What may happen in that wait, and what the answer then says:
 * - the person excludes the note's folder, narrows the token's folders or denies it the tool: the
 *   answer says the call was written and gives its undo id, and names no note and no hash (a read's
 *   answer is withheld in the same case);
 * - another program swaps the note's folder for a link out of the vault (the jail refuses it from
 *   now on): the edit was made there, and is answered as made;
 * - the token is revoked: 401, as any answer of a revoked token;
 * - the server stops: the wait ends and the answer is sent before the connection closes.
 * The wait is held by a hook on the cache's `caughtUpWithNotes`, so each change surely comes inside
 * it. The real SDK client over real HTTP, a real temp vault.
 */
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { revokeToken, setTokenFolders, setTokenRights } from "../../src/auth/tokenList";
import { MAX_READ_NOTE_BYTES } from "../../src/config/limits";
import type { VaultMcpSettings } from "../../src/config/settings";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

const APPENDED = "- appended in the wait\n";
const WRITTEN = `# Plan\n\n${APPENDED}`;
const WRITTEN_HASH = createHash("sha256").update(WRITTEN, "utf8").digest("hex");

interface HeldWait {
	/** Settles once the write call waits for its parse. */
	entered: Promise<void>;
	release: () => void;
}

/** Holds the write's wait for its parse (the cache's `caughtUpWithNotes`) until `release`. */
function holdParseWait(running: RunningService): HeldWait {
	const cache = running.host.metadataCache;
	const caughtUp = cache.caughtUpWithNotes.bind(cache);
	let entered!: () => void;
	let release!: () => void;
	const enteredWait = new Promise<void>((resolve) => (entered = resolve));
	const released = new Promise<void>((resolve) => (release = resolve));
	cache.caughtUpWithNotes = async (paths: readonly string[]) => {
		entered();
		await released;
		await caughtUp(paths);
	};
	return { entered: enteredWait, release };
}

async function until(condition: () => boolean, what: string): Promise<void> {
	for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 10)))
		if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
}

function changed(made: { settings: VaultMcpSettings } | { error: string }): VaultMcpSettings {
	if ("error" in made) throw new Error(made.error);
	return made.settings;
}

describe("a write's answer after its parse wait", () => {
	let vault: string;
	let outside: string | null = null;
	let running: RunningService;
	let client: Client;
	let wait: HeldWait;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "Other/Shopping.md": "# Shopping\n" });
		running = await startService(vault, {
			levels: ["write"],
			// As `serve` runs: another program's changes on disk are followed (a folder swapped for a link, below).
			host: { watch: true },
			settings: { writeEnabled: true, writeDisclosureAccepted: true },
			rights: { write: { append_to_note: "allow", rename_note: "allow", set_property: "allow", read_note: "allow" } },
		});
		client = await connectClient(running.url, running.tokens.write ?? "");
		wait = holdParseWait(running);
	});
	afterEach(async () => {
		wait.release();
		await client.close();
		await running.stop();
		await removeDir(vault);
		if (outside !== null) await removeDir(outside);
		outside = null;
	});

	const append = () => callTool(client, "append_to_note", { path: "Notes/Plan.md", content: APPENDED });
	const noteOnDisk = () => fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8");

	test.each([
		["excludes the note's folder", (settings: VaultMcpSettings) => ({ ...settings, excludedFolders: ["Notes"] })],
		["limits the token to another folder", (settings: VaultMcpSettings) => changed(setTokenFolders(settings, "write", ["Other"]))],
		["sets the tool to Deny for the token", (settings: VaultMcpSettings) => changed(setTokenRights(settings, "write", { append_to_note: "deny" }))],
	])("the person %s: the answer says it was written, with its undo id, and names neither the note nor its hash", async (_what, change) => {
		const answer = append();
		await wait.entered;
		await running.service.apply(change(running.settings));
		wait.release();
		const outcome = await answer;
		expect(outcome.ok).toBe(false);
		const text = JSON.stringify(outcome);
		expect(text).not.toContain("Plan");
		expect(text).not.toContain(WRITTEN_HASH);
		const calls = running.journal.list();
		expect(calls).toHaveLength(1);
		expect(text).toContain(`was written`);
		expect(text).toContain(`undo id ${calls[0]!.id}`);
		expect(await noteOnDisk()).toBe(WRITTEN);
	});

	test("a rename whose answer lists a note not read in a folder the person excludes in the wait: withheld too", async () => {
		// Over the bytes this server reads from one note: a rename names it as not read (it may still link to the old path).
		await fs.mkdir(nodePath.join(vault, "Big"));
		await fs.writeFile(nodePath.join(vault, "Big/Huge.md"), "x".repeat(MAX_READ_NOTE_BYTES + 1));
		await until(() => running.host.vault.getFileByPath("Big/Huge.md")?.stat.size === MAX_READ_NOTE_BYTES + 1, "the vault to see the big note");
		const renamed = callTool(client, "rename_note", { path: "Notes/Plan.md", new_path: "Notes/Goals.md" });
		await wait.entered;
		await running.service.apply({ ...running.settings, excludedFolders: ["Big"] });
		wait.release();
		const outcome = await renamed;
		expect(outcome.ok).toBe(false);
		expect(JSON.stringify(outcome)).not.toContain("Huge");
		expect(JSON.stringify(outcome)).toContain("was written");
		expect(await fs.readFile(nodePath.join(vault, "Notes/Goals.md"), "utf8")).toBe("# Plan\n");
	});

	test("a rename whose answer lists a note not read, that note deleted and its folder excluded in the wait: withheld too", async () => {
		await fs.mkdir(nodePath.join(vault, "Big"));
		await fs.writeFile(nodePath.join(vault, "Big/Huge.md"), "x".repeat(MAX_READ_NOTE_BYTES + 1));
		await until(() => running.host.vault.getFileByPath("Big/Huge.md")?.stat.size === MAX_READ_NOTE_BYTES + 1, "the vault to see the big note");
		const renamed = callTool(client, "rename_note", { path: "Notes/Plan.md", new_path: "Notes/Goals.md" });
		await wait.entered;
		// The list names a note that is no file now: still a path in a folder this token may no longer see.
		await fs.rm(nodePath.join(vault, "Big/Huge.md"));
		await until(() => running.host.vault.getFileByPath("Big/Huge.md") === null, "the vault to see the big note gone");
		await running.service.apply({ ...running.settings, excludedFolders: ["Big"] });
		wait.release();
		const outcome = await renamed;
		expect(JSON.stringify(outcome)).not.toContain("Huge");
		expect(JSON.stringify(outcome)).toContain("was written");
		expect(await fs.readFile(nodePath.join(vault, "Notes/Goals.md"), "utf8")).toBe("# Plan\n");
	});

	test("the note's folder swapped for a link out of the vault, and another folder excluded, while the answer waits: the edit made is answered as made", async () => {
		outside = await makeTempDir("parse-wait-outside-");
		const notes = nodePath.join(running.host.vault.root, "Notes");
		const answer = append();
		await wait.entered;
		await fs.rename(notes, `${notes}-moved`);
		await fs.symlink(outside, notes);
		await until(() => running.host.hiddenLinks().includes("Notes"), "the vault to see Notes as a link");
		// A change of the settings too, so the answer's check looks at every path, not only at whether the settings changed.
		await running.service.apply({ ...running.settings, excludedFolders: ["Other"] });
		wait.release();
		expect(await answer).toEqual({ ok: true, value: { path: "Notes/Plan.md", mode: expect.any(String) as string, hash: WRITTEN_HASH } });
		expect(await fs.readFile(nodePath.join(`${notes}-moved`, "Plan.md"), "utf8")).toBe(WRITTEN);
		expect(await fs.readdir(outside)).toEqual([]);
	});

	describe("a token limited to Notes, and another folder excluded in the wait", () => {
		let limited: VaultMcpSettings;
		beforeEach(async () => {
			limited = changed(setTokenFolders(running.settings, "write", ["Notes"]));
			await running.service.apply(limited);
		});
		/** Another folder excluded while the call waits for its parse (any change of the settings makes new objects). */
		async function otherFolderExcludedInTheWait<T>(call: Promise<T>): Promise<T> {
			await wait.entered;
			await running.service.apply({ ...limited, excludedFolders: ["Archive"] });
			wait.release();
			return await call;
		}

		test("a list property whose values are not paths: answered as made", async () => {
			const set = callTool(client, "set_property", { path: "Notes/Plan.md", name: "tags", value: ["project", "garden"] });
			const outcome = await otherFolderExcludedInTheWait(set);
			expect(outcome).toMatchObject({ ok: true, value: { path: "Notes/Plan.md", name: "tags", value: ["project", "garden"] } });
		});
	});

	test("the token revoked while the answer waits: 401, nothing of the answer", async () => {
		const answer = append();
		await wait.entered;
		await running.service.apply(changed(revokeToken(running.settings, "write")));
		wait.release();
		await expect(answer).rejects.toThrow("A valid bearer token is required");
		expect(await noteOnDisk()).toBe(WRITTEN);
	});

	test.each([
		["the server is stopped", (service: RunningService) => service.service.stop()],
		["the server is switched off in the settings", (service: RunningService) => service.service.apply({ ...service.settings, serverEnabled: false })],
	])("%s while the answer waits: the wait ends, and the answer names the note and the hash of what was written", async (_what, stop) => {
		const answer = append();
		await wait.entered;
		const stopped = stop(running);
		expect(await answer).toEqual({ ok: true, value: { path: "Notes/Plan.md", mode: expect.any(String) as string, hash: WRITTEN_HASH } });
		await stopped;
		expect(running.service.status.state).toBe("stopped");
		expect(await noteOnDisk()).toBe(WRITTEN);
	});
});
