import { execFile } from "node:child_process";
import * as nodePath from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ALL_TOOLS } from "../../src/mcp/tools";

/** The CLI has no Obsidian window, so the tools of its workspace are not served. */
const HEADLESS_TOOLS = ALL_TOOLS.filter((tool) => tool.needs !== "workspace");
import { runCli, startServe, type ServingCli } from "../helpers/cli";
import { callTool } from "../helpers/tools";
import { makeTempDir, removeDir, copyDemoVault } from "../helpers/vault";

const MCP_REMOTE = nodePath.resolve(__dirname, "../../node_modules/mcp-remote/dist/proxy.js");
const INSPECTOR_CLI = nodePath.resolve(__dirname, "../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js");

/** Makes the SDK client ask for a given protocol version in `initialize` (it always asks for its newest). */
class PinnedVersionTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	constructor(
		private readonly inner: StreamableHTTPClientTransport,
		private readonly version: string,
	) {
		inner.onmessage = (message) => this.onmessage?.(message);
		inner.onerror = (error) => this.onerror?.(error);
		inner.onclose = () => this.onclose?.();
	}
	start(): Promise<void> {
		return this.inner.start();
	}
	close(): Promise<void> {
		return this.inner.close();
	}
	setProtocolVersion(version: string): void {
		this.inner.setProtocolVersion(version);
	}
	send(message: JSONRPCMessage): Promise<void> {
		if ("method" in message && message.method === "initialize" && message.params) {
			return this.inner.send({ ...message, params: { ...message.params, protocolVersion: this.version } });
		}
		return this.inner.send(message);
	}
}

describe("real clients against the headless server", () => {
	let vault: string;
	let configDir: string;
	let serving: ServingCli;
	let writeToken: string;

	beforeAll(async () => {
		vault = await copyDemoVault();
		configDir = await makeTempDir("mcp-remote-config-");
		writeToken = (
			JSON.parse((await runCli(["token", "new", vault, "--name", "all", "--level", "write", "--allow-all-writes", "--json"])).stdout) as { token: string }
		).token;
		serving = await startServe([vault, "--port", "0", "--allow-write"]);
	});
	afterAll(async () => {
		await serving.stop();
		await removeDir(vault);
		await removeDir(configDir);
	});

	test("mcp-remote, started as the Claude Desktop snippet says, calls every read tool and every write tool", async () => {
		const transport = new StdioClientTransport({
			command: process.execPath,
			args: [MCP_REMOTE, serving.url, "--header", "Authorization:${AUTH_HEADER}"],
			env: { PATH: process.env.PATH ?? "", HOME: configDir, MCP_REMOTE_CONFIG_DIR: configDir, AUTH_HEADER: `Bearer ${writeToken}` },
			stderr: "pipe",
		});
		const client = new Client({ name: "claude-desktop-like", version: "1" });
		await client.connect(transport);
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual(HEADLESS_TOOLS.map((tool) => tool.name).sort());
			for (const tool of HEADLESS_TOOLS) {
				for (const example of tool.examples) {
					const outcome = await callTool(client, tool.name, example);
					expect({ tool: tool.name, ok: outcome.ok }).toEqual({ tool: tool.name, ok: true });
				}
			}
		} finally {
			await client.close();
		}
	});

	test("the MCP inspector's command-line client lists the tools and calls one", async () => {
		// The CLI checks for "../package.json" relative to the working directory but imports it relative
		// to itself; run from its own build folder, both point at its package.json.
		const run = (args: string[]) =>
			promisify(execFile)(
				process.execPath,
				[INSPECTOR_CLI, serving.url, "--transport", "http", "--header", `Authorization: Bearer ${writeToken}`, ...args],
				{ cwd: nodePath.dirname(INSPECTOR_CLI) },
			);
		const listed = JSON.parse((await run(["--method", "tools/list"])).stdout) as { tools: Array<{ name: string }> };
		expect(listed.tools.map((tool) => tool.name)).toContain("search_notes");
		const called = JSON.parse((await run(["--method", "tools/call", "--tool-name", "read_note", "--tool-arg", "path=Welcome"])).stdout) as {
			structuredContent: { path: string };
		};
		expect(called.structuredContent.path).toBe("Welcome.md");
	});

	test.each([["2025-03-26"], ["2025-06-18"], ["2025-11-25"]])("the SDK Client over Streamable HTTP with protocol version %s", async (version) => {
		const client = new Client({ name: `sdk-${version}`, version: "1" });
		const inner = new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { Authorization: `Bearer ${writeToken}` } } });
		await client.connect(new PinnedVersionTransport(inner, version));
		try {
			expect(inner.protocolVersion).toBe(version);
			// Nothing is ever pushed at any revision, so no list-changed notification is promised.
			expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, resources: { listChanged: false } });
			const result = await client.callTool({ name: "get_vault_status", arguments: {} });
			expect(result.structuredContent).toMatchObject({ can_write: true });
			expect((await client.listTools()).tools.length).toBe(HEADLESS_TOOLS.length);
		} finally {
			await client.close();
		}
	});
});
