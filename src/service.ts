import * as nodeTimers from "node:timers";
import { ActivityLog, type Logger } from "./activity";
import type { Grant } from "./auth/grant";
import type { TokenRecord } from "./auth/tokens";
import { TokenUseRecorder } from "./auth/TokenUseRecorder";
import type { Host } from "./host/Host";
import {
	MAX_IN_FLIGHT_REQUESTS,
	PROGRESS_NOTIFICATION_INTERVAL_MS,
	RECENT_CLIENT_WINDOW_MS,
	VAULT_WIDE_CALL_WORK_MS,
	VAULT_WIDE_SLICE_MS,
} from "./config/limits";
import { ConnectionPool } from "./http/connections";
import { httpDeadlinesAndCaps, type HttpDeadlinesAndCaps } from "./http/deadlinesAndCaps";
import type { ProtocolEra } from "@modelcontextprotocol/server";
import { createMcpEndpoint, type LentServer, type McpEndpoint } from "./http/endpoint";
import { currentGrant } from "./http/guard";
import type { SubscriptionFeed } from "./http/listenStream";
import type { AskedRequest } from "./http/endpointState";
import { endpointUrl } from "./http/endpointAddress";
import { LoopbackHttpServer, PortInUseError } from "./http/server";
import type { EveryField, ToolContext } from "./mcp/context";
import { McpServerPool } from "./mcp/server";
import { VaultChangeNotifier } from "./mcp/subscriptions";
import { NoteListing } from "./vault/noteListing";
import { NotesNotYetRead } from "./vault/notesStillBeingRead";
import { TagNotes } from "./vault/tagNotes";
import { NotesWithTasks } from "./vault/notesWithTasks";
import { KeptGraphStats } from "./vault/keptGraphStats";
import { KeptNoteLinks } from "./vault/keptNoteLinks";
import { NotePathIndex } from "./vault/notePaths";
import { logUnusedSettings } from "./vault/obsidianSettings";
import { ALL_TOOLS } from "./mcp/tools";
import type { VaultMcpSettings } from "./config/settings";
import type { SettingsStore } from "./config/store";
import { isPathVisible, scopeKey, type Scope } from "./vault/scope";
import { IndexedNoteSearch, type NoteSearch } from "./vault/search";
import { eventLoopTurns, TurnLane } from "./turns";
import { effectiveRight, NOTE_TEXT_RIGHT, type ToolRight, type ToolRightSubject } from "./auth/rights";
import type { WriteJournal } from "./journal/entry";
import type { Approver, DeniedBecause, WriteServices } from "./mcp/approval";
import { WritesBeforeReleased } from "./mcp/releasedCalls";

/** What the server is doing, for the status line, ribbon and CLI. */
export type ServiceStatus = { state: "stopped" } | { state: "listening"; port: number; url: string } | { state: "error"; port: number; message: string };

export interface McpServiceDeps {
	host: Host;
	serverVersion: string;
	logger: Logger;
	/** Where the settings are saved; a token's last use is recorded there. Absent: it is not recorded. */
	settingsStore?: SettingsStore;
	onStatusChange?(status: ServiceStatus): void;
	/** Lets the host breathe between slices of index building (in Obsidian, a window timer). */
	yieldToHost?: () => Promise<void>;
	/** Slice and whole budget of vault-wide calls, when not the limits' (tests make them tiny). */
	callBudget?: { sliceMs?: number; callWorkMs?: number; progressIntervalMs?: number };
	/** Notes a search's phrases may be looked for in, summed over its phrases, when not MAX_QUERY_PHRASE_NOTES (tests make it small). */
	searchPhraseNotesMax?: number;
	/** Overrides for the HTTP deadlines and caps in src/config/limits.ts (tests use short ones). */
	httpDeadlinesAndCaps?: Partial<HttpDeadlinesAndCaps>;
	/** Where every change a write tool makes is recorded before it is written. */
	journal: WriteJournal;
	/** Who answers a tool call set to Ask; absent: nobody can, so such calls are refused at once. */
	approver?: Approver;
	/**
	 * Saves "Always allow" (the approval window or terminal): the token's right for the tool raised to
	 * `right`, only where it is Ask in the settings as saved now (withAskRaised), not in this service's copy.
	 */
	setToolRight?(tokenName: string, tool: string, right: ToolRight, tokenHash?: string): Promise<void>;
}

/** Every tool by name, for the rights an answer is checked against as it leaves. */
const TOOLS_BY_NAME: ReadonlyMap<string, ToolRightSubject> = new Map(ALL_TOOLS.map((tool) => [tool.name, tool]));

/** Methods whose answers hold notes' names or text, under the `read_note` right (resources, prompts, completions of note paths). */
const NOTE_TEXT_METHODS: ReadonlySet<string> = new Set([
	"resources/list",
	"resources/read",
	"resources/templates/list",
	"prompts/list",
	"prompts/get",
	"completion/complete",
]);

/** The tools that write, by name, from the registry: the HTTP layer charges the calls a grant may make of them to its write budget. */
const WRITE_TOOLS_BY_NAME: ReadonlyMap<string, ToolRightSubject> = new Map(
	ALL_TOOLS.filter((tool) => tool.access === "write").map((tool) => [tool.name, tool]),
);

/** The MCP server's lifecycle: `apply` makes the running server match the settings. */
export class McpService {
	readonly activity = new ActivityLog();
	private settings: VaultMcpSettings | null = null;
	private server: LoopbackHttpServer | null = null;
	private endpoint: McpEndpoint | null = null;
	/** Told each time settings come into force: the write calls waiting for the person (`WriteServices.onSettingsChange`). */
	private readonly settingsListeners = new Set<() => void>();

	/** `WriteServices.onSettingsChange`, one function for every request. */
	private readonly onSettingsChange = (listener: () => void): (() => void) => {
		this.settingsListeners.add(listener);
		return () => void this.settingsListeners.delete(listener);
	};

	/** The order of calls released by "Always allow", this service's own: another service of the process (tests, the plugin loaded again) shares nothing. */
	private readonly writesBeforeReleased = new WritesBeforeReleased();

	/** Aborted as the running server stops: its written calls answer without waiting for their parse (`WriteServices.stopping`). */
	private stopping: AbortController | null = null;
	/** The port the settings asked for when the running server started (0 stays 0, so it is not restarted). */
	private requestedPort: number | null = null;
	private currentStatus: ServiceStatus = { state: "stopped" };
	/** When each token (by hash) was last accepted, for "clients in the last minute". */
	private readonly lastSeen = new Map<string, number>();
	/** apply and stop run one at a time, in call order, so quick toggles never race. */
	private queue: Promise<unknown> = Promise.resolve();

	/** Token last-use times, saved now and then through the settings store. */
	private readonly tokenUse: TokenUseRecorder | null;

	/** The search index lives while the server runs: no memory is spent on it while the server is off. */
	private searchIndex: IndexedNoteSearch | null = null;
	/** Note paths sorted for completions, and the vault's changes for subscription streams: while the server runs. */
	private notePaths: NotePathIndex | null = null;
	private noteListing: NoteListing | null = null;
	private notesNotYetRead: NotesNotYetRead | null = null;
	private tagNotes: TagNotes | null = null;
	private notesWithTasks: NotesWithTasks | null = null;
	private graphStats: KeptGraphStats | null = null;
	private noteLinks: KeptNoteLinks | null = null;
	private changeNotifier: VaultChangeNotifier | null = null;

	constructor(private readonly deps: McpServiceDeps) {
		this.servers = new McpServerPool({ activity: this.activity, logger: deps.logger }, MAX_IN_FLIGHT_REQUESTS, true);
		this.turns = deps.yieldToHost ? new TurnLane(deps.yieldToHost) : eventLoopTurns;
		this.tokenUse = deps.settingsStore ? new TokenUseRecorder(deps.settingsStore, (message) => deps.logger.warn(message)) : null;
		logUnusedSettings(deps.host, deps.logger);
		deps.host.vault.followExcludedFolders?.(
			() => this.settings?.excludedFolders ?? [],
			() =>
				deps.logger.warn("Another program's version of a note, written while an edit replaced it, was not kept beside it: its folder is excluded now."),
		);
	}

	/** The running server's search index, for status and tests; null while stopped. */
	get search(): IndexedNoteSearch | null {
		return this.searchIndex;
	}

	get status(): ServiceStatus {
		return this.currentStatus;
	}

	/**
	 * Starts, stops or restarts the server to match `settings`. Token, write-switch and exclusion
	 * changes take effect on the next request without a restart; a port change restarts.
	 * Never throws: a failure to start becomes the error status.
	 */
	apply(settings: VaultMcpSettings): Promise<ServiceStatus> {
		return this.enqueue(async () => {
			this.settings = settings;
			// Calls waiting for the person look at their right and folders again (a revoked token's question is withdrawn).
			for (const listener of [...this.settingsListeners]) listener();
			if (!settings.serverEnabled) {
				await this.closeServer();
				return this.setStatus({ state: "stopped" });
			}
			this.searchIndex?.setScope(this.scopeOf(settings));
			this.searchIndex?.setStopWords(settings.searchStopWords);
			this.searchIndex?.setLanguage(settings.searchLanguage);
			// A token revoked or denied reading loses its subscription streams now, not at the next check.
			this.changeNotifier?.checkRights();
			if (this.server && this.requestedPort === settings.port) return this.currentStatus;
			await this.closeServer();
			return this.startServer(settings);
		});
	}

	/** How many different tokens made a request in the last `windowMs`. */
	recentClientCount(windowMs = RECENT_CLIENT_WINDOW_MS, now = Date.now()): number {
		let count = 0;
		for (const [hash, time] of this.lastSeen) {
			if (now - time <= windowMs) count++;
			else this.lastSeen.delete(hash);
		}
		return count;
	}

	/** Stops the server and closes every connection. */
	stop(): Promise<void> {
		return this.enqueue(async () => {
			await this.closeServer();
			this.setStatus({ state: "stopped" });
		});
	}

	private scopeOf(settings: VaultMcpSettings): Scope {
		return { configDir: this.deps.host.vault.configDir, excludedFolders: [...settings.excludedFolders, ...this.deps.host.hiddenLinks()] };
	}

	/**
	 * The scope of one caller, worked out again whenever the settings or the host's links change: the settings' excluded
	 * folders, links in the vault folder (hidden exactly like excluded folders), and the token's
	 * folders as they are now. A token revoked meanwhile keeps the folders it had; its calls are refused by rights.
	 */
	private liveScopeOf(grant: Grant, atRequest: VaultMcpSettings): () => Scope {
		let seen: VaultMcpSettings | null = null;
		let seenLinks: readonly string[] = [];
		let scope: Scope | null = null;
		return () => {
			const settings = this.settings ?? atRequest;
			// Shared by every request of the token record: the host's links are looked at each time too
			// (inside Obsidian a link made in the vault folder is found a moment later, the settings unchanged).
			const links = this.deps.host.hiddenLinks();
			if (scope === null || seen !== settings || !sameNames(links, seenLinks)) {
				const token = settings.tokens.find((record) => record.hash === grant.token.hash) ?? grant.token;
				scope = {
					configDir: this.deps.host.vault.configDir,
					excludedFolders: [...settings.excludedFolders, ...links],
					tokenFolders: token.folders ?? [],
				};
				seen = settings;
				seenLinks = links;
			}
			return scope;
		};
	}

	/**
	 * Whether a read's answer, made for `grant` under the settings `admitted`, may still be sent: its
	 * token is there, the right (the tool's, or `read_note` for notes as resources and prompts) is not
	 * Deny, and the folders it sees are those it saw then. A write's answer always may: it says what was written.
	 */
	private stillAnswers(grant: Grant, admitted: VaultMcpSettings, request: AskedRequest): boolean {
		const now = this.settings;
		const token = now?.serverEnabled ? now.tokens.find((record) => record.hash === grant.token.hash) : undefined;
		if (!now || !token) return false;
		const subject =
			request.method === "tools/call" ? TOOLS_BY_NAME.get(request.name ?? "") : NOTE_TEXT_METHODS.has(request.method) ? NOTE_TEXT_RIGHT : undefined;
		if (subject === undefined) return true;
		// A write call's answer says what was written: the endpoint sends it whatever this says once the request wrote.
		const writes = subject.access === "write";
		// Denied already when it came: the answer says so ("not found"), and is sent.
		if (effectiveRight(grant.token, subject, writes && grant.canWrite) === "deny") return true;
		if (effectiveRight(token, subject, writes && now.writeEnabled && token.level === "write") === "deny") return false;
		// Nothing changed since the request came: the same settings and the same token record (every change makes new ones).
		if (now === admitted && token === grant.token) return true;
		const sees = (settings: VaultMcpSettings, folders: readonly string[] | undefined) =>
			scopeKey({ ...this.scopeOf(settings), tokenFolders: folders ?? [] });
		return sees(now, token.folders) === sees(admitted, grant.token.folders);
	}

	/** MCP servers reused across requests, one set per tool set; each request brings its own context. */
	private readonly servers: McpServerPool;
	/**
	 * Long work takes turns here, one slice per event-loop turn in all, so other requests wait behind one slice at most:
	 * vault-wide calls, big answers, and the search index's updates (and, headless, the metadata cache and request bodies: the process's lane).
	 */
	private readonly turns: TurnLane;

	/** An MCP server from the pool, lent to one request: the tools this grant may see, over the scope the settings give. */
	private lendServer(
		grant: Grant,
		settings: VaultMcpSettings,
		search: NoteSearch,
		era: ProtocolEra,
		releasePlace: () => void,
		wrote: () => void,
	): LentServer {
		return this.servers.lend(this.contextFor(grant, settings, search, releasePlace, wrote), era);
	}

	/** What a request of `grant` works with, under `settings`: every way of seeing notes takes its scope from here. */
	private contextFor(grant: Grant, settings: VaultMcpSettings, search: NoteSearch, releasePlace: () => void, wrote: () => void): ToolContext {
		const { scopeNow, callBudget, rights } = this.grantParts(grant, settings, search);
		return new RequestContext(
			this.deps.host,
			this.deps.serverVersion,
			// Read at each use, not once per request: a token's folders narrowed while its calls wait or queue hold for its next call.
			scopeNow,
			grant,
			search,
			settings.dailyNotesAreOutlines,
			settings.promptsFolder,
			callBudget,
			this.writeServicesFor(rights, settings, releasePlace, wrote),
			// Plain properties, not spreads of objects made per request: absent and undefined read the same.
			this.notePaths ?? undefined,
			this.noteListing ?? undefined,
			this.tagNotes ?? undefined,
			this.notesNotYetRead ?? undefined,
			this.notesWithTasks ?? undefined,
			this.graphStats ?? undefined,
			this.noteLinks ?? undefined,
		);
	}

	/** The parts of a request's context that depend only on its token record, its write switch, the settings and the index, by token record. */
	private readonly grantPartsByToken = new WeakMap<TokenRecord, GrantParts>();

	/**
	 * The parts of `grant`'s context made once for every request of the same token record, write
	 * switch, settings object and index (every change of the settings makes new objects): its live
	 * scope, its call budget and its live rights. Each reads the settings in
	 * force when used, so sharing them between requests changes nothing a request sees.
	 */
	private grantParts(grant: Grant, settings: VaultMcpSettings, search: NoteSearch): GrantParts {
		const known = this.grantPartsByToken.get(grant.token);
		if (known !== undefined && known.settings === settings && known.search === search && known.canWrite === grant.canWrite) return known;
		const parts: GrantParts = {
			settings,
			search,
			canWrite: grant.canWrite,
			scopeNow: this.liveScopeOf(grant, settings),
			callBudget: {
				// The token's own turns: its calls take turns with other tokens', not each call with every other.
				pause: () => this.turns.takeFor(grant.token.hash),
				sliceMs: this.deps.callBudget?.sliceMs ?? VAULT_WIDE_SLICE_MS,
				callWorkMs: this.deps.callBudget?.callWorkMs ?? VAULT_WIDE_CALL_WORK_MS,
				progressIntervalMs: this.deps.callBudget?.progressIntervalMs ?? PROGRESS_NOTIFICATION_INTERVAL_MS,
			},
			rights: this.liveRightsOf(grant, settings),
		};
		this.grantPartsByToken.set(grant.token, parts);
		return parts;
	}

	/**
	 * Subscription streams' change feed: each stream's caller is looked up again in the settings in
	 * force at every delivery (a revoked token has none, and its stream ends).
	 */
	private subscriptionFeed(notifier: VaultChangeNotifier, search: NoteSearch): SubscriptionFeed {
		return {
			open: (grant, uris, end) => {
				const contextNow = (): ToolContext | null => {
					const now = this.settings;
					const current = now?.serverEnabled ? currentGrant(grant.token.hash, now) : null;
					return now && current
						? this.contextFor(
								current,
								now,
								search,
								() => undefined,
								() => undefined,
							)
						: null;
				};
				const ctx = contextNow();
				if (ctx === null || ctx.writes.currentRight(NOTE_TEXT_RIGHT) === "deny") return null;
				return notifier.open(contextNow, uris, end);
			},
		};
	}

	/** The journal, approver and live rights for one request's write calls. */
	private writeServicesFor(rights: LiveRights, settings: VaultMcpSettings, releasePlace: () => void, wrote: () => void): WriteServices {
		return {
			releasePlace,
			wrote,
			journal: this.deps.journal,
			approver: this.deps.approver ?? null,
			approvalTimeoutMs: settings.approvalTimeoutSeconds * 1000,
			currentRight: rights.currentRight,
			allowAlways: rights.allowAlways,
			deniedBecause: rights.deniedBecause,
			answerMayName: rights.answerMayName,
			stopping: this.stopping?.signal,
			onSettingsChange: this.onSettingsChange,
			writesBeforeReleased: this.writesBeforeReleased,
		};
	}

	/**
	 * A caller's rights as they are now, and its way to save a right; the same for every request of its token record
	 * admitted under `admitted`.
	 */
	private liveRightsOf(grant: Grant, admitted: VaultMcpSettings): LiveRights {
		const tokenNow = () => this.settings?.tokens.find((record) => record.hash === grant.token.hash);
		// Why the token may not use the tool now, or null when it may: what every other answer here is worked out from.
		const deniedBecause = (tool: ToolRightSubject): DeniedBecause | null => {
			const now = this.settings;
			const token = tokenNow();
			if (!now?.serverEnabled) return "server switched off";
			if (!token) return "token revoked";
			if (tool.access === "write" && !now.writeEnabled) return "writing switched off";
			if (tool.access === "write" && token.level !== "write") return "token reads only";
			return effectiveRight(token, tool, true) === "deny" ? "right set to deny" : null;
		};
		return {
			currentRight: (tool: ToolRightSubject): ToolRight => {
				const token = tokenNow();
				return token && deniedBecause(tool) === null ? effectiveRight(token, tool, true) : "deny";
			},
			// Raises a right at Ask only: one set to Deny while the question was open, or while the right before it was being
			// saved (a question asked for add_task and create_note saves two, one after the other), stays Deny.
			allowAlways: async (tool: string) => {
				const subject = ALL_TOOLS.find((known) => known.name === tool);
				if (!subject || deniedBecause(subject) !== null) return;
				await this.deps.setToolRight?.(grant.token.name, tool, "allow", grant.token.hash);
			},
			deniedBecause,
			answerMayName: (tool: ToolRightSubject, paths: readonly string[]): boolean => {
				const now = this.settings;
				const token = now?.tokens.find((record) => record.hash === grant.token.hash);
				if (!now || !token) return false;
				if (effectiveRight(token, tool, now.writeEnabled && token.level === "write") === "deny") return false;
				// Nothing changed since the request came (every change makes new objects): its plan named only notes these settings show.
				if (now === admitted && token === grant.token) return true;
				const shown: Scope = { configDir: this.deps.host.vault.configDir, excludedFolders: now.excludedFolders, tokenFolders: token.folders ?? [] };
				return paths.every((path) => isPathVisible(path, shown));
			},
		};
	}

	private async startServer(settings: VaultMcpSettings): Promise<ServiceStatus> {
		const port = settings.port;
		// Once the excluded folders are known: none of a crash's temporary files is removed from one. In pieces, not awaited.
		void this.deps.host.vault.removeLeftTemporaries?.();
		// Its warm-up waits while a request is being answered: the endpoint is made below, before the index starts.
		const searchIndex = new IndexedNoteSearch(this.deps.host, this.scopeOf(settings), this.turns.take, this.deps.logger, {
			warmUp: true,
			whenIdle: (): Promise<void> | null => endpoint.whenIdle(),
			phraseNotesMax: this.deps.searchPhraseNotesMax,
		});
		searchIndex.setStopWords(settings.searchStopWords);
		searchIndex.setLanguage(settings.searchLanguage);
		const deadlines = httpDeadlinesAndCaps(this.deps.httpDeadlinesAndCaps);
		const notePaths = new NotePathIndex(this.deps.host);
		const noteListing = new NoteListing(this.deps.host);
		const notesNotYetRead = new NotesNotYetRead(this.deps.host, this.turns.take);
		const tagNotes = new TagNotes(this.deps.host);
		const notesWithTasks = new NotesWithTasks(this.deps.host, this.turns.take);
		const graphStats = new KeptGraphStats(this.deps.host);
		const noteLinks = new KeptNoteLinks(this.deps.host);
		const changeNotifier = new VaultChangeNotifier(this.deps.host);
		const connections = new ConnectionPool({ maxUnauthenticated: deadlines.maxUnauthenticatedConnections, firstRequestMs: deadlines.firstRequestMs });
		const endpoint: McpEndpoint = createMcpEndpoint({
			currentSettings: () => this.requireSettings(),
			lendServer: (grant, current, era, releasePlace, wrote) => this.lendServer(grant, current, searchIndex, era, releasePlace, wrote),
			logger: this.deps.logger,
			isWriteTool: (name, grant) => {
				const tool = WRITE_TOOLS_BY_NAME.get(name);
				return tool !== undefined && effectiveRight(grant.token, tool, grant.canWrite) !== "deny";
			},
			onAuthenticated: (socket) => connections.authenticate(socket),
			deadlinesAndCaps: deadlines,
			subscriptions: this.subscriptionFeed(changeNotifier, searchIndex),
			// A big answer's pieces take their turns with the vault-wide calls' slices, one slice per turn in all.
			turns: { pause: this.turns.take, sliceMs: this.deps.callBudget?.sliceMs ?? VAULT_WIDE_SLICE_MS, lane: this.turns },
			stillAnswers: (grant, admitted, request) => this.stillAnswers(grant, admitted, request),
			onTokenUsed: (token) => {
				// The server warms its search code only while nobody asks anything (IndexedNoteSearch.warmUp).
				searchIndex.endWarmUp();
				const now = Date.now();
				this.lastSeen.set(token.hash, now);
				this.tokenUse?.touch(token, now);
			},
		});
		const server = new LoopbackHttpServer(endpoint, connections, deadlines.headersMs);
		try {
			const boundPort = await server.listen(port);
			this.server = server;
			this.endpoint = endpoint;
			this.stopping = new AbortController();
			this.searchIndex = searchIndex;
			searchIndex.start();
			this.notePaths = notePaths;
			notePaths.start();
			this.noteListing = noteListing;
			noteListing.start();
			this.notesNotYetRead = notesNotYetRead;
			notesNotYetRead.start();
			this.tagNotes = tagNotes;
			tagNotes.start();
			this.notesWithTasks = notesWithTasks;
			notesWithTasks.start();
			this.graphStats = graphStats;
			graphStats.start();
			this.noteLinks = noteLinks;
			noteLinks.start();
			this.changeNotifier = changeNotifier;
			changeNotifier.start();
			this.requestedPort = port;
			return this.setStatus({ state: "listening", port: boundPort, url: endpointUrl(boundPort) });
		} catch (error) {
			const message =
				error instanceof PortInUseError ? error.message : `The server could not start: ${error instanceof Error ? error.message : String(error)}`;
			this.deps.logger.error(message);
			return this.setStatus({ state: "error", port, message });
		}
	}

	private async closeServer(): Promise<void> {
		const server = this.server;
		const endpoint = this.endpoint;
		const searchIndex = this.searchIndex;
		// First: a written call waiting for its parse answers now, and its answer goes out before its connection closes (below).
		this.stopping?.abort();
		this.stopping = null;
		this.server = null;
		this.endpoint = null;
		this.searchIndex = null;
		this.requestedPort = null;
		// One bound for every wait below, whatever mix is open (streams, written answers, running calls): a bound each made three.
		const stopMs = httpDeadlinesAndCaps(this.deps.httpDeadlinesAndCaps).stopMs;
		const outOfTime = new Promise<void>((resolve) => nodeTimers.setTimeout(resolve, stopMs).unref());
		// Subscription streams end with their closing result before the connections close.
		await Promise.race([endpoint?.closeStreams(), outOfTime]);
		this.changeNotifier?.stop();
		this.changeNotifier = null;
		this.notePaths?.stop();
		this.notePaths = null;
		this.noteListing?.stop();
		this.noteListing = null;
		this.notesNotYetRead?.stop();
		this.notesNotYetRead = null;
		this.tagNotes?.stop();
		this.tagNotes = null;
		this.notesWithTasks?.stop();
		this.notesWithTasks = null;
		this.graphStats?.stop();
		this.graphStats = null;
		this.noteLinks?.stop();
		this.noteLinks = null;
		// A call that wrote keeps its connection until its answer is sent: it says what was written.
		await server?.close(endpoint?.writtenAnswers(), outOfTime);
		// Connections are closed; calls already running finish their work, so stop means settled.
		await Promise.race([endpoint?.drain(), outOfTime]);
		await searchIndex?.stop();
		// Calls have settled: the last uses they made are saved now, not an interval later (or never, on quit).
		await this.tokenUse?.flush();
	}

	private requireSettings(): VaultMcpSettings {
		if (!this.settings) throw new Error("McpService has no settings yet");
		return this.settings;
	}

	private setStatus(status: ServiceStatus): ServiceStatus {
		this.currentStatus = status;
		this.deps.onStatusChange?.(status);
		return status;
	}

	private enqueue<T>(work: () => Promise<T>): Promise<T> {
		const next = this.queue.then(work, work);
		this.queue = next.catch(() => undefined);
		return next;
	}
}

/** The parts of a request's context shared by the requests of one token record under one settings object (`McpService.grantParts`). */
/**
 * A request's context, its scope read at each use. A class rather than an object literal: a literal
 * with a getter is made by the runtime as a dictionary object (about 3 µs each, against nanoseconds
 * for a class instance), and every field the tools read of it was then a dictionary look-up.
 * `EveryField` makes each field of the context be named here, so none is left out.
 */
class RequestContext implements EveryField<ToolContext> {
	constructor(
		readonly host: Host,
		readonly serverVersion: string,
		private readonly scopeNow: () => Scope,
		readonly grant: Grant,
		readonly search: NoteSearch,
		readonly dailyNotesAreOutlines: boolean,
		readonly promptsFolder: string | undefined,
		readonly callBudget: ToolContext["callBudget"],
		readonly writes: WriteServices,
		readonly notePaths: ToolContext["notePaths"],
		readonly noteListing: ToolContext["noteListing"],
		readonly tagNotes: ToolContext["tagNotes"],
		readonly notesNotYetRead: ToolContext["notesNotYetRead"],
		readonly notesWithTasks: ToolContext["notesWithTasks"],
		readonly graphStats: ToolContext["graphStats"],
		readonly noteLinks: ToolContext["noteLinks"],
	) {}

	get scope(): Scope {
		return this.scopeNow();
	}
}

interface GrantParts {
	settings: VaultMcpSettings;
	search: NoteSearch;
	canWrite: boolean;
	scopeNow: () => Scope;
	callBudget: NonNullable<ToolContext["callBudget"]>;
	rights: LiveRights;
}

/** What `McpService.liveRightsOf` gives: the write services that read the settings in force when used. */
type LiveRights = Required<Pick<WriteServices, "currentRight" | "allowAlways" | "deniedBecause" | "answerMayName">>;

/** Whether two lists of names are the same, in the same order (the same list object, mostly). */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
	return true;
}
