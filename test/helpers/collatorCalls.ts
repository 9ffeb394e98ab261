/**
 * Counts the comparisons made through `Intl.Collator` by the code loaded after this module (import
 * it first): the path order of the tools is a collator's `compare`, taken when its module loads.
 * A test of how much sorting a call does counts these, never its time.
 */
let calls = 0;
const original = Object.getOwnPropertyDescriptor(Intl.Collator.prototype, "compare") as PropertyDescriptor & { get: () => (a: string, b: string) => number };
Object.defineProperty(Intl.Collator.prototype, "compare", {
	configurable: true,
	get(this: Intl.Collator) {
		const compare = original.get.call(this);
		return (a: string, b: string) => {
			calls++;
			return compare(a, b);
		};
	},
});

/** Comparisons made so far. */
export function collatorCalls(): number {
	return calls;
}
