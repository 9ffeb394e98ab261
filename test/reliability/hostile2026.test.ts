import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { Agent, request as httpRequest } from "node:http";
import fc from "fast-check";
import { addToken, revokeToken } from "../../src/auth/tokenList";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { mcpHeaders, rawRequest, type RawResponse } from "../helpers/http";
import { openSocket, sleep } from "../helpers/sockets";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * The protocol layer attacked as a hostile client would, over the real HTTP server, at 2026-07-28
 * and beside it: every request is answered (never a hang, never a crash), and what is refused
 * runs nothing.
 */
const MODERN = "2026-07-28";
const SERVED = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "hostile-2026", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};
const NOTE = "Note.md";
const NOTE_TEXT = "# Note\n\nWhat the person wrote.\n";

function appendCall(id: number, meta?: Record<string, unknown>): string {
	return JSON.stringify({
		jsonrpc: "2.0",
		id,
		method: "tools/call",
		params: { name: "append_to_note", arguments: { path: NOTE, content: "hostile" }, ...(meta ? { _meta: meta } : {}) },
	});
}

const modernHeaders = (version: string = MODERN): Array<[string, string]> => [
	["MCP-Protocol-Version", version],
	["Mcp-Method", "tools/call"],
	["Mcp-Name", "append_to_note"],
];

describe("hostile clients at 2026-07-28 and beside it", () => {
	let vault: string;
	let running: RunningService;
	let writeToken: string;

	const noteText = () => fs.readFile(nodePath.join(vault, NOTE), "utf8");
	const listTools = (hostHeader: string): Promise<RawResponse> =>
		rawRequest(running.port, {
			headers: [
				["Host", hostHeader],
				...mcpHeaders(running.port, writeToken, [
					["MCP-Protocol-Version", MODERN],
					["Mcp-Method", "tools/list"],
				]).slice(1),
			],
			body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: ENVELOPE } }),
		});

	beforeAll(async () => {
		vault = await makeVault({ [NOTE]: NOTE_TEXT });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true } });
		writeToken = running.tokens.write ?? "";
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test("a Host that is a loopback name followed by anything but this server's port is refused with 403, and the server keeps answering", async () => {
		const loopbackName = fc.constantFrom("127.0.0.1", "localhost", "LocalHost", "[::1]");
		const suffix = fc.oneof(
			fc.constant(""),
			fc.constant(`:${running.port}`),
			fc.constantFrom(
				"junk",
				":abc",
				":",
				".",
				"..",
				`:${running.port}@evil.com`,
				`:${running.port + 1}`,
				":1",
				`:${running.port}:1`,
				"%00",
				"/x",
				"#",
				"?",
				":99999",
				`:${running.port}.`,
			),
			fc.string({ unit: fc.constantFrom(..."0123456789:@/.[]%#?-_ abcxyz"), minLength: 1, maxLength: 10 }),
		);
		await fc.assert(
			fc.asyncProperty(loopbackName, suffix, async (name, tail) => {
				// HTTP drops whitespace around a header value before anyone reads it (RFC 9110, 5.5).
				const accepted = [name, `${name}:${running.port}`].includes((name + tail).trimEnd());
				const answer = await listTools(name + tail);
				expect({ host: name + tail, status: answer.status }).toEqual({ host: name + tail, status: accepted ? 200 : 403 });
				if (!accepted)
					expect(JSON.parse(answer.body)).toMatchObject({
						error: { message: "The Host header must be 127.0.0.1, localhost or [::1], with this server's port if a port is given." },
					});
			}),
			{ numRuns: 150 },
		);
		expect((await listTools(`127.0.0.1:${running.port}`)).status).toBe(200);
		// Nothing failed inside the server on the way.
		expect(running.logger.lines.filter((line) => line.includes("failed"))).toEqual([]);
	});

	test("other loopback spellings, a Host sent twice and no Host at all are refused, at 2026-07-28", async () => {
		for (const host of [
			"[::ffff:127.0.0.1]",
			"[0:0:0:0:0:0:0:1]",
			"127.0.0.2",
			"127.1",
			"2130706433",
			"0x7f.0.0.1",
			"localhost.",
			"localhost.localdomain",
			"[::1].",
		]) {
			expect({ host, status: (await listTools(host)).status }).toEqual({ host, status: 403 });
		}
		const base = mcpHeaders(running.port, writeToken, [
			["MCP-Protocol-Version", MODERN],
			["Mcp-Method", "tools/list"],
		]).slice(1);
		const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: ENVELOPE } });
		const twice = await rawRequest(running.port, {
			headers: [["Host", `127.0.0.1:${running.port}`], ["Host", `127.0.0.1:${running.port}`], ...base],
			body,
		});
		expect(twice.status).toBe(403);
		// HTTP/1.1 requires a Host: Node answers 400 itself before the endpoint sees the request.
		const none = await rawRequest(running.port, { headers: base, body });
		expect([400, 403]).toContain(none.status);
		expect(none.body).not.toContain('"tools"');
	});

	test("an MCP-Protocol-Version that is not served answers 400 -32022 with the request's id, the revisions served and the one asked for, whichever era the body speaks; nothing is written", async () => {
		const unserved = fc
			.oneof(
				fc.constantFrom("2099-01-01", "2026-01-01", "2026-07-29", "2030-12-31", "2025-01-01", "2024-01-01", "latest", "v999.0.0", "2026-07-28x"),
				fc
					.tuple(fc.integer({ min: 2000, max: 2199 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
					.map(([y, m, d]) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`),
			)
			.filter((version) => !SERVED.includes(version));
		const discovered = await rawRequest(running.port, {
			headers: mcpHeaders(running.port, writeToken, [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", "server/discover"],
			]),
			body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } }),
		});
		const discoverable = (JSON.parse(discovered.body) as { result: { supportedVersions: string[] } }).result.supportedVersions;
		await fc.assert(
			fc.asyncProperty(unserved, fc.boolean(), fc.integer({ min: 1, max: 1_000_000 }), async (version, withEnvelope, id) => {
				const answer = await rawRequest(running.port, {
					headers: mcpHeaders(running.port, writeToken, modernHeaders(version)),
					body: appendCall(id, withEnvelope ? { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": version } : undefined),
				});
				expect(answer.status).toBe(400);
				// A body in 2026-07-28's envelope learns what server/discover lists; a 2025-era one, every revision served.
				expect(JSON.parse(answer.body)).toMatchObject({
					id,
					error: { code: -32022, data: { supported: withEnvelope ? discoverable : SERVED, requested: version } },
				});
			}),
			{ numRuns: 60 },
		);
		expect(await noteText()).toBe(NOTE_TEXT);
	});

	test("a _meta protocol version that is not served, with no header, answers -32022 with what server/discover lists, and nothing is written", async () => {
		for (const version of ["2099-01-01", "2026-01-01", "2025-13-01"]) {
			const headers = mcpHeaders(running.port, writeToken, modernHeaders().slice(1));
			const answer = await rawRequest(running.port, {
				headers,
				body: appendCall(7, { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": version }),
			});
			expect(answer.status).toBe(400);
			expect(JSON.parse(answer.body)).toMatchObject({ id: 7, error: { code: -32022, data: { supported: [MODERN], requested: version } } });
		}
		expect(await noteText()).toBe(NOTE_TEXT);
	});
});

describe("the write budget and the per-token places hold at 2026-07-28 exactly as at 2025", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ [NOTE]: NOTE_TEXT });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeCallsPerMinute: 3 } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test("one budget across both eras: calls over it answer 429 and write nothing, whichever revision they speak", async () => {
		const token = running.tokens.write ?? "";
		const modern = () => rawRequest(running.port, { headers: mcpHeaders(running.port, token, modernHeaders()), body: appendCall(1, ENVELOPE) });
		const legacy = () =>
			rawRequest(running.port, { headers: mcpHeaders(running.port, token, [["MCP-Protocol-Version", "2025-06-18"]]), body: appendCall(2) });
		// Two at 2026-07-28 and one at 2025-06-18 use the budget of 3 ...
		expect([(await modern()).status, (await legacy()).status, (await modern()).status]).toEqual([200, 200, 200]);
		const written = await fs.readFile(nodePath.join(vault, NOTE), "utf8");
		expect(written.match(/hostile/g)).toHaveLength(3);
		// ... so the next one is refused at either revision, before anything runs.
		for (const refused of [await modern(), await legacy()]) {
			expect(refused.status).toBe(429);
			expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
		}
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(written);
	});
});

describe("no error answer names where the vault is on disk, at either era", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Gone.md": "soon deleted", "Prompts/Gone prompt.md": "Say {{thing}}." });
		// Without the watcher the server still believes in a note another program deleted: the moment between finding and reading it, held open.
		running = await startService(vault, { levels: ["read"], host: { watch: false } });
		await fs.rm(nodePath.join(vault, "Gone.md"));
		await fs.rm(nodePath.join(vault, "Prompts/Gone prompt.md"));
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const requests: Array<[string, string, Record<string, unknown>]> = [
		["resources/read", "vault-mcp://note/Gone.md", { uri: "vault-mcp://note/Gone.md" }],
		["prompts/get", "Gone prompt", { name: "Gone prompt", arguments: { thing: "x" } }],
		["tools/call", "read_note", { name: "read_note", arguments: { path: "Gone" } }],
		["prompts/list", "", {}],
	];

	test.each(requests)("%s of a note deleted a moment ago answers without the vault's absolute path", async (method, name, params) => {
		for (const modern of [true, false]) {
			const standard: Array<[string, string]> = [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", method],
				...(name === "" ? [] : [["Mcp-Name", name] as [string, string]]),
			];
			const headers = mcpHeaders(running.port, running.tokens.read ?? "", modern ? standard : [["MCP-Protocol-Version", "2025-06-18"]]);
			const answer = await rawRequest(running.port, {
				headers,
				body: JSON.stringify({ jsonrpc: "2.0", id: 4, method, params: modern ? { ...params, _meta: ENVELOPE } : params }),
			});
			expect(answer.status).toBeLessThan(500);
			expect({ modern, body: answer.body }).not.toEqual({ modern, body: expect.stringContaining(vault) });
			// prompts/list leaves a prompt whose note is gone out and lists the others (here none); the rest say it is gone.
			expect(answer.body).toMatch(method === "prompts/list" ? /"prompts":\[\]/ : /gone|not found|no note|no prompt/i);
		}
		expect(running.logger.lines.join("\n")).not.toContain(vault);
	});
});

describe("2026-07-28 requests that go away, or carry a huge or deep _meta", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ [NOTE]: NOTE_TEXT });
		running = await startService(vault, { levels: ["read"], settings: { rateLimitPerMinute: 10_000 } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const readCall = (meta: Record<string, unknown>, id = 1) =>
		JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "read_note", arguments: { path: NOTE }, _meta: meta } });
	const readHeaders = (): Array<[string, string]> =>
		mcpHeaders(running.port, running.tokens.read ?? "", [
			["MCP-Protocol-Version", MODERN],
			["Mcp-Method", "tools/call"],
			["Mcp-Name", "read_note"],
		]);

	test("40 clients that send a call and hang up at once leave every place free: the token's next calls all run", async () => {
		const body = readCall(ENVELOPE);
		const head = (length: number) =>
			[
				`POST /mcp HTTP/1.1`,
				`Host: 127.0.0.1:${running.port}`,
				`Authorization: Bearer ${running.tokens.read ?? ""}`,
				"Content-Type: application/json",
				"Accept: application/json, text/event-stream",
				`MCP-Protocol-Version: ${MODERN}`,
				"Mcp-Method: tools/call",
				"Mcp-Name: read_note",
				`Content-Length: ${length}`,
				"",
				"",
			].join("\r\n");
		await Promise.all(
			Array.from({ length: 40 }, async (_, index) => {
				const socket = await openSocket(running.port, head(Buffer.byteLength(body)) + body);
				// Some go before the server has read the body, some while it answers.
				await sleep(index % 4);
				socket.destroy();
			}),
		);
		await sleep(100);
		const answers = await Promise.all(Array.from({ length: 4 }, () => rawRequest(running.port, { headers: readHeaders(), body })));
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
		expect(running.logger.lines.filter((line) => line.includes("failed"))).toEqual([]);
	});

	test("a _meta near the body limit, or nested thousands deep, is answered (never a 5xx) and the server keeps answering", async () => {
		const huge = await rawRequest(running.port, { headers: readHeaders(), body: readCall({ ...ENVELOPE, padding: "m".repeat(1_000_000) }) });
		expect(huge.status).toBe(200);
		// Written as text: the nesting is deeper than JSON.stringify goes on a test worker's stack.
		const deep = "[".repeat(5000) + "]".repeat(5000);
		const placed = [
			{ ...ENVELOPE, deep: 0 },
			{ ...ENVELOPE, "io.modelcontextprotocol/clientInfo": { name: "x", version: "1", deep: 0 } },
			{ ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": { deep: 0 } },
		];
		for (const meta of placed) {
			const answer = await rawRequest(running.port, { headers: readHeaders(), body: readCall(meta).replace('"deep":0', `"deep":${deep}`) });
			expect(answer.status).toBeLessThan(500);
		}
		expect((await rawRequest(running.port, { headers: readHeaders(), body: readCall(ENVELOPE) })).status).toBe(200);
	});
});

describe("2026-07-28's own rules, as classes: the envelope, and headers against the body", () => {
	let vault: string;
	let running: RunningService;
	const prompt = "Prompts/Greet.md";

	beforeAll(async () => {
		vault = await makeVault({ [NOTE]: NOTE_TEXT, [prompt]: "Say hello to {{name}}." });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 10_000, writeCallsPerMinute: 10_000 } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const post = (headers: Array<[string, string]>, body: unknown) =>
		rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.write ?? "", headers), body: JSON.stringify(body) });

	test("a write call whose envelope lacks a required piece, or has one of the wrong type, answers 400 -32602 with its id and writes nothing", async () => {
		const keys = Object.keys(ENVELOPE) as Array<keyof typeof ENVELOPE>;
		// clientInfo may be left out (the revision asks for the version and the capabilities only); when given, its type is checked.
		const broken = fc
			.record({
				dropped: fc.subarray(["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"] as const, { minLength: 0 }),
				wrong: fc.option(fc.tuple(fc.constantFrom(...keys.slice(1)), fc.constantFrom<unknown>(null, 7, "text", [], true)), { nil: undefined }),
			})
			.filter(({ dropped, wrong }) => dropped.length > 0 || wrong !== undefined);
		await fc.assert(
			fc.asyncProperty(broken, fc.integer({ min: 1, max: 1e6 }), async ({ dropped, wrong }, id) => {
				const meta: Record<string, unknown> = { ...ENVELOPE };
				for (const key of dropped) delete meta[key];
				if (wrong) meta[wrong[0]] = wrong[1];
				const answer = await post(modernHeaders(), JSON.parse(appendCall(id, meta)));
				expect(answer.status).toBe(400);
				expect(JSON.parse(answer.body)).toMatchObject({ id, error: { code: -32602 } });
			}),
			{ numRuns: 40 },
		);
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});

	test("generated JSON-RPC-like bodies with 2026-07-28 headers are always answered, never with a 5xx", async () => {
		const id = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null), fc.constant({}), fc.constant([]));
		const method = fc.oneof(
			fc.constantFrom(
				"tools/call",
				"tools/list",
				"server/discover",
				"resources/read",
				"prompts/get",
				"initialize",
				"ping",
				"subscriptions/listen",
				"notifications/cancelled",
				"completion/complete",
				"logging/setLevel",
				"tasks/get",
				"",
			),
			fc.string({ maxLength: 10 }),
		);
		const meta = fc.oneof(
			fc.constant(ENVELOPE),
			fc.constant(undefined),
			fc.constant(null),
			fc.constant([]),
			fc.dictionary(fc.constantFrom(...Object.keys(ENVELOPE)), fc.jsonValue({ maxDepth: 2 })),
		);
		const params = fc.oneof(
			fc.constant(undefined),
			fc.constant([]),
			fc.record(
				{
					name: fc.oneof(fc.constantFrom("append_to_note", "read_note"), fc.jsonValue({ maxDepth: 1 })),
					uri: fc.oneof(fc.constant(`vault-mcp://note/${NOTE}`), fc.string({ maxLength: 8 })),
					arguments: fc.oneof(fc.constant({ path: "Scratch.md", content: "generated" }), fc.jsonValue({ maxDepth: 2 })),
				},
				{ requiredKeys: [] },
			),
		);
		const body = fc
			.record(
				{
					jsonrpc: fc.constantFrom("2.0", "1.0", undefined),
					id,
					method,
					params,
					meta,
					result: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
				},
				{ requiredKeys: ["meta", "params"] },
			)
			.map(({ params: given, meta: envelope, ...rest }) => ({
				...rest,
				...(given === undefined ? {} : { params: Array.isArray(given) || envelope === undefined ? given : { ...given, _meta: envelope } }),
			}));
		await fc.assert(
			fc.asyncProperty(
				body,
				fc.constantFrom("tools/call", "tools/list", "resources/read", "x"),
				fc.constantFrom("append_to_note", `vault-mcp://note/${NOTE}`, "z"),
				async (message, methodHeader, nameHeader) => {
					const answer = await post(
						[
							["MCP-Protocol-Version", MODERN],
							["Mcp-Method", methodHeader],
							["Mcp-Name", nameHeader],
						],
						message,
					);
					expect({ message, status: answer.status < 500 }).toEqual({ message, status: true });
				},
			),
			{ numRuns: 300 },
		);
	});

	test("a header and a body _meta that name different revisions, either way round, answer 400 -32020 and write nothing; a 2026 header on a body without _meta, -32602", async () => {
		const legacyVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...legacyVersions), fc.boolean(), async (legacy, modernHeader) => {
				const headers = modernHeaders(modernHeader ? MODERN : legacy);
				const meta = { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": modernHeader ? legacy : MODERN };
				const answer = await post(headers, JSON.parse(appendCall(3, meta)));
				expect({ status: answer.status, code: (JSON.parse(answer.body) as { error?: { code?: number } }).error?.code }).toEqual({
					status: 400,
					code: -32020,
				});
			}),
			{ numRuns: 16 },
		);
		const bare = await post(modernHeaders(), JSON.parse(appendCall(4)));
		expect(bare.status).toBe(400);
		expect(JSON.parse(bare.body)).toMatchObject({ error: { code: -32602 } });
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});

	test("Mcp-Name or Mcp-Method that disagrees with the body, for tools/call, resources/read and prompts/get, answers 400 -32020 and runs nothing", async () => {
		const shapes: Array<{ method: string; params: (name: string) => Record<string, unknown>; name: string }> = [
			{ method: "tools/call", name: "append_to_note", params: (name) => ({ name, arguments: { path: NOTE, content: "hostile" } }) },
			{ method: "resources/read", name: `vault-mcp://note/${NOTE}`, params: (uri) => ({ uri }) },
			{ method: "prompts/get", name: "Greet", params: (name) => ({ name, arguments: { name: "x" } }) },
		];
		const other = fc.oneof(
			fc.constantFrom("read_note", "append_to_note ", "APPEND_TO_NOTE", "Greet2", "vault-mcp://note/Other.md", "x"),
			fc.string({ unit: fc.constantFrom(..."abc_/:.-XYZ"), minLength: 1, maxLength: 12 }),
		);
		await fc.assert(
			fc.asyncProperty(fc.constantFrom(...shapes), other, fc.constantFrom("name", "method"), async (shape, wrong, which) => {
				fc.pre(wrong.trim() !== shape.name && wrong.trim() !== shape.method);
				const headers: Array<[string, string]> = [
					["MCP-Protocol-Version", MODERN],
					["Mcp-Method", which === "method" ? wrong : shape.method],
					["Mcp-Name", which === "name" ? wrong : shape.name],
				];
				const answer = await post(headers, { jsonrpc: "2.0", id: 9, method: shape.method, params: { ...shape.params(shape.name), _meta: ENVELOPE } });
				expect({ status: answer.status, code: (JSON.parse(answer.body) as { error?: { code?: number } }).error?.code }).toEqual({
					status: 400,
					code: -32020,
				});
			}),
			{ numRuns: 60 },
		);
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
		// The same three, agreeing, are served.
		for (const shape of shapes) {
			const answer = await post(
				[
					["MCP-Protocol-Version", MODERN],
					["Mcp-Method", shape.method],
					["Mcp-Name", shape.name],
				],
				{ jsonrpc: "2.0", id: 9, method: shape.method, params: { ...shape.params(shape.name), _meta: ENVELOPE } },
			);
			expect({ method: shape.method, status: answer.status, error: (JSON.parse(answer.body) as { error?: unknown }).error }).toEqual({
				method: shape.method,
				status: 200,
				error: undefined,
			});
		}
	});
});

describe("the HTTP refusals hold for a 2026-07-28 request exactly as for a 2025 one", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ [NOTE]: NOTE_TEXT });
		running = await startService(vault, { levels: ["write", "read"], settings: { writeEnabled: true }, httpDeadlines: { bodyReadMs: 300 } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const writeHeaders = (extra: Array<[string, string]> = []) => mcpHeaders(running.port, running.tokens.write ?? "", [...modernHeaders(), ...extra]);

	test("any Origin (empty, null, sent twice, any case of its name) refuses a 2026 write call with 403 before anything runs", async () => {
		const variants: Array<Array<[string, string]>> = [
			[["Origin", ""]],
			[["Origin", "null"]],
			[["oRiGiN", "http://127.0.0.1"]],
			[["ORIGIN", "http://localhost:1"]],
			[
				["Origin", "null"],
				["Origin", "null"],
			],
			[["origin", "file://"]],
		];
		for (const origin of variants) {
			const answer = await rawRequest(running.port, { headers: writeHeaders(origin), body: appendCall(1, ENVELOPE) });
			expect({ origin, status: answer.status }).toEqual({ origin, status: 403 });
		}
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});

	test("413, 415, 406 and 408 answer a 2026 request as they answer a 2025 one", async () => {
		const big = appendCall(1, { ...ENVELOPE, padding: "p".repeat(1_100_000) });
		expect((await rawRequest(running.port, { headers: writeHeaders(), body: big })).status).toBe(413);
		const asText = writeHeaders().map(([name, value]): [string, string] => (name === "Content-Type" ? [name, "text/plain"] : [name, value]));
		expect((await rawRequest(running.port, { headers: asText, body: appendCall(1, ENVELOPE) })).status).toBe(415);
		const jsonOnly = writeHeaders().map(([name, value]): [string, string] => (name === "Accept" ? [name, "application/json"] : [name, value]));
		expect((await rawRequest(running.port, { headers: jsonOnly, body: appendCall(1, ENVELOPE) })).status).toBe(406);
		// A body that stops arriving: the 408 comes once the (shortened) deadline passes.
		const body = appendCall(1, ENVELOPE);
		const socket = await openSocket(
			running.port,
			[`POST /mcp HTTP/1.1`, ...writeHeaders().map(([name, value]) => `${name}: ${value}`), `Content-Length: ${Buffer.byteLength(body)}`, "", ""].join(
				"\r\n",
			) + body.slice(0, 20),
		);
		const answer = await new Promise<string>((resolve) => {
			let text = "";
			socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
			socket.on("close", () => resolve(text));
		});
		expect(answer).toMatch(/^HTTP\/1\.1 408/);
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});

	test("a write whose body was still arriving when its token was revoked is refused with 401 and writes nothing, at either era", async () => {
		let settings = running.settings;
		for (const modern of [true, false]) {
			const made = addToken(settings, modern ? "late-modern" : "late-legacy", "write");
			if ("error" in made) throw new Error(made.error);
			settings = made.settings;
			await running.service.apply(settings);
			const headers = mcpHeaders(running.port, made.token, modern ? modernHeaders() : [["MCP-Protocol-Version", "2025-06-18"]]);
			const body = appendCall(1, modern ? ENVELOPE : undefined);
			const socket = await openSocket(
				running.port,
				[`POST /mcp HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`), `Content-Length: ${Buffer.byteLength(body)}`, "", ""].join(
					"\r\n",
				) + body.slice(0, 10),
			);
			let received = "";
			socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
			await sleep(30);
			const revoked = revokeToken(settings, modern ? "late-modern" : "late-legacy");
			if ("error" in revoked) throw new Error(revoked.error);
			settings = revoked.settings;
			await running.service.apply(settings);
			socket.write(body.slice(10));
			for (let waited = 0; !received.includes("\r\n\r\n") && waited < 2000; waited += 20) await sleep(20);
			socket.destroy();
			expect({ modern, head: received.split("\r\n")[0] }).toEqual({ modern, head: "HTTP/1.1 401 Unauthorized" });
		}
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});

	test("a 2026 write whose body was still arriving when writing was turned off answers as an unknown tool and writes nothing", async () => {
		const headers = mcpHeaders(running.port, running.tokens.write ?? "", modernHeaders());
		const body = appendCall(1, ENVELOPE);
		const socket = await openSocket(
			running.port,
			[`POST /mcp HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`), `Content-Length: ${Buffer.byteLength(body)}`, "", ""].join("\r\n") +
				body.slice(0, 10),
		);
		let received = "";
		socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
		try {
			await sleep(30);
			await running.service.apply({ ...running.settings, writeEnabled: false });
			socket.write(body.slice(10));
			for (let waited = 0; !received.includes('"jsonrpc"') && waited < 2000; waited += 20) await sleep(20);
			expect(received).toContain("Tool append_to_note not found");
		} finally {
			socket.destroy();
			await running.service.apply(running.settings);
		}
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});

	test("a token revoked between two 2026 requests on one kept-alive connection is refused from the next request on", async () => {
		const token = running.tokens.read ?? "";
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		const list = () =>
			new Promise<number>((resolve, reject) => {
				const req = httpRequest(
					{
						host: "127.0.0.1",
						port: running.port,
						path: "/mcp",
						method: "POST",
						agent,
						headers: Object.fromEntries(
							mcpHeaders(running.port, token, [
								["MCP-Protocol-Version", MODERN],
								["Mcp-Method", "server/discover"],
							]),
						),
					},
					(res) => {
						res.resume();
						res.on("end", () => resolve(res.statusCode ?? 0));
					},
				);
				req.on("error", reject);
				req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } }));
			});
		try {
			expect(await list()).toBe(200);
			const revoked = revokeToken(running.settings, "read");
			if ("error" in revoked) throw new Error(revoked.error);
			await running.service.apply(revoked.settings);
			expect(await list()).toBe(401);
		} finally {
			agent.destroy();
		}
	});
});

describe("a token every tool is denied to, at 2026-07-28", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ [NOTE]: NOTE_TEXT });
		const rights = Object.fromEntries(ALL_TOOLS.map((tool) => [tool.name, "deny" as const]));
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true }, rights: { write: rights } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const post = (method: string, params: Record<string, unknown>, name?: string) =>
		rawRequest(running.port, {
			headers: mcpHeaders(running.port, running.tokens.write ?? "", [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", method],
				...(name === undefined ? [] : [["Mcp-Name", name] as [string, string]]),
			]),
			body: JSON.stringify({ jsonrpc: "2.0", id: 5, method, params: { ...params, _meta: ENVELOPE } }),
		});

	test("server/discover answers, tools/list is empty, and every tool answers exactly as a tool that does not exist; nothing is written", async () => {
		const discovered = await post("server/discover", {});
		expect(discovered.status).toBe(200);
		expect(JSON.parse(discovered.body)).toMatchObject({ result: { supportedVersions: [MODERN], capabilities: { tools: { listChanged: false } } } });
		const listed = JSON.parse((await post("tools/list", {})).body) as { result: { tools: unknown[] } };
		expect(listed.result.tools).toEqual([]);
		const unknown = await post("tools/call", { name: "no_such_tool", arguments: { path: NOTE, content: "x" } }, "no_such_tool");
		for (const tool of ALL_TOOLS) {
			const denied = await post("tools/call", { name: tool.name, arguments: { path: NOTE, content: "x" } }, tool.name);
			expect({ tool: tool.name, status: denied.status, body: denied.body.replace(tool.name, "T") }).toEqual({
				tool: tool.name,
				status: unknown.status,
				body: unknown.body.replace("no_such_tool", "T"),
			});
		}
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});
});

describe("batches and notifications around 2026-07-28", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ [NOTE]: NOTE_TEXT });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 10_000, writeCallsPerMinute: 10_000 } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test("a batch holding any 2026-07-28 message, whatever the header says, is refused whole: 400, nothing written", async () => {
		const modernWrite = JSON.parse(appendCall(1, ENVELOPE)) as unknown;
		const legacyWrite = JSON.parse(appendCall(2)) as unknown;
		const batches = fc
			.array(
				fc.constantFrom(
					modernWrite,
					legacyWrite,
					{ jsonrpc: "2.0", id: 3, method: "tools/list" },
					{ jsonrpc: "2.0", method: "notifications/initialized" },
				),
				{ minLength: 1, maxLength: 6 },
			)
			.filter((batch) => batch.includes(modernWrite));
		await fc.assert(
			fc.asyncProperty(batches, fc.constantFrom<string | undefined>(undefined, MODERN, "2025-06-18", "2025-11-25"), async (batch, version) => {
				const headers = mcpHeaders(running.port, running.tokens.write ?? "", version === undefined ? [] : [["MCP-Protocol-Version", version]]);
				const answer = await rawRequest(running.port, { headers, body: JSON.stringify(batch) });
				expect(answer.status).toBe(400);
			}),
			{ numRuns: 40 },
		);
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});

	test("a 2026-07-28 notification is accepted with 202 and an empty body; it runs nothing", async () => {
		for (const method of ["notifications/cancelled", "notifications/initialized", "notifications/roots/list_changed", "notifications/no_such"]) {
			const headers = mcpHeaders(running.port, running.tokens.write ?? "", [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", method],
			]);
			const answer = await rawRequest(running.port, {
				headers,
				body: JSON.stringify({ jsonrpc: "2.0", method, params: { requestId: 1, _meta: ENVELOPE } }),
			});
			expect({ method, status: answer.status, body: answer.body }).toEqual({ method, status: 202, body: "" });
		}
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toBe(NOTE_TEXT);
	});
});

describe("the answer-size cap holds at 2026-07-28 as at 2025", () => {
	const CAP = 64 * 1024;
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Big.md": "b".repeat(100 * 1024), [NOTE]: NOTE_TEXT, "Prompts/Echo.md": "{{text}} ".repeat(8) });
		running = await startService(vault, { levels: ["read"], httpDeadlines: { maxResponseBodyBytes: CAP } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const post = (modern: boolean, method: string, name: string, params: Record<string, unknown>) =>
		rawRequest(running.port, {
			headers: mcpHeaders(
				running.port,
				running.tokens.read ?? "",
				modern
					? [
							["MCP-Protocol-Version", MODERN],
							["Mcp-Method", method],
							["Mcp-Name", name],
						]
					: [["MCP-Protocol-Version", "2025-06-18"]],
			),
			body: JSON.stringify({ jsonrpc: "2.0", id: 11, method, params: modern ? { ...params, _meta: ENVELOPE } : params }),
		});

	test.each([
		["tools/call", "read_note", { name: "read_note", arguments: { path: "Big" } }],
		["resources/read", "vault-mcp://note/Big.md", { uri: "vault-mcp://note/Big.md" }],
	])("%s with an answer over the cap answers a short JSON-RPC error with its id instead, at both eras", async (method, name, params) => {
		for (const modern of [false, true]) {
			const answer = await post(modern, method, name, params);
			expect({ modern, status: answer.status, small: Buffer.byteLength(answer.body) < CAP }).toEqual({ modern, status: 200, small: true });
			expect(JSON.parse(answer.body)).toMatchObject({ id: 11, error: { message: expect.stringContaining(`${CAP} bytes`) as string } });
		}
		// A small answer still comes whole.
		expect(JSON.parse((await post(true, "tools/call", "read_note", { name: "read_note", arguments: { path: NOTE } })).body)).toHaveProperty(
			"result.structuredContent.content",
			NOTE_TEXT,
		);
	});

	test("a prompt whose arguments would fill it past the largest answer is refused before it is built, at both eras", async () => {
		for (const modern of [false, true]) {
			const answer = await post(modern, "prompts/get", "Echo", { name: "Echo", arguments: { text: "t".repeat(300 * 1024) } });
			expect(answer.status).toBeLessThan(500);
			expect(Buffer.byteLength(answer.body)).toBeLessThan(CAP);
			expect(JSON.parse(answer.body)).toMatchObject({ id: 11, error: { code: -32602, message: expect.stringContaining("would be over") as string } });
		}
	});
});

describe("a 2025 batch whose answers pass the cap says which calls ran", () => {
	let vault: string;
	const started: RunningService[] = [];
	const start = async (maxResponseBodyBytes: number) => {
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true }, httpDeadlines: { maxResponseBodyBytes } });
		started.push(running);
		return running;
	};
	const batch = (running: RunningService, calls: unknown[]) =>
		rawRequest(running.port, {
			headers: mcpHeaders(running.port, running.tokens.write ?? "", [["MCP-Protocol-Version", "2025-06-18"]]),
			body: JSON.stringify(calls),
		});
	const readBig = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path: "Big" } } };
	const append = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "append_to_note", arguments: { path: NOTE, content: "once" } } };

	beforeAll(async () => {
		vault = await makeVault({ "Big.md": "b".repeat(20 * 1024), [NOTE]: NOTE_TEXT });
	});
	afterAll(async () => {
		for (const running of started) await running.stop();
		await removeDir(vault);
	});

	test("a write whose answer no longer fits was still written, and its answer says so (a model told 'not run' would write it twice)", async () => {
		// The read's answer alone, to set a cap it fits under with no room for the write's answer.
		const measuring = await start(4 * 1024 * 1024);
		// A batch of one is answered with the answer itself.
		const readAnswer = (await batch(measuring, [readBig])).body;
		const running = await start(Buffer.byteLength(readAnswer) + 40);
		const answers = JSON.parse((await batch(running, [readBig, append])).body) as Array<{ id: number; error?: { message: string } }>;
		expect(await fs.readFile(nodePath.join(vault, NOTE), "utf8")).toContain("once");
		const appended = answers.find((answer) => answer.id === 2);
		expect(appended?.error?.message).toMatch(/ran, but its answer/);
		expect(appended?.error?.message).not.toMatch(/not run/);
	});
});
