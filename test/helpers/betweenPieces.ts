import { SliceClock } from "../../src/markdown/steps";

/**
 * Runs `act` once, right after the first of `SliceClock`'s runs whose value `when` accepts: what the
 * person or another program does while a call is between two of its pieces (a move, a revocation).
 * `rearm` lets it act again after the next such run; `acted` says whether it has; `restore` puts
 * `SliceClock.prototype.run` back.
 */
export function actBetweenPieces(
	act: () => Promise<void> | void,
	when: (value: unknown) => boolean = () => true,
): { acted: () => boolean; rearm: () => void; restore: () => void } {
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the clock as `this`
	const run = SliceClock.prototype.run;
	let acted = false;
	const spy = jest.spyOn(SliceClock.prototype, "run").mockImplementation(async function <T>(this: SliceClock, steps: Parameters<SliceClock["run"]>[0]) {
		const value = (await run.call(this, steps)) as T;
		if (!acted && when(value)) {
			acted = true;
			await act();
		}
		return value;
	});
	return { acted: () => acted, rearm: () => (acted = false), restore: () => spy.mockRestore() };
}
