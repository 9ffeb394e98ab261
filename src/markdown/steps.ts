/**
 * Long pure work written as a generator that `yield`s at points where it may pause: run to the
 * end at once by `runSteps`, or in time slices by `runStepsInSlices`, so a huge note is parsed
 * without stopping the server (issue 12). The work itself never knows which.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the work to its end, without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
	}
}

/** Runs the work in slices of about `sliceMs`, awaiting `pause()` between slices. */
export async function runStepsInSlices<T>(steps: Steps<T>, sliceMs: number, pause: () => Promise<void>): Promise<T> {
	let sliceStart = performance.now();
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
		if (performance.now() - sliceStart >= sliceMs) {
			await pause();
			sliceStart = performance.now();
		}
	}
}
