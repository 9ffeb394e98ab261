/**
 * Ready-to-paste connection snippets for the clients people use. Pure, so tests can check each
 * one parses and connects. The token is filled in only while a new token is on screen; otherwise
 * the placeholder stays.
 */
import { endpointUrl } from "../http/server";

export const TOKEN_PLACEHOLDER = "<token>";

/**
 * The mcp-remote release the Claude Desktop snippet pins: the one the end-to-end tests run (the
 * devDependency), so `npx` never fetches a newer bridge nobody has tried with this server.
 */
export const MCP_REMOTE_VERSION = "0.15.1";

export interface ConnectionSnippet {
	id: "claude-code" | "claude-desktop" | "cursor" | "curl";
	title: string;
	/** Where to put it, in one sentence. */
	where: string;
	text: string;
}

export function connectionSnippets(port: number, token: string = TOKEN_PLACEHOLDER): ConnectionSnippet[] {
	const url = endpointUrl(port);
	return [
		{
			id: "claude-code",
			title: "Claude Code",
			where: "Run in a terminal.",
			text: `claude mcp add --transport http vault ${url} --header "Authorization: Bearer ${token}"`,
		},
		{
			id: "claude-desktop",
			title: "Claude Desktop",
			where: "Add to claude_desktop_config.json (needs Node.js for npx). The token sits in env so that no argument contains a space.",
			text: JSON.stringify({ mcpServers: { vault: { command: "npx", args: ["-y", `mcp-remote@${MCP_REMOTE_VERSION}`, url, "--header", "Authorization:${AUTH_HEADER}"], env: { AUTH_HEADER: `Bearer ${token}` } } } }, null, 2),
		},
		{
			id: "cursor",
			title: "Cursor",
			where: "Add to ~/.cursor/mcp.json.",
			text: JSON.stringify({ mcpServers: { vault: { url, headers: { Authorization: `Bearer ${token}` } } } }, null, 2),
		},
		{
			id: "curl",
			title: "curl",
			where: "Check the server answers.",
			text: `curl -s ${url} -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" -H "Accept: application/json, text/event-stream" -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_vault_status","arguments":{}}}'`,
		},
	];
}
