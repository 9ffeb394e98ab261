/**
 * The SDK's real `Client` connected to our MCP server for one grant, over the SDK's in-memory
 * transport: the protocol without HTTP, fast enough for a test per tool. The HTTP suites keep what
 * needs HTTP (refusals, limits, real clients). It depends only on `createMcpServer(ctx, deps)` and
 * the 1.x client's `InMemoryTransport`, so moving to another SDK changes this one file.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WritesBeforeReleased } from "../../src/mcp/releasedCalls";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ActivityLog } from "../../src/activity";
import { effectiveRight, type ToolRights } from "../../src/auth/rights";
import { generateToken } from "../../src/auth/tokens";
import type { Host } from "../../src/host/Host";
import type { WriteJournal } from "../../src/journal/entry";
import type { WriteServices } from "../../src/mcp/approval";
import type { ToolContext } from "../../src/mcp/context";
import { createMcpServer } from "../../src/mcp/server";
import type { Scope } from "../../src/vault/scope";
import { IndexedNoteSearch, type NoteSearch } from "../../src/vault/search";
import { MemoryJournal } from "./memoryJournal";
import { RecordingLogger } from "./service";

export interface InMemoryConnectOptions {
	/** A write grant with writing on; default: a read grant. */
	canWrite?: boolean;
	rights?: ToolRights;
	/** Default: the host's config folder only. */
	scope?: Scope;
	/** Default: a search index over the host, built before the client connects and stopped on close. */
	search?: NoteSearch;
	writes?: Partial<WriteServices>;
	/** Slices, budget and progress interval of calls, when not the limits'. */
	callBudget?: ToolContext["callBudget"];
	promptsFolder?: string;
	dailyNotesAreOutlines?: boolean;
}

/**
 * The search of a connection whose calls never search: building the default index over a vault of
 * thousands of notes is set-up the test does not use (12,000 notes: about 2 s of CPU before the
 * client connects). A search, if one came, fails the test.
 */
export const NO_SEARCH: NoteSearch = {
	search: () => Promise.reject(new Error("This test's connection has no search index.")),
	status: () => {
		throw new Error("This test's connection has no search index.");
	},
	statusOnBudget: () => Promise.reject(new Error("This test's connection has no search index.")),
	unsearched: () => {
		throw new Error("This test's connection has no search index.");
	},
};

export interface InMemoryConnection {
	client: Client;
	/** The server's activity log (metadata only). */
	activity: ActivityLog;
	journal: WriteJournal;
	logger: RecordingLogger;
	close: () => Promise<void>;
}

export async function connectInMemory(host: Host, options: InMemoryConnectOptions = {}): Promise<InMemoryConnection> {
	const canWrite = options.canWrite ?? false;
	const { record } = generateToken(canWrite ? "writer" : "reader", canWrite ? "write" : "read", options.rights);
	const scope = options.scope ?? { configDir: host.vault.configDir, excludedFolders: [] };
	let ownSearch: IndexedNoteSearch | null = null;
	if (!options.search) {
		ownSearch = new IndexedNoteSearch(host, scope, () => new Promise((resolve) => setImmediate(resolve)));
		ownSearch.start();
		await ownSearch.whenReady();
	}
	const journal = options.writes?.journal ?? new MemoryJournal();
	const writes: WriteServices = {
		journal,
		approver: null,
		approvalTimeoutMs: 5_000,
		writesBeforeReleased: new WritesBeforeReleased(),
		currentRight: (tool) => effectiveRight(record, tool, canWrite),
		allowAlways: () => Promise.resolve(),
		...options.writes,
	};
	const ctx: ToolContext = {
		host,
		serverVersion: "test",
		scope,
		grant: { token: record, canWrite },
		search: options.search ?? (ownSearch as NoteSearch),
		dailyNotesAreOutlines: options.dailyNotesAreOutlines ?? false,
		promptsFolder: options.promptsFolder,
		writes,
		...(options.callBudget ? { callBudget: options.callBudget } : {}),
	};
	const activity = new ActivityLog();
	const logger = new RecordingLogger();
	const server = createMcpServer(ctx, { activity, logger });
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
	await server.connect(serverSide);
	const client = new Client({ name: "in-memory", version: "1" });
	await client.connect(clientSide);
	return {
		client,
		activity,
		journal,
		logger,
		close: async () => {
			await client.close();
			await server.close();
			await ownSearch?.stop();
		},
	};
}
