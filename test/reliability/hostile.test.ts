import { symlinkSync, promises as fs } from "node:fs";
import * as nodePath from "node:path";
import * as crypto from "node:crypto";
import fc from "fast-check";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { findTokenRecord, generateToken } from "../../src/auth/tokens";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { findNote } from "../../src/vault/notes";
import { checkVaultPath } from "../../src/vault/paths";
import { isHiddenPath, isInFolder } from "../../src/vault/scope";
import { checkNewNotePath } from "../../src/vault/writes";
import { connectClient, INITIALIZE_BODY, mcpHeaders, rawRequest } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

const scope = { configDir: ".obsidian", excludedFolders: ["Private", "Work/Secret"] };

/** Path pieces people and attackers write: traversal in every spelling, separators, drives, look-alikes, oddities. */
const pathPiece = fc.oneof(
	fc.constantFrom(
		"..",
		".",
		"...",
		"%2e%2e",
		"%2E%2e",
		"..%2f",
		"..%5c",
		"%00",
		"..\\",
		"\\",
		"/",
		"//",
		"C:",
		"c:\\",
		"\\\\server\\share",
		"\u0000",
		"．．",
		"‥",
		"∕",
		"⁄",
		"\uFF0F",
		"..\u2215",
		".obsidian",
		".trash",
		".git",
		"Private",
		"Work",
		"Secret",
		"private",
		"note.md",
		"Note.MD",
		"x.",
		"x ",
		" x",
		"x.md.",
		"a".repeat(300),
		"Cafe\u0301",
		"Café",
		"con",
		"file:",
		"~",
		"$HOME",
	),
	fc.string({ minLength: 1, maxLength: 12 }),
	fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
);
const hostilePath = fc
	.tuple(fc.array(pathPiece, { minLength: 1, maxLength: 8 }), fc.constantFrom("/", "\\", "", "/./", "//"))
	.map(([pieces, separator]) => pieces.join(separator));

describe("the path policy, against 10,000+ generated hostile paths", () => {
	let root: string;
	let outside: string;

	beforeAll(async () => {
		root = await makeVault({ "note.md": "n", "Private/secret.md": "s", "Work/Secret/deep.md": "d", "Work/plan.md": "p" });
		outside = await makeTempDir("outside-");
		await fs.writeFile(nodePath.join(outside, "stolen.md"), "outside the vault");
		// Symbolic links planted inside the vault that point out of it.
		symlinkSync(nodePath.join(outside, "stolen.md"), nodePath.join(root, "link.md"));
		symlinkSync(outside, nodePath.join(root, "linkdir"));
	});
	afterAll(async () => {
		await removeDir(root);
		await removeDir(outside);
	});

	test("an accepted path never leaves the vault, never names a hidden or config path, and writes only in-scope .md files", () => {
		fc.assert(
			fc.property(hostilePath, (input) => {
				const checked = checkVaultPath(input, scope);
				if (checked.ok) {
					const path = checked.value;
					const resolved = nodePath.resolve(root, path);
					expect(resolved.startsWith(root + nodePath.sep)).toBe(true);
					expect(path.includes("\\") || path.includes("\u0000") || path.startsWith("/")).toBe(false);
					expect(path.split("/").some((part) => part === "" || part === "." || part === "..")).toBe(false);
					expect(isHiddenPath(path) || isInFolder(path, ".obsidian")).toBe(false);
				}
				const writable = checkNewNotePath(input, scope);
				if (writable.ok) {
					expect(writable.value.endsWith(".md")).toBe(true);
					expect(scope.excludedFolders.some((folder) => isInFolder(writable.value, folder))).toBe(false);
					expect(nodePath.resolve(root, writable.value).startsWith(root + nodePath.sep)).toBe(true);
				}
			}),
			{ numRuns: 10_000, seed: 20261130 },
		);
	});

	test("reads resolve only to visible in-scope notes, never through a planted symlink", async () => {
		const { NodeHost } = await import("../../src/headless/NodeHost");
		const host = await NodeHost.open(root);
		try {
			expect(host.vault.getFileByPath("link.md")).toBeNull();
			await fc.assert(
				fc.asyncProperty(
					fc.oneof(
						hostilePath,
						fc.constantFrom("link.md", "link", "linkdir/stolen.md", "linkdir/stolen", "stolen", "secret", "deep", "Work/Secret/deep"),
					),
					(input) => {
						const found = findNote(host, scope, input);
						if (found.ok) {
							expect(["note.md", "Work/plan.md"]).toContain(found.value.path);
						}
						return Promise.resolve();
					},
				),
				{ numRuns: 2_000, seed: 7 },
			);
		} finally {
			await host.close();
		}
	});
});

describe("hostile requests", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Note.md": "# Note\n\ntext\n", "Outline.md": "- a\n" });
		running = await startService(vault, { levels: ["read", "write"], settings: { writeEnabled: true, rateLimitPerMinute: 1_000_000 } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const post = (body: string, token = running.tokens.write ?? "") => rawRequest(running.port, { headers: mcpHeaders(running.port, token), body });

	test("random and malformed JSON-RPC bodies: never a 5xx, always an answer", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(
					fc.string({ maxLength: 200 }),
					fc.json({ maxDepth: 4 }),
					fc
						.record({
							jsonrpc: fc.constantFrom("2.0", "1.0", 2),
							id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
							method: fc.constantFrom("tools/call", "tools/list", "initialize", "resources/read", "nope", ""),
							params: fc.anything({ maxDepth: 3 }),
						})
						.map((value) => JSON.stringify(value)),
				),
				async (body) => {
					const response = await post(body);
					expect(response.status).toBeLessThan(500);
				},
			),
			{ numRuns: 300, seed: 42 },
		);
	});

	test("deeply nested JSON and huge batches are refused cleanly", async () => {
		const nested = "[".repeat(200_000) + "]".repeat(200_000);
		expect((await post(nested)).status).toBe(400);
		const deepParams = JSON.stringify({
			jsonrpc: "2.0",
			id: 1,
			method: "tools/call",
			params: { name: "read_note", arguments: { path: JSON.parse("[".repeat(2000) + "]".repeat(2000)) as unknown } },
		});
		expect((await post(deepParams)).status).toBeLessThan(500);
		const batch = JSON.stringify(Array.from({ length: 5000 }, (_, id) => ({ jsonrpc: "2.0", id, method: "tools/list" })));
		const refused = await post(batch);
		expect(refused.status).toBe(400);
		expect(refused.body).toContain("at most 32");
		const empty = await post("[]");
		expect(empty.status).toBe(400);
		expect(empty.body).toContain("the batch is empty");
	});

	test("wrong types for every argument of every tool: a clear error, never a 5xx, nothing written", async () => {
		const before = await fs.readFile(nodePath.join(vault, "Note.md"), "utf8");
		const wrongValues: unknown[] = [42, true, null, { nested: 1 }, ["list"], "x".repeat(2_000_000 / 4)];
		for (const tool of ALL_TOOLS) {
			const fields = Object.keys(tool.inputSchema);
			for (const field of fields) {
				for (const value of wrongValues) {
					const args = { ...(tool.examples[0] as Record<string, unknown>), [field]: value };
					const response = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: args } }));
					expect({ tool: tool.name, field, status: response.status < 500 }).toEqual({ tool: tool.name, field, status: true });
				}
			}
		}
		const after = await fs.readFile(nodePath.join(vault, "Note.md"), "utf8");
		expect(after.startsWith(before)).toBe(true);
	});

	test.each([
		["empty", ""],
		["wrong prefix", "tok_" + "a".repeat(43)],
		["wrong length", "vmcp_abc"],
		["a look-alike letter", "Bearer vmçp_" + "a".repeat(43)],
		["a tab inside", "Bearer\tTOKEN"],
		["two spaces", "Bearer  TOKEN"],
		["the token twice", "Bearer TOKEN TOKEN"],
		["the token with a suffix", "Bearer TOKENx"],
		["no scheme", "TOKEN"],
	])("Authorization %s is refused with 401", async (_label, header) => {
		const token = running.tokens.read ?? "";
		const value = header.replace("TOKEN", token);
		const headers = mcpHeaders(running.port, token).map(([name, current]): [string, string] =>
			name === "Authorization" ? [name, value] : [name, current],
		);
		expect((await rawRequest(running.port, { headers, body: INITIALIZE_BODY })).status).toBe(401);
	});

	test("token checks compare against every stored hash, whatever matched: timing does not tell which", () => {
		const records = Array.from({ length: 6 }, (_, index) => generateToken(`t${index}`, "read"));
		// The module object itself (an `import *` copy would not see the calls).
		const spy = jest.spyOn(jest.requireActual<typeof crypto>("node:crypto"), "timingSafeEqual");
		for (const probe of [records[0]?.token ?? "", records[5]?.token ?? "", "vmcp_wrong"]) {
			spy.mockClear();
			findTokenRecord(
				probe,
				records.map((entry) => entry.record),
			);
			expect(spy).toHaveBeenCalledTimes(records.length);
		}
		spy.mockRestore();
	});

	test("the refusals, through the real SDK client too", async () => {
		const connect = (token: string, headers: Record<string, string> = {}) => {
			const client = new Client({ name: "hostile", version: "1" });
			return client.connect(
				new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } } }),
			);
		};
		await expect(connect("vmcp_wrong")).rejects.toThrow(/valid bearer token/);
		await expect(connect(running.tokens.read ?? "", { Origin: "https://evil.example" })).rejects.toThrow(/web pages are refused/);
		const client = await connectClient(running.url, running.tokens.write ?? "");
		const tooBig = await callTool(client, "append_to_note", { path: "Note", content: "x".repeat(1_100_000) }).catch((error: Error) => ({
			ok: false,
			error: error.message,
		}));
		expect(JSON.stringify(tooBig)).toMatch(/over 1048576 bytes|413/);
		await client.close();
		const limited = await startService(vault, { levels: ["read"], settings: { rateLimitPerMinute: 2 } });
		const limitedClient = new Client({ name: "limited", version: "1" });
		await limitedClient.connect(
			new StreamableHTTPClientTransport(new URL(limited.url), { requestInit: { headers: { Authorization: `Bearer ${limited.tokens.read ?? ""}` } } }),
		);
		await expect(limitedClient.listTools()).rejects.toThrow(/Too many requests/);
		await limitedClient.close();
		await limited.stop();
	});
});
