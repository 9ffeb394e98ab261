import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from "@modelcontextprotocol/client";
import { mcpHeaders, rawRequest, type RawResponse } from "../helpers/http";
import { startRenameApprovedAfter, startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const MODERN = "2026-07-28";
/**
 * The client's request timeout, reset at each progress notification; and the server's interval between them. At 1 s
 * both tests here failed `Request timed out` in a run beside a second suite and two busy loops (load 25-45 on 2
 * cores): one gap between notifications passed 1 s. The person still answers after twice the timeout, so a call
 * told nothing while it waits still times out.
 */
const CLIENT_TIMEOUT_MS = 2500;
const PROGRESS_INTERVAL_MS = 50;

interface Told {
	progress: number;
	message?: string;
}

/** How a client's tool calls are sent: as the SDK v2 client sends them, or with headers the spec allows written otherwise. */
type CallHeaders = (headers: Headers) => void;

const AS_SENT: CallHeaders = () => {};

async function connectModern(running: RunningService, callHeaders: CallHeaders = AS_SENT): Promise<ClientV2> {
	const client = new ClientV2({ name: "v2-client", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
	const headers = { Authorization: `Bearer ${running.tokens.write as string}` };
	// The client's own requests, with the tool calls' headers rewritten as `callHeaders` says.
	const rewritten = async (url: string | URL, init?: RequestInit): Promise<Response> => {
		const sent = new Headers(init?.headers);
		if (sent.get("mcp-method") === "tools/call") callHeaders(sent);
		// Node's fetch, as the SDK client's transport uses by default (Obsidian's requestUrl exists only in the app).
		return await globalThis.fetch(url, { ...init, headers: sent });
	};
	await client.connect(new HttpTransportV2(new URL(running.url), { requestInit: { headers }, fetch: rewritten }));
	return client;
}

/**
 * Forms the SDK's handler takes (SEP-2243, RFC 9110) that the SDK v2 client does not send for this
 * server's tool names unless told to: the headers written otherwise, or `_meta` keys of the client's own.
 */
const SPEC_FORMS: Array<[string, CallHeaders, Record<string, unknown> | null]> = [
	["a Content-Type with a charset", (headers) => headers.set("Content-Type", "application/json; charset=utf-8"), null],
	["an Mcp-Name in Base64", (headers) => headers.set("Mcp-Name", `=?base64?${Buffer.from(headers.get("mcp-name") ?? "").toString("base64")}?=`), null],
	["a _meta key of the client's own", AS_SENT, { "claudecode/toolUseId": "toolu_1" }],
];

describe("2026-07-28: a rename_note set to Ask, with the SDK v2 client asking for progress", () => {
	test.concurrent.each([["the SDK v2 client's own form", AS_SENT, null] as [string, CallHeaders, Record<string, unknown> | null], ...SPEC_FORMS])(
		"with %s, a call waiting for the person's approval longer than the client's timeout is told its progress, so the client gets the answer",
		async (_form, callHeaders, _meta) => {
			/** The person answers after three of the client's timeouts: without progress the client gives up first. */
			const PERSON_ANSWERS_AFTER_MS = 2 * CLIENT_TIMEOUT_MS;
			const { root, running: asking } = await startRenameApprovedAfter(PERSON_ANSWERS_AFTER_MS, PROGRESS_INTERVAL_MS);
			const client = await connectModern(asking, callHeaders);
			try {
				expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
				const progress: Told[] = [];
				const started = performance.now();
				const result = await client.callTool(
					{ name: "rename_note", arguments: { path: "Plan.md", new_path: "Done.md" }, ...(_meta !== null && { _meta }) },
					{
						timeout: CLIENT_TIMEOUT_MS,
						resetTimeoutOnProgress: true,
						onprogress: (told: Told) => progress.push(told),
					},
				);
				expect(performance.now() - started).toBeGreaterThanOrEqual(PERSON_ANSWERS_AFTER_MS);
				expect(result.isError).toBeFalsy();
				expect(await fs.readFile(nodePath.join(root, "Linker.md"), "utf8")).toBe("See [[Done]].\n");
				expect(progress.length).toBeGreaterThan(1);
				expect(progress.every((told, index) => index === 0 || told.progress > (progress[index - 1] as Told).progress)).toBe(true);
				expect(progress[0]?.message).toMatch(/^rename_note still working/);
			} finally {
				await client.close();
				await asking.stop();
				await removeDir(root);
			}
		},
	);
});

describe("2026-07-28: a call asking for progress that ends before its first notification, or sent with an Origin", () => {
	let root: string;
	let running: RunningService;
	const ENVELOPE = {
		"io.modelcontextprotocol/protocolVersion": MODERN,
		"io.modelcontextprotocol/clientInfo": { name: "raw-2026", version: "1" },
		"io.modelcontextprotocol/clientCapabilities": {},
	};

	beforeAll(async () => {
		root = await makeVault({ "Plan.md": "# Plan\n\nThe plan.\n", "Linker.md": "See [[Plan]].\n" });
		// The default interval (2 s): a read_note ends long before it.
		running = await startService(root, { levels: ["write"], settings: { writeEnabled: true } });
	});

	afterAll(async () => {
		await running.stop();
		await removeDir(root);
	});

	function call(name: string, args: Record<string, unknown>, progressToken?: string, extra: Array<[string, string]> = []): Promise<RawResponse> {
		const _meta = progressToken === undefined ? ENVELOPE : { ...ENVELOPE, progressToken };
		const headers = mcpHeaders(running.port, running.tokens.write as string, [
			["MCP-Protocol-Version", MODERN],
			["Mcp-Method", "tools/call"],
			["Mcp-Name", name],
			...extra,
		]);
		return rawRequest(running.port, {
			headers,
			body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args, _meta } }),
		});
	}

	test("is answered as plain JSON, the same bytes as the call without a progress token", async () => {
		const plain = await call("read_note", { path: "Plan.md" });
		const asked = await call("read_note", { path: "Plan.md" }, "p");
		expect(plain.status).toBe(200);
		expect(asked.status).toBe(200);
		expect(asked.headers["content-type"]).toBe("application/json");
		expect(asked.body).toBe(plain.body);
		expect(asked.body).toContain("The plan.");
	});

	test("with an Origin header is refused with 403 and nothing is renamed", async () => {
		const refused = await call("rename_note", { path: "Plan.md", new_path: "Done.md" }, "p", [["Origin", "http://127.0.0.1"]]);
		expect(refused.status).toBe(403);
		expect(refused.body).not.toContain("notifications/progress");
		expect(await fs.readFile(nodePath.join(root, "Linker.md"), "utf8")).toBe("See [[Plan]].\n");
	});
});
