import * as nodeTimers from "node:timers";
import { TOKEN_LAST_USED_SAVE_INTERVAL_MS } from "../config/limits";
import type { SettingsStore } from "../config/store";
import type { TokenRecord } from "./tokens";

/**
 * Records when each token was last accepted, in the settings, for both hosts: the time is kept in
 * memory on every request and saved through the store's `update` at most once an interval (and on
 * `flush`), so a busy client never turns into a settings write per request. Tokens are matched by
 * hash against the settings as they are when saving, so a token revoked meanwhile stays revoked.
 */
export class TokenUseRecorder {
	/** Each token's last use in milliseconds: written out as an ISO date only when saved, not on every request. */
	private readonly pending = new Map<string, number>();
	private timer: ReturnType<typeof nodeTimers.setTimeout> | null = null;

	constructor(
		private readonly store: SettingsStore,
		private readonly warn: (message: string) => void,
		private readonly intervalMs = TOKEN_LAST_USED_SAVE_INTERVAL_MS,
	) {}

	touch(token: TokenRecord, nowMs: number = Date.now()): void {
		this.pending.set(token.hash, nowMs);
		if (this.timer !== null) return;
		this.timer = nodeTimers.setTimeout(() => void this.flush(), this.intervalMs);
		this.timer.unref();
	}

	/** Saves the times recorded since the last save; a failure is reported, never thrown. */
	async flush(): Promise<void> {
		if (this.timer) nodeTimers.clearTimeout(this.timer);
		this.timer = null;
		if (this.pending.size === 0) return;
		const pending = new Map(this.pending);
		this.pending.clear();
		try {
			await this.store.update((settings) => ({
				...settings,
				tokens: settings.tokens.map((token) => {
					const usedMs = pending.get(token.hash);
					return { ...token, lastUsed: usedMs === undefined ? token.lastUsed : new Date(usedMs).toISOString() };
				}),
			}));
		} catch (error) {
			this.warn(`token last-used times were not saved: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}
