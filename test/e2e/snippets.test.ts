import { execFile } from "node:child_process";
import * as nodePath from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";
import { connectionSnippets, MCP_REMOTE_VERSION, serverNameFor, SNIPPET_CLIENTS, TOKEN_PLACEHOLDER } from "../../src/http/clientSnippets";
import { runCli, startServe, type ServingCli } from "../helpers/cli";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

const MCP_REMOTE = nodePath.resolve(__dirname, "../../node_modules/mcp-remote/dist/proxy.js");

/**
 * Every client's snippet as `vault-mcp serve --print-config` prints it (the same text the settings
 * tab shows), with the token put in place of the placeholder, connects to a running serve.
 */
describe("the connection snippets", () => {
	let vault: string;
	let configDir: string;
	let serving: ServingCli;
	let token: string;
	let printed: Record<string, string>;
	let serverName: string;
	const snippet = (id: string) => printed[id] ?? "";

	beforeAll(async () => {
		vault = await makeVault({ "A.md": "a", "B.md": "b" });
		configDir = await makeTempDir("mcp-remote-config-");
		token = (JSON.parse((await runCli(["token", "new", vault, "--name", "snippets", "--json"])).stdout) as { token: string }).token;
		serving = await startServe([vault, "--port", "0"]);
		serverName = serverNameFor(nodePath.basename(vault));
		printed = {};
		for (const client of SNIPPET_CLIENTS) {
			const result = await runCli(["serve", vault, "--port", String(serving.port), "--print-config", client]);
			expect(result.code).toBe(0);
			expect(result.stdout).toContain(TOKEN_PLACEHOLDER);
			printed[client] = result.stdout.trimEnd().split(TOKEN_PLACEHOLDER).join(token);
		}
	}, 120_000);
	afterAll(async () => {
		await serving.stop();
		await removeDir(vault);
		await removeDir(configDir);
	});

	const expectConnects = async (client: Client) => {
		const result = await client.callTool({ name: "get_vault_status", arguments: {} });
		expect(result.structuredContent).toMatchObject({ note_count: 2 });
		await client.close();
	};

	test("without a token they carry the placeholder, never a real token", () => {
		for (const entry of connectionSnippets({ port: 27150, vaultName: "Notes" })) expect(entry.text).toContain(TOKEN_PLACEHOLDER);
	});

	test("--print-config prints exactly the settings tab's snippet for the vault, and refuses an unknown client or port 0 with a clear error", async () => {
		const tab = connectionSnippets({ port: serving.port, vaultName: nodePath.basename(vault) }, token);
		for (const client of SNIPPET_CLIENTS) expect(snippet(client)).toBe(tab.find((entry) => entry.id === client)?.text);
		const unknown = await runCli(["serve", vault, "--print-config", "vscode"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain("--print-config must be one of claude-code, claude-desktop, cursor, curl.");
		const anyPort = await runCli(["serve", vault, "--port", "0", "--print-config", "cursor"]);
		expect(anyPort.code).toBe(2);
		expect(anyPort.stderr).toContain("give a fixed --port");
	});

	test("the server is named after the vault, so two vaults give two servers", () => {
		expect(serverName).toMatch(/^vault-vault-mcp-test-[a-z0-9_-]+$/);
		expect(snippet("claude-code")).toContain(`claude mcp add --transport http ${serverName} `);
		expect(Object.keys((JSON.parse(snippet("cursor")) as { mcpServers: Record<string, unknown> }).mcpServers)).toEqual([serverName]);
	});

	test("Claude Desktop: valid JSON, no argument with a space, and the real mcp-remote bridge connects with it", async () => {
		const config = JSON.parse(snippet("claude-desktop")) as {
			mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
		};
		const server = config.mcpServers[serverName];
		if (!server) throw new Error(`No server ${serverName} in the snippet.`);
		expect(server.command).toBe("npx");
		for (const arg of server.args) expect(arg).not.toContain(" ");
		// npx -y mcp-remote@<version> … runs the bridge; here the installed copy of that version runs with exactly the snippet's arguments and env.
		expect(server.args.slice(0, 2)).toEqual(["-y", `mcp-remote@${MCP_REMOTE_VERSION}`]);
		const bridgeArgs = server.args.slice(2);
		const transport = new StdioClientTransport({
			command: process.execPath,
			args: [MCP_REMOTE, ...bridgeArgs],
			env: { PATH: process.env.PATH ?? "", HOME: configDir, MCP_REMOTE_CONFIG_DIR: configDir, ...server.env },
			stderr: "pipe",
		});
		const client = new Client({ name: "claude-desktop-snippet", version: "1" });
		await client.connect(transport);
		await expectConnects(client);
	});

	test("Claude Desktop pins the mcp-remote version these tests run: the devDependency, as installed", () => {
		const readVersion = (path: string) => JSON.parse(readFileSync(path, "utf8")) as { version: string; devDependencies: Record<string, string> };
		expect(readVersion(nodePath.resolve(__dirname, "../../package.json")).devDependencies["mcp-remote"]).toBe(MCP_REMOTE_VERSION);
		expect(readVersion(nodePath.resolve(MCP_REMOTE, "../../package.json")).version).toBe(MCP_REMOTE_VERSION);
	});

	test("the README shows the same Claude Desktop snippet, pin included", () => {
		const readme = readFileSync(nodePath.resolve(__dirname, "../../README.md"), "utf8");
		const block = /\nClaude Desktop \(`claude_desktop_config\.json`[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
		expect(JSON.parse(block)).toEqual(
			JSON.parse(connectionSnippets({ port: 27150, vaultName: "demo-vault" }).find((entry) => entry.id === "claude-desktop")?.text ?? ""),
		);
	});

	test("Cursor: valid JSON whose url and headers connect", async () => {
		const config = JSON.parse(snippet("cursor")) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
		const server = config.mcpServers[serverName];
		const client = new Client({ name: "cursor-snippet", version: "1" });
		await client.connect(new StreamableHTTPClientTransport(new URL(server?.url ?? ""), { requestInit: { headers: server?.headers ?? {} } }));
		await expectConnects(client);
	});

	test("Claude Code: the command's URL and header connect", async () => {
		const match = /^claude mcp add --transport http vault-[a-z0-9_-]+ (\S+) --header "([^"]+)"$/.exec(snippet("claude-code"));
		expect(match).not.toBeNull();
		const [name, value] = (match?.[2] ?? "").split(": ");
		const client = new Client({ name: "claude-code-snippet", version: "1" });
		await client.connect(new StreamableHTTPClientTransport(new URL(match?.[1] ?? ""), { requestInit: { headers: { [name ?? ""]: value ?? "" } } }));
		await expectConnects(client);
	});

	test("curl: the command runs and gets get_vault_status back", async () => {
		const { stdout } = await promisify(execFile)("sh", ["-c", snippet("curl")]);
		const answer = JSON.parse(stdout) as { result: { structuredContent: { note_count: number } } };
		expect(answer.result.structuredContent.note_count).toBe(2);
	});
});
