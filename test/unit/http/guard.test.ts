import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { generateToken } from "../../../src/auth/tokens";
import { currentGrant, guardedHeadersOf, guardRequest, isRefusal, unsupportedVersionError, type GuardInput } from "../../../src/http/guard";

const read = generateToken("reader", "read");
const write = generateToken("writer", "write");
const policy = { tokens: [read.record, write.record], writeEnabled: true };

function input(overrides: Partial<GuardInput> & { add?: Record<string, string[]>; drop?: string[] } = {}): GuardInput {
	const headers: Record<string, string[]> = {
		host: ["127.0.0.1:27150"],
		authorization: [`Bearer ${read.token}`],
		"content-type": ["application/json"],
		...overrides.add,
	};
	for (const name of overrides.drop ?? []) delete headers[name];
	return { method: overrides.method ?? "POST", url: overrides.url ?? "/mcp", headers };
}

function statusOf(answer: ReturnType<typeof guardRequest>): number {
	return isRefusal(answer) ? answer.status : 200;
}

describe("guardRequest", () => {
	test("grants a read token read only, and a write token write only while writing is on", () => {
		expect(guardRequest(input(), policy)).toEqual({ token: read.record, canWrite: false });
		const asWriter = input({ add: { authorization: [`Bearer ${write.token}`] } });
		expect(guardRequest(asWriter, policy)).toEqual({ token: write.record, canWrite: true });
		expect(guardRequest(asWriter, { ...policy, writeEnabled: false })).toEqual({ token: write.record, canWrite: false });
	});

	test("checks run in the documented order: the first failing check answers", () => {
		const everythingWrong = input({
			method: "GET",
			url: "/other",
			add: { origin: ["https://evil.example"], host: ["evil.example"], authorization: ["nope"], "content-type": ["text/plain"] },
		});
		expect(statusOf(guardRequest(everythingWrong, policy))).toBe(403);
		const noOrigin = { ...everythingWrong, headers: { ...everythingWrong.headers, origin: undefined } };
		expect(guardRequest(noOrigin, policy)).toMatchObject({ status: 403, kind: "host" });
		const goodHost = { ...noOrigin, headers: { ...noOrigin.headers, host: ["localhost"] } };
		expect(guardRequest(goodHost, policy)).toMatchObject({ status: 404 });
		expect(guardRequest({ ...goodHost, url: "/mcp" }, policy)).toMatchObject({ status: 405, headers: { Allow: "POST" } });
		expect(guardRequest({ ...goodHost, url: "/mcp", method: "POST" }, policy)).toMatchObject({ status: 401 });
		expect(guardRequest(input({ add: { "content-type": ["text/plain"] } }), policy)).toMatchObject({ status: 415 });
	});

	test.each([
		["missing", []],
		["two", ["127.0.0.1", "127.0.0.1"]],
		["a look-alike", ["127.0.0.1.evil.com"]],
		["an IPv6 address that is not loopback", ["[::2]"]],
	])("refuses a Host header that is %s", (_label, host) => {
		expect(guardRequest(input({ add: { host } }), policy)).toMatchObject({ status: 403, kind: "host" });
	});

	test.each([
		["lower-case scheme (RFC 7235: schemes are case-insensitive)", (token: string) => `bearer ${token}`, 200],
		["no scheme", (token: string) => token, 401],
		["two spaces", (token: string) => `Bearer  ${token}`, 401],
		["a trailing space", (token: string) => `Bearer ${token} `, 401],
		["the token with one character changed", (token: string) => `Bearer ${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, 401],
		["a prefix of the token", (token: string) => `Bearer ${token.slice(0, 20)}`, 401],
		["the stored hash instead of the token", () => `Bearer ${read.record.hash}`, 401],
		["Basic auth", (token: string) => `Basic ${Buffer.from(`x:${token}`).toString("base64")}`, 401],
	])("Authorization with %s answers %d", (_label, header, status) => {
		expect(statusOf(guardRequest(input({ add: { authorization: [header(read.token)] } }), policy))).toBe(status);
	});

	test("refuses two Authorization headers even when both are right", () => {
		expect(statusOf(guardRequest(input({ add: { authorization: [`Bearer ${read.token}`, `Bearer ${read.token}`] } }), policy))).toBe(401);
	});

	test("accepts application/json with parameters, refuses other media types", () => {
		expect(statusOf(guardRequest(input({ add: { "content-type": ["application/json; charset=utf-8"] } }), policy))).toBe(200);
		expect(statusOf(guardRequest(input({ add: { "content-type": ["application/jsonx"] } }), policy))).toBe(415);
		expect(statusOf(guardRequest(input({ drop: ["content-type"] }), policy))).toBe(415);
	});

	test("a repeated MCP-Protocol-Version is refused before the body is read; which versions are served is decided with the body", () => {
		expect(statusOf(guardRequest(input(), policy))).toBe(200);
		for (const version of ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2099-01-01"]) {
			expect([version, statusOf(guardRequest(input({ add: { "mcp-protocol-version": [version] } }), policy))]).toEqual([version, 200]);
		}
		expect(guardRequest(input({ add: { "mcp-protocol-version": ["2026-07-28", "2026-07-28"] } }), policy)).toMatchObject({
			status: 400,
			kind: "protocol_version",
		});
	});

	test("a 2025-era request naming a version not served is answered with its id, the versions served and the one asked for", () => {
		const ping = { jsonrpc: "2.0", id: 7, method: "ping" };
		for (const version of [undefined, "2025-11-25", "2025-06-18", "2025-03-26"]) expect(unsupportedVersionError(version, ping)).toBeNull();
		expect(unsupportedVersionError("1999-01-01", ping)).toEqual({
			id: 7,
			error: {
				code: -32022,
				message: expect.stringContaining("Supported: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26") as string,
				data: { supported: expect.arrayContaining(["2026-07-28", "2025-03-26"]) as string[], requested: "1999-01-01" },
			},
		});
		// A batch has no single id to echo.
		expect(unsupportedVersionError("1999-01-01", [ping])).toMatchObject({ id: null });
	});

	test("a body that names its revision in _meta is left to the SDK's 2026 handler, whatever the header says", () => {
		const withMeta = (version: unknown) => ({
			jsonrpc: "2.0",
			id: 3,
			method: "tools/list",
			params: { _meta: { "io.modelcontextprotocol/protocolVersion": version } },
		});
		for (const header of [undefined, "2026-07-28", "2099-01-01", "v999.0.0"]) {
			for (const claimed of ["2099-01-01", "2026-07-28", 2026]) expect(unsupportedVersionError(header, withMeta(claimed))).toBeNull();
		}
		// Without that claim an unserved header is refused here, with every revision served.
		expect(unsupportedVersionError("2099-01-01", { jsonrpc: "2.0", id: 3, method: "tools/list" })).toMatchObject({
			id: 3,
			error: { code: -32022, data: { requested: "2099-01-01" } },
		});
	});

	test.each([
		["the port it arrived on", "localhost:27150", 200],
		["no port", "[::1]", 200],
		["another port", "localhost:27151", 403],
		["an empty port", "127.0.0.1:", 403],
		["text after the name", "[::1]junk", 403],
		["a port that is not a number", "localhost:abc", 403],
		["user info", "localhost:27150@evil.com", 403],
	])("a Host with %s answers %d", (_label, host, status) => {
		expect(statusOf(guardRequest({ ...input({ add: { host: [host] } }), localPort: 27150 }, policy))).toBe(status);
	});

	test("Mcp-Method and Mcp-Name (2026-07-28) pass once and are refused when repeated; whether they match the body is checked later", () => {
		expect(statusOf(guardRequest(input({ add: { "mcp-method": ["tools/call"], "mcp-name": ["read_note"] } }), policy))).toBe(200);
		expect(guardRequest(input({ add: { "mcp-name": ["read_note", "create_note"] } }), policy)).toMatchObject({
			status: 400,
			kind: "mcp_header",
			message: "Send the Mcp-Name header at most once.",
		});
		expect(guardRequest(input({ add: { "mcp-method": ["tools/call", "tools/call"] } }), policy)).toMatchObject({ status: 400, kind: "mcp_header" });
		// An Origin is still refused first, whatever else the request says.
		expect(guardRequest(input({ add: { origin: ["http://localhost"], "mcp-name": ["a", "b"] } }), policy)).toMatchObject({ status: 403, kind: "origin" });
	});

	test("a query string on /mcp is still /mcp", () => {
		expect(statusOf(guardRequest(input({ url: "/mcp?x=1" }), policy))).toBe(200);
	});

	test("currentGrant reads the token and the write switch as they are now: null once revoked", () => {
		expect(currentGrant(write.record.hash, policy)).toEqual({ token: write.record, canWrite: true });
		expect(currentGrant(write.record.hash, { ...policy, writeEnabled: false })).toEqual({ token: write.record, canWrite: false });
		expect(currentGrant(write.record.hash, { ...policy, tokens: [read.record] })).toBeNull();
	});
});

describe("guardedHeadersOf", () => {
	/** What a real node:http server sees for a request sending `headers` in this order (a Host among them: Node answers 400 to a request without one). */
	async function nodeReading(headers: [string, string][]): Promise<{ raw: string[]; distinct: NodeJS.Dict<string[]> }> {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
		try {
			const seen = new Promise<{ raw: string[]; distinct: NodeJS.Dict<string[]> }>((resolve) =>
				server.once("request", (req: IncomingMessage, res: ServerResponse) => {
					resolve({ raw: req.rawHeaders, distinct: req.headersDistinct });
					res.end();
				}),
			);
			const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
			socket.on("error", () => undefined);
			socket.end(`POST /mcp HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}Content-Length: 0\r\n\r\n`);
			return await seen;
		} finally {
			server.closeAllConnections();
			server.close();
		}
	}

	test.each<[[string, string][]]>([
		[
			[
				["Host", "127.0.0.1:1"],
				["Authorization", "Bearer x"],
				["Content-Type", "application/json"],
				["Accept", "*/*"],
			],
		],
		[
			[
				["HOST", "a"],
				["host", "b"],
				["Origin", "null"],
				["MCP-Protocol-Version", "2026-07-28"],
				["mcp-protocol-version", "2025-06-18"],
			],
		],
		[
			[
				["Host", "localhost"],
				["Mcp-Method", "tools/call"],
				["Mcp-Name", "read_note"],
				["mcp-name", "other"],
				["X-Other", "1"],
				["x-other", "2"],
			],
		],
		[
			[
				["Host", "localhost"],
				["authorization", "Bearer a"],
				["Authorization", "Bearer b"],
				["content-type", "text/plain"],
				["Content-Type", "application/json"],
			],
		],
	])("gives every header the guard reads as Node's headersDistinct does, and no other: %j", async (headers) => {
		const { raw, distinct } = await nodeReading(headers);
		const ours = guardedHeadersOf(raw);
		for (const name of ["origin", "host", "authorization", "content-type", "mcp-protocol-version", "mcp-method", "mcp-name"])
			expect(ours[name]).toEqual(distinct[name]);
		expect(ours).not.toHaveProperty("accept");
		expect(ours).not.toHaveProperty("x-other");
		expect(ours).not.toHaveProperty("content-length");
	});
});
