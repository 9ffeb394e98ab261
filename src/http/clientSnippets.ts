/**
 * Ready-to-paste connection snippets for the clients people use, shown by the settings tab and
 * printed by the CLI alike. Pure, so tests can check each one parses and connects. The token is
 * filled in only while a new token is on screen; otherwise the placeholder stays.
 */
import { MAX_SERVER_NAME_LENGTH } from "../config/limits";
import { endpointUrl } from "./endpointAddress";

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

/** The clients a snippet is made for, in the order they are shown. */
export const SNIPPET_CLIENTS: ReadonlyArray<ConnectionSnippet["id"]> = ["claude-code", "claude-desktop", "cursor", "curl"];

/** Which server a snippet connects to: its port, and the vault's name the client lists it under. */
export interface SnippetTarget {
	port: number;
	vaultName: string;
}

/**
 * The name a client lists this server under: `vault-` and the vault's name, in the letters, digits,
 * `-` and `_` that Claude Code accepts in a server name. Named after the vault so that serving a
 * second vault adds a second server, not a clash with the first ("already exists"). Pure.
 */
export function serverNameFor(vaultName: string): string {
	const words = vaultName
		.normalize("NFKD")
		.replace(/[\u0300-\u036f]/g, "")
		.toLowerCase()
		.split(/[^a-z0-9_]+/)
		.filter((word) => word !== "");
	const slug = trimDashes(words.join("-").slice(0, MAX_SERVER_NAME_LENGTH - "vault-".length));
	return slug === "" ? "vault" : `vault-${slug}`;
}

/** The text without dashes at either end, in linear time (a pattern anchored at the end would retry from every dash). */
function trimDashes(text: string): string {
	let start = 0;
	let end = text.length;
	while (start < end && text[start] === "-") start++;
	while (end > start && text[end - 1] === "-") end--;
	return text.slice(start, end);
}

export function connectionSnippets(target: SnippetTarget, token: string = TOKEN_PLACEHOLDER): ConnectionSnippet[] {
	const url = endpointUrl(target.port);
	const name = serverNameFor(target.vaultName);
	return [
		{
			id: "claude-code",
			title: "Claude Code",
			where: "Run in a terminal.",
			text: `claude mcp add --transport http ${name} ${url} --header "Authorization: Bearer ${token}"`,
		},
		{
			id: "claude-desktop",
			title: "Claude Desktop",
			where: "Add to claude_desktop_config.json (needs Node.js for npx). The token sits in env so that no argument contains a space.",
			text: JSON.stringify(
				{
					mcpServers: {
						[name]: {
							command: "npx",
							args: ["-y", `mcp-remote@${MCP_REMOTE_VERSION}`, url, "--header", "Authorization:${AUTH_HEADER}"],
							env: { AUTH_HEADER: `Bearer ${token}` },
						},
					},
				},
				null,
				2,
			),
		},
		{
			id: "cursor",
			title: "Cursor",
			where: "Add to ~/.cursor/mcp.json.",
			text: JSON.stringify({ mcpServers: { [name]: { url, headers: { Authorization: `Bearer ${token}` } } } }, null, 2),
		},
		{
			id: "curl",
			title: "curl",
			where: "Check the server answers.",
			text: `curl -s ${url} -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" -H "Accept: application/json, text/event-stream" -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_vault_status","arguments":{}}}'`,
		},
	];
}
