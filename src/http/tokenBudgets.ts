import * as nodeTimers from "node:timers";
import type { Grant } from "../auth/grant";
import { RATE_LIMIT_WINDOW_MS } from "../config/limits";
import { EntrySweeps } from "../entrySweeps";
import { jsonStringBytes } from "../jsonText";
import type { Refusal } from "./guard";

/**
 * What each token may do over HTTP: messages in a sliding minute (RateLimiter), write calls and
 * bytes (WriteBudget), requests being answered at once (InFlightPlaces), and the refusals a
 * request over them gets.
 */

/** A budget's answer: taken, or refused with the seconds until the amounts asked for would fit. */
export type BudgetAnswer = { allowed: true } | { allowed: false; retryAfterSeconds: number; neverFits: boolean };

/**
 * One key's takes still in the window, oldest first from `head` to `tail`, and their sums per
 * dimension. The takes live in typed arrays, not one object each: a take is kept for the whole
 * window (a minute), so at thousands of requests a second objects would be copied by every young
 * collection and then pile up in the old generation; numbers in a typed array are neither.
 */
interface KeyWindow {
	/** When each take was made (ms). */
	times: Float64Array;
	/** Each take's amounts, `dimensions` numbers per take. */
	amounts: Float64Array;
	head: number;
	tail: number;
	sums: number[];
}

/** Takes a key's window has room for when first made; it doubles as needed. */
const FIRST_TAKES_ROOM = 16;

/** The answer of a take that fits: one object, never changed. */
const ALLOWED: BudgetAnswer = Object.freeze({ allowed: true });

/**
 * Amounts per key in a sliding window, each dimension with its own limit (requests; or write
 * calls and bytes), taken all or nothing. A refused take records nothing. Only takes are stored,
 * so when the first dimension never takes less than 1, a key keeps at most `limits[0]` entries.
 * Each key keeps running sums, so a take that fits costs the same however many takes the window
 * holds (a high limit under load had made every request walk thousands of entries).
 */
export class SlidingWindowBudget {
	private readonly windows = new Map<string, KeyWindow>();
	/** When a new key's window makes the others whose takes have all left the window be forgotten. */
	private readonly sweeps: EntrySweeps;

	constructor(private readonly windowMs: number = RATE_LIMIT_WINDOW_MS) {
		this.sweeps = new EntrySweeps(windowMs);
	}

	/** Records `amounts` for `key` at `now` if every dimension stays within its limit. */
	take(key: string, amounts: readonly number[], limits: readonly number[], now: number = Date.now()): BudgetAnswer {
		const dimensions = amounts.length;
		let window = this.windows.get(key);
		if (window === undefined) {
			if (this.sweeps.due(this.windows.size, now)) this.forgetEmpty(now, dimensions);
			window = newWindow(dimensions);
		}
		this.dropExpired(window, now - this.windowMs, dimensions);
		let waitUntil = now;
		let neverFits = false;
		for (let dimension = 0; dimension < dimensions; dimension++) {
			const amount = amounts[dimension] as number;
			const limit = limits[dimension] ?? Infinity;
			if (amount > limit) {
				neverFits = true;
				continue;
			}
			let used = window.sums[dimension] ?? 0;
			// Oldest first: the moment enough of the old takes have left the window for this one to fit.
			for (let index = window.head; index < window.tail && used + amount > limit; index++) {
				used -= window.amounts[index * dimensions + dimension] as number;
				waitUntil = Math.max(waitUntil, (window.times[index] as number) + this.windowMs);
			}
		}
		if (neverFits || waitUntil > now) {
			if (window.head < window.tail) this.windows.set(key, window);
			else this.windows.delete(key);
			const waitMs = neverFits ? this.windowMs : waitUntil - now;
			return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), neverFits };
		}
		if (window.tail === window.times.length) grow(window, dimensions);
		window.times[window.tail] = now;
		for (let dimension = 0; dimension < dimensions; dimension++) {
			const amount = amounts[dimension] as number;
			window.amounts[window.tail * dimensions + dimension] = amount;
			window.sums[dimension] = (window.sums[dimension] ?? 0) + amount;
		}
		window.tail++;
		this.windows.set(key, window);
		return ALLOWED;
	}

	/**
	 * Forgets the keys none of whose takes is still in the window (a revoked token's, one not used
	 * for a minute): such a key's window limits nothing, and a new one for it is the same, so no
	 * key gets back anything it had taken.
	 */
	private forgetEmpty(now: number, dimensions: number): void {
		for (const [key, window] of this.windows) {
			this.dropExpired(window, now - this.windowMs, dimensions);
			if (window.head === window.tail) this.windows.delete(key);
		}
		this.sweeps.swept(this.windows.size, now);
	}

	/** How many keys have a window in memory. */
	get keys(): number {
		return this.windows.size;
	}

	/** How many takes `key` holds in memory, forgotten ones not yet compacted included. */
	storedTakes(key: string): number {
		return this.windows.get(key)?.tail ?? 0;
	}

	/** Forgets the takes at or before `windowStart`, and compacts the list once most of it is forgotten. */
	private dropExpired(window: KeyWindow, windowStart: number, dimensions: number): void {
		while (window.head < window.tail && (window.times[window.head] as number) <= windowStart) {
			for (let dimension = 0; dimension < dimensions; dimension++) {
				window.sums[dimension] = (window.sums[dimension] ?? 0) - (window.amounts[window.head * dimensions + dimension] as number);
			}
			window.head++;
		}
		// Compacting once half is forgotten keeps at most twice the live takes in memory, at a cost per take that stays constant on average.
		if (window.head > 0 && window.head * 2 >= window.tail) {
			window.times.copyWithin(0, window.head, window.tail);
			window.amounts.copyWithin(0, window.head * dimensions, window.tail * dimensions);
			window.tail -= window.head;
			window.head = 0;
		}
	}
}

function newWindow(dimensions: number): KeyWindow {
	return {
		times: new Float64Array(FIRST_TAKES_ROOM),
		amounts: new Float64Array(FIRST_TAKES_ROOM * dimensions),
		head: 0,
		tail: 0,
		sums: new Array<number>(dimensions).fill(0),
	};
}

/** Twice the room, the takes kept where they are. */
function grow(window: KeyWindow, dimensions: number): void {
	const times = new Float64Array(window.times.length * 2);
	times.set(window.times);
	const amounts = new Float64Array(times.length * dimensions);
	amounts.set(window.amounts);
	window.times = times;
	window.amounts = amounts;
}

/**
 * JSON-RPC messages per token in a sliding window: a request costs one, and a batch one for each
 * message in it, so a batch of 32 uses 32 of the limit.
 */
export class RateLimiter {
	private readonly budget = new SlidingWindowBudget();

	/** Records `cost` messages for `key` if they fit under `limit`; returns the seconds to wait otherwise. */
	take(key: string, limit: number, cost = 1, now: number = Date.now()): BudgetAnswer {
		return this.budget.take(key, [cost], [limit], now);
	}

	/** Tokens with a window in memory. */
	get keys(): number {
		return this.budget.keys;
	}
}

/** Write tool calls and the bytes of their arguments, per token in a sliding window. */
export class WriteBudget {
	private readonly budget = new SlidingWindowBudget();

	/** Records `calls` write calls carrying `bytes` of arguments for `key`, if both stay within their limits. */
	take(key: string, load: WriteLoad, limits: { callsPerMinute: number; bytesPerMinute: number }, now: number = Date.now()): BudgetAnswer {
		return this.budget.take(key, [load.calls, load.bytes], [limits.callsPerMinute, limits.bytesPerMinute], now);
	}

	/** Tokens with a window in memory. */
	get keys(): number {
		return this.budget.keys;
	}
}

/** What the write tool calls in one request ask to write. */
export interface WriteLoad {
	calls: number;
	bytes: number;
}

/**
 * Counts the write tool calls in a request's JSON-RPC messages, and the bytes of their arguments
 * as JSON. `isWriteTool` comes from the tool registry, so this layer knows no tool by name.
 */
export function writeLoadOf(messages: readonly unknown[], isWriteTool: (name: string) => boolean): WriteLoad {
	let calls = 0;
	let bytes = 0;
	for (const message of messages) {
		if (typeof message !== "object" || message === null) continue;
		const { method, params } = message as { method?: unknown; params?: unknown };
		if (method !== "tools/call" || typeof params !== "object" || params === null) continue;
		const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
		if (typeof name !== "string" || !isWriteTool(name)) continue;
		calls += 1;
		bytes += jsonByteLength(args ?? {});
	}
	return { calls, bytes };
}

/**
 * The UTF-8 bytes of `JSON.stringify(value)`, counted without making the text: a 1 MB note's
 * arguments were made into a 2 MB string only to be counted (about 15 ms and 2 MB of garbage a
 * call). Walks what `JSON.parse` gives (plain objects, arrays, strings, numbers, booleans, null);
 * anything else is stringified and counted.
 */
export function jsonByteLength(value: unknown): number {
	if (value === null) return 4;
	if (typeof value === "string") return jsonStringBytes(value);
	if (typeof value === "boolean") return value ? 4 : 5;
	if (typeof value === "number") return Number.isFinite(value) ? String(value).length : 4;
	if (Array.isArray(value)) {
		let bytes = 2 + Math.max(0, value.length - 1);
		for (const item of value as unknown[]) bytes += isOmitted(item) ? 4 : jsonByteLength(item);
		return bytes;
	}
	const prototype: unknown = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
	if (prototype !== Object.prototype && prototype !== null) return Buffer.byteLength(JSON.stringify(value) ?? "");
	let bytes = 2;
	let members = 0;
	for (const key of Object.keys(value as object)) {
		const item = (value as Record<string, unknown>)[key];
		if (isOmitted(item)) continue;
		bytes += jsonStringBytes(key) + 1 + jsonByteLength(item);
		members++;
	}
	return bytes + Math.max(0, members - 1);
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(value: unknown): boolean {
	return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** A request waiting in line for a place. */
interface Waiter {
	key: string;
	resolve: (place: { leave: () => void } | { refused: PlaceRefusal }) => void;
	timer: NodeJS.Timeout;
}

/** Why a place was not given: every place is taken, or this token holds its share. */
export type PlaceRefusal = "server_busy" | "token_busy";

/**
 * Places for requests being answered: at most `max` in all and `maxPerKey` for one token, so a
 * client that holds its places (a slow reader, say) leaves the rest to others.
 */
export class InFlightPlaces {
	private total = 0;
	private readonly waiting: Waiter[] = [];
	private readonly perKey = new Map<string, number>();
	/** Those waiting for every place to be free (`whenNoneTaken`). */
	private whenNone: Array<() => void> = [];
	/** When a new key makes those holding no place be forgotten. */
	private readonly sweeps = new EntrySweeps(RATE_LIMIT_WINDOW_MS);

	constructor(
		private readonly max: number,
		private readonly maxPerKey: number,
	) {}

	/** Takes a place for `key`; the function it returns gives the place back (calling it twice is harmless). */
	tryEnter(key: string): { leave: () => void } | { refused: PlaceRefusal } {
		const held = this.perKey.get(key) ?? 0;
		if (held >= this.maxPerKey) return { refused: "token_busy" };
		if (this.total >= this.max) return { refused: "server_busy" };
		if (!this.perKey.has(key) && this.sweeps.due(this.perKey.size, Date.now())) this.forgetIdle();
		this.total += 1;
		this.perKey.set(key, held + 1);
		let left = false;
		return {
			leave: () => {
				if (left) return;
				left = true;
				this.total -= 1;
				// A key at 0 is kept (one a token that was let in): deleting it and adding it back on its next request cost microseconds each.
				this.perKey.set(key, (this.perKey.get(key) ?? 1) - 1);
				this.wake();
				if (this.total === 0) this.wakeWhenNone();
			},
		};
	}

	/**
	 * Takes a place for `key`, waiting up to `waitMs` in line (first come, first served) when every
	 * place, or this token's share, is taken: a client that sends a burst of parallel calls, or its
	 * next call a moment before the last answer's place is handed back, is served in turn rather
	 * than refused. At most `maxWaitingPerKey` requests of one token wait; more are refused at once.
	 */
	enter(key: string, waitMs: number, maxWaitingPerKey: number): Promise<{ leave: () => void } | { refused: PlaceRefusal }> {
		const now = this.tryEnter(key);
		if (!("refused" in now) || waitMs <= 0 || this.waiting.filter((waiter) => waiter.key === key).length >= maxWaitingPerKey) return Promise.resolve(now);
		return new Promise((resolve) => {
			const waiter: Waiter = {
				key,
				resolve,
				timer: nodeTimers.setTimeout(() => {
					this.waiting.splice(this.waiting.indexOf(waiter), 1);
					resolve(this.tryEnter(key));
				}, waitMs),
			};
			this.waiting.push(waiter);
		});
	}

	/** Gives freed places to those waiting, in the order they came. */
	private wake(): void {
		for (let index = 0; index < this.waiting.length; index++) {
			const waiter = this.waiting[index] as Waiter;
			const place = this.tryEnter(waiter.key);
			if ("refused" in place) {
				if (place.refused === "server_busy") return;
				continue;
			}
			nodeTimers.clearTimeout(waiter.timer);
			this.waiting.splice(index, 1);
			index -= 1;
			waiter.resolve(place);
		}
	}

	/** Null when no place is taken now; else settled once none is (the places freed, none given to a request waiting in line). */
	whenNoneTaken(): Promise<void> | null {
		if (this.total === 0) return null;
		return new Promise((resolve) => this.whenNone.push(resolve));
	}

	private wakeWhenNone(): void {
		const waiting = this.whenNone;
		this.whenNone = [];
		for (const resolve of waiting) resolve();
	}

	/** Forgets the keys holding no place (the same as absent). */
	private forgetIdle(): void {
		for (const [key, held] of this.perKey) if (held === 0) this.perKey.delete(key);
		this.sweeps.swept(this.perKey.size, Date.now());
	}

	/** Keys with an entry in memory. */
	get keys(): number {
		return this.perKey.size;
	}

	/** Places `key` holds now. */
	heldBy(key: string): number {
		return this.perKey.get(key) ?? 0;
	}

	/** Places taken now, over all tokens. */
	get current(): number {
		return this.total;
	}
}

/** The per-token limits of the settings, read live on every request. */
export interface TokenLimits {
	rateLimitPerMinute: number;
	writeCallsPerMinute: number;
	writeBytesPerMinute: number;
}

/** The budgets every request of one endpoint is charged to. */
export interface TokenBudgets {
	rateLimiter: RateLimiter;
	writeBudget: WriteBudget;
}

/**
 * Charges a batch's other messages to the rate limit (its first was charged before its body was
 * read), then its write calls to the write budget; the refusal if either is over, else null.
 * `isWriteTool` must say false for a tool the grant is denied, or the refusal would show it exists.
 */
export function chargeMessages(
	budgets: TokenBudgets,
	grant: Grant,
	limits: TokenLimits,
	messages: readonly unknown[],
	isWriteTool: (name: string) => boolean,
): Refusal | null {
	const key = grant.token.hash;
	if (messages.length > limits.rateLimitPerMinute) {
		return rateLimitRefusal(limits, { allowed: false, retryAfterSeconds: Math.ceil(RATE_LIMIT_WINDOW_MS / 1000), neverFits: true }, messages.length);
	}
	if (messages.length > 1) {
		const rate = budgets.rateLimiter.take(key, limits.rateLimitPerMinute, messages.length - 1);
		if (!rate.allowed) return rateLimitRefusal(limits, rate, messages.length);
	}
	if (!grant.canWrite) return null;
	const load = writeLoadOf(messages, isWriteTool);
	if (load.calls === 0) return null;
	const writeLimits = { callsPerMinute: limits.writeCallsPerMinute, bytesPerMinute: limits.writeBytesPerMinute };
	const budget = budgets.writeBudget.take(key, load, writeLimits);
	if (budget.allowed) return null;
	return {
		status: 429,
		kind: "rate_limited",
		message: budget.neverFits
			? `This request holds more writing than this token may do in a minute (${writeLimits.callsPerMinute} write calls, ${writeLimits.bytesPerMinute} bytes). Write less at a time.`
			: `Too much writing for this token (limit ${writeLimits.callsPerMinute} write calls and ${writeLimits.bytesPerMinute} bytes a minute). Nothing was written.`,
		headers: { "Retry-After": String(budget.retryAfterSeconds) },
	};
}

/** The 429 for a request of `messages` messages over the token's rate limit. */
export function rateLimitRefusal(limits: TokenLimits, answer: BudgetAnswer & { allowed: false }, messages: number): Refusal {
	const limit = limits.rateLimitPerMinute;
	return {
		status: 429,
		kind: "rate_limited",
		message: answer.neverFits
			? `A batch of ${messages} messages is more than this token's limit of ${limit} a minute; send smaller batches.`
			: `Too many requests for this token (limit ${limit} messages a minute, each message of a batch counted).`,
		headers: { "Retry-After": String(answer.retryAfterSeconds) },
	};
}
