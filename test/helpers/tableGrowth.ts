/**
 * Runs `work` and gives the most entries any Map held when a key was set in it: what that Map's
 * next growth copies in one step (V8 grows a hash table by copying it whole). Counted, not timed.
 */
export function largestMapWhile<T>(work: () => T): { result: T; largest: number } {
	const set = Object.getOwnPropertyDescriptor(Map.prototype, "set")?.value as (
		this: Map<unknown, unknown>,
		key: unknown,
		value: unknown,
	) => Map<unknown, unknown>;
	let largest = 0;
	const sets = jest.spyOn(Map.prototype, "set").mockImplementation(function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
		largest = Math.max(largest, this.size);
		return set.call(this, key, value);
	});
	try {
		return { result: work(), largest };
	} finally {
		sets.mockRestore();
	}
}
