import { CallBudget, CallOverBudget, sortInSlices, startWorkStopwatch, withinCallBudget, yieldToEventLoop } from "../../../src/vault/workBudget";

/** Keeps the thread busy for `ms`, as vault-wide work does between two checkpoints. */
function busy(ms: number): void {
	const until = performance.now() + ms;
	while (performance.now() < until);
}

describe("a vault-wide call's CPU budget", () => {
	test("work gives the event loop back after each slice: a request queued meanwhile is answered before the work ends", async () => {
		const budget = new CallBudget(yieldToEventLoop, 10, 10_000);
		let otherAnsweredAtStep = -1;
		setImmediate(() => (otherAnsweredAtStep = step));
		let step = 0;
		for (; step < 20; step++) {
			busy(2);
			await budget.checkpoint();
		}
		expect(otherAnsweredAtStep).toBeGreaterThanOrEqual(0);
		expect(otherAnsweredAtStep).toBeLessThan(10);
	});

	test("a call that keeps working past its budget is ended with CallOverBudget", async () => {
		const budget = new CallBudget(yieldToEventLoop, 5, 40);
		let steps = 0;
		const work = async () => {
			for (;;) {
				busy(1);
				steps += 1;
				await budget.checkpoint();
			}
		};
		await expect(work()).rejects.toBeInstanceOf(CallOverBudget);
		expect(steps).toBeGreaterThan(1);
		// Ended in the slice that crossed the budget (a 5 ms slice, plus its last 1 ms step and the collector's share).
		expect(budget.workDone).toBeGreaterThanOrEqual(40);
		expect(budget.workDone).toBeLessThan(60);
	});

	test("time spent waiting for others is not counted: a call that works little but waits long finishes", async () => {
		const slowHost = () => new Promise<void>((resolve) => setTimeout(resolve, 100));
		const budget = new CallBudget(slowHost, 5, 200);
		const started = performance.now();
		for (let step = 0; step < 8; step++) {
			busy(5);
			await budget.checkpoint();
		}
		// About 40 ms of work over more than 700 ms: a wall-clock bound of 200 ms would have ended it.
		expect(performance.now() - started).toBeGreaterThan(700);
	});

	test("a stopwatch of work counts the thread working, not the thread kept from its core, and never more than the wall time", () => {
		const stopwatch = startWorkStopwatch();
		const wallStart = performance.now();
		// Blocked without working, as when other programs have the cores.
		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
		expect(stopwatch()).toBeLessThan(50);
		busy(60);
		const work = stopwatch();
		expect(work).toBeLessThanOrEqual(performance.now() - wallStart);
		// The 60 ms busy, less what the machine gave others meanwhile: more than the wait's nothing.
		expect(work).toBeGreaterThan(0);
	});

	test("work done before beginSlice (a search helping the index build) neither counts nor ends the first slice", async () => {
		// A slice long enough that a loaded machine taking the core between two statements does not use it up.
		const budget = new CallBudget(yieldToEventLoop, 200, 10_000);
		busy(300);
		expect(budget.due()).toBe(true);
		budget.beginSlice();
		expect(budget.due()).toBe(false);
		busy(25);
		// Ends the slice though it is not used up, so its work is counted.
		await budget.nextTurn();
		// At most the slice since beginSlice (less where the machine gave the core away): the 300 ms before it are not the call's.
		expect(budget.workDone).toBeGreaterThan(0);
		expect(budget.workDone).toBeLessThan(250);
	});

	test("nextTurn gives the host a turn even when the slice is not used up", async () => {
		let turns = 0;
		const budget = new CallBudget(
			() => {
				turns++;
				return Promise.resolve();
			},
			10_000,
			10_000,
		);
		await budget.checkpoint();
		expect(turns).toBe(0);
		await budget.nextTurn();
		expect(turns).toBe(1);
		expect(budget.workDone).toBeLessThan(10_000);
	});

	test("withinCallBudget answers the value, or, over budget, an error saying whether the same call again gets further and how to narrow the call", async () => {
		const narrow = { again: "resumes", narrowing: "Narrow it." } as const;
		expect(await withinCallBudget(() => Promise.resolve(42), narrow)).toEqual({ ok: true, value: 42 });
		const over = await withinCallBudget(() => Promise.reject(new CallOverBudget(2_000)), { again: "resumes", narrowing: "Pass a folder." });
		expect(over).toEqual({
			ok: false,
			error: expect.stringMatching(/more than 2 s of work.*stopped.*the same call again gets further\. Pass a folder\.$/),
		});
		const redone = await withinCallBudget(() => Promise.reject(new CallOverBudget(2_000)), { again: "redoes", narrowing: "Pass a folder." });
		expect(redone).toEqual({ ok: false, error: expect.stringMatching(/stopped.*The same call again would need as much.*Pass a folder\.$/) });
		if (!redone.ok) expect(redone.error).not.toContain("gets further");
		await expect(withinCallBudget(() => Promise.reject(new Error("a bug")), narrow)).rejects.toThrow("a bug");
	});

	test("a sort in slices gives the order Array.prototype.sort gives, and pauses on a long list", async () => {
		let state = 7;
		const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
		const items = Array.from({ length: 5000 }, (_, index) => ({ name: `Folder ${Math.floor(random() * 40)}/Note ${Math.floor(random() * 900)}`, index }));
		const order = (a: { name: string; index: number }, b: { name: string; index: number }) => a.name.localeCompare(b.name) || a.index - b.index;
		let pauses = 0;
		const budget = new CallBudget(() => ((pauses += 1), yieldToEventLoop()), 0, 60_000);
		expect(await sortInSlices(items, order, budget)).toEqual([...items].sort(order));
		expect(pauses).toBeGreaterThan(0);
		expect(await sortInSlices([], order, budget)).toEqual([]);
		expect(await sortInSlices(items.slice(0, 1), order, budget)).toEqual(items.slice(0, 1));
	});

	test("a sort in slices pauses inside a merge too: no piece compares more than a few thousand items (the last passes merged halves of the whole list in one piece)", async () => {
		const ITEMS = 200_000;
		const items = Array.from({ length: ITEMS }, (_, index) => (index * 7919) % ITEMS);
		const perPiece: number[] = [0];
		const order = (a: number, b: number) => {
			perPiece[perPiece.length - 1] = (perPiece.at(-1) ?? 0) + 1;
			return a - b;
		};
		const budget = { due: () => true, checkpoint: () => (perPiece.push(0), Promise.resolve()) };
		expect(await sortInSlices(items, order, budget)).toEqual([...items].sort((a, b) => a - b));
		expect(Math.max(...perPiece)).toBeLessThanOrEqual(1024);
	});
});
