import { Agent, request as httpRequest } from "node:http";
import { revokeToken, setTokenFolders } from "../../src/auth/tokenList";
import { mcpHeaders } from "../helpers/http";
import { startService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const MODERN = "2026-07-28";
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "memo", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * A 2026-07-28 envelope a connection sent before is taken again without the SDK's check. On one
 * kept-alive connection, two tokens send the same envelope: each is still answered by its own
 * folders, and a token revoked between two requests is refused at once, envelope remembered or not.
 */
test("a remembered envelope carries no token's rights: another token on the same connection, and a revoked one", async () => {
	const vault = await makeVault({ "Notes/Open.md": "open\n", "Private/Diary.md": "diary words\n" });
	const running = await startService(vault, { levels: ["read", "write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const limited = setTokenFolders(running.settings, "read", ["Notes"]);
	if ("error" in limited) throw new Error(limited.error);
	await running.service.apply(limited.settings);
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	const sockets = new Set<unknown>();
	const read = (token: string, path: string) =>
		new Promise<{ status: number; body: string }>((resolve, reject) => {
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
							["Mcp-Method", "tools/call"],
							["Mcp-Name", "read_note"],
						]),
					),
				},
				(res) => {
					sockets.add(res.socket);
					let body = "";
					res.setEncoding("utf8");
					res.on("data", (chunk: string) => (body += chunk));
					res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
				},
			);
			req.on("error", reject);
			req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_note", arguments: { path }, _meta: ENVELOPE } }));
		});
	try {
		const writeToken = running.tokens.write ?? "";
		const readToken = running.tokens.read ?? "";
		expect((await read(writeToken, "Private/Diary.md")).body).toContain("diary words");
		// The same envelope on the same connection, from the token limited to Notes.
		const limitedAnswer = await read(readToken, "Private/Diary.md");
		expect(limitedAnswer.status).toBe(200);
		expect(limitedAnswer.body).not.toContain("diary words");
		expect(limitedAnswer.body).toContain('"isError":true');
		expect((await read(readToken, "Notes/Open.md")).body).toContain("open");
		const revoked = revokeToken(running.settings, "write");
		if ("error" in revoked) throw new Error(revoked.error);
		await running.service.apply(revoked.settings);
		const afterRevoke = await read(writeToken, "Private/Diary.md");
		expect(afterRevoke.status).toBe(401);
		expect(afterRevoke.body).not.toContain("diary words");
		// One connection throughout: the envelope was remembered for it.
		expect(sockets.size).toBe(1);
	} finally {
		agent.destroy();
		await running.stop();
		await removeDir(vault);
	}
});
