import { replaceMethod } from "./replaceMethod";

/**
 * Runs `work` and gives the most entries any Map or Set held when a key was added to it: what its
 * next growth copies in one step (V8 grows a hash table by copying it whole). Counted, not timed.
 */
export function largestTableWhile<T>(work: () => T): { result: T; largest: number } {
	const set = Object.getOwnPropertyDescriptor(Map.prototype, "set")?.value as (
		this: Map<unknown, unknown>,
		key: unknown,
		value: unknown,
	) => Map<unknown, unknown>;
	const add = Object.getOwnPropertyDescriptor(Set.prototype, "add")?.value as (this: Set<unknown>, value: unknown) => Set<unknown>;
	let largest = 0;
	const sets = replaceMethod(Map.prototype, "set", function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
		largest = Math.max(largest, this.size);
		return set.call(this, key, value);
	});
	const adds = replaceMethod(Set.prototype, "add", function (this: Set<unknown>, value: unknown) {
		largest = Math.max(largest, this.size);
		return add.call(this, value);
	});
	try {
		return { result: work(), largest };
	} finally {
		sets.restore();
		adds.restore();
	}
}
