import type { Logger } from "../../src/activity";
import type { ToolRights } from "../../src/auth/rights";
import type { WriteJournal } from "../../src/journal/entry";
import { JournalFile } from "../../src/journal/JournalFile";
import type { Approver } from "../../src/mcp/approval";
import { addToken } from "../../src/auth/tokenList";
import type { TokenLevel } from "../../src/auth/tokens";
import { NodeHost, type NodeHostOptions } from "../../src/headless/NodeHost";
import type { HttpDeadlinesAndCaps } from "../../src/http/deadlinesAndCaps";
import { McpService, type McpServiceDeps } from "../../src/service";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "./http";
import { makeVault } from "./vault";

/** Collects log lines so tests can check nothing secret was logged. */
export class RecordingLogger implements Logger {
	readonly lines: string[] = [];
	info(message: string): void {
		this.lines.push(message);
	}
	warn(message: string): void {
		this.lines.push(message);
	}
	error(message: string): void {
		this.lines.push(message);
	}
}

export interface RunningService {
	host: NodeHost;
	service: McpService;
	settings: VaultMcpSettings;
	port: number;
	url: string;
	tokens: Record<string, string>;
	logger: RecordingLogger;
	journal: WriteJournal;
	stop(): Promise<void>;
}

/** A real McpService on a free loopback port over a NodeHost, with one token per level requested. */
export async function startService(
	vaultRoot: string,
	options: {
		levels?: TokenLevel[];
		settings?: Partial<VaultMcpSettings>;
		httpDeadlines?: Partial<HttpDeadlinesAndCaps>;
		host?: NodeHostOptions;
		journal?: WriteJournal;
		approver?: Approver;
		/** Rights for the tokens made, by level; absent: every tool of the level, allowed. */
		rights?: Partial<Record<TokenLevel, ToolRights>>;
		/** Slices, budget and progress interval of calls, when not the limits'. */
		callBudget?: McpServiceDeps["callBudget"];
		/** Notes a search's phrases may be looked for in, when not the limit's. */
		searchPhraseNotesMax?: number;
		/** Saves a right "always allow" sets; absent: the click saves nothing. */
		setToolRight?: McpServiceDeps["setToolRight"];
	} = {},
): Promise<RunningService> {
	const host = await NodeHost.open(vaultRoot, options.host);
	let settings: VaultMcpSettings = { ...defaultSettings(), serverEnabled: true, port: 0, ...options.settings };
	const tokens: Record<string, string> = {};
	for (const level of options.levels ?? ["read"]) {
		const made = addToken(settings, level, level, options.rights?.[level]);
		if ("error" in made) throw new Error(made.error);
		settings = made.settings;
		tokens[level] = made.token;
	}
	const logger = new RecordingLogger();
	const journal = options.journal ?? JournalFile.forVault(vaultRoot, ".obsidian");
	const service = new McpService({
		host,
		serverVersion: "test",
		logger,
		httpDeadlinesAndCaps: options.httpDeadlines,
		journal,
		approver: options.approver,
		callBudget: options.callBudget,
		searchPhraseNotesMax: options.searchPhraseNotesMax,
		setToolRight: options.setToolRight,
	});
	const status = await service.apply(settings);
	if (status.state !== "listening") throw new Error(`service did not start: ${JSON.stringify(status)}`);
	return {
		host,
		service,
		settings,
		port: status.port,
		url: status.url,
		tokens,
		logger,
		journal,
		stop: async () => {
			await service.stop();
			await host.close();
		},
	};
}

/** Settings for a running server with writing on, no practical rate limit, and one write token per name (the tokens returned in order). */
export function settingsWithWriteTokens(names: readonly string[]): { settings: VaultMcpSettings; tokens: string[] } {
	let settings: VaultMcpSettings = {
		...defaultSettings(),
		serverEnabled: true,
		port: 0,
		writeEnabled: true,
		writeDisclosureAccepted: true,
		rateLimitPerMinute: 100_000,
	};
	const tokens: string[] = [];
	for (const name of names) {
		const made = addToken(settings, name, "write");
		if ("error" in made) throw new Error(made.error);
		settings = made.settings;
		tokens.push(made.token);
	}
	return { settings, tokens };
}

/**
 * `Plan.md` and a note linking to it, served to a write token whose `rename_note` asks the person,
 * who approves after `approvesAfterMs`; progress every `progressIntervalMs` to a call that asks for it.
 */
export async function startRenameApprovedAfter(approvesAfterMs: number, progressIntervalMs: number): Promise<{ root: string; running: RunningService }> {
	const root = await makeVault({ "Plan.md": "# Plan\n", "Linker.md": "See [[Plan]].\n" });
	const approver: Approver = {
		decide: (_request, _signal, shown) => {
			shown();
			return new Promise((resolve) => setTimeout(() => resolve("approve"), approvesAfterMs));
		},
	};
	const running = await startService(root, {
		levels: ["write"],
		settings: { writeEnabled: true },
		approver,
		rights: { write: { rename_note: "ask" } },
		callBudget: { progressIntervalMs },
	});
	return { root, running };
}

/**
 * A service over `vaultRoot` with one write token and writes on (the rate limit out of reach), its metadata cache
 * settled, and that token's SDK client over HTTP: the set-up of the suites that try paths through the write tools.
 */
export async function startWriteClient(vaultRoot: string, settings: Partial<VaultMcpSettings> = {}): Promise<{ client: Client; stop: () => Promise<void> }> {
	const running = await startService(vaultRoot, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000, ...settings } });
	await running.host.metadataCache.settled();
	const client = await connectClient(running.url, running.tokens.write ?? "");
	return {
		client,
		stop: async () => {
			await client.close();
			await running.stop();
		},
	};
}
