import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Logger } from "../../activity";
import { initialRights, type ToolRights } from "../../auth/rights";
import type { TokenLevel } from "../../auth/tokens";
import { FileSettingsStore } from "../../config/FileSettingsStore";
import { MAX_CLI_INTEGER } from "../../config/limits";
import type { VaultMcpSettings } from "../../config/settings";
import { connectionSnippets, SNIPPET_CLIENTS, type ConnectionSnippet } from "../../http/clientSnippets";
import { ALL_TOOLS } from "../../mcp/tools";
import { DEFAULT_CONFIG_DIR } from "../NodeVault";
import { visibleInTerminal } from "../terminalText";

/**
 * What a command reads and writes besides the vault: the process's streams and signals in the
 * real CLI, plain functions in tests, so every command runs through `run(argv, io)` unchanged.
 */
export interface CliIo {
	stdout(text: string): void;
	stderr(text: string): void;
	/** The terminal a person answers approvals in (its stream and file descriptor); null when there is none (a pipe, a service). */
	terminal: { input: NodeJS.ReadableStream; fd: number } | null;
	/** Settles when the person asks a running server to stop (Ctrl-C, SIGTERM). */
	stopRequested(): Promise<void>;
}

/**
 * A mistake in how the command was called: exit 2, with one line and a pointer to the help for
 * `helpTopic` (filled in by run from the command line when the thrower leaves it out). A message
 * that already says what to do sets `withHint` false and stays one line.
 */
export class UsageError extends Error {
	constructor(
		message: string,
		public helpTopic?: string,
		readonly withHint = true,
	) {
		super(message);
	}
}

/**
 * Log lines carry file, folder and token names, and error messages that quote them: each is printed
 * with the characters a terminal acts on made visible (line breaks the message itself makes stay).
 */
export function loggerFor(io: CliIo): Logger {
	return {
		info: (message) => io.stderr(`${visibleInTerminal(message, "\n")}\n`),
		warn: (message) => io.stderr(`warning: ${visibleInTerminal(message, "\n")}\n`),
		error: (message) => io.stderr(`error: ${visibleInTerminal(message, "\n")}\n`),
	};
}

/** Runs node's argument parser, turning its complaints into usage errors. */
export function asUsage<T>(parseArguments: () => T): T {
	try {
		return parseArguments();
	} catch (error) {
		throw new UsageError(error instanceof Error ? error.message : String(error));
	}
}

/** The vault folder argument, checked to be a folder. */
export async function vaultRootFrom(positionals: string[], index: number): Promise<string> {
	const given = positionals[index];
	if (given === undefined) throw new UsageError("The vault folder is required.");
	const root = nodePath.resolve(given);
	const stat = await fs.stat(root).catch(() => null);
	if (!stat?.isDirectory()) throw new UsageError(`Not a folder: ${root}`);
	return root;
}

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

/** A flag's value as a whole number from `min` to `max`, or a usage error naming the flag and both ends. */
export function positiveInteger(value: string | undefined, flag: string, min: number, max: number = MAX_CLI_INTEGER): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number < min || number > max) throw new UsageError(`${flag} needs a whole number from ${min} to ${max}.`);
	return number;
}

/** The path as a shell argument that works in sh and PowerShell alike. */
export function quoted(path: string): string {
	return /^[\w./:\\-]+$/.test(path) ? path : `"${path}"`;
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

/**
 * Write tokens made in the CLI start with every read tool allowed and every write tool set to ask,
 * as tokens made in the settings tab do: a token pasted into a client writes nothing unseen until
 * its owner says so (`--allow TOOL,…`, or `--allow-all-writes` for all of them).
 */
export function newTokenRights(level: TokenLevel, allowAllWrites: boolean): ToolRights {
	return initialRights(ALL_TOOLS, level, allowAllWrites ? "cli" : "settings-tab");
}
