import * as nodePath from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runCli, startServe, type ServingCli } from "../helpers/cli";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

const MCP_REMOTE = nodePath.resolve(__dirname, "../../node_modules/mcp-remote/dist/proxy.js");

/**
 * Claude Desktop speaks stdio only; people connect it through the mcp-remote bridge, with the token
 * in an environment variable so that no argument contains a space (Windows clients split those).
 */
describe("Claude Desktop through mcp-remote", () => {
	let vault: string;
	let configDir: string;
	let serving: ServingCli;
	let token: string;

	beforeAll(async () => {
		vault = await makeVault({ "One.md": "1", "Two.md": "2" });
		configDir = await makeTempDir("mcp-remote-config-");
		token = (JSON.parse((await runCli(["token", "new", vault, "--name", "desktop", "--json"])).stdout) as { token: string }).token;
		serving = await startServe([vault, "--port", "0"]);
	});

	afterAll(async () => {
		await serving.stop();
		await removeDir(vault);
		await removeDir(configDir);
	});

	test("gets get_vault_status back, exactly as Claude Desktop launches the bridge", async () => {
		const args = [MCP_REMOTE, serving.url, "--header", "Authorization:${AUTH_HEADER}"];
		expect(args.slice(1).some((arg) => arg.includes(" "))).toBe(false);
		const transport = new StdioClientTransport({
			command: process.execPath,
			args,
			env: { PATH: process.env.PATH ?? "", HOME: configDir, MCP_REMOTE_CONFIG_DIR: configDir, AUTH_HEADER: `Bearer ${token}` },
			stderr: "pipe",
		});
		const client = new Client({ name: "claude-desktop-like", version: "1.0.0" });
		await client.connect(transport);
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name)).toContain("get_vault_status");
			const result = await client.callTool({ name: "get_vault_status", arguments: {} });
			expect(result.structuredContent).toMatchObject({ note_count: 2, can_read: true, can_write: false });
		} finally {
			await client.close();
		}
	});
});
