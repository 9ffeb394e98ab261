import fc from "fast-check";
import { firstInOrder } from "../../../src/vault/firstInOrder";
import { CallBudget } from "../../../src/vault/workBudget";
import { countWorkPerPiece } from "../../helpers/workPieces";

describe("firstInOrder", () => {
	test("gives what filter, a stable sort and slice give: items compared equal keep their order", async () => {
		const item = fc.record({ key: fc.integer({ min: 0, max: 6 }), id: fc.nat() });
		await fc.assert(
			fc.asyncProperty(fc.array(item, { maxLength: 60 }), fc.integer({ min: 0, max: 70 }), async (items, count) => {
				const keep = (entry: { id: number }) => entry.id % 3 !== 0;
				const compare = (a: { key: number }, b: { key: number }) => a.key - b.key;
				const expected = items.filter(keep).sort(compare).slice(0, count);
				expect(await firstInOrder(items, keep, compare, count, new CallBudget(() => Promise.resolve()))).toEqual(expected);
			}),
			{ numRuns: 500 },
		);
	});

	test("looks at 100,000 items in pieces of at most 4,096", async () => {
		const items = Array.from({ length: 100_000 }, (_, index) => (index * 7919) % 100_000);
		const pieces = countWorkPerPiece();
		try {
			const first = await firstInOrder(
				items,
				() => {
					pieces.count();
					return true;
				},
				(a, b) => a - b,
				3,
				new CallBudget(),
			);
			expect(first).toEqual([0, 1, 2]);
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(4096);
		} finally {
			pieces.restore();
		}
	});
});
