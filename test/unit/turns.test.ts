import nodeTimers from "node:timers";
import { TOKEN_ENTRIES_BEFORE_SWEEP } from "../../src/config/limits";
import { eventLoopTurns, TurnLane, UNOWNED } from "../../src/turns";

describe("TurnLane", () => {
	test("callers waiting together get their turns one at a time, in the order they asked, one turn of the host each", async () => {
		let turns = 0;
		const lane = new TurnLane(
			() =>
				new Promise((resolve) =>
					setImmediate(() => {
						turns += 1;
						resolve();
					}),
				),
		);
		const order: Array<[string, number]> = [];
		await Promise.all(["a", "b", "c"].map((name) => lane.take().then(() => void order.push([name, turns]))));
		expect(order).toEqual([
			["a", 1],
			["b", 2],
			["c", 3],
		]);
		// Idle, the lane asks the host for nothing more.
		await new Promise((resolve) => setImmediate(resolve));
		expect(turns).toBe(3);
	});

	test("the process's lane lets one caller go per turn of the event loop: each work asking in the same turn resumes in a later turn of its own", async () => {
		let turn = 0;
		let counting = true;
		const tick = () => {
			turn += 1;
			if (counting) setImmediate(tick);
		};
		setImmediate(tick);
		// Three long works paused in the same turn (a parse, an indexing, a body), and each pauses again once resumed.
		const resumed: number[][] = [[], [], []];
		await Promise.all(
			resumed.map(async (turnsOfWork) => {
				for (let slice = 0; slice < 3; slice++) {
					await eventLoopTurns.take();
					turnsOfWork.push(turn);
				}
			}),
		);
		counting = false;
		const all = resumed.flat();
		expect(new Set(all).size).toBe(all.length);
	});

	test("owners take turns round the ring: a token's four waiting slices do not all go before another's one, and each owner's go in the order asked", async () => {
		const lane = new TurnLane();
		const order: string[] = [];
		const asked = [
			...["a1", "a2", "a3", "a4"].map((name) => lane.takeFor("flooder").then(() => void order.push(name))),
			lane.takeFor("other").then(() => void order.push("b1")),
			lane.take().then(() => void order.push("index")),
		];
		await Promise.all(asked);
		expect(order).toEqual(["a1", "b1", "index", "a2", "a3", "a4"]);
	});

	test("an owner that asks again after its turn goes behind the owners already waiting", async () => {
		const lane = new TurnLane();
		const order: string[] = [];
		const flooder = (async () => {
			for (let slice = 1; slice <= 3; slice++) {
				await lane.takeFor("flooder");
				order.push(`a${slice}`);
			}
		})();
		// Asked after the flooder's first turn was asked for, before it ran.
		const other = lane.takeFor("other").then(() => void order.push("b1"));
		await Promise.all([flooder, other]);
		expect(order).toEqual(["a1", "b1", "a2", "a3"]);
	});

	test("while a token's lone request goes first, other tokens' slices wait and work no token owns goes on; its end, or its own turn, lets them go", async () => {
		const lane = new TurnLane(undefined, 60_000);
		const order: string[] = [];
		const release = lane.goFirst("other");
		const flood = lane.takeFor("flooder").then(() => void order.push("a1"));
		const index = lane.take().then(() => void order.push("index"));
		await index;
		for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
		expect(order).toEqual(["index"]);
		release();
		await flood;
		expect(order).toEqual(["index", "a1"]);

		// A request that goes first and then takes a turn of long work itself takes turns like the others.
		lane.goFirst("other");
		const flood2 = lane.takeFor("flooder").then(() => void order.push("a2"));
		for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
		expect(order).toEqual(["index", "a1"]);
		await Promise.all([lane.takeFor("other").then(() => void order.push("b1")), flood2]);
		expect(order).toEqual(["index", "a1", "a2", "b1"]);
	});

	test("claims of tokens no longer answered are forgotten as new tokens go first; one still going first holds others' slices as before", async () => {
		const lane = new TurnLane();
		for (let index = 0; index < 3 * TOKEN_ENTRIES_BEFORE_SWEEP; index++) lane.goFirst(`gone ${index}`)();
		expect(lane.claimsKept).toBeLessThanOrEqual(2 * TOKEN_ENTRIES_BEFORE_SWEEP);
		const end = lane.goFirst("lone");
		for (let index = 0; index < 3 * TOKEN_ENTRIES_BEFORE_SWEEP; index++) lane.goFirst(`new ${index}`)();
		expect(lane.claimsKept).toBeLessThanOrEqual(2 * TOKEN_ENTRIES_BEFORE_SWEEP);
		// "lone" still goes first: another token's slice waits until it ends.
		let ran = false;
		const slice = lane.takeFor("other").then(() => void (ran = true));
		await new Promise((resolve) => setImmediate(resolve));
		await new Promise((resolve) => setImmediate(resolve));
		expect(ran).toBe(false);
		end();
		await slice;
		expect(ran).toBe(true);
	});

	test("a request goes first for a bounded time only: past it, other tokens' slices run though it has not finished", async () => {
		const lane = new TurnLane(undefined, 20);
		const release = lane.goFirst("other");
		const started = performance.now();
		await lane.takeFor("flooder");
		expect(performance.now() - started).toBeGreaterThanOrEqual(15);
		release();
		expect(UNOWNED).toBe("");
	});
	test("a lone request going first arms no timer while no slice waits; a claim's own bound still frees a slice held behind it", async () => {
		const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
		const lane = new TurnLane(undefined, 200);
		const before = timers();
		const release = lane.goFirst("a");
		expect(timers()).toBe(before);
		release();
		// "a" goes first and never ends; the flooder asks 150 ms later and waits for a's bound (50 ms more), not a whole bound of its own.
		// Read on a clock the test moves, and on the wait the lane arms: a loaded machine cannot lengthen either.
		let now = 1_000;
		const clock = jest.spyOn(performance, "now").mockImplementation(() => now);
		// The lane's one timer, still run: its waits are what the lane decided.
		const armed = jest.spyOn(nodeTimers, "setTimeout");
		try {
			lane.goFirst("a");
			now += 150;
			let went = false;
			const flooder = lane.takeFor("flooder").then(() => void (went = true));
			await new Promise((resolve) => setImmediate(resolve));
			expect(went).toBe(false);
			expect(armed.mock.calls.map((call) => call[1])).toEqual([50]);
			now += 50;
			await flooder;
			expect(armed).toHaveBeenCalledTimes(1);
		} finally {
			armed.mockRestore();
			clock.mockRestore();
		}
	});

	test("requests of two tokens going first one after the other hold a third token's slice for a bounded time only, not for as long as they keep coming", async () => {
		const lane = new TurnLane(undefined, 20);
		// Two tokens' lone requests, each within its bound, overlapping so that one always goes first.
		let flooding = true;
		let claims = 0;
		const releases: Array<() => void> = [];
		const flood = (async () => {
			while (flooding) {
				releases.push(lane.goFirst(claims++ % 2 === 0 ? "a" : "b"));
				if (releases.length > 2) releases.shift()?.();
				await new Promise((resolve) => setTimeout(resolve, 8));
			}
		})();
		// Counted in the flood's claims (one each 8 ms), not in wall time: a busy machine slows the flood and the bound alike.
		const claimsAtAsk = claims;
		let claimsWaited = Number.POSITIVE_INFINITY;
		const third = lane.takeFor("c").then(() => void (claimsWaited = claims - claimsAtAsk));
		await new Promise((resolve) => setTimeout(resolve, 400));
		flooding = false;
		await flood;
		for (const release of releases) release();
		await third;
		// Before: it went only once the flood stopped (about 50 claims); a bound of 20 ms is about 3.
		expect(claimsWaited).toBeLessThan(12);
	});
	test("a third token's long work beside two tokens' lone requests that keep coming gets turns at a steady pace, not one slice per bound", async () => {
		const firstMs = 20;
		const lane = new TurnLane(undefined, firstMs);
		let flooding = true;
		let claims = 0;
		const releases: Array<() => void> = [];
		const flood = (async () => {
			while (flooding) {
				releases.push(lane.goFirst(claims++ % 2 === 0 ? "a" : "b"));
				if (releases.length > 2) releases.shift()?.();
				await new Promise((resolve) => setTimeout(resolve, 8));
			}
		})();
		// Counted in the flood's claims (one each 8 ms), not in wall time: a busy machine slows the flood and the bounds alike.
		const claimsAtStart = claims;
		// A vault-wide call of 20 slices, each asking its turn.
		for (let slice = 0; slice < 20; slice++) await lane.takeFor("c");
		const claimsDuring = claims - claimsAtStart;
		flooding = false;
		await flood;
		for (const release of releases) release();
		// Before: one slice per bound, 20 × 20 ms and more (about 440 ms: 55 claims); after, about two bounds (5).
		expect(claimsDuring).toBeLessThan((8 * firstMs) / 8);
	});
	test("owners that ask again at once after each turn do not take every turn from work no token owns", async () => {
		// A token's long work asks for its next turn as soon as it has one (its slice runs in the same turn); work no token
		// owns has two callers waiting (the index build's slice and another, each asking again once served). The token, put
		// back at the ring's end where the cursor was left, got every turn: 2,000 to 1.
		const TOKEN_TURNS = 400;
		const lane = new TurnLane();
		let unownedTurns = 0;
		let tokenDone = false;
		const unowned = async (): Promise<void> => {
			while (!tokenDone) {
				await lane.take();
				unownedTurns += 1;
			}
		};
		const others = [unowned(), unowned()];
		await new Promise((resolve) => setImmediate(resolve));
		const atStart = unownedTurns;
		for (let turn = 0; turn < TOKEN_TURNS; turn++) await lane.takeFor("token");
		const duringToken = unownedTurns - atStart;
		// Two tokens doing so (a call and a flood's call, each waiting for the index build a turn at a time): each put back
		// at the ring's end, the cursor reached it before the start, and they took every turn between them.
		const atTwo = unownedTurns;
		let otherTokenTurns = 0;
		await Promise.all([
			(async () => {
				for (let turn = 0; turn < TOKEN_TURNS; turn++) await lane.takeFor("token");
			})(),
			(async () => {
				for (let turn = 0; turn < TOKEN_TURNS; turn++, otherTokenTurns++) await lane.takeFor("other token");
			})(),
		]);
		const duringTwo = unownedTurns - atTwo;
		tokenDone = true;
		await Promise.all(others);
		// Round the ring: a turn of work no token owns between two of the token's, and one per round of the two tokens.
		expect(duringToken).toBeGreaterThanOrEqual(TOKEN_TURNS - 1);
		expect(otherTokenTurns).toBe(TOKEN_TURNS);
		expect(duringTwo).toBeGreaterThanOrEqual(TOKEN_TURNS - 1);
	});
});
