import { setTokenFolders, setTokenRights, revokeToken } from "../../src/auth/tokenList";
import type { VaultMcpSettings } from "../../src/config/settings";
import { mcpHeaders, rawRequest } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const MODERN = "2026-07-28";
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "warmed", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};
async function call(running: RunningService, token: string, name: string, args: Record<string, unknown>, modern: boolean) {
	const headers = modern
		? mcpHeaders(running.port, token, [
				["MCP-Protocol-Version", MODERN],
				["Mcp-Method", "tools/call"],
				["Mcp-Name", name],
			])
		: mcpHeaders(running.port, token);
	const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, ...(modern ? { _meta: ENVELOPE } : {}) } });
	const r = await rawRequest(running.port, { headers, body });
	return `${r.status} ${r.body}`;
}

/**
 * The parts of a request's context kept per token record (its live scope, rights and tool set, the
 * 2026-07-28 direct answer's pooled server, the kept-alive connection's token digest) follow every
 * change of the settings made between two requests of a token that has already called: an
 * exclusion, the token's folders, a right, its revocation. Passes before them too: their guard.
 */
describe.each([
	["2026-07-28 (the direct answer once the server is bound)", true],
	["2025", false],
])("at %s", (_label, modern) => {
	let vault: string;
	let running: RunningService;
	beforeAll(async () => {
		vault = await makeVault({ "Work/A.md": "# A\n#t\nalpha\n", "Secret/S.md": "# S\n#t\nhush words\n" });
		running = await startService(vault, { levels: ["read"] });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});
	const apply = async (change: (s: VaultMcpSettings) => VaultMcpSettings) => {
		running.settings = change(running.settings);
		await running.service.apply(running.settings);
	};
	/** Every door that named the secret note before (its text, its tag, the listing, search) names it no more. */
	const expectSecretHidden = async (t: string) => {
		for (const [n, a] of [
			["read_note", { path: "Secret/S.md" }],
			["find_notes_by_tag", { tag: "t" }],
			["list_notes", {}],
			["search_notes", { query: "hush" }],
		] as const)
			expect(await call(running, t, n, a, modern)).not.toMatch(n === "read_note" ? /hush/ : /hush|Secret\/S/);
	};
	test("a change of the settings between two requests of a warmed token is seen by the next", async () => {
		const t = running.tokens.read as string;
		for (let i = 0; i < 3; i++) expect(await call(running, t, "read_note", { path: "Secret/S.md" }, modern)).toContain("hush");
		expect(await call(running, t, "find_notes_by_tag", { tag: "t" }, modern)).toContain("Secret");
		await apply((s) => ({ ...s, excludedFolders: ["Secret"] }));
		await expectSecretHidden(t);
		await apply((s) => ({ ...s, excludedFolders: [] }));
		expect(await call(running, t, "read_note", { path: "Secret/S.md" }, modern)).toContain("hush");
		await apply((s) => {
			const r = setTokenFolders(s, "read", ["Work"]);
			if ("error" in r) throw new Error(r.error);
			return r.settings;
		});
		await expectSecretHidden(t);
		await apply((s) => {
			const r = setTokenFolders(s, "read", []);
			if ("error" in r) throw new Error(r.error);
			return r.settings;
		});
		expect(await call(running, t, "read_note", { path: "Secret/S.md" }, modern)).toContain("hush");
		await apply((s) => {
			const r = setTokenRights(s, "read", { read_note: "deny" });
			if ("error" in r) throw new Error(r.error);
			return r.settings;
		});
		const denied = await call(running, t, "read_note", { path: "Secret/S.md" }, modern);
		expect(denied).not.toContain("hush");
		expect(denied).toContain("Tool read_note not found");
		await apply((s) => {
			const r = setTokenRights(s, "read", { read_note: "allow" });
			if ("error" in r) throw new Error(r.error);
			return r.settings;
		});
		expect(await call(running, t, "read_note", { path: "Secret/S.md" }, modern)).toContain("hush");
		await apply((s) => {
			const r = revokeToken(s, "read");
			if ("error" in r) throw new Error(r.error);
			return r.settings;
		});
		expect(await call(running, t, "read_note", { path: "Secret/S.md" }, modern)).toMatch(/^401/);
	});
});
