import { effectiveRight } from "../../../src/auth/rights";
import { WritesBeforeReleased } from "../../../src/mcp/releasedCalls";
import type { WriteServices } from "../../../src/mcp/approval";
import { MemoryJournal } from "../../helpers/memoryJournal";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/server";
import { ActivityLog } from "../../../src/activity";
import { generateToken } from "../../../src/auth/tokens";
import { NodeHost } from "../../../src/headless/NodeHost";
import type { ToolContext } from "../../../src/mcp/context";
import { McpServerPool } from "../../../src/mcp/server";
import { ALL_TOOLS } from "../../../src/mcp/tools";
import { IndexedNoteSearch } from "../../../src/vault/search";
import { RecordingLogger } from "../../helpers/service";
import { copyDemoVault } from "../../helpers/vault";
import { openIndexedVault, type IndexedVault } from "../../helpers/indexedVault";

/**
 * Servers reused across requests: a request gets a server with exactly its own tools, and every
 * answer uses that request's context, never the one a reused server served before.
 */
describe("McpServerPool", () => {
	let root: string;
	let host: NodeHost;
	let search: IndexedNoteSearch;
	const scope = { configDir: ".obsidian", excludedFolders: [] };
	const clients = new Map<McpServer, Client>();

	let vault: IndexedVault;

	beforeAll(async () => {
		root = await copyDemoVault();
		vault = await openIndexedVault(root, scope);
		({ host, index: search } = vault);
	});
	afterAll(async () => {
		for (const client of clients.values()) await client.close();
		await vault.close();
	});

	function contextFor(name: string, canWrite: boolean): ToolContext {
		const { record } = generateToken(name, canWrite ? "write" : "read");
		const writes: WriteServices = {
			journal: new MemoryJournal(),
			approver: null,
			approvalTimeoutMs: 5_000,
			writesBeforeReleased: new WritesBeforeReleased(),
			currentRight: (tool) => effectiveRight(record, tool, canWrite),
			allowAlways: () => Promise.resolve(),
		};
		return { host, serverVersion: "test", scope, grant: { token: record, canWrite }, search, dailyNotesAreOutlines: false, writes };
	}

	/** A client linked to a pooled server once, as the HTTP endpoint connects each pooled server once. */
	async function clientOf(server: McpServer): Promise<Client> {
		let client = clients.get(server);
		if (!client) {
			const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
			await server.connect(serverSide);
			client = new Client({ name: "pool", version: "1" });
			await client.connect(clientSide);
			clients.set(server, client);
		}
		return client;
	}

	test("a reused server answers with the tools and the context of the request it is lent to", async () => {
		const activity = new ActivityLog();
		const pool = new McpServerPool({ activity, logger: new RecordingLogger() }, 4);

		const first = pool.lend(contextFor("reader-one", false));
		const firstClient = await clientOf(first.server);
		const status = await firstClient.callTool({ name: "get_vault_status", arguments: {} });
		expect(status.structuredContent).toMatchObject({ can_write: false });
		await first.release();

		// Another tool set: another server, with the write tools listed.
		const writer = pool.lend(contextFor("writer", true));
		expect(writer.server).not.toBe(first.server);
		const writerTools = (await (await clientOf(writer.server)).listTools()).tools.map((tool) => tool.name);
		expect(writerTools).toEqual(ALL_TOOLS.filter((tool) => tool.needs !== "workspace").map((tool) => tool.name));
		expect((await (await clientOf(writer.server)).callTool({ name: "get_vault_status", arguments: {} })).structuredContent).toMatchObject({
			can_write: true,
		});
		await writer.release();

		// The same tool set again, for another token: the first server, answering for the new token.
		const second = pool.lend(contextFor("reader-two", false));
		expect(second.server).toBe(first.server);
		const readerTools = (await firstClient.listTools()).tools.map((tool) => tool.name);
		expect(readerTools).toEqual(ALL_TOOLS.filter((tool) => tool.access === "read" && tool.needs !== "workspace").map((tool) => tool.name));
		await firstClient.callTool({ name: "get_vault_status", arguments: {} });
		await second.release();
		expect(
			activity
				.list()
				.map((entry) => entry.tokenName)
				.sort(),
		).toEqual(["reader-one", "reader-two", "writer"]);
	});

	test("two requests lent at once get two servers; a server is reused only after release", async () => {
		const pool = new McpServerPool({ activity: new ActivityLog(), logger: new RecordingLogger() }, 4);
		const one = pool.lend(contextFor("a", false));
		const two = pool.lend(contextFor("b", false));
		expect(two.server).not.toBe(one.server);
		await one.release();
		expect(pool.lend(contextFor("c", false)).server).toBe(one.server);
		await two.release();
	});

	test("2026-07-28 requests get servers of their own (the SDK binds a server to one era), reused among themselves", async () => {
		const pool = new McpServerPool({ activity: new ActivityLog(), logger: new RecordingLogger() }, 4);
		const legacy = pool.lend(contextFor("a", false), "legacy");
		await legacy.release();
		const modern = pool.lend(contextFor("b", false), "modern");
		expect(modern.server).not.toBe(legacy.server);
		await modern.release();
		expect(pool.lend(contextFor("c", false), "modern").server).toBe(modern.server);
		expect(pool.lend(contextFor("d", false), "legacy").server).toBe(legacy.server);
	});
});
