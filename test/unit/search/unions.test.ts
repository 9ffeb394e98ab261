import fc from "fast-check";
import { BODY_COUNT, IN_TITLE, mergeValues, packValue, type Postings } from "../../../src/search/postingValues";
import { holderMarkSteps, PostingRuns, runSteps, UNION_STEP_MASK, unionScratch, unionSteps } from "../../../src/search/unions";

/** Postings of random notes: sorted distinct slots below `slotCount`, each with a value. */
function postingsOf(entries: ReadonlyArray<readonly [number, number]>): Postings {
	const sorted = [...new Map(entries).entries()].sort(([a], [b]) => a - b);
	return { slots: Uint32Array.from(sorted.map(([slot]) => slot)), values: Uint32Array.from(sorted.map(([, value]) => value)), length: sorted.length };
}

/** A posting's value as the index packs one: body and title counts, the title flag with them or alone (an alias's word), a heading flag. */
const postingValue = fc
	.tuple(fc.integer({ min: 1, max: BODY_COUNT }), fc.nat(70), fc.boolean(), fc.boolean())
	.map(([body, title, heading, alias]) => (packValue(body, title, heading) | (alias ? IN_TITLE : 0)) >>> 0);

const lists = fc.array(fc.array(fc.tuple(fc.nat(200), postingValue), { maxLength: 60 }).map(postingsOf), { maxLength: 6 });

describe("unions of postings in steps", () => {
	test("a union adds values by slot, in slot order, and leaves the scratch all zero", () => {
		fc.assert(
			fc.property(lists, (drawn) => {
				const scratch = unionScratch();
				const union = runSteps(unionSteps(drawn, 201, scratch));
				const expected = new Map<number, number>();
				for (const list of drawn)
					for (let index = 0; index < list.length; index++) {
						const slot = list.slots[index] as number;
						expected.set(slot, mergeValues(expected.get(slot) ?? 0, list.values[index] as number) >>> 0);
					}
				const slots = [...expected.keys()].sort((a, b) => a - b);
				expect([...union.slots.subarray(0, union.length)]).toEqual(slots);
				expect([...union.values.subarray(0, union.length)]).toEqual(slots.map((slot) => expected.get(slot)));
				expect(scratch.merged.every((value) => value === 0)).toBe(true);
			}),
		);
	});

	test("a union tells how many notes its first lists hold together", () => {
		fc.assert(
			fc.property(lists, fc.nat(7), (drawn, first) => {
				const tally = { lists: first, notes: -1 };
				runSteps(unionSteps(drawn, 201, unionScratch(), tally));
				const held = new Set(drawn.slice(0, first).flatMap((list) => [...list.slots.subarray(0, list.length)]));
				expect(tally.notes).toBe(held.size);
			}),
		);
	});

	test("a union given up between steps zeroes what it wrote in the scratch", () => {
		const big = {
			slots: Uint32Array.from({ length: 3 * (UNION_STEP_MASK + 1) }, (_, slot) => slot),
			values: new Uint32Array(3 * (UNION_STEP_MASK + 1)).fill(1),
			length: 3 * (UNION_STEP_MASK + 1),
		};
		const scratch = unionScratch();
		const steps = unionSteps([big, big], big.length, scratch);
		expect(steps.next().done).toBe(false);
		expect(scratch.merged.some((value) => value !== 0)).toBe(true);
		steps.return(undefined as never);
		expect(scratch.merged.every((value) => value === 0)).toBe(true);
		// The steps are many, not one piece.
		let steps2 = 0;
		const again = unionSteps([big, big], big.length, scratch);
		while (!again.next().done) steps2++;
		expect(steps2).toBeGreaterThanOrEqual(6);
	});

	test("holder marks are the slots holding a term in the body or title", () => {
		const marks = runSteps(
			holderMarkSteps(
				[
					postingsOf([
						[3, 1],
						[5, 0x80000000],
					]),
					postingsOf([[7, 0x40000000]]),
				],
				10,
			),
		);
		expect([...marks]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0]);
	});

	test("lists read by their place in shared buffers (an arena's) give the union and the marks the lists give", () => {
		fc.assert(
			fc.property(lists, fc.array(fc.nat(5), { minLength: 6, maxLength: 6 }), fc.nat(7), (drawn, gaps, first) => {
				// Each list's slots, then room, then its values, in one buffer as the arena lays them; every other list in a buffer of its own.
				const arena = new Uint32Array(drawn.reduce((size, list, index) => size + 2 * (list.length + (gaps[index] ?? 0)) + 3, 0)).fill(0xdead);
				const runs = new PostingRuns();
				let at = 1;
				drawn.forEach((list, index) => {
					const room = list.length + (gaps[index] ?? 0);
					if (index % 2 === 1) {
						runs.add(list.slots, 0, list.values, 0, list.length);
						return;
					}
					arena.set(list.slots.subarray(0, list.length), at);
					arena.set(list.values.subarray(0, list.length), at + room);
					runs.add(arena, at, arena, at + room, list.length);
					at += 2 * room + 1;
				});
				const tallyOfRuns = { lists: first, notes: -1 };
				const tallyOfLists = { lists: first, notes: -1 };
				const fromRuns = runSteps(unionSteps(runs, 201, unionScratch(), tallyOfRuns));
				const fromLists = runSteps(unionSteps(drawn, 201, unionScratch(), tallyOfLists));
				expect([...fromRuns.slots.subarray(0, fromRuns.length)]).toEqual([...fromLists.slots.subarray(0, fromLists.length)]);
				expect([...fromRuns.values.subarray(0, fromRuns.length)]).toEqual([...fromLists.values.subarray(0, fromLists.length)]);
				expect(tallyOfRuns.notes).toBe(tallyOfLists.notes);
				expect([...runSteps(holderMarkSteps(runs, 201))]).toEqual([...runSteps(holderMarkSteps(drawn, 201))]);
				drawn.forEach((list, index) => {
					const run = runs.list(index);
					expect([...run.slots]).toEqual([...list.slots.subarray(0, list.length)]);
					expect([...run.values]).toEqual([...list.values.subarray(0, list.length)]);
				});
			}),
		);
	});
});
