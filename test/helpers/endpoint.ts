import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer, type ProtocolEra } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Grant } from "../../src/auth/grant";
import { generateToken, type TokenRecord } from "../../src/auth/tokens";
import { createMcpEndpoint, type EndpointPolicy, type McpEndpoint } from "../../src/http/endpoint";
import type { HttpDeadlinesAndCaps } from "../../src/http/deadlinesAndCaps";
import { RecordingLogger } from "./service";

/**
 * The HTTP endpoint alone, on a loopback port, lending small MCP servers of the real SDK instead
 * of the vault's: what the endpoint and its two protocol paths do with a request, without the tools.
 * Each lent server has `echo` (read), `shout` (a write tool), `big` (an answer of `bytes` bytes)
 * and `wait` (answers once `openGate` is called).
 */
export interface RunningEndpoint {
	port: number;
	url: string;
	/** A read token and a write token. */
	readToken: string;
	writeToken: string;
	/** The settings the endpoint reads on every request; change them to revoke a token or turn writing off. */
	policy: EndpointPolicy;
	/** Each lending, by era, with the grant it was for. */
	lends: Array<{ era: ProtocolEra; grant: Grant }>;
	/** Servers lent and not yet given back. */
	outstanding(): number;
	/** How many times the endpoint has read the settings (once when a request's head arrives, again once its body has). */
	settingsReads(): number;
	logger: RecordingLogger;
	endpoint: McpEndpoint;
	/** Lets every `wait` call answer. */
	openGate(): void;
	/** Resolves once `count` calls of `wait` are running. */
	waiting(count: number): Promise<void>;
	close(): Promise<void>;
}

export interface EndpointOptions {
	deadlinesAndCaps?: Partial<HttpDeadlinesAndCaps>;
	rateLimitPerMinute?: number;
}

export async function startEndpoint(options: EndpointOptions = {}): Promise<RunningEndpoint> {
	const reader = generateToken("reader", "read");
	const writer = generateToken("writer", "write");
	const policy: EndpointPolicy = {
		tokens: [reader.record, writer.record] as TokenRecord[],
		writeEnabled: true,
		rateLimitPerMinute: options.rateLimitPerMinute ?? 10_000,
		writeCallsPerMinute: 10_000,
		writeBytesPerMinute: 10_000_000,
	};
	const lends: RunningEndpoint["lends"] = [];
	let outstanding = 0;
	let settingsReads = 0;
	let gate: Promise<void> = Promise.resolve();
	let open: () => void = () => undefined;
	const closeGate = (): void => {
		gate = new Promise<void>((resolve) => (open = resolve));
	};
	closeGate();
	let running = 0;
	const runningWatchers: Array<() => void> = [];
	const logger = new RecordingLogger();
	const endpoint = createMcpEndpoint({
		currentSettings: () => {
			settingsReads++;
			return policy;
		},
		lendServer: (grant, _settings, era) => {
			lends.push({ era, grant });
			outstanding++;
			const server = new McpServer({ name: "endpoint-test", version: "1" }, { capabilities: { tools: {} } });
			server.registerTool("echo", { description: "Echoes its text.", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
				content: [{ type: "text", text }],
			}));
			server.registerTool("shout", { description: "Writes.", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
				content: [{ type: "text", text: text.toUpperCase() }],
			}));
			server.registerTool("big", { description: "A large answer.", inputSchema: z.object({ bytes: z.number() }) }, ({ bytes }) => ({
				content: [{ type: "text", text: "x".repeat(bytes) }],
			}));
			server.registerTool("wait", { description: "Answers once the gate opens.", inputSchema: z.object({}) }, async () => {
				running++;
				for (const watcher of runningWatchers.splice(0)) watcher();
				await gate;
				running--;
				return { content: [{ type: "text", text: "done" }] };
			});
			return {
				server,
				release: () => {
					outstanding--;
					return Promise.resolve();
				},
			};
		},
		logger,
		isWriteTool: (name, grant) => name === "shout" && grant.canWrite,
		deadlinesAndCaps: options.deadlinesAndCaps,
	});
	const server: Server = createServer(endpoint);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		port,
		url: `http://127.0.0.1:${port}/mcp`,
		readToken: reader.token,
		writeToken: writer.token,
		policy,
		lends,
		outstanding: () => outstanding,
		settingsReads: () => settingsReads,
		logger,
		endpoint,
		openGate: () => {
			open();
			closeGate();
		},
		waiting: async (count) => {
			while (running < count) await new Promise<void>((resolve) => runningWatchers.push(resolve));
		},
		close: async () => {
			open();
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
			await endpoint.drain();
		},
	};
}
