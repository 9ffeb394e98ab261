import * as nodeTimers from "node:timers";
import { InMemoryServerEventBus, type ServerEventBus } from "@modelcontextprotocol/server";
import type { EventRef } from "obsidian";
import { NOTE_TEXT_RIGHT } from "../auth/rights";
import { MAX_PENDING_CHANGED_PATHS, SUBSCRIPTION_DEBOUNCE_MS, SUBSCRIPTION_RIGHTS_CHECK_MS } from "../config/limits";
import type { Host, HostAbstractFile } from "../host/Host";
import { isInFolder, isNoteInScope } from "../vault/scope";
import type { ToolContext } from "./context";
import { promptsFolderFor } from "./prompts";
import { NOTE_URI_PREFIX } from "./resources";

/** A path that changed: its note list entry (created, deleted, renamed from or to) or only its text. */
const LISTED = 1;
const CONTENT = 2;

/** What one stream is owed at the next notification, already filtered by its caller's scope. */
interface Owed {
	resourcesListChanged: boolean;
	promptsListChanged: boolean;
	updated: Set<string>;
}

/** One open subscriptions/listen stream, as the notifier sees it. */
interface Listener {
	/** The caller's context as the settings are now; null once its token is revoked. */
	contextNow(): ToolContext | null;
	/** The note URIs it watches, as the client wrote them, with the vault path each names. */
	watched: ReadonlyMap<string, string>;
	bus: InMemoryServerEventBus;
	owed: Owed;
	/** Ends the stream (its token was revoked or lost the read right). */
	end(): void;
}

/** The vault path a note URI names, or null for a URI that is not a note's (or not valid percent-encoding). Pure. */
export function notePathOfUri(uri: string): string | null {
	if (!uri.startsWith(NOTE_URI_PREFIX)) return null;
	try {
		return decodeURIComponent(uri.slice(NOTE_URI_PREFIX.length));
	} catch {
		return null;
	}
}

/**
 * Tells open subscriptions/listen streams what changed in the vault, each only what its caller may
 * see. Changes are gathered for SUBSCRIPTION_DEBOUNCE_MS from the first one, then every stream gets
 * at most one notifications/resources/list_changed, one notifications/prompts/list_changed and one
 * notifications/resources/updated per note it watches, however many files changed.
 *
 * Every delivery reads the caller's context afresh (its scope, its prompts folder, its read
 * right), so a note in an excluded folder or behind a hidden link never causes a notification, and
 * a URI the client watches is named back only while its note is visible. A stream whose token was
 * revoked or lost the read right is ended at the next delivery or within SUBSCRIPTION_RIGHTS_CHECK_MS.
 */
export class VaultChangeNotifier {
	private readonly listeners = new Set<Listener>();
	/** Changed paths since the last delivery, with what changed; bounded by MAX_PENDING_CHANGED_PATHS. */
	private pending = new Map<string, number>();
	private deliveryTimer: ReturnType<typeof nodeTimers.setTimeout> | null = null;
	private rightsTimer: ReturnType<typeof nodeTimers.setInterval> | null = null;
	private refs: EventRef[] = [];

	constructor(
		private readonly host: Host,
		private readonly timing: { debounceMs: number; rightsCheckMs: number } = {
			debounceMs: SUBSCRIPTION_DEBOUNCE_MS,
			rightsCheckMs: SUBSCRIPTION_RIGHTS_CHECK_MS,
		},
	) {}

	/** Starts following the vault's changes. */
	start(): void {
		const { vault } = this.host;
		this.refs.push(
			vault.on("create", (file) => this.changed(file.path, LISTED | CONTENT)),
			vault.on("modify", (file) => this.changed(file.path, CONTENT)),
			vault.on("delete", (file) => this.changed(file.path, LISTED | CONTENT)),
			vault.on("rename", (file: HostAbstractFile, oldPath: string) => {
				this.changed(oldPath, LISTED | CONTENT);
				this.changed(file.path, LISTED | CONTENT);
			}),
		);
	}

	/** Stops following the vault and ends every stream. */
	stop(): void {
		for (const ref of this.refs) this.host.vault.offref(ref);
		this.refs = [];
		for (const listener of [...this.listeners]) listener.end();
		this.listeners.clear();
		this.clearTimers();
		this.pending.clear();
	}

	/** Open streams now. */
	get openCount(): number {
		return this.listeners.size;
	}

	/**
	 * A stream's change feed: the bus the SDK's listen router reads, for a caller whose context
	 * `contextNow` gives, watching `uris`. `end` is called when the stream must close; `close` is
	 * called by the stream once it has.
	 */
	open(contextNow: () => ToolContext | null, uris: readonly string[], end: () => void): { bus: ServerEventBus; close(): void } {
		const watched = new Map<string, string>();
		for (const uri of uris) {
			const path = notePathOfUri(uri);
			if (path !== null) watched.set(uri, path);
		}
		const listener: Listener = {
			contextNow,
			watched,
			bus: new InMemoryServerEventBus(),
			owed: { resourcesListChanged: false, promptsListChanged: false, updated: new Set() },
			end,
		};
		this.listeners.add(listener);
		this.rightsTimer ??= nodeTimers.setInterval(() => this.checkRights(), this.timing.rightsCheckMs);
		this.rightsTimer.unref?.();
		return {
			bus: listener.bus,
			close: () => {
				this.listeners.delete(listener);
				if (this.listeners.size === 0) this.clearTimers();
			},
		};
	}

	/** Ends the streams whose token was revoked or may no longer read note text (the settings changed). */
	checkRights(): void {
		for (const listener of [...this.listeners]) if (this.liveContext(listener) === null) this.endListener(listener);
	}

	private liveContext(listener: Listener): ToolContext | null {
		const ctx = listener.contextNow();
		return ctx === null || ctx.writes.currentRight(NOTE_TEXT_RIGHT) === "deny" ? null : ctx;
	}

	private endListener(listener: Listener): void {
		this.listeners.delete(listener);
		listener.end();
		if (this.listeners.size === 0) this.clearTimers();
	}

	private changed(path: string, what: number): void {
		if (this.listeners.size === 0) return;
		this.pending.set(path, (this.pending.get(path) ?? 0) | what);
		// Past the bound the changes so far are sorted out per stream now, and only what each stream is owed is kept.
		if (this.pending.size >= MAX_PENDING_CHANGED_PATHS) this.settlePending();
		this.deliveryTimer ??= nodeTimers.setTimeout(() => this.deliver(), this.timing.debounceMs);
	}

	/** Moves the pending paths into what each stream is owed, by each caller's scope as it is now. */
	private settlePending(): void {
		const pending = this.pending;
		this.pending = new Map();
		for (const listener of [...this.listeners]) {
			const ctx = this.liveContext(listener);
			if (ctx === null) {
				this.endListener(listener);
				continue;
			}
			const promptsFolder = promptsFolderFor(ctx);
			const { owed } = listener;
			for (const [path, what] of pending) {
				if (!isNoteInScope(path, ctx.scope)) continue;
				if (what & LISTED) owed.resourcesListChanged = true;
				if (promptsFolder !== null && isInFolder(path, promptsFolder)) owed.promptsListChanged = true;
			}
			for (const [uri, path] of listener.watched) if (pending.has(path) && isNoteInScope(path, ctx.scope)) owed.updated.add(uri);
		}
	}

	private deliver(): void {
		this.deliveryTimer = null;
		this.settlePending();
		for (const listener of [...this.listeners]) {
			const { owed } = listener;
			listener.owed = { resourcesListChanged: false, promptsListChanged: false, updated: new Set() };
			// What was owed early (past MAX_PENDING_CHANGED_PATHS) was sorted out by the scope then: a note narrowed away since is not named.
			const ctx = this.liveContext(listener);
			if (ctx === null) {
				this.endListener(listener);
				continue;
			}
			if (owed.resourcesListChanged) listener.bus.publish({ kind: "resources_list_changed" });
			if (owed.promptsListChanged) listener.bus.publish({ kind: "prompts_list_changed" });
			for (const uri of owed.updated) {
				const path = listener.watched.get(uri);
				if (path !== undefined && isNoteInScope(path, ctx.scope)) listener.bus.publish({ kind: "resource_updated", uri });
			}
		}
	}

	private clearTimers(): void {
		if (this.deliveryTimer !== null) nodeTimers.clearTimeout(this.deliveryTimer);
		if (this.rightsTimer !== null) nodeTimers.clearInterval(this.rightsTimer);
		this.deliveryTimer = null;
		this.rightsTimer = null;
	}
}
