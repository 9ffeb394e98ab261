import { promises as fs, unwatchFile, watchFile } from "node:fs";
import * as nodePath from "node:path";
import { parseArgs } from "node:util";
import type { Logger } from "../../activity";
import { effectiveRight } from "../../auth/rights";
import { addToken, withAskRaised } from "../../auth/tokenList";
import type { TokenLevel, TokenRecord } from "../../auth/tokens";
import type { FileSettingsStore } from "../../config/FileSettingsStore";
import type { SettingsStore } from "../../config/store";
import { HIDDEN_LINKS_NAMED, MAX_PORT, MIN_PORT, SETTINGS_POLL_INTERVAL_MS, STARTUP_PARSE_SLICES_PER_NOTE } from "../../config/limits";
import type { VaultMcpSettings } from "../../config/settings";
import { vaultRootSpellings } from "../../config/vaultRootSpellings";
import { SNIPPET_CLIENTS, type ConnectionSnippet } from "../../http/clientSnippets";
import { ALL_TOOLS } from "../../mcp/tools";
import { normalizeExcludedFolder } from "../../paths/spelling";
import { SEARCH_LANGUAGES, type SearchLanguage } from "../../search/languages";
import { McpService, type McpServiceDeps, type ServiceStatus } from "../../service";
import { VERSION } from "../../version";
import { SERVE_COMMAND } from "../cliHelp";
import { NodeHost } from "../NodeHost";
import { DEFAULT_CONFIG_DIR } from "../NodeVault";
import { readTypedAhead, TerminalApprover } from "../TerminalApprover";
import { visibleInTerminal } from "../terminalText";
import { asUsage, loggerFor, positiveInteger, quoted, UsageError, vaultRootFrom, type CliIo } from "./io";
import { connectHint, loadSettings, newTokenRights, settingsStoreOf, snippetFor } from "./vaultSettings";
import { servedJournal } from "./journal";
import { followMoves } from "../../journal/followMoves";

/**
 * How serve saves "Always allow": into data.json as it is now, under its lock, raising the right only
 * where it is Ask there (withAskRaised), so a `token rights --deny` saved in the second before the
 * server read the file again stays Deny. The file as saved is then put in force (`inForce`) at once, not
 * at the next look at the file a second later: the token's other questions for the tool are answered by
 * the new right before the next is shown, and a Deny found in the file stops the approved call.
 */
export function alwaysAllowSaver(store: SettingsStore, inForce: (saved: VaultMcpSettings) => Promise<unknown>): NonNullable<McpServiceDeps["setToolRight"]> {
	return async (tokenName, tool, right, tokenHash) => {
		await inForce(await store.update((current) => withAskRaised(current, tokenName, tool, right, ALL_TOOLS, tokenHash)));
	};
}

/** `vault-mcp serve VAULT`: serves the vault until stopped; exit 1 when the server cannot listen. */
export async function serve(args: string[], io: CliIo): Promise<number> {
	const logger = loggerFor(io);
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: SERVE_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const port = positiveInteger(values.port, "--port", MIN_PORT, MAX_PORT);
	const rateLimit = positiveInteger(values["rate-limit"], "--rate-limit", 1);
	const allowWrite = values["allow-write"] === true;
	if (values["print-config"] !== undefined) return printConfig(root, values["print-config"], port, io);
	await requireConfigFolder(root, values.init, logger);

	const store = settingsStoreOf(root);
	let stored = await loadSettings(store, logger);
	const excludeFlags = excludedFoldersFromFlags(values.exclude ?? [], root);
	const stopWordsFlag = values["stop-words"]
		?.split(",")
		.map((word) => word.trim())
		.filter((word) => word !== "");
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
		logger.info(`Created a ${level} token named "cli". It is shown this once and stored only as a hash:\n\n  ${tokenMadeThisRun ?? ""}\n`);
	}

	// Flags apply to this run only; data.json keeps what the plugin set.
	const runSettingsFrom = (saved: VaultMcpSettings): VaultMcpSettings => ({
		...saved,
		serverEnabled: true,
		port: port ?? stored.port,
		writeEnabled: allowWrite,
		// Both in the vault's spelling already, read beside the vault: spelt again without it, a saved `C:/x` (a Linux
		// vault's folder `C:`, typed `./C:/x`) was read as a drive and dropped, and that folder shown this run.
		excludedFolders: [...new Set([...saved.excludedFolders, ...excludeFlags])],
		rateLimitPerMinute: rateLimit ?? saved.rateLimitPerMinute,
		promptsFolder: values.prompts ?? saved.promptsFolder,
		searchStopWords: stopWordsFlag ?? saved.searchStopWords,
		searchLanguage: languageFlag ?? saved.searchLanguage,
	});
	let runSettings = runSettingsFrom(stored);

	// A note costly to parse is parsed once serve listens, not before.
	const host = await NodeHost.open(root, { watch: true, parseSlicesPerNote: STARTUP_PARSE_SLICES_PER_NOTE });
	warnAboutHiddenFolders(host, runSettings.excludedFolders, logger);
	// Only a person at a terminal can answer a tool set to Ask; without one, such calls are refused at once.
	const terminal = io.terminal;
	const approver = terminal
		? new TerminalApprover(
				terminal.input,
				(text) => io.stderr(text),
				() => readTypedAhead(terminal.fd),
			)
		: undefined;
	const journal = servedJournal(root, logger);
	// A journalled note the person moves while serve runs is undone where it went (or left alone where undo may not write).
	const stopFollowingMoves = followMoves(host.vault, journal);
	const service: McpService = new McpService({
		host,
		serverVersion: VERSION,
		logger,
		settingsStore: store,
		journal,
		approver,
		setToolRight: alwaysAllowSaver(store, (saved): Promise<ServiceStatus> => {
			runSettings = { ...runSettingsFrom(saved), port: runSettings.port };
			return service.apply(runSettings);
		}),
	});
	const status = await service.apply(runSettings);
	if (status.state !== "listening") {
		// The service has already logged why, as one line on stderr.
		stopFollowingMoves();
		journal.close();
		await host.close();
		return 1;
	}
	// After listening, so that the command carries the port actually bound (--port 0 picks one).
	announceConnection(
		{ root, tokens: stored.tokens, port: status.port, storedPort: stored.port, allowWrite, tokenMadeThisRun, canAsk: terminal !== null },
		logger,
	);
	io.stdout(`listening on ${status.url}\n`);

	// Tokens made or revoked with `token new|revoke` (or in the plugin) while serving count within a second.
	const followSettings = new SettingsFollower(store, logger, (saved) => {
		runSettings = { ...runSettingsFrom(saved), port: runSettings.port };
		void service.apply(runSettings);
	});
	followSettings.start();

	await io.stopRequested();
	followSettings.stop();
	approver?.close();
	await service.stop();
	// Calls have settled: what the journal still owes is written before the process ends.
	stopFollowingMoves();
	journal.close();
	await host.close();
	return 0;
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
async function requireConfigFolder(root: string, init: boolean, logger: Logger): Promise<void> {
	const configFolder = nodePath.join(root, DEFAULT_CONFIG_DIR);
	if (
		await fs.stat(configFolder).then(
			(stat) => stat.isDirectory(),
			() => false,
		)
	)
		return;
	if (!init)
		throw new UsageError(
			`${root} has no ${DEFAULT_CONFIG_DIR} folder, so it is not an Obsidian vault yet: check the path, or add --init to make it one.`,
			undefined,
			false,
		);
	await fs.mkdir(configFolder);
	logger.info(`Created ${configFolder}: ${root} is now a vault Obsidian can open.`);
}

/**
 * Write tools a token may only call once a person approves, named per token: a `serve` with no
 * terminal has nobody to ask, so those calls are refused, and the person should hear it at start.
 */
function askingTools(tokens: readonly TokenRecord[]): Array<{ token: string; tools: string[] }> {
	return tokens
		.map((record) => ({
			token: record.name,
			tools: ALL_TOOLS.filter((tool) => tool.access === "write" && effectiveRight(record, tool, true) === "ask").map((tool) => tool.name),
		}))
		.filter((entry) => entry.tools.length > 0);
}

/** What serve knows once it listens, for announceConnection. */
interface Listening {
	root: string;
	tokens: TokenRecord[];
	port: number;
	storedPort: number;
	allowWrite: boolean;
	tokenMadeThisRun: string | undefined;
	canAsk: boolean;
}

/**
 * Tells, on stderr, how to connect and — since a token is shown only once — how to get a token
 * when the person has none that works here: none at all, lost ones, or no write token for --allow-write.
 */
function announceConnection({ root, tokens, port, storedPort, allowWrite, tokenMadeThisRun, canAsk }: Listening, logger: Logger): void {
	const makeOne = (level: TokenLevel) => `vault-mcp token new ${quoted(root)} --name NAME${level === "write" ? " --level write" : ""}`;
	if (tokenMadeThisRun === undefined) {
		const names = tokens.map((record) => `${record.name} (${record.level})`).join(", ");
		logger.info(`Tokens in data.json: ${names}. Each was shown once; for a lost one or a new client, make another: ${makeOne("read")}`);
		if (allowWrite && !tokens.some((record) => record.level === "write")) {
			logger.warn(`--allow-write has no effect without a write token; make one: ${makeOne("write")}`);
		}
	}
	if (allowWrite && !canAsk) {
		for (const { token, tools } of askingTools(tokens)) {
			logger.warn(
				`token "${token}" has write tools set to ask (${tools.join(", ")}), and this serve has no terminal to ask in, so those calls will be refused. Run serve in a terminal to answer them, or let them run without asking: vault-mcp token rights ${quoted(root)} ${quoted(token)} --allow ${tools.join(",")}`,
			);
		}
	}
	logger.info(connectHint(root, port, storedPort, tokenMadeThisRun));
}

/** `serve --print-config CLIENT`: the client's snippet for this vault, with a token placeholder, on stdout. */
async function printConfig(root: string, client: string, port: number | undefined, io: CliIo): Promise<number> {
	if (!(SNIPPET_CLIENTS as readonly string[]).includes(client)) throw new UsageError(`--print-config must be one of ${SNIPPET_CLIENTS.join(", ")}.`);
	if (port === 0) throw new UsageError("--print-config needs the port the server will listen on: give a fixed --port, or none for the one in data.json.");
	const logger = loggerFor(io);
	const stored = await loadSettings(settingsStoreOf(root), logger);
	const snippet = snippetFor(root, port ?? stored.port, client as ConnectionSnippet["id"]);
	io.stdout(`${snippet.text}\n`);
	logger.info(`${snippet.where} Put a token in place of <token> (make one: vault-mcp token new ${quoted(root)} --name NAME).`);
	return 0;
}

/**
 * `--exclude` values in the vault's spelling: `./x`, `x/`, an absolute path inside the vault and
 * any Unicode form all name the same folder. One that names no folder inside the vault is a usage error.
 */
function excludedFoldersFromFlags(flags: readonly string[], root: string): string[] {
	const roots = vaultRootSpellings(root);
	return flags.map((flag) => {
		const folder = normalizeExcludedFolder(flag, roots);
		if (folder === null) throw new UsageError(`--exclude ${JSON.stringify(flag)} names no folder inside the vault ${root}.`);
		return folder;
	});
}

/** Tells the person, on stderr, about exclusions that match no folder yet and about linked folders and files the jail hides. */
function warnAboutHiddenFolders(host: NodeHost, excluded: readonly string[], logger: Logger): void {
	// A name is escaped whole (its line breaks too), so a file name cannot start a line of its own.
	for (const folder of excluded) {
		if (!host.vault.getFolderByPath(folder))
			logger.warn(`excluded folder "${visibleInTerminal(folder)}" does not exist (yet); it will be excluded when it does.`);
	}
	const links = host.vault.hiddenLinks();
	if (links.length > 0) {
		const named = links.slice(0, HIDDEN_LINKS_NAMED).map((link) => visibleInTerminal(link));
		logger.warn(
			`${links.length} symbolic link${links.length === 1 ? "" : "s"} in the vault ${links.length === 1 ? "is" : "are"} hidden from clients (the server never follows symbolic links): ${named.join(", ")}${links.length > HIDDEN_LINKS_NAMED ? ", …" : ""}`,
		);
	}
}

/** Watches data.json (by polling its stat, which survives atomic replaces) and hands each readable new version on. */
class SettingsFollower {
	private reading: Promise<void> = Promise.resolve();

	constructor(
		private readonly store: FileSettingsStore,
		private readonly logger: Logger,
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
				this.onChange(await loadSettings(this.store, this.logger));
			} catch (error) {
				// A file that cannot be read now keeps the settings in force; the next good save is followed.
				this.logger.warn(
					`data.json changed but could not be read; the settings in force stay: ${error instanceof Error ? error.message : String(error)}`,
				);
			}
		});
	};
}
