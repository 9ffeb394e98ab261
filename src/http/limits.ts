import { RATE_LIMIT_WINDOW_MS } from "../limits";

/**
 * Requests per token in a sliding window. Each token keeps at most `limit` timestamps, so memory
 * is bounded by tokens × limit.
 */
export class RateLimiter {
	private readonly recent = new Map<string, number[]>();

	/** Records a request for `key` at `now` if the key is under `limit`; returns the seconds to wait otherwise. */
	take(key: string, limit: number, now: number = Date.now()): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
		const windowStart = now - RATE_LIMIT_WINDOW_MS;
		const times = (this.recent.get(key) ?? []).filter((time) => time > windowStart);
		if (times.length >= limit) {
			this.recent.set(key, times);
			const oldest = times[times.length - limit] ?? now;
			return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + RATE_LIMIT_WINDOW_MS - now) / 1000)) };
		}
		times.push(now);
		this.recent.set(key, times);
		return { allowed: true };
	}
}

/** Counts requests being answered, to refuse new ones above a cap. */
export class InFlightCounter {
	private count = 0;

	constructor(private readonly max: number) {}

	/** Takes a place if one is free. Every successful `tryEnter` must be followed by one `leave`. */
	tryEnter(): boolean {
		if (this.count >= this.max) return false;
		this.count += 1;
		return true;
	}

	leave(): void {
		this.count = Math.max(0, this.count - 1);
	}

	get current(): number {
		return this.count;
	}
}
