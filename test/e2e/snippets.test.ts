import { execFile } from "node:child_process";
import * as nodePath from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";
import { connectionSnippets, MCP_REMOTE_VERSION, TOKEN_PLACEHOLDER } from "../../src/ui/snippets";
import { runCli, startServe, type ServingCli } from "../helpers/cli";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

const MCP_REMOTE = nodePath.resolve(__dirname, "../../node_modules/mcp-remote/dist/proxy.js");

describe("the connection snippets", () => {
	let vault: string;
	let configDir: string;
	let serving: ServingCli;
	let token: string;
	let snippets: ReturnType<typeof connectionSnippets>;
	const snippet = (id: string) => snippets.find((entry) => entry.id === id)?.text ?? "";

	beforeAll(async () => {
		vault = await makeVault({ "A.md": "a", "B.md": "b" });
		configDir = await makeTempDir("mcp-remote-config-");
		token = (JSON.parse((await runCli(["token", "new", vault, "--name", "snippets", "--json"])).stdout) as { token: string }).token;
		serving = await startServe([vault, "--port", "0"]);
		snippets = connectionSnippets(serving.port, token);
	});
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
		for (const entry of connectionSnippets(27150)) expect(entry.text).toContain(TOKEN_PLACEHOLDER);
	});

	test("Claude Desktop: valid JSON, no argument with a space, and the real mcp-remote bridge connects with it", async () => {
		const config = JSON.parse(snippet("claude-desktop")) as { mcpServers: { vault: { command: string; args: string[]; env: Record<string, string> } } };
		const server = config.mcpServers.vault;
		expect(server.command).toBe("npx");
		for (const arg of server.args) expect(arg).not.toContain(" ");
		// npx -y mcp-remote@<version> … runs the bridge; here the installed copy of that version runs with exactly the snippet's arguments and env.
		expect(server.args.slice(0, 2)).toEqual(["-y", `mcp-remote@${MCP_REMOTE_VERSION}`]);
		const bridgeArgs = server.args.slice(2);
		const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_REMOTE, ...bridgeArgs], env: { PATH: process.env.PATH ?? "", HOME: configDir, MCP_REMOTE_CONFIG_DIR: configDir, ...server.env }, stderr: "pipe" });
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
		expect(JSON.parse(block)).toEqual(JSON.parse(connectionSnippets(27150).find((entry) => entry.id === "claude-desktop")?.text ?? ""));
	});

	test("Cursor: valid JSON whose url and headers connect", async () => {
		const config = JSON.parse(snippet("cursor")) as { mcpServers: { vault: { url: string; headers: Record<string, string> } } };
		const client = new Client({ name: "cursor-snippet", version: "1" });
		await client.connect(new StreamableHTTPClientTransport(new URL(config.mcpServers.vault.url), { requestInit: { headers: config.mcpServers.vault.headers } }));
		await expectConnects(client);
	});

	test("Claude Code: the command's URL and header connect", async () => {
		const match = /^claude mcp add --transport http vault (\S+) --header "([^"]+)"$/.exec(snippet("claude-code"));
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
