import fc from "fast-check";
import { heapAfterGc } from "../../helpers/gc";
import { RATE_LIMIT_WINDOW_MS, TOKEN_ENTRIES_BEFORE_SWEEP } from "../../../src/config/limits";
import { InFlightPlaces, jsonByteLength, RateLimiter, SlidingWindowBudget, WriteBudget, writeLoadOf } from "../../../src/http/tokenBudgets";
import { expectEqual } from "../../helpers/plainEqual";

describe("RateLimiter", () => {
	test("a batch costs one per message; what does not fit is refused and records nothing", () => {
		const limiter = new RateLimiter();
		expect(limiter.take("t", 40, 32, 0)).toEqual({ allowed: true });
		expect(limiter.take("t", 40, 10, 1_000)).toMatchObject({ allowed: false, neverFits: false });
		// The refused 10 were not recorded: 8 still fit.
		expect(limiter.take("t", 40, 8, 2_000)).toEqual({ allowed: true });
		expect(limiter.take("t", 40, 1, 3_000)).toMatchObject({ allowed: false });
	});

	test("Retry-After is the time until enough old messages leave the window", () => {
		const limiter = new RateLimiter();
		limiter.take("t", 3, 1, 0);
		limiter.take("t", 3, 1, 20_000);
		limiter.take("t", 3, 1, 40_000);
		// One message fits once the first leaves (at 60 s); two fit once the second leaves (at 80 s).
		expect(limiter.take("t", 3, 1, 50_000)).toEqual({ allowed: false, retryAfterSeconds: 10, neverFits: false });
		expect(limiter.take("t", 3, 2, 50_000)).toEqual({ allowed: false, retryAfterSeconds: 30, neverFits: false });
		expect(limiter.take("t", 3, 1, 60_001)).toEqual({ allowed: true });
	});

	test("keys are counted apart", () => {
		const limiter = new RateLimiter();
		expect(limiter.take("a", 1, 1, 0)).toEqual({ allowed: true });
		expect(limiter.take("b", 1, 1, 0)).toEqual({ allowed: true });
		expect(limiter.take("a", 1, 1, 0)).toMatchObject({ allowed: false });
	});
	test("a busy minute's takes are kept off the garbage-collected heap: 200,000 requests in the window add under 2 MB to it", async () => {
		const limiter = new RateLimiter();
		const before = await heapAfterGc();
		let refused = 0;
		for (let take = 0; take < 200_000; take++) if (!limiter.take("t", 10_000_000, 1, take / 10).allowed) refused++;
		const after = await heapAfterGc();
		// Every take is still in the window (20 s of a minute) and still counts.
		expect(refused).toBe(0);
		expect(limiter.take("t", 200_000, 1, 20_000)).toMatchObject({ allowed: false, neverFits: false });
		expect(after - before).toBeLessThan(2 * 1024 * 1024);
	});

	test("takes counted in their window while the store grows, compacts and grows again: the same answers as counting them afresh", () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: 1, max: 4 })), { maxLength: 300 }), (steps) => {
				const limiter = new RateLimiter();
				const kept: Array<{ time: number; cost: number }> = [];
				let now = 0;
				for (const [gap, cost] of steps) {
					now += gap;
					const live = kept.filter((take) => take.time > now - 60_000);
					const used = live.reduce((sum, take) => sum + take.cost, 0);
					const answer = limiter.take("t", 20, cost, now);
					expect(answer.allowed).toBe(used + cost <= 20);
					if (answer.allowed) kept.push({ time: now, cost });
					else {
						// The wait is until enough of the oldest takes leave.
						let freed = used;
						let until = now;
						for (const take of live) {
							if (freed + cost <= 20) break;
							freed -= take.cost;
							until = take.time + 60_000;
						}
						expect(answer).toEqual({ allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)), neverFits: false });
					}
				}
			}),
		);
	});
});

describe("per-token windows kept", () => {
	test("keys whose takes have all left the window are forgotten when new keys come; a key still in its window keeps every take", () => {
		const limiter = new RateLimiter();
		const keys = 3 * TOKEN_ENTRIES_BEFORE_SWEEP;
		for (let index = 0; index < keys; index++) expect(limiter.take(`gone ${index}`, 5, 1, 0)).toEqual({ allowed: true });
		expect(limiter.keys).toBe(keys);
		// A minute later a busy token uses its whole limit, and new tokens keep coming.
		const later = RATE_LIMIT_WINDOW_MS + 1;
		for (let take = 0; take < 5; take++) expect(limiter.take("busy", 5, 1, later)).toEqual({ allowed: true });
		for (let index = 0; index < keys; index++) limiter.take(`new ${index}`, 5, 1, later + 1);
		expect(limiter.keys).toBeLessThanOrEqual(keys + 1);
		expect(limiter.take("busy", 5, 1, later + 2)).toMatchObject({ allowed: false });
	});

	test("property: whatever keys come and go and however often the windows are swept, each key is refused exactly when a budget never swept would refuse it", () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ key: fc.integer({ min: 0, max: 150 }), step: fc.integer({ min: 0, max: 20_000 }) }), { maxLength: 600 }),
				(takes) => {
					const swept = new SlidingWindowBudget(60_000);
					const reference = new Map<number, number[]>();
					let now = 0;
					for (const { key, step } of takes) {
						now += step;
						const times = (reference.get(key) ?? []).filter((time) => time > now - 60_000);
						const fits = times.length < 3;
						if (fits) times.push(now);
						reference.set(key, times);
						expect(swept.take(String(key), [1], [3], now).allowed).toBe(fits);
					}
				},
			),
			{ numRuns: 40 },
		);
	});
});

describe("WriteBudget", () => {
	const limits = { callsPerMinute: 3, bytesPerMinute: 100 };

	test("calls and bytes are both limited, all or nothing", () => {
		const budget = new WriteBudget();
		expect(budget.take("t", { calls: 1, bytes: 60 }, limits, 0)).toEqual({ allowed: true });
		expect(budget.take("t", { calls: 1, bytes: 60 }, limits, 1)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
		expect(budget.take("t", { calls: 2, bytes: 40 }, limits, 2)).toEqual({ allowed: true });
		expect(budget.take("t", { calls: 1, bytes: 0 }, limits, 3)).toMatchObject({ allowed: false });
	});

	test("a request larger than the whole budget never fits", () => {
		expect(new WriteBudget().take("t", { calls: 1, bytes: 101 }, limits, 0)).toEqual({ allowed: false, retryAfterSeconds: 60, neverFits: true });
	});

	test("entries per key stay bounded by the first dimension's limit", () => {
		const budget = new SlidingWindowBudget();
		for (let time = 0; time < 1_000; time++) budget.take("t", [1], [5], time);
		// Five live takes (the window is a minute), and at most as many forgotten ones not yet compacted.
		expect(budget.take("t", [1], [5], 1_000)).toMatchObject({ allowed: false });
		expect(budget.storedTakes("t")).toBeLessThanOrEqual(10);
		for (let time = 100_000; time < 101_000; time++) budget.take("t", [1], [5], time);
		expect(budget.storedTakes("t")).toBeLessThanOrEqual(10);
	});
});

describe("writeLoadOf", () => {
	const isWrite = (name: string) => name === "append_to_note";

	test("counts write tool calls and the JSON bytes of their arguments, in a batch or alone", () => {
		const append = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "append_to_note", arguments: { path: "a", content: "é" } } };
		const read = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { path: "a" } } };
		const bytes = Buffer.byteLength(JSON.stringify(append.params.arguments));
		expect(writeLoadOf([append, read, append, "junk", null, { method: "tools/call" }], isWrite)).toEqual({ calls: 2, bytes: 2 * bytes });
		expect(writeLoadOf([read], isWrite)).toEqual({ calls: 0, bytes: 0 });
	});

	test("any JSON value (escapes, lone surrogates, emoji, nesting), parsed from its text: counted as many bytes as its JSON has", () => {
		const text = fc.string({
			unit: fc.oneof(
				fc.constantFrom(
					'"',
					"\\",
					"\n",
					"\b",
					"\u0001",
					"\u001f",
					"\u007f",
					"\u0080",
					"\u07ff",
					"\u0800",
					"\ud800",
					"\udfff",
					"😀",
					"📅",
					"é",
					"東",
					"a",
				),
				fc.string({ unit: "binary" }),
			),
		});
		const json = fc.letrec((tie) => ({
			value: fc.oneof(
				{ depthSize: "small" },
				fc.constant(null),
				fc.boolean(),
				fc.double(),
				fc.integer(),
				text,
				fc.array(tie("value")),
				fc.dictionary(text, tie("value")),
			),
		})).value;
		fc.assert(
			fc.property(json, (value) => {
				// What a request carries: the value as JSON.parse gives it back.
				const parsed: unknown = JSON.parse(JSON.stringify(value));
				expectEqual(jsonByteLength(parsed), Buffer.byteLength(JSON.stringify(parsed)));
			}),
			{ numRuns: 3000 },
		);
		const note = { path: "Bench/Made/1.md", content: `[[N]] #made\n${"- [ ] t 📅 2026-01-01\n".repeat(40_000)}` };
		expect(jsonByteLength(note)).toBe(Buffer.byteLength(JSON.stringify(note)));
	});
});

describe("InFlightPlaces, keys kept", () => {
	test("keys holding no place are forgotten when new keys come; one holding a place keeps it, and its share", () => {
		const places = new InFlightPlaces(8, 2);
		for (let index = 0; index < 3 * TOKEN_ENTRIES_BEFORE_SWEEP; index++) {
			const place = places.tryEnter(`gone ${index}`);
			if ("refused" in place) throw new Error("refused");
			place.leave();
		}
		const held = [places.tryEnter("busy"), places.tryEnter("busy")];
		expect(places.keys).toBeLessThanOrEqual(2 * TOKEN_ENTRIES_BEFORE_SWEEP + 1);
		for (let index = 0; index < 3 * TOKEN_ENTRIES_BEFORE_SWEEP; index++) {
			const place = places.tryEnter(`new ${index}`);
			if (!("refused" in place)) place.leave();
		}
		expect(places.heldBy("busy")).toBe(2);
		expect(places.tryEnter("busy")).toEqual({ refused: "token_busy" });
		expect(places.keys).toBeLessThanOrEqual(2 * TOKEN_ENTRIES_BEFORE_SWEEP + 1);
		for (const place of held) if (!("refused" in place)) place.leave();
		expect(places.current).toBe(0);
	});
});

describe("InFlightPlaces", () => {
	test("one key holds at most its share; others still get places up to the total", () => {
		const places = new InFlightPlaces(4, 2);
		const a1 = places.tryEnter("a");
		const a2 = places.tryEnter("a");
		expect(places.tryEnter("a")).toEqual({ refused: "token_busy" });
		const b1 = places.tryEnter("b");
		const b2 = places.tryEnter("b");
		expect(places.tryEnter("c")).toEqual({ refused: "server_busy" });
		for (const place of [a1, a2, b1, b2]) if ("leave" in place) place.leave();
		expect(places.current).toBe(0);
	});

	test("leaving twice gives back one place", () => {
		const places = new InFlightPlaces(2, 2);
		const place = places.tryEnter("a");
		places.tryEnter("a");
		if ("leave" in place) {
			place.leave();
			place.leave();
		}
		expect(places.current).toBe(1);
	});

	test("whenNoneTaken: null with no place taken; else settled once the last place is given back, not while a request waiting in line takes one", async () => {
		const places = new InFlightPlaces(1, 1);
		expect(places.whenNoneTaken()).toBeNull();
		const first = places.tryEnter("a");
		let settled = false;
		void places.whenNoneTaken()?.then(() => (settled = true));
		const waiting = places.enter("b", 60_000, 1);
		if ("leave" in first) first.leave();
		const second = await waiting;
		await Promise.resolve();
		// The place went straight to the request in line: still one taken.
		expect(settled).toBe(false);
		if ("leave" in second) second.leave();
		await Promise.resolve();
		expect(settled).toBe(true);
		expect(places.whenNoneTaken()).toBeNull();
	});
});
