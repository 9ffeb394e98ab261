/**
 * Long pure work written as a generator that `yield`s at points where it may pause: run to the
 * end at once by `runSteps`, or in time slices by `runStepsInSlices`, so a huge note is parsed
 * without stopping the server. The work itself never knows which.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the work to its end, without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
	}
}

/**
 * Runs the work at once while `goOn()` holds after each step: its result, or `{ done: false }`
 * when it stopped first (the same steps then go on, in slices say, from where they stopped).
 */
export function runStepsWhile<T>(steps: Steps<T>, goOn: () => boolean): { done: true; value: T } | { done: false } {
	for (;;) {
		const next = steps.next();
		if (next.done) return { done: true, value: next.value };
		if (!goOn()) return { done: false };
	}
}

/** Runs the work in slices of about `sliceMs`, awaiting `pause()` between slices. */
export function runStepsInSlices<T>(steps: Steps<T>, sliceMs: number, pause: () => Promise<void>): Promise<T> {
	return new SliceClock(sliceMs, pause).run(steps);
}

/**
 * The same, asking `goOn()` after each pause: work whose result can no longer be used (its service
 * stopped, or a newer text overtook it) ends there, not after its last slice.
 */
export function runStepsInSlicesWhile<T>(
	steps: Steps<T>,
	sliceMs: number,
	pause: () => Promise<void>,
	goOn: () => boolean,
): Promise<{ done: true; value: T } | { done: false }> {
	return new SliceClock(sliceMs, pause).runWhile(steps, goOn);
}

/**
 * One time budget shared by many pieces of work (every note of a vault, then its links): pauses
 * when the current slice has run for `sliceMs`, whichever piece is running.
 */
export class SliceClock {
	private sliceStart = performance.now();

	constructor(
		private readonly sliceMs: number,
		private readonly pause: () => Promise<void>,
	) {}

	/** True when the slice is used up: the caller should `await checkpoint()`. */
	due(): boolean {
		return performance.now() - this.sliceStart >= this.sliceMs;
	}

	/** Pauses if the slice is used up. */
	async checkpoint(): Promise<void> {
		if (!this.due()) return;
		await this.pause();
		this.sliceStart = performance.now();
	}

	/** Runs stepped work as `run` does, asking `goOn()` after each pause: `{ done: false }` when it stopped there. */
	async runWhile<T>(steps: Steps<T>, goOn: () => boolean): Promise<{ done: true; value: T } | { done: false }> {
		for (;;) {
			const next = steps.next();
			if (next.done) return { done: true, value: next.value };
			if (!this.due()) continue;
			await this.checkpoint();
			if (!goOn()) return { done: false };
		}
	}

	/** Runs stepped work, pausing whenever the slice is used up. */
	async run<T>(steps: Steps<T>): Promise<T> {
		for (;;) {
			const next = steps.next();
			if (next.done) return next.value;
			if (this.due()) await this.checkpoint();
		}
	}
}
