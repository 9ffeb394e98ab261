import fc from "fast-check";
import { IndexHeap } from "../../../src/search/indexHeap";
import { seededRandom } from "../../../bench/syntheticVault";

describe("indices handed out best first", () => {
	test("popping every index gives them in the comparison's order, ties broken as it breaks them", () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 200 }), (keys) => {
				// Higher key first; equal keys by lower index: a strict total order.
				const before = (a: number, b: number) => (keys[a] as number) > (keys[b] as number) || (keys[a] === keys[b] && a < b);
				const heap = new IndexHeap(keys.length, { before });
				const popped: number[] = [];
				while (heap.size > 0) {
					const peeked = heap.peek();
					expect(heap.pop()).toBe(peeked);
					popped.push(peeked);
				}
				const sorted = keys.map((_, index) => index).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
				expect(popped).toEqual(sorted);
			}),
			{ numRuns: 500 },
		);
	});

	test("an index taken out, its key lowered and put back, comes out in its new place", () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 100 }),
				fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 100 }),
				(start, lowered) => {
					const keys = [...start];
					const before = (a: number, b: number) => (keys[a] as number) > (keys[b] as number) || (keys[a] === keys[b] && a < b);
					const heap = new IndexHeap(keys.length, { before });
					const popped: number[] = [];
					const putBack = new Set<number>();
					while (heap.size > 0) {
						const best = heap.pop();
						const lower = lowered[best];
						// Each index is put back at most once, with a key no higher than it had.
						if (!putBack.has(best) && lower !== undefined && lower < (keys[best] as number)) {
							putBack.add(best);
							keys[best] = lower;
							heap.push(best);
							continue;
						}
						popped.push(best);
					}
					const sorted = keys.map((_, index) => index).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
					expect(popped).toEqual(sorted);
				},
			),
			{ numRuns: 500 },
		);
	});

	test("building over 20,000 keys and taking the best 100 costs few comparisons (a phrase search ranks that many notes by bounds)", () => {
		const random = seededRandom(25);
		const keys = Array.from({ length: 20_000 }, () => random());
		let comparisons = 0;
		const heap = new IndexHeap(keys.length, {
			before: (a, b) => {
				comparisons++;
				return (keys[a] as number) > (keys[b] as number);
			},
		});
		// Comparing an index with the better child at every level: 1.88 a key to build, 27 a pop.
		expect(comparisons).toBeLessThan(1.75 * keys.length);
		comparisons = 0;
		let last = Infinity;
		for (let taken = 0; taken < 100; taken++) {
			const best = heap.pop();
			expect(keys[best]).toBeLessThan(last);
			last = keys[best] as number;
		}
		expect(comparisons).toBeLessThan(20 * 100);
	});

	test("an empty heap has no size", () => {
		expect(new IndexHeap(0, { before: () => false }).size).toBe(0);
	});
});
