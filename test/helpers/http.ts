import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from "@modelcontextprotocol/client";

export interface RawResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** One raw HTTP request to 127.0.0.1:port, with exactly the headers given (raw pairs, so duplicates are possible). */
export function rawRequest(
	port: number,
	options: { method?: string; path?: string; headers?: Array<[string, string]>; body?: string | Buffer },
): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const flatHeaders = (options.headers ?? [["Host", `127.0.0.1:${port}`]]).flat();
		const req = request(
			{ host: "127.0.0.1", port, method: options.method ?? "POST", path: options.path ?? "/mcp", headers: flatHeaders, setHost: false },
			(res) => {
				const chunks: Buffer[] = [];
				res.on("data", (chunk: Buffer) => chunks.push(chunk));
				res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
				res.on("error", reject);
			},
		);
		req.on("error", reject);
		req.end(options.body);
	});
}

/** An answer whose reader stopped after its first bytes: `rest()` reads on to the end (or until the server closes it) and resolves to the body as received. */
export interface PausedAnswer {
	headers: Record<string, string | string[] | undefined>;
	rest(): Promise<Buffer>;
}

/** One raw HTTP request (as `rawRequest`) whose client stops reading the answer once its first bytes arrive, until `rest()`. */
export function requestPausedAfterFirstBytes(
	port: number,
	options: { method?: string; path?: string; headers?: Array<[string, string]>; body?: string },
): Promise<PausedAnswer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const flatHeaders = (options.headers ?? [["Host", `127.0.0.1:${port}`]]).flat();
		const req = request(
			{ host: "127.0.0.1", port, method: options.method ?? "POST", path: options.path ?? "/mcp", headers: flatHeaders, setHost: false },
			(res) => {
				// A connection the server closes before the end (a cut-off answer) ends the body as received.
				const ended = new Promise<Buffer>((done) => res.on("close", () => done(Buffer.concat(chunks))));
				res.once("data", (chunk: Buffer) => {
					chunks.push(chunk);
					res.pause();
					resolve({
						headers: res.headers,
						rest: () => {
							res.on("data", (more: Buffer) => chunks.push(more));
							res.resume();
							return ended;
						},
					});
				});
				res.on("error", reject);
			},
		);
		req.on("error", reject);
		req.end(options.body);
	});
}

/** Headers a well-behaved MCP client sends, with a bearer token. */
export function mcpHeaders(port: number, token: string, extra: Array<[string, string]> = []): Array<[string, string]> {
	return [
		["Host", `127.0.0.1:${port}`],
		["Authorization", `Bearer ${token}`],
		["Content-Type", "application/json"],
		["Accept", "application/json, text/event-stream"],
		...extra,
	];
}

/** A JSON-RPC initialize request body. */
export const INITIALIZE_BODY = JSON.stringify({
	jsonrpc: "2.0",
	id: 1,
	method: "initialize",
	params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw-test", version: "1" } },
});

/** The real SDK client, connected over Streamable HTTP with a bearer token. */
export async function connectClient(url: string, token: string): Promise<Client> {
	const client = new Client({ name: "vault-mcp-test", version: "1.0.0" });
	const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
	await client.connect(transport);
	return client;
}

/** A client of the SDK's v2 packages pinned to the 2026-07-28 protocol (subscriptions/listen), connected with `token`. */
export async function connectModern(url: string, token: string): Promise<ClientV2> {
	const client = new ClientV2({ name: "subscriber", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
	await client.connect(new HttpTransportV2(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
	return client;
}

/** True when nothing accepts connections on the port any more. */
export function isPortClosed(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const req = request({ host: "127.0.0.1", port, method: "GET", path: "/" }, (res) => {
			res.resume();
			resolve(false);
		});
		req.on("error", () => resolve(true));
		req.end();
	});
}

/** A loopback server answering every request with `reply`, once its body has arrived (unless `early`), for the time `run` takes. */
export async function withServer(
	reply: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
	run: (port: number) => Promise<void>,
	options: { early?: boolean } = {},
): Promise<void> {
	const server: Server = createServer((req, res) => {
		if (options.early) void reply(req, res);
		else req.resume().once("end", () => void reply(req, res));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	try {
		await run((server.address() as AddressInfo).port);
	} finally {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
}

/** One GET of `path` on the loopback `port`: its body as the client gets it, or "error" when its connection is closed first. */
export function getBodyOrError(port: number, path = "/"): Promise<string> {
	return new Promise((resolve) => {
		const req = request({ host: "127.0.0.1", port, method: "GET", path }, (res) => {
			let body = "";
			res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
			res.on("end", () => resolve(body));
			res.on("error", () => resolve("error"));
		});
		req.on("error", () => resolve("error"));
		req.end();
	});
}
