import type { ToolContext } from "../../src/mcp/context";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { openVault, type OpenVault } from "./hostVault";
import { connectInMemory, type InMemoryConnectOptions, type InMemoryConnection } from "./inMemoryClient";
import { callError, callOk, callTool, type CallOutcome } from "./tools";

/** A temp vault with a real MCP client connected to the server over it, in memory: one tool's behaviour, as a client sees it. */
export interface ToolVault {
	vault: OpenVault;
	connection: InMemoryConnection;
	call(name: string, args?: Record<string, unknown>): Promise<CallOutcome>;
	ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
	error(name: string, args?: Record<string, unknown>): Promise<string>;
	/** A note's text on disk, or null. */
	read(path: string): Promise<string | null>;
	close(): Promise<void>;
}

/** Every write tool allowed without asking, for a write grant. */
export const WRITES_ALLOWED = Object.fromEntries(ALL_TOOLS.filter((tool) => tool.access === "write").map((tool) => [tool.name, "allow" as const]));

/** Options as `connectInMemory` takes them, with `excluded` folders for the scope. */
export async function openToolVault(files: Record<string, string>, options: InMemoryConnectOptions & { excluded?: string[] } = {}): Promise<ToolVault> {
	const vault = await openVault(files);
	const { excluded = [], ...connect } = options;
	const connection = await connectInMemory(vault.host, { scope: vault.scope(...excluded), ...connect });
	const { client } = connection;
	return {
		vault,
		connection,
		call: (name, args = {}) => callTool(client, name, args),
		ok: (name, args = {}) => callOk(client, name, args),
		error: (name, args = {}) => callError(client, name, args),
		read: async (path) => {
			const file = vault.host.vault.getFileByPath(path);
			return file ? vault.host.vault.read(file) : null;
		},
		close: async () => {
			await connection.close();
			await vault.close();
		},
	};
}

/**
 * A context to call a tool's handler with directly, over `vault` with `excluded` folders: its
 * vault-wide work pauses at every chance (slices of 0 ms), and `pauses()` counts how often it did.
 */
export function pausingContext(vault: OpenVault, ...excluded: string[]): { ctx: ToolContext; pauses: () => number } {
	let pauses = 0;
	const ctx = {
		host: vault.host,
		scope: vault.scope(...excluded),
		callBudget: {
			pause: () => {
				pauses++;
				return Promise.resolve();
			},
			sliceMs: 0,
			callWorkMs: 1_000_000,
		},
	} as unknown as ToolContext;
	return { ctx, pauses: () => pauses };
}
