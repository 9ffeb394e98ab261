/**
 * Settings writes race across real processes: revocations, rights changes and last-use times
 * saved at once by several processes (each with many saves in flight) and by `vault-mcp token
 * revoke`, while `vault-mcp serve` runs. No revocation (and no other change) may be lost, and the
 * running server must refuse a revoked token within a second.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { build } from "esbuild";
import { addToken } from "../../src/auth/tokenList";
import { FileSettingsStore } from "../../src/config/FileSettingsStore";
import { mcpHeaders, rawRequest } from "../helpers/http";
import { runCli, runProcess, startServe, type ServingCli } from "../helpers/cli";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

const WORKERS = 5;
const REVOKED_BY_WORKERS = 60;
const KEPT = 40;
const RIGHTS_CHANGES = 70;
const LAST_USES = 60;
const REVOKED_BY_CLI = 10;
/** Every operation in the race: 60 + 70 + 60 + 10 = 200. */
const OPERATIONS = REVOKED_BY_WORKERS + RIGHTS_CHANGES + LAST_USES + REVOKED_BY_CLI;
const READ_TOOLS = ["read_note", "list_notes", "search_notes", "list_tags", "get_note_links"];

describe("settings saved by many processes at once", () => {
	let root: string;
	let scratch: string;
	let worker: string;
	let serving: ServingCli | null = null;
	const secrets = new Map<string, string>();

	beforeAll(async () => {
		root = await makeVault({ "Home.md": "# Home\n" });
		scratch = await makeTempDir();
		worker = nodePath.join(scratch, "settingsWriter.js");
		await build({
			entryPoints: [nodePath.resolve(__dirname, "../helpers/settingsWriter.ts")],
			bundle: true,
			platform: "node",
			format: "cjs",
			outfile: worker,
			logLevel: "silent",
		});
		const names = [
			...Array.from({ length: REVOKED_BY_WORKERS }, (_, index) => `w${index}`),
			...Array.from({ length: REVOKED_BY_CLI }, (_, index) => `c${index}`),
			...Array.from({ length: KEPT }, (_, index) => `k${index}`),
		];
		await new FileSettingsStore(root, ".obsidian").update((settings) => {
			let next = settings;
			for (const name of names) {
				const made = addToken(next, name, "read");
				if ("error" in made) throw new Error(made.error);
				next = made.settings;
				secrets.set(name, made.token);
			}
			return next;
		});
	});
	afterAll(async () => {
		await serving?.stop();
		await removeDir(root);
		await removeDir(scratch);
	});

	const status = async (name: string): Promise<number> => {
		const answer = await rawRequest(serving?.port ?? 0, {
			headers: mcpHeaders(serving?.port ?? 0, secrets.get(name) ?? ""),
			body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
		});
		return answer.status;
	};

	/**
	 * The status the server answers this token with once a second has passed since `since`: a request sent
	 * after that second is answered with the settings the server had then. Timing the first 401 of a poll
	 * counted the test's own answers too: 60 tokens polled at once at load 21 read up to 706 ms.
	 */
	const statusASecondAfter = async (name: string, since: number): Promise<number> => {
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, since + 1_000 - Date.now())));
		return status(name);
	};

	test(`${OPERATIONS} concurrent revocations, rights changes and last-use saves from ${WORKERS + REVOKED_BY_CLI} processes lose nothing, and serve refuses each revoked token within a second`, async () => {
		serving = await startServe([root, "--port", "0"]);
		for (const name of ["w0", "c0", "k0"]) expect(await status(name)).toBe(200);

		// The race: every operation, dealt round-robin to the worker processes, each running all of its saves at once.
		const operations = [
			...Array.from({ length: REVOKED_BY_WORKERS }, (_, index) => ({ kind: "revoke", name: `w${index}` })),
			...Array.from({ length: RIGHTS_CHANGES }, (_, index) => ({
				kind: "rights",
				name: `k${index % KEPT}`,
				tool: READ_TOOLS[index % READ_TOOLS.length],
				right: "deny",
			})),
			...Array.from({ length: LAST_USES }, (_, index) => ({
				kind: "lastUse",
				name: `k${index % KEPT}`,
				time: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
			})),
		];
		const shares: Array<typeof operations> = Array.from({ length: WORKERS }, () => []);
		operations.forEach((operation, index) => shares[index % WORKERS]!.push(operation));
		const workers = shares.map((share) => runProcess(process.execPath, [worker, root, JSON.stringify(share)]));
		// The CLI's own revoke, in the middle of it, each timed from its exit to the server's first 401.
		const cliTimes = Promise.all(
			Array.from({ length: REVOKED_BY_CLI }, async (_, index) => {
				const revoked = await runCli(["token", "revoke", root, `c${index}`]);
				expect(revoked).toMatchObject({ code: 0, stdout: `Revoked "c${index}".\n` });
				return statusASecondAfter(`c${index}`, Date.now());
			}),
		);
		const results = await Promise.all(workers);
		for (const result of results) expect(result).toMatchObject({ code: 0, stdout: "done\n" });
		const workersDone = Date.now();
		const afterWorkers = await Promise.all(Array.from({ length: REVOKED_BY_WORKERS }, (_, index) => statusASecondAfter(`w${index}`, workersDone)));
		const cli = await cliTimes;

		// Nothing lost: every revoked token gone, every rights change and the last of each token's last-use times there.
		const saved = JSON.parse(await fs.readFile(nodePath.join(root, ".obsidian/plugins/vault-mcp/data.json"), "utf8")) as {
			tokens: Array<{ name: string; rights?: Record<string, string>; lastUsed: string | null }>;
		};
		expect(saved.tokens.map((token) => token.name).sort()).toEqual(Array.from({ length: KEPT }, (_, index) => `k${index}`).sort());
		for (const token of saved.tokens) {
			const index = Number(token.name.slice(1));
			const denied = Array.from({ length: RIGHTS_CHANGES }, (_, change) => change)
				.filter((change) => change % KEPT === index)
				.map((change) => READ_TOOLS[change % READ_TOOLS.length]);
			for (const tool of denied)
				expect({ token: token.name, tool, right: token.rights?.[tool ?? ""] }).toEqual({ token: token.name, tool, right: "deny" });
			const uses = Array.from({ length: LAST_USES }, (_, use) => use).filter((use) => use % KEPT === index);
			// Saves of one token's last use race each other; whichever lands last, one of them is there and none is lost to a revocation.
			if (uses.length > 0) expect(uses.map((use) => new Date(Date.UTC(2026, 0, 1, 0, 0, use)).toISOString())).toContain(token.lastUsed);
		}

		// Refused within a second of the revoke that the CLI said was done (the server polls data.json every 250 ms).
		expect(cli).toEqual(cli.map(() => 401));
		// The workers' revocations were done before they exited: refused within a second of that, too.
		expect(afterWorkers).toEqual(afterWorkers.map(() => 401));
		// A kept token still works.
		expect(await status("k1")).toBe(200);
		expect(serving.stderr()).not.toMatch(/could not be read/);
	}, 180_000);
});
