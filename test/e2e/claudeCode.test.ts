import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as nodePath from "node:path";
import { connectionSnippets, serverNameFor } from "../../src/http/clientSnippets";
import { runCli, runProcess, startServe, type ServingCli } from "../helpers/cli";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/** Claude Code's own binary for this computer, from the package test/claude-code pins (scripts/test-tools.mjs installs it). */
const CLAUDE = nodePath.resolve(__dirname, `../claude-code/node_modules/@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`);

/**
 * How many times the reconnect loop runs `claude mcp list`. Each run starts Claude Code and makes a
 * whole connection (seconds, more on a busy machine), so CI runs a few; set
 * VAULT_MCP_CLAUDE_LIST_RUNS=30 to repeat the count a failure was first seen at (1 run in 5, when a
 * refused GET closed the connection Claude Code was about to send `tools/list` on).
 */
const CLAUDE_LIST_RUNS = Number(process.env.VAULT_MCP_CLAUDE_LIST_RUNS ?? "5");

/** A child process that keeps one core busy until killed: the "busy machine" the race showed up on. */
function burnOneCore(): () => void {
	const child = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
	return () => child.kill("SIGKILL");
}

/**
 * Claude Code, the real client: the exact `claude mcp add` line the settings tab and `serve` print,
 * run by a shell, then `claude mcp list`, which connects to every configured server and says
 * whether it is Connected. Its configuration goes to a temporary HOME, never the person's own.
 */
describe("Claude Code connects with the snippet we print", () => {
	let vault: string;
	let home: string;
	let serving: ServingCli;
	let token: string;

	const claude = (command: string) =>
		runProcess("sh", ["-c", command], { cwd: home, env: { ...process.env, HOME: home, PATH: `${nodePath.join(home, "bin")}:${process.env.PATH ?? ""}` } });

	beforeAll(async () => {
		if (!existsSync(CLAUDE)) throw new Error("Claude Code is not installed for the tests: run `node scripts/test-tools.mjs` (npm test does).");
		vault = await makeVault({ "A.md": "a", "Prompts/Summarize.md": "---\ndescription: Summarize a note\n---\nSummarize {{note}}." });
		home = await makeTempDir("claude-code-home-");
		await mkdir(nodePath.join(home, "bin"));
		await symlink(CLAUDE, nodePath.join(home, "bin/claude"));
		token = (JSON.parse((await runCli(["token", "new", vault, "--name", "claude-code", "--level", "write", "--json"])).stdout) as { token: string }).token;
		serving = await startServe([vault, "--port", "0"]);
	});
	afterAll(async () => {
		await serving.stop();
		await removeDir(vault);
		await removeDir(home);
	});

	test("`claude mcp list` says Connected, with a write token and a prompts folder; a wrong token says Failed", async () => {
		const addLine =
			connectionSnippets({ port: serving.port, vaultName: nodePath.basename(vault) }, token).find((entry) => entry.id === "claude-code")?.text ?? "";
		expect((await claude(addLine)).code).toBe(0);
		const wrong =
			connectionSnippets({ port: serving.port, vaultName: nodePath.basename(vault) }, "not-a-token")
				.find((entry) => entry.id === "claude-code")
				?.text.replace(`mcp add --transport http ${serverNameFor(nodePath.basename(vault))}`, "mcp add --transport http wrong") ?? "";
		expect((await claude(wrong)).code).toBe(0);

		const listed = await claude("claude mcp list");
		const line = (name: string) => listed.stdout.split("\n").find((text) => text.startsWith(`${name}: `)) ?? "";
		expect(line(serverNameFor(nodePath.basename(vault)))).toBe(
			`${serverNameFor(nodePath.basename(vault))}: http://127.0.0.1:${serving.port}/mcp (HTTP) - ✔ Connected`,
		);
		expect(line("wrong")).toContain("Failed to connect");
		expect(line("wrong")).toContain("401");
	}, 60_000);

	test(
		`\`claude mcp list\` says Connected in every one of ${CLAUDE_LIST_RUNS} runs with a core kept busy (its GET is refused without dropping the connection)`,
		async () => {
			const addLine =
				connectionSnippets({ port: serving.port, vaultName: nodePath.basename(vault) }, token)
					.find((entry) => entry.id === "claude-code")
					?.text.replace(`mcp add --transport http ${serverNameFor(nodePath.basename(vault))}`, "mcp add --transport http looped") ?? "";
			expect((await claude(addLine)).code).toBe(0);
			const stopBurning = burnOneCore();
			const outcomes: string[] = [];
			try {
				for (let run = 0; run < CLAUDE_LIST_RUNS; run++) {
					const listed = await claude("claude mcp list");
					outcomes.push(listed.stdout.split("\n").find((text) => text.startsWith("looped: ")) ?? `no line (exit ${String(listed.code)})`);
				}
			} finally {
				stopBurning();
			}
			const connected = `looped: http://127.0.0.1:${serving.port}/mcp (HTTP) - ✔ Connected`;
			expect(outcomes.filter((line) => line !== connected)).toEqual([]);
			expect(outcomes).toHaveLength(CLAUDE_LIST_RUNS);
		},
		30_000 + CLAUDE_LIST_RUNS * 20_000,
	);

	test("it speaks 2026-07-28 with us: server/discover, then tools/list, each answered 200 (seen by a loopback relay)", async () => {
		const seen: Array<{ version: string; method: string; status: number }> = [];
		const relay = http.createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => {
				const body = Buffer.concat(chunks);
				const forwarded = http.request(
					{
						host: "127.0.0.1",
						port: serving.port,
						path: request.url,
						method: request.method,
						headers: { ...request.headers, host: `127.0.0.1:${serving.port}` },
					},
					(answer) => {
						seen.push({
							version: String(request.headers["mcp-protocol-version"] ?? ""),
							method: (JSON.parse(body.toString() || "{}") as { method?: string }).method ?? "",
							status: answer.statusCode ?? 0,
						});
						response.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(response);
					},
				);
				forwarded.end(body);
			});
		});
		await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
		try {
			const relayPort = (relay.address() as AddressInfo).port;
			const addLine =
				connectionSnippets({ port: relayPort, vaultName: nodePath.basename(vault) }, token)
					.find((entry) => entry.id === "claude-code")
					?.text.replace(`mcp add --transport http ${serverNameFor(nodePath.basename(vault))}`, "mcp add --transport http relayed") ?? "";
			expect((await claude(addLine)).code).toBe(0);
			const listed = await claude("claude mcp list");
			expect(listed.stdout).toContain(`relayed: http://127.0.0.1:${relayPort}/mcp (HTTP) - ✔ Connected`);
			expect(seen[0]).toEqual({ version: "2026-07-28", method: "server/discover", status: 200 });
			expect(seen).toContainEqual({ version: "2026-07-28", method: "tools/list", status: 200 });
			expect(seen.filter((request) => request.method === "initialize")).toEqual([]);
		} finally {
			relay.closeAllConnections();
			await new Promise((resolve) => relay.close(resolve));
		}
	}, 60_000);
});
