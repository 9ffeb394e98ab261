import * as nodePath from "node:path";
import type { Logger } from "../../activity";
import { initialRights, type ToolRights } from "../../auth/rights";
import type { TokenLevel } from "../../auth/tokens";
import { FileSettingsStore } from "../../config/FileSettingsStore";
import type { VaultMcpSettings } from "../../config/settings";
import { connectionSnippets, SNIPPET_CLIENTS, type ConnectionSnippet } from "../../http/clientSnippets";
import { TOOL_RIGHT_SUBJECTS } from "../../mcp/toolRightSubjects";
import { DEFAULT_CONFIG_DIR } from "../NodeVault";
import { quoted } from "./io";

/*
 * What the commands that read a vault's data.json share (token, serve, undo). Kept out of io.ts, which
 * every command and run.ts load: these import the settings store (and zod), and `help` or a refused
 * command line runs none of them.
 */

/** The vault's data.json, where the plugin keeps its settings. */
export function settingsStoreOf(root: string): FileSettingsStore {
	return new FileSettingsStore(root, DEFAULT_CONFIG_DIR);
}

/** The saved settings, each warning about the file on stderr. */
export async function loadSettings(store: FileSettingsStore, logger: Logger): Promise<VaultMcpSettings> {
	const { settings, warnings } = await store.read();
	for (const warning of warnings) logger.warn(warning);
	return settings;
}

/**
 * Write tokens made in the CLI start with every read tool allowed and every write tool set to ask,
 * as tokens made in the settings tab do: a token pasted into a client writes nothing unseen until
 * its owner says so (`--allow TOOL,…`, or `--allow-all-writes` for all of them).
 */
export function newTokenRights(level: TokenLevel, allowAllWrites: boolean): ToolRights {
	return initialRights(TOOL_RIGHT_SUBJECTS, level, allowAllWrites ? "cli" : "settings-tab");
}

/** One client's snippet for this vault on `port`, the token filled in when there is one to show. */
export function snippetFor(root: string, port: number, client: ConnectionSnippet["id"], token?: string): ConnectionSnippet {
	const snippet = connectionSnippets({ port, vaultName: nodePath.basename(root) }, token).find((entry) => entry.id === client);
	if (!snippet) throw new Error(`No snippet for ${client}.`);
	return snippet;
}

/** The other clients' snippets are one command away; the port is named when it is not the one data.json keeps. */
function printConfigHint(root: string, port: number, storedPort: number): string {
	const portFlag = port === storedPort ? "" : ` --port ${port}`;
	return `Claude Desktop, Cursor or curl: vault-mcp serve ${quoted(root)}${portFlag} --print-config ${SNIPPET_CLIENTS.filter((client) => client !== "claude-code").join("|")}`;
}

/** How to connect Claude Code, and where the other clients' snippets are, as the CLI prints it. */
export function connectHint(root: string, port: number, storedPort: number, token?: string): string {
	return `Connect Claude Code with:\n  ${snippetFor(root, port, "claude-code", token).text}\n${printConfigHint(root, port, storedPort)}\n`;
}
