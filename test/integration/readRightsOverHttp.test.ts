/**
 * Rights cover every way to read: a token whose `read_note` is Deny gets no note text from
 * resources/read, resources/list, prompts/list or prompts/get either, at both protocol revisions
 * served, over the real HTTP server. The right is read at the moment of each request.
 */
import { setTokenRights } from "../../src/auth/tokenList";
import { ALL_TOOLS } from "../../src/mcp/tools";
import type { VaultMcpSettings } from "../../src/config/settings";
import { mcpHeaders, rawRequest } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "read-rights", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};
const SECRET = "the words only read_note may give";
const PROMPT_SECRET = "prompt words only read_note may give";
const READ_TOOLS = ALL_TOOLS.filter((tool) => tool.access === "read").map((tool) => tool.name);

/** Every request that can carry note text, with the name its 2026-07-28 `Mcp-Name` header carries. */
const DOORS: Array<[method: string, name: string, params: Record<string, unknown>]> = [
	["resources/list", "", {}],
	["resources/read", "vault-mcp://note/Secret.md", { uri: "vault-mcp://note/Secret.md" }],
	["resources/templates/list", "", {}],
	["prompts/list", "", {}],
	["prompts/get", "Ask", { name: "Ask", arguments: {} }],
	["tools/call", "read_note", { name: "read_note", arguments: { path: "Secret" } }],
	["tools/call", "list_notes", { name: "list_notes", arguments: {} }],
];

describe("read rights govern resources and prompts over HTTP", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Secret.md": `# Secret\n\n${SECRET}\n`, "Prompts/Ask.md": `${PROMPT_SECRET}\n` });
		running = await startService(vault, {
			levels: ["read", "write"],
			// The "read" token is denied read_note only; the "write" token is the control, every read allowed.
			rights: { read: { read_note: "deny" } },
			settings: { promptsFolder: "Prompts" },
		});
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	const ask = async (token: string, version: string, method: string, name: string, params: Record<string, unknown>) => {
		const modern = version === MODERN;
		const standard: Array<[string, string]> = [
			["MCP-Protocol-Version", version],
			...(modern ? [["Mcp-Method", method] as [string, string], ...(name === "" ? [] : [["Mcp-Name", name] as [string, string]])] : []),
		];
		const answer = await rawRequest(running.port, {
			headers: mcpHeaders(running.port, token, standard),
			body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: modern ? { ...params, _meta: ENVELOPE } : params }),
		});
		expect(answer.status).toBeLessThan(500);
		return answer.body;
	};

	const withRights = (settings: VaultMcpSettings, name: string, rights: Record<string, "allow" | "deny">): VaultMcpSettings => {
		const token = settings.tokens.find((record) => record.name === name);
		const changed = setTokenRights(settings, name, { ...(token?.rights ?? {}), ...rights });
		if ("error" in changed) throw new Error(changed.error);
		return changed.settings;
	};

	test.each([LEGACY, MODERN])("at %s the control token reads the note through every door (so the check below can fail)", async (version) => {
		const control = running.tokens.write ?? "";
		expect(await ask(control, version, ...DOORS[0]!)).toContain("vault-mcp://note/Secret.md");
		expect(await ask(control, version, ...DOORS[1]!)).toContain(SECRET);
		expect(await ask(control, version, ...DOORS[3]!)).toContain('"Ask"');
		expect(await ask(control, version, ...DOORS[4]!)).toContain(PROMPT_SECRET);
		expect(await ask(control, version, ...DOORS[5]!)).toContain(SECRET);
	});

	test.each([LEGACY, MODERN])("at %s a token denied read_note gets no note text, no note name and no prompt from any method", async (version) => {
		const denied = running.tokens.read ?? "";
		for (const [method, name, params] of DOORS.filter(([method]) => method !== "tools/call")) {
			const body = await ask(denied, version, method, name, params);
			expect({ method, body }).not.toEqual({ method, body: expect.stringMatching(/Secret\.md|the words|prompt words|"Ask"/) });
			// The same answer a server without resources or prompts gives: the method is unknown to this token.
			expect({ method, error: (JSON.parse(body) as { error?: { code: number } }).error?.code }).toEqual({ method, error: -32601 });
		}
		const readNote = await ask(denied, version, ...DOORS[5]!);
		expect(readNote).not.toContain(SECRET);
		// Its other read tools still work: only note text is closed.
		expect(await ask(denied, version, ...DOORS[6]!)).toContain("Secret");
	});

	test.each([LEGACY, MODERN])("at %s a token whose every read tool is denied reads nothing, through tools, resources or prompts", async (version) => {
		const control = running.tokens.write ?? "";
		const before = running.settings;
		await running.service.apply(withRights(before, "write", Object.fromEntries(READ_TOOLS.map((tool) => [tool, "deny"]))));
		try {
			for (const [method, name, params] of DOORS) {
				const body = await ask(control, version, method, name, params);
				expect({ method, name, body }).not.toEqual({ method, name, body: expect.stringMatching(/Secret|the words|prompt words|"Ask"/) });
			}
			const tools = JSON.parse(await ask(control, version, "tools/list", "", {})) as { result: { tools: Array<{ name: string }> } };
			expect(tools.result.tools.map((tool) => tool.name).filter((tool) => READ_TOOLS.includes(tool))).toEqual([]);
		} finally {
			await running.service.apply(before);
		}
	});

	test("a Deny set while the server runs closes resources and prompts at the next request, and an Allow reopens them", async () => {
		const control = running.tokens.write ?? "";
		const before = running.settings;
		for (const version of [LEGACY, MODERN]) expect(await ask(control, version, ...DOORS[1]!)).toContain(SECRET);
		await running.service.apply(withRights(before, "write", { read_note: "deny" }));
		try {
			for (const version of [LEGACY, MODERN]) {
				expect(await ask(control, version, ...DOORS[1]!)).not.toContain(SECRET);
				expect(await ask(control, version, ...DOORS[4]!)).not.toContain(PROMPT_SECRET);
			}
		} finally {
			await running.service.apply(before);
		}
		for (const version of [LEGACY, MODERN]) expect(await ask(control, version, ...DOORS[4]!)).toContain(PROMPT_SECRET);
	});
});
