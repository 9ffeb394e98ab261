import { promises as fs, unwatchFile, watchFile } from "node:fs";
import * as nodePath from "node:path";
import { parseArgs } from "node:util";
import { SEARCH_LANGUAGES, type SearchLanguage } from "../search/languages";
import type { Logger } from "../activity";
import { applyRightChanges, effectiveRight, initialRights, rightsTable, type RightChanges, type ToolRight, type ToolRights } from "../auth/rights";
import { addToken, revokeToken, setTokenRights, tokenFoldersText, unknownTokenMessage, withToolRight } from "../auth/tokenList";
import { ALL_TOOLS } from "../mcp/tools";
import type { TokenLevel, TokenRecord } from "../auth/tokens";
import { HIDDEN_LINKS_NAMED, HISTORY_DEFAULT_LIMIT, MAX_CLI_INTEGER, MAX_PORT, MIN_PORT, SETTINGS_POLL_INTERVAL_MS } from "../config/limits";
import { connectionSnippets, SNIPPET_CLIENTS, type ConnectionSnippet } from "../http/clientSnippets";
import { McpService } from "../service";
import type { VaultMcpSettings } from "../config/settings";
import { normalizeExcludedFolder, normalizeFolderList } from "../paths/spelling";
import { VERSION } from "../version";
import { helpFor, HISTORY_COMMAND, INSPECT_COMMAND, SERVE_COMMAND, TOKEN_FOLDERS_COMMAND, TOKEN_LIST_COMMAND, TOKEN_NEW_COMMAND, TOKEN_REVOKE_COMMAND, TOKEN_RIGHTS_COMMAND, UNDO_COMMAND, usageHint } from "./cliHelp";
import { foldersFromFlags, missingFolderWarnings, runTokenFolders } from "./tokenFoldersCommand";
import { FileSettingsStore } from "../config/FileSettingsStore";
import { JournalFile } from "../journal/JournalFile";
import { describeUndo, undoCall, unknownCallReason } from "../journal/undo";
import { NodeHost } from "./NodeHost";
import { readTypedAhead, TerminalApprover } from "./TerminalApprover";
import { DEFAULT_CONFIG_DIR } from "./NodeVault";
import { visibleInTerminal } from "./terminalText";

/**
 * A mistake in how the command was called: exit 2, with one line and a pointer to the help for
 * `helpTopic` (filled in by main from the command line when the thrower leaves it out). A message
 * that already says what to do sets `withHint` false and stays one line.
 */
class UsageError extends Error {
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
const stderrLogger: Logger = {
	info: (message) => process.stderr.write(`${visibleInTerminal(message, "\n")}\n`),
	warn: (message) => process.stderr.write(`warning: ${visibleInTerminal(message, "\n")}\n`),
	error: (message) => process.stderr.write(`error: ${visibleInTerminal(message, "\n")}\n`),
};

async function main(argv: string[]): Promise<number> {
	const [command, ...rest] = argv;
	const topic = helpTopicOf(argv);
	if (command === "help" || command === "--help" || command === "-h") return printHelp(command === "help" ? rest.join(" ") : "");
	if (topic !== undefined && (rest.includes("--help") || rest.includes("-h"))) return printHelp(topic);
	try {
		switch (command) {
			case "serve":
				return await serve(rest);
			case "token":
				return await token(rest);
			case "inspect":
				return await inspect(rest);
			case "history":
				return await history(rest);
			case "undo":
				return await undo(rest);
			case "--version":
				process.stdout.write(`${VERSION}\n`);
				return 0;
			default:
				throw new UsageError(command === undefined ? "A command is required." : `Unknown command: ${command}`);
		}
	} catch (error) {
		if (error instanceof UsageError) error.helpTopic ??= topic;
		throw error;
	}
}

/** The help topic a command line is about: "serve", "token new", "token" (action unknown), or none. */
function helpTopicOf(argv: string[]): string | undefined {
	const [command, action] = argv;
	if (command === "serve" || command === "inspect" || command === "history" || command === "undo") return command;
	if (command !== "token") return undefined;
	return action === "new" || action === "list" || action === "rights" || action === "folders" || action === "revoke" ? `token ${action}` : "token";
}

function printHelp(topic: string): number {
	const text = helpFor(topic);
	if (text === undefined) throw new UsageError(`No help for "${topic}": there is no such command.`, undefined);
	process.stdout.write(`${text}\n`);
	return 0;
}

/** Runs node's argument parser, turning its complaints into usage errors. */
function asUsage<T>(parseArguments: () => T): T {
	try {
		return parseArguments();
	} catch (error) {
		throw new UsageError(error instanceof Error ? error.message : String(error));
	}
}

/** The vault folder argument, checked to be a folder. */
async function vaultRootFrom(positionals: string[], index: number): Promise<string> {
	const given = positionals[index];
	if (given === undefined) throw new UsageError("The vault folder is required.");
	const root = nodePath.resolve(given);
	const stat = await fs.stat(root).catch(() => null);
	if (!stat?.isDirectory()) throw new UsageError(`Not a folder: ${root}`);
	return root;
}

async function loadSettings(store: FileSettingsStore): Promise<VaultMcpSettings> {
	const { settings, warnings } = await store.read();
	for (const warning of warnings) stderrLogger.warn(warning);
	return settings;
}

function positiveInteger(value: string | undefined, flag: string, min: number): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number < min || number > MAX_CLI_INTEGER) throw new UsageError(`${flag} needs a whole number of at least ${min}.`);
	return number;
}

/** --language: one of the search languages, or a usage error that lists them. */
function searchLanguageFlag(value: string | undefined): SearchLanguage | undefined {
	if (value === undefined) return undefined;
	const language = SEARCH_LANGUAGES.find((name) => name === value.trim().toLowerCase());
	if (!language) throw new UsageError(`--language needs one of: ${SEARCH_LANGUAGES.join(", ")}.`);
	return language;
}

/**
 * Serving a folder that is not a vault yet would create `.obsidian` as a side effect of saving a
 * token: a typo in the path would quietly become a new vault. So it has to be asked for.
 */
async function requireConfigFolder(root: string, init: boolean): Promise<void> {
	const configFolder = nodePath.join(root, DEFAULT_CONFIG_DIR);
	if (await fs.stat(configFolder).then((stat) => stat.isDirectory(), () => false)) return;
	if (!init) throw new UsageError(`${root} has no ${DEFAULT_CONFIG_DIR} folder, so it is not an Obsidian vault yet: check the path, or add --init to make it one.`, undefined, false);
	await fs.mkdir(configFolder);
	stderrLogger.info(`Created ${configFolder}: ${root} is now a vault Obsidian can open.`);
}

/** The path as a shell argument that works in sh and PowerShell alike. */
function quoted(path: string): string {
	return /^[\w./:\\-]+$/.test(path) ? path : `"${path}"`;
}

/** One client's snippet for this vault on `port`, the token filled in when there is one to show. */
function snippetFor(root: string, port: number, client: ConnectionSnippet["id"], token?: string): ConnectionSnippet {
	const snippet = connectionSnippets({ port, vaultName: nodePath.basename(root) }, token).find((entry) => entry.id === client);
	if (!snippet) throw new Error(`No snippet for ${client}.`);
	return snippet;
}

/** The other clients' snippets are one command away; the port is named when it is not the one data.json keeps. */
function printConfigHint(root: string, port: number, storedPort: number): string {
	const portFlag = port === storedPort ? "" : ` --port ${port}`;
	return `Claude Desktop, Cursor or curl: vault-mcp serve ${quoted(root)}${portFlag} --print-config ${SNIPPET_CLIENTS.filter((client) => client !== "claude-code").join("|")}`;
}

/**
 * Write tokens made in the CLI start with every read tool allowed and every write tool set to ask,
 * as tokens made in the settings tab do: a token pasted into a client writes nothing unseen until
 * its owner says so (`--allow TOOL,…`, or `--allow-all-writes` for all of them).
 */
function newTokenRights(level: TokenLevel, allowAllWrites: boolean): ToolRights {
	return initialRights(ALL_TOOLS, level, allowAllWrites ? "cli" : "settings-tab");
}

/**
 * Write tools a token may only call once a person approves, named per token: a `serve` with no
 * terminal has nobody to ask, so those calls are refused, and the person should hear it at start.
 */
function askingTools(tokens: readonly TokenRecord[]): Array<{ token: string; tools: string[] }> {
	return tokens
		.map((record) => ({ token: record.name, tools: ALL_TOOLS.filter((tool) => tool.access === "write" && effectiveRight(record, tool, true) === "ask").map((tool) => tool.name) }))
		.filter((entry) => entry.tools.length > 0);
}

/**
 * Tells, on stderr, how to connect and — since a token is shown only once — how to get a token
 * when the person has none that works here: none at all, lost ones, or no write token for --allow-write.
 */
function announceConnection(root: string, tokens: TokenRecord[], port: number, storedPort: number, allowWrite: boolean, tokenMadeThisRun: string | undefined, canAsk: boolean): void {
	const makeOne = (level: TokenLevel) => `vault-mcp token new ${quoted(root)} --name NAME${level === "write" ? " --level write" : ""}`;
	if (tokenMadeThisRun === undefined) {
		const names = tokens.map((record) => `${record.name} (${record.level})`).join(", ");
		stderrLogger.info(`Tokens in data.json: ${names}. Each was shown once; for a lost one or a new client, make another: ${makeOne("read")}`);
		if (allowWrite && !tokens.some((record) => record.level === "write")) {
			stderrLogger.warn(`--allow-write has no effect without a write token; make one: ${makeOne("write")}`);
		}
	}
	if (allowWrite && !canAsk) {
		for (const { token, tools } of askingTools(tokens)) {
			stderrLogger.warn(
				`token "${token}" has write tools set to ask (${tools.join(", ")}), and this serve has no terminal to ask in, so those calls will be refused. Run serve in a terminal to answer them, or let them run without asking: vault-mcp token rights ${quoted(root)} ${quoted(token)} --allow ${tools.join(",")}`,
			);
		}
	}
	stderrLogger.info(`Connect Claude Code with:\n  ${snippetFor(root, port, "claude-code", tokenMadeThisRun).text}\n${printConfigHint(root, port, storedPort)}\n`);
}

/** `serve --print-config CLIENT`: the client's snippet for this vault, with a token placeholder, on stdout. */
async function printConfig(root: string, client: string, port: number | undefined): Promise<number> {
	if (!(SNIPPET_CLIENTS as readonly string[]).includes(client)) throw new UsageError(`--print-config must be one of ${SNIPPET_CLIENTS.join(", ")}.`);
	if (port === 0) throw new UsageError("--print-config needs the port the server will listen on: give a fixed --port, or none for the one in data.json.");
	const stored = await loadSettings(new FileSettingsStore(root, DEFAULT_CONFIG_DIR));
	const snippet = snippetFor(root, port ?? stored.port, client as ConnectionSnippet["id"]);
	process.stdout.write(`${snippet.text}\n`);
	stderrLogger.info(`${snippet.where} Put a token in place of <token> (make one: vault-mcp token new ${quoted(root)} --name NAME).`);
	return 0;
}

async function serve(args: string[]): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: SERVE_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const port = positiveInteger(values.port, "--port", MIN_PORT);
	if (port !== undefined && port > MAX_PORT) throw new UsageError(`--port must be ${MIN_PORT} to ${MAX_PORT}.`);
	const rateLimit = positiveInteger(values["rate-limit"], "--rate-limit", 1);
	const allowWrite = values["allow-write"] === true;
	if (values["print-config"] !== undefined) return printConfig(root, values["print-config"], port);
	await requireConfigFolder(root, values.init);

	const store = new FileSettingsStore(root, DEFAULT_CONFIG_DIR);
	let stored = await loadSettings(store);
	const excludeFlags = excludedFoldersFromFlags(values.exclude ?? [], root);
	const stopWordsFlag = values["stop-words"]?.split(",").map((word) => word.trim()).filter((word) => word !== "");
	const languageFlag = searchLanguageFlag(values.language);
	let tokenMadeThisRun: string | undefined;
	if (stored.tokens.length === 0) {
		const level: TokenLevel = allowWrite ? "write" : "read";
		stored = await store.update((current) => {
			const made = addToken(current, "cli", level, newTokenRights(level, false));
			if ("error" in made) throw new Error(made.error);
			tokenMadeThisRun = made.token;
			return made.settings;
		});
		stderrLogger.info(`Created a ${level} token named "cli". It is shown this once and stored only as a hash:\n\n  ${tokenMadeThisRun ?? ""}\n`);
	}

	// Flags apply to this run only; data.json keeps what the plugin set.
	const runSettingsFrom = (saved: VaultMcpSettings): VaultMcpSettings => ({
		...saved,
		serverEnabled: true,
		port: port ?? stored.port,
		writeEnabled: allowWrite,
		excludedFolders: normalizeFolderList([...saved.excludedFolders, ...excludeFlags]),
		rateLimitPerMinute: rateLimit ?? saved.rateLimitPerMinute,
		promptsFolder: values.prompts ?? saved.promptsFolder,
		searchStopWords: stopWordsFlag ?? saved.searchStopWords,
		searchLanguage: languageFlag ?? saved.searchLanguage,
	});
	let runSettings = runSettingsFrom(stored);

	const host = await NodeHost.open(root, { watch: true });
	warnAboutHiddenFolders(host, runSettings.excludedFolders);
	// Only a person at a terminal can answer a tool set to Ask; without one, such calls are refused at once.
	const canAsk = process.stdin.isTTY;
	const approver = canAsk ? new TerminalApprover(process.stdin, (text) => process.stderr.write(text), () => readTypedAhead(process.stdin.fd)) : undefined;
	const service = new McpService({
		host,
		serverVersion: VERSION,
		logger: stderrLogger,
		settingsStore: store,
		journal: servedJournal(root),
		approver,
		setToolRight: async (tokenName, tool, right) => {
			await store.update((current) => withToolRight(current, tokenName, tool, right, ALL_TOOLS));
		},
	});
	const status = await service.apply(runSettings);
	if (status.state !== "listening") {
		// The service has already logged why, as one line on stderr.
		await host.close();
		return 1;
	}
	// After listening, so that the command carries the port actually bound (--port 0 picks one).
	announceConnection(root, stored.tokens, status.port, stored.port, allowWrite, tokenMadeThisRun, canAsk);
	process.stdout.write(`listening on ${status.url}\n`);

	// Tokens made or revoked with `token new|revoke` (or in the plugin) while serving count within a second.
	const followSettings = new SettingsFollower(store, (saved) => {
		runSettings = { ...runSettingsFrom(saved), port: runSettings.port };
		void service.apply(runSettings);
	});
	followSettings.start();

	await new Promise<void>((resolve) => {
		process.once("SIGINT", resolve);
		process.once("SIGTERM", resolve);
	});
	followSettings.stop();
	approver?.close();
	await service.stop();
	await host.close();
	return 0;
}

/**
 * `--exclude` values in the vault's spelling: `./x`, `x/`, an absolute path inside the vault and
 * any Unicode form all name the same folder. One that names no folder inside the vault is a usage error.
 */
function excludedFoldersFromFlags(flags: readonly string[], root: string): string[] {
	return flags.map((flag) => {
		const folder = normalizeExcludedFolder(flag, root);
		if (folder === null) throw new UsageError(`--exclude ${JSON.stringify(flag)} names no folder inside the vault ${root}.`);
		return folder;
	});
}

/** Tells the person, on stderr, about exclusions that match no folder yet and about linked folders and files the jail hides. */
function warnAboutHiddenFolders(host: NodeHost, excluded: readonly string[]): void {
	// A name is escaped whole (its line breaks too), so a file name cannot start a line of its own.
	for (const folder of excluded) {
		if (!host.vault.getFolderByPath(folder)) stderrLogger.warn(`excluded folder "${visibleInTerminal(folder)}" does not exist (yet); it will be excluded when it does.`);
	}
	const links = host.vault.hiddenLinks();
	if (links.length > 0) {
		const named = links.slice(0, HIDDEN_LINKS_NAMED).map((link) => visibleInTerminal(link));
		stderrLogger.warn(`${links.length} symbolic link${links.length === 1 ? "" : "s"} in the vault ${links.length === 1 ? "is" : "are"} hidden from clients (the server never follows symbolic links): ${named.join(", ")}${links.length > HIDDEN_LINKS_NAMED ? ", …" : ""}`);
	}
}

/** Watches data.json (by polling its stat, which survives atomic replaces) and hands each readable new version on. */
class SettingsFollower {
	private reading: Promise<void> = Promise.resolve();

	constructor(
		private readonly store: FileSettingsStore,
		private readonly onChange: (settings: VaultMcpSettings) => void,
	) {}

	start(): void {
		watchFile(this.store.path, { interval: SETTINGS_POLL_INTERVAL_MS, persistent: false }, this.listener);
	}

	stop(): void {
		unwatchFile(this.store.path, this.listener);
	}

	private readonly listener = (): void => {
		this.reading = this.reading.then(async () => {
			try {
				this.onChange(await loadSettings(this.store));
			} catch (error) {
				// A file that cannot be read now keeps the settings in force; the next good save is followed.
				stderrLogger.warn(`data.json changed but could not be read; the settings in force stay: ${error instanceof Error ? error.message : String(error)}`);
			}
		});
	};
}

/** --allow/--ask/--deny values: tool names, comma-separated or the flag repeated. */
function rightChangesFrom(values: { allow?: string[]; ask?: string[]; deny?: string[] }): RightChanges {
	const names = (list: string[] | undefined) => (list ?? []).flatMap((item) => item.split(",")).map((name) => name.trim()).filter((name) => name !== "");
	return { allow: names(values.allow), ask: names(values.ask), deny: names(values.deny) };
}

/** A token's rights as one line per tool. */
function rightsText(rights: Record<string, ToolRight>): string {
	const width = Math.max(...Object.keys(rights).map((name) => name.length));
	return Object.entries(rights)
		.map(([name, right]) => `  ${name.padEnd(width)}  ${right}`)
		.join("\n");
}

async function token(args: string[]): Promise<number> {
	const [action, ...rest] = args;
	const command = { new: TOKEN_NEW_COMMAND, list: TOKEN_LIST_COMMAND, rights: TOKEN_RIGHTS_COMMAND, folders: TOKEN_FOLDERS_COMMAND, revoke: TOKEN_REVOKE_COMMAND }[action ?? ""];
	if (!command) throw new UsageError(action === undefined ? "token needs new, list, rights, folders or revoke." : `Unknown token action: ${action}`);
	if (action === "new") return tokenNew(rest);
	if (action === "rights") return tokenRights(rest);
	if (action === "folders") return tokenFolders(rest);
	const { values, positionals } = asUsage(() => parseArgs({ args: rest, allowPositionals: true, options: command.options }));
	const root = await vaultRootFrom(positionals, 0);
	const store = new FileSettingsStore(root, DEFAULT_CONFIG_DIR);
	const settings = await loadSettings(store);
	if (action === "list") {
		if ((values as { json?: boolean }).json === true) {
			const listed = settings.tokens.map((record) => ({ name: record.name, level: record.level, created: record.created, lastUsed: record.lastUsed, rights: rightsTable(record, ALL_TOOLS), folders: record.folders ?? [] }));
			process.stdout.write(`${JSON.stringify(listed)}\n`);
			return 0;
		}
		if (settings.tokens.length === 0) stderrLogger.info(`No tokens yet. Make one: vault-mcp token new ${quoted(root)} --name NAME`);
		for (const record of settings.tokens) {
			process.stdout.write(`${visibleInTerminal(record.name)}\t${record.level}\t${record.displayPrefix}…\tcreated ${record.created}\tlast used ${record.lastUsed ?? "never"}${record.folders?.length ? `\tfolders ${visibleInTerminal(tokenFoldersText(record))}` : ""}\n`);
		}
		return 0;
	}
	if (action === "revoke") {
		const name = positionals[1];
		if (name === undefined) throw new UsageError("token revoke needs the token's name.");
		const revoked = revokeToken(settings, name);
		if ("error" in revoked) {
			stderrLogger.error(revoked.error);
			return 1;
		}
		await store.update((current) => {
			const again = revokeToken(current, name);
			return "error" in again ? current : again.settings;
		});
		process.stdout.write(`Revoked "${visibleInTerminal(name)}".\n`);
		return 0;
	}
	throw new UsageError(`Unknown token action: ${action}`);
}

async function tokenNew(args: string[]): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: TOKEN_NEW_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const store = new FileSettingsStore(root, DEFAULT_CONFIG_DIR);
	const settings = await loadSettings(store);
	const name = values.name;
	if (name === undefined) throw new UsageError("token new needs --name NAME.");
	const level = values.level;
	if (level !== "read" && level !== "write") throw new UsageError("--level must be read or write.");
	if (values["allow-all-writes"] === true && level !== "write") throw new UsageError("--allow-all-writes is for write tokens: add --level write.");
	const rights = applyRightChanges({ level, rights: newTokenRights(level, values["allow-all-writes"] === true) }, rightChangesFrom(values), ALL_TOOLS);
	if ("error" in rights) throw new UsageError(rights.error, undefined, false);
	const folders = foldersFromFlags(values.folders ?? [], root);
	if ("error" in folders) throw new UsageError(folders.error, undefined, false);
	for (const warning of await missingFolderWarnings(root, folders.folders)) stderrLogger.warn(warning);
	const made = { token: "" };
	await store.update((current) => {
		const added = addToken(current, name, level, rights.rights, folders.folders);
		if ("error" in added) throw new UsageError(added.error, undefined, false);
		made.token = added.token;
		return added.settings;
	});
	const shown = rightsTable({ level, rights: rights.rights }, ALL_TOOLS);
	if (values.json === true) {
		process.stdout.write(`${JSON.stringify({ name: name.trim(), level, token: made.token, rights: shown, ...(folders.folders.length > 0 ? { folders: folders.folders } : {}) })}\n`);
	} else {
		process.stdout.write(`Token "${visibleInTerminal(name.trim())}" (${level}). It is shown this once; only its hash is kept:\n\n  ${made.token}\n\n`);
		process.stdout.write(`Rights:\n${rightsText(shown)}\n\nFolders: ${visibleInTerminal(tokenFoldersText({ folders: folders.folders }))}\n\n`);
		if (Object.values(rights.rights).includes("ask")) {
			process.stdout.write(`Write tools set to ask wait for your yes in Obsidian, or in \`vault-mcp serve\` run in a terminal. To let some run without asking: vault-mcp token rights ${quoted(root)} ${quoted(name.trim())} --allow TOOL,…\n\n`);
		}
		process.stdout.write(`Connect Claude Code with:\n  ${snippetFor(root, settings.port, "claude-code", made.token).text}\n${printConfigHint(root, settings.port, settings.port)}\n`);
	}
	return 0;
}

async function tokenRights(args: string[]): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: TOKEN_RIGHTS_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const name = positionals[1];
	if (name === undefined) throw new UsageError("token rights needs the token's name.");
	const store = new FileSettingsStore(root, DEFAULT_CONFIG_DIR);
	const changes = rightChangesFrom(values);
	const unchanged = Object.values(changes).every((list) => list.length === 0);
	// Only asking what the rights are reads data.json and leaves it as it is.
	const settings = unchanged
		? await loadSettings(store)
		: await store.update((current) => {
				const found = current.tokens.find((candidate) => candidate.name === name);
				if (!found) throw new UsageError(unknownTokenMessage(current, name), undefined, false);
				const next = applyRightChanges(found, changes, ALL_TOOLS);
				if ("error" in next) throw new UsageError(next.error, undefined, false);
				const saved = setTokenRights(current, name, next.rights);
				if ("error" in saved) throw new UsageError(saved.error, undefined, false);
				return saved.settings;
			});
	const record = settings.tokens.find((candidate) => candidate.name === name);
	if (!record) throw new UsageError(unknownTokenMessage(settings, name), undefined, false);
	const shown = rightsTable(record, ALL_TOOLS);
	if (values.json === true) process.stdout.write(`${JSON.stringify({ name, level: record.level, rights: shown })}\n`);
	else process.stdout.write(`Rights of "${visibleInTerminal(name)}" (${record.level}):\n${rightsText(shown)}\n`);
	return 0;
}

/** `token folders`: the logic lives in tokenFoldersCommand.ts; this parses and prints. */
async function tokenFolders(args: string[]): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: TOKEN_FOLDERS_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const name = positionals[1];
	if (name === undefined) throw new UsageError("token folders needs the token's name.");
	const given = positionals.slice(2);
	const outcome = await runTokenFolders(new FileSettingsStore(root, DEFAULT_CONFIG_DIR), { root, name, folders: given.length > 0 ? given : undefined, wholeVault: values["whole-vault"], json: values.json });
	if ("error" in outcome && outcome.usage) throw new UsageError(outcome.error, undefined, false);
	if ("error" in outcome) {
		stderrLogger.error(outcome.error);
		return 1;
	}
	for (const warning of outcome.warnings) stderrLogger.warn(warning);
	process.stdout.write(visibleInTerminal(outcome.out, "\n"));
	return 0;
}

/** Prints Obsidian-shaped metadata: one note's CachedMetadata, or the vault's link maps. */
async function inspect(args: string[]): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: INSPECT_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const notePath = positionals[1];
	if (values.links === (notePath !== undefined)) throw new UsageError("inspect needs either a note path or --links.");
	const host = await NodeHost.open(root);
	await host.metadataCache.settled();
	try {
		if (values.links) {
			const { resolvedLinks, unresolvedLinks } = host.metadataCache;
			process.stdout.write(`${JSON.stringify({ resolvedLinks, unresolvedLinks }, null, 2)}\n`);
			return 0;
		}
		const file = host.vault.getFileByPath(notePath ?? "") ?? host.vault.getFileByPath(`${notePath ?? ""}.md`);
		const cache = file ? host.metadataCache.getFileCache(file) : null;
		if (!file || !cache) {
			stderrLogger.error(`No Markdown note at "${notePath ?? ""}" in ${root}.`);
			return 1;
		}
		process.stdout.write(`${JSON.stringify(cache, null, 2)}\n`);
		return 0;
	} finally {
		await host.close();
	}
}

/** The vault's write journal, with a warning when lines of it could not be read. */
function openJournal(root: string): JournalFile {
	const journal = JournalFile.forVault(root, DEFAULT_CONFIG_DIR, { onProblem: (message) => stderrLogger.warn(message) });
	if (journal.skippedLines > 0) stderrLogger.warn(`${journal.skippedLines} damaged line${journal.skippedLines === 1 ? " was" : "s were"} skipped in ${journal.path} (a write cut short by a crash?); the rest is intact.`);
	return journal;
}

/** The journal serve writes through; a linked one is said at once (writes stay refused until it is fixed). */
function servedJournal(root: string): JournalFile {
	const journal = openJournal(root);
	if (journal.problem !== null) stderrLogger.warn(journal.problem);
	return journal;
}

/** Lists journalled tool calls, newest first; --json without note text. */
async function history(args: string[]): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: HISTORY_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	if (positionals.length > 1) throw new UsageError(`history takes one vault folder; unexpected: ${positionals.slice(1).join(" ")}`);
	const limit = positiveInteger(values.limit, "--limit", 1) ?? HISTORY_DEFAULT_LIMIT;
	const entries = openJournal(root).list(limit);
	if (values.json) {
		const withoutText = entries.map(({ changes, ...call }) => ({ ...call, changes: changes.map(({ path, movedFrom, beforeHash, afterHash }) => ({ path, ...(movedFrom === undefined ? {} : { movedFrom }), beforeHash, afterHash })) }));
		process.stdout.write(`${JSON.stringify(withoutText)}\n`);
		return 0;
	}
	if (entries.length === 0) stderrLogger.info(`No changes made through Vault MCP are recorded in ${root}.`);
	for (const entry of entries) {
		// Every field is escaped whole, tabs and line breaks included: a name cannot add a column or a line.
		const shown = (text: string) => visibleInTerminal(text);
		const paths = [...new Set(entry.changes.map((change) => (change.movedFrom === undefined ? shown(change.path) : `${shown(change.movedFrom)} → ${shown(change.path)}`)))].join(", ");
		process.stdout.write(`${shown(entry.id)}\t${shown(entry.time)}\t${shown(entry.tokenName)}\t${shown(entry.tool)}\t${paths}${entry.undone ? `\tundone by ${shown(entry.undone.by)}` : ""}\n`);
	}
	return 0;
}

/** Undoes one journalled call: exit 0 with what was done, or 1 with why not. */
async function undo(args: string[]): Promise<number> {
	const { positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: UNDO_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const id = positionals[1];
	if (id === undefined) throw new UsageError(`undo needs the id of a change; \`vault-mcp history ${quoted(root)}\` lists them.`);
	if (positionals.length > 2) throw new UsageError(`undo takes one id; unexpected: ${positionals.slice(2).join(" ")}`);
	const journal = openJournal(root);
	if (!journal.get(id)) {
		// Said before the vault is read, which can take a while.
		stderrLogger.error(`${unknownCallReason(id)} \`vault-mcp history ${quoted(root)}\` lists them.`);
		return 1;
	}
	// Undo writes nowhere a token could not: the saved excluded folders hold for it too.
	const { excludedFolders } = await loadSettings(new FileSettingsStore(root, DEFAULT_CONFIG_DIR));
	const host = await NodeHost.open(root);
	try {
		const outcome = await undoCall(host, journal, id, undefined, excludedFolders);
		if (!outcome.ok) {
			stderrLogger.error(outcome.reason);
			return 1;
		}
		process.stdout.write(`${visibleInTerminal(describeUndo(outcome), "\n")}\n`);
		return 0;
	} finally {
		await host.close();
	}
}

/**
 * Ends the process with `code` once everything written to stdout and stderr has left the process.
 * On a pipe Node writes asynchronously, so `process.exit` straight after a large write cuts the
 * output (a `history --json` of a few hundred KiB piped to another program arrived cut at 64 KiB).
 * A write's callback runs after every write before it, so an empty write per stream marks the end.
 */
async function exitAfterOutput(code: number): Promise<never> {
	const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => (stream.writableEnded || stream.destroyed ? resolve() : stream.write("", () => resolve())));
	await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
	process.exit(code);
}

main(process.argv.slice(2)).then(
	(code) => exitAfterOutput(code),
	(error: unknown) => {
		if (error instanceof UsageError) {
			process.stderr.write(`error: ${visibleInTerminal(error.message, "\n")}\n${error.withHint ? `${usageHint(error.helpTopic)}\n` : ""}`);
			return exitAfterOutput(2);
		}
		stderrLogger.error(error instanceof Error ? error.message : String(error));
		return exitAfterOutput(1);
	},
);
