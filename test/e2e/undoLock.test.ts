/**
 * Every undo of a vault holds one lock (`withUndoLock`), in `vault-mcp undo` and in Obsidian: two undos of one call at once are
 * one after the other, and the second finds the call undone. Before undo203 the CLI's lock (proper-lockfile) was taken over
 * from a `vault-mcp undo` paused past 10 s (`kill -STOP`), and the plugin took none: both undos ran.
 */
import { spawn } from "node:child_process";
import { existsSync, promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { NodeHost } from "../../src/headless/NodeHost";
import type { HostFile } from "../../src/host/Host";
import VaultMcpPlugin from "../../src/main";
import { createApp, type PluginManifest } from "../double/obsidian";
import { CLI_PATH, CLI_PRELOADS, makeTokenOnce, runCli, startServe, type CliResult, type MadeToken } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const manifest = JSON.parse(readFileSync(nodePath.resolve(__dirname, "../../manifest.json"), "utf8")) as PluginManifest;

let writer: MadeToken;
beforeAll(async () => {
	writer = await makeTokenOnce(["--name", "w", "--level", "write", "--allow-all-writes"]);
});

/** A vault with `Plan.md` and `count` notes linking to it. */
async function linkedVault(count: number): Promise<string> {
	const linking: Record<string, string> = {};
	for (let index = 0; index < count; index++) linking[`L${index}.md`] = "See [[Plan]].\n";
	return makeVault({ "Plan.md": "# Plan\n", ...linking });
}

/** Every file's name at the vault's top but the linking notes (the config folder aside). */
async function topOthers(vault: string): Promise<string[]> {
	return (await fs.readdir(vault)).filter((name) => name !== ".obsidian" && !/^L\d+\.md$/u.test(name)).sort();
}

/** The tools of the journal's calls, newest first. */
async function historyTools(vault: string): Promise<string[]> {
	return (JSON.parse((await runCli(["history", vault, "--json"])).stdout) as Array<{ tool: string }>).map((entry) => entry.tool);
}

/** A CLI run, its end awaited later; `ended` says whether it has ended yet. */
function startCli(args: string[]): { pid: () => number; kill: (signal: NodeJS.Signals) => void; ended: () => boolean; result: Promise<CliResult> } {
	const child = spawn(process.execPath, [...CLI_PRELOADS, CLI_PATH, ...args]);
	let stdout = "";
	let stderr = "";
	let ended = false;
	child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
	const result = new Promise<CliResult>((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => {
			ended = true;
			resolve({ code, stdout, stderr });
		});
	});
	return { pid: () => child.pid ?? -1, kill: (signal) => child.kill(signal), ended: () => ended, result };
}

/** Waits until `done` or `ms` have passed. */
async function waitFor(done: () => boolean, ms: number, every = 50): Promise<void> {
	for (const until = Date.now() + ms; !done() && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, every));
}

const lockOf = (vault: string) => nodePath.join(vault, ".obsidian", "plugins", "vault-mcp", "journal.jsonl.undo.lock");

describe("one undo of a vault at a time", () => {
	let vault: string;
	afterEach(async () => {
		await removeDir(vault);
	});

	test("a vault-mcp undo paused (SIGSTOP) past the lock's 10 s keeps it: the other waits, then finds the call undone", async () => {
		vault = await linkedVault(100);
		const token = await writer.putInto(vault);
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		try {
			const client = await connectClient(serving.url, token);
			expect((await callTool(client, "rename_note", { path: "Plan.md", new_path: "Other.md" })).ok).toBe(true);
			await client.close();
		} finally {
			await serving.stop();
		}
		const rename = (JSON.parse((await runCli(["history", vault, "--json"])).stdout) as Array<{ id: string }>)[0]?.id ?? "";

		const first = startCli(["undo", vault, rename]);
		// Paused as soon as it holds the lock (it then reads 101 notes: it has not ended).
		await waitFor(() => existsSync(lockOf(vault)) || first.ended(), 30_000, 1);
		first.kill("SIGSTOP");
		expect(first.ended()).toBe(false);
		const second = startCli(["undo", vault, rename]);
		let secondWroteWhilePaused: boolean;
		try {
			// Past UNDO_LOCK_STALE_MS (10 s) and time for the second to undo it all. On the base it took the lock over at 10 s
			// and undid the call while the first was paused (exit 0).
			await waitFor(() => second.ended() || existsSync(nodePath.join(vault, "Plan.md")), 20_000);
			secondWroteWhilePaused = second.ended() || existsSync(nodePath.join(vault, "Plan.md"));
		} finally {
			first.kill("SIGCONT");
		}
		const [firstResult, secondResult] = [await first.result, await second.result];
		expect(secondWroteWhilePaused).toBe(false);
		expect(firstResult.code).toBe(0);
		expect(secondResult.code).toBe(1);
		expect(secondResult.stderr).toContain(`The change ${rename} was already undone`);
		expect(await topOthers(vault)).toEqual(["Plan.md"]);
		expect(await historyTools(vault)).toEqual(["undo", "rename_note"]);
		expect(existsSync(lockOf(vault))).toBe(false);
	}, 90_000);

	test("an undo in Obsidian and a vault-mcp undo of the same call at once: the CLI waits for the plugin's, then finds it undone", async () => {
		vault = await linkedVault(20);
		const host = await NodeHost.open(vault);
		const plugin = new VaultMcpPlugin(createApp(host) as never, manifest);
		await (plugin as unknown as { load(): Promise<void> }).load();
		let client: Client | undefined;
		try {
			await plugin.updateSettings({ disclosureAccepted: true, serverEnabled: true, writeEnabled: true, port: 0 });
			const made = addToken(plugin.settings, "laptop", "write", { rename_note: "allow" });
			if ("error" in made) throw new Error(made.error);
			await plugin.updateSettings({ tokens: made.settings.tokens });
			const status = plugin.service.status;
			if (status.state !== "listening") throw new Error("not listening");
			client = await connectClient(status.url, made.token);
			await callOk(client, "rename_note", { path: "Plan.md", new_path: "Other.md" });
			const rename = plugin.journal.list(1)[0]?.id ?? "";
			await host.metadataCache.settled();

			// The CLI's undo is started while the plugin's reads a linking note (planned, nothing written yet), and given time.
			const cachedRead = host.vault.cachedRead.bind(host.vault);
			let cli: ReturnType<typeof startCli> | undefined;
			let cliEndedMeanwhile = false;
			const spy = jest.spyOn(host.vault, "cachedRead").mockImplementation(async (file: HostFile) => {
				if (cli === undefined && file.path === "L0.md") {
					cli = startCli(["undo", vault, rename]);
					const started = cli;
					// On the base the CLI took no lock the plugin held, and undid the call here (exit 0).
					await waitFor(() => started.ended(), 10_000);
					cliEndedMeanwhile = started.ended();
				}
				return cachedRead(file);
			});
			let outcome;
			try {
				outcome = await plugin.undoChange(rename);
			} finally {
				spy.mockRestore();
			}
			const cliResult = await (cli as NonNullable<typeof cli>).result;
			expect(cliEndedMeanwhile).toBe(false);
			expect(outcome.ok ? outcome.notes[0] : outcome.reason).toEqual({ path: "Plan.md", result: "moved back", from: "Other.md" });
			expect(cliResult.code).toBe(1);
			expect(cliResult.stderr).toContain(`The change ${rename} was already undone`);
			expect(await topOthers(vault)).toEqual(["Plan.md"]);
			expect(await historyTools(vault)).toEqual(["undo", "rename_note"]);
		} finally {
			await client?.close();
			(plugin as unknown as { unload(): void }).unload();
			await plugin.service.stop();
			document.body.empty();
			await host.close();
		}
	}, 90_000);
});
