import { runSteps, runStepsInSlices, runStepsInSlicesWhile, runStepsWhile, SliceClock, type Steps } from "../../../src/markdown/steps";

function* counting(pauses: number): Steps<number> {
	let done = 0;
	for (let index = 0; index < pauses; index++) {
		done++;
		yield;
	}
	return done;
}

/** Work that burns about `ms` of wall time per step. */
function* busy(steps: number, ms: number): Steps<string> {
	for (let index = 0; index < steps; index++) {
		const until = performance.now() + ms;
		while (performance.now() < until);
		yield;
	}
	return "finished";
}

describe("stepped work: the same answer whether run at once or in slices", () => {
	test("runSteps runs to the end without pausing and returns the work's value", () => {
		expect(runSteps(counting(10_000))).toBe(10_000);
		expect(runSteps(counting(0))).toBe(0);
	});

	test("runStepsInSlices gives the same value, pausing between slices when the work takes longer than one", async () => {
		let pauses = 0;
		const value = await runStepsInSlices(busy(6, 2), 3, () => {
			pauses++;
			return Promise.resolve();
		});
		expect(value).toBe("finished");
		expect(pauses).toBeGreaterThanOrEqual(2);
	});

	test("quick work in a long slice never pauses", async () => {
		const pause = jest.fn(() => Promise.resolve());
		expect(await runStepsInSlices(counting(1000), 60_000, pause)).toBe(1000);
		expect(pause).not.toHaveBeenCalled();
	});

	test("an error thrown by the work reaches the caller", async () => {
		function* failing(): Steps<never> {
			yield;
			throw new Error("bad note");
		}
		expect(() => runSteps(failing())).toThrow("bad note");
		await expect(runStepsInSlices(failing(), 1, () => Promise.resolve())).rejects.toThrow("bad note");
	});

	test("one SliceClock shared by many pieces of work pauses by their total time, not each piece's", async () => {
		// A clock of the test's own: on a busy machine the real one runs on between two lines.
		jest.useFakeTimers();
		try {
			function* costing(ms: number): Steps<string> {
				jest.advanceTimersByTime(ms);
				yield;
				return "finished";
			}
			let pauses = 0;
			const clock = new SliceClock(3, () => {
				pauses++;
				return Promise.resolve();
			});
			// Each piece alone stays under the slice; together they do not: 2, 4 (pause), 2, 4 (pause).
			for (let piece = 0; piece < 4; piece++) await clock.run(costing(2));
			expect(pauses).toBe(2);
			expect(clock.due()).toBe(false);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe("runStepsWhile", () => {
	function* stepsThen(steps: number): Steps<string> {
		for (let step = 0; step < steps; step++) yield;
		return "done";
	}

	test("runs to the end while told to go on, and gives the result", () => {
		expect(runStepsWhile(stepsThen(3), () => true)).toEqual({ done: true, value: "done" });
	});

	test("stops after the step that was told to stop, and the same steps go on from there", () => {
		let taken = 0;
		const steps = stepsThen(5);
		expect(runStepsWhile(steps, () => ++taken < 2)).toEqual({ done: false });
		expect(taken).toBe(2);
		// Two of the five pauses are passed: three more steps, then the result.
		let rest = 0;
		expect(runStepsWhile(steps, () => (rest++, true))).toEqual({ done: true, value: "done" });
		expect(rest).toBe(3);
	});
});

describe("runStepsInSlicesWhile", () => {
	test("runs to the end while told to go on, pausing between slices, and gives the result", async () => {
		let pauses = 0;
		const result = await runStepsInSlicesWhile(
			busy(6, 2),
			3,
			async () => void pauses++,
			() => true,
		);
		expect(result).toEqual({ done: true, value: "finished" });
		expect(pauses).toBeGreaterThan(0);
	});

	test("asks after each pause, and stops at the first pause after which it is told not to go on", async () => {
		let pauses = 0;
		let asked = 0;
		// Each step takes a slice: a pause after every one.
		const result = await runStepsInSlicesWhile(
			busy(10, 2),
			1,
			async () => void pauses++,
			() => ++asked < 2,
		);
		expect(result).toEqual({ done: false });
		expect(asked).toBe(2);
		expect(pauses).toBe(2);
	});
});
