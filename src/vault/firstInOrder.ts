import { FIRST_IN_ORDER_CHECK_MASK } from "../config/limits";
import type { CallBudget } from "./workBudget";

/**
 * The first `count` of the `items` that `keep` accepts, in `compare` order: what
 * `items.filter(keep).sort(compare).slice(0, count)` gives (items `compare` calls equal stay in the
 * order they come, as the stable sort keeps them), in one walk that pauses on `budget`. Sorting every
 * note of a vault for the few listed (resources/list, prompts/list) was one piece per call that
 * grew with the vault: 50–70 ms at 60,000 notes.
 */
export async function firstInOrder<T>(
	items: readonly T[],
	keep: (item: T) => boolean,
	compare: (a: T, b: T) => number,
	count: number,
	budget: Pick<CallBudget, "due" | "checkpoint">,
): Promise<T[]> {
	const first: T[] = [];
	for (let index = 0; index < items.length; index++) {
		const item = items[index] as T;
		if ((index & FIRST_IN_ORDER_CHECK_MASK) === FIRST_IN_ORDER_CHECK_MASK && budget.due()) await budget.checkpoint();
		if (count <= 0 || !keep(item)) continue;
		const last = first.at(-1);
		if (first.length === count && last !== undefined && compare(item, last) >= 0) continue;
		// After every item it does not come before: equal items keep their order.
		let low = 0;
		let high = first.length;
		while (low < high) {
			const middle = (low + high) >> 1;
			if (compare(item, first[middle] as T) < 0) high = middle;
			else low = middle + 1;
		}
		first.splice(low, 0, item);
		if (first.length > count) first.pop();
	}
	return first;
}
