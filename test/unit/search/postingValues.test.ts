import fc from "fast-check";
import {
	BODY_COUNT,
	countAccepted,
	countEither,
	emptyTerm,
	formsValueAt,
	growUint32,
	IN_HEADING,
	IN_TITLE,
	mergeValues,
	packValue,
	seek,
	titleCount,
	valueAt,
	type ResolvedTerm,
} from "../../../src/search/postingValues";
import { runSteps, unionScratch, unionSteps } from "../../../src/search/unions";

const term = (slots: number[], values: number[] = slots.map(() => packValue(1, 0, false))): ResolvedTerm => ({
	slots: Uint32Array.from(slots),
	values: Uint32Array.from(values),
	length: slots.length,
	phrase: null,
});
const sortedSlots = fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 80 }).map((slots) => slots.sort((a, b) => a - b));

describe("posting values: what one note holds of one term", () => {
	test("packValue keeps the counts and flags, saturating each count at its field's largest value", () => {
		const value = packValue(7, 2, true);
		expect([value & BODY_COUNT, titleCount(value), (value & IN_TITLE) !== 0, (value & IN_HEADING) !== 0]).toEqual([7, 2, true, true]);
		expect(packValue(0, 0, false)).toBe(0);
		expect(packValue(BODY_COUNT + 10, 1000, false) & BODY_COUNT).toBe(BODY_COUNT);
		expect(titleCount(packValue(1, 1000, false))).toBe(63);
		expect(packValue(1, 1, true)).toBeGreaterThan(0);
	});

	test("mergeValues adds the counts and keeps each flag either value has", () => {
		fc.assert(
			fc.property(fc.nat(1000), fc.nat(20), fc.boolean(), fc.nat(1000), fc.nat(20), fc.boolean(), (bodyA, titleA, headA, bodyB, titleB, headB) => {
				const merged = mergeValues(packValue(bodyA, titleA, headA), packValue(bodyB, titleB, headB));
				expect(merged & BODY_COUNT).toBe(bodyA + bodyB);
				expect(titleCount(merged)).toBe(Math.min(63, titleA + titleB));
				expect((merged & IN_HEADING) !== 0).toBe(headA || headB);
			}),
		);
	});

	test("mergeValues keeps an alias's title flag, which counts no title words", () => {
		const alias = (packValue(2, 0, false) | IN_TITLE) >>> 0;
		const merged = mergeValues(packValue(3, 0, false), alias);
		expect(merged & IN_TITLE).toBe(IN_TITLE);
		expect(titleCount(merged)).toBe(0);
		expect(merged & BODY_COUNT).toBe(5);
	});
});

describe("walking postings", () => {
	test("seek finds the first position at or after `from` whose slot is not below the one sought", () => {
		fc.assert(
			fc.property(sortedSlots, fc.nat(80), fc.integer({ min: 0, max: 520 }), (slots, from, slot) => {
				const array = Uint32Array.from(slots);
				let expected = Math.min(from, slots.length);
				while (expected < slots.length && (slots[expected] as number) < slot) expected++;
				expect(seek(array, slots.length, from, slot)).toBe(from >= slots.length ? from : expected);
			}),
		);
	});

	test("valueAt answers the note's value when it holds the term in its body or title, else 0, moving its cursor forward only", () => {
		const held = term([2, 5, 9], [packValue(3, 0, false), packValue(0, 0, true), packValue(0, 1, false)]);
		const cursors = [0];
		expect(valueAt(held, cursors, 0, 2) & BODY_COUNT).toBe(3);
		expect(valueAt(held, cursors, 0, 5)).toBe(0);
		expect(valueAt(held, cursors, 0, 7)).toBe(0);
		expect(titleCount(valueAt(held, cursors, 0, 9))).toBe(1);
		expect(cursors[0]).toBe(2);
		expect(valueAt(emptyTerm(), [0], 0, 1)).toBe(0);
	});

	test("countEither counts the accepted notes holding a word as typed or in a form once each; countAccepted those of one term", () => {
		fc.assert(
			fc.property(sortedSlots, sortedSlots, sortedSlots, fc.uint8Array({ minLength: 501, maxLength: 501, max: 1 }), (a, b, c, accepted) => {
				const union = new Set([...a, ...b, ...c]);
				const forms = { lists: [term(b), term(c)], cursors: [0, 0] };
				expect(countEither(term(a), forms, accepted)).toBe([...union].filter((slot) => accepted[slot] === 1).length);
				expect(countAccepted(term(a), accepted)).toBe(a.filter((slot) => accepted[slot] === 1).length);
			}),
		);
		expect(countEither(null, null, new Uint8Array(1).fill(1))).toBe(0);
	});

	test("formsValueAt is the value of the forms' union in a note, asked in slot order or starting over", () => {
		const value = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.nat(3), fc.boolean()).map(([body, title, heading]) => packValue(body, title, heading));
		const list = fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), value), { maxLength: 30 }).map((entries) => {
			const sorted = [...new Map(entries).entries()].filter(([, held]) => held !== 0).sort(([x], [y]) => x - y);
			return term(
				sorted.map(([slot]) => slot),
				sorted.map(([, held]) => held),
			);
		});
		fc.assert(
			fc.property(fc.array(list, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 0, max: 61 }), { maxLength: 20 }), (lists, asked) => {
				const union = runSteps(unionSteps(lists, 62, unionScratch()));
				const forms = { lists, cursors: lists.map(() => 0) };
				const cursors = [0];
				for (const slot of [...asked].sort((x, y) => x - y)) expect(formsValueAt(forms, cursors, 0, slot)).toBe(valueAt(union, [0], 0, slot));
				// Starting over: the caller's cursor back at 0 sends the lists' cursors back too.
				cursors[0] = 0;
				for (const slot of asked.slice(0, 3).sort((x, y) => x - y)) expect(formsValueAt(forms, cursors, 0, slot)).toBe(valueAt(union, [0], 0, slot));
			}),
		);
	});

	test("growUint32 keeps the contents and grows at least to the size asked", () => {
		const grown = growUint32(Uint32Array.from([1, 2, 3]), 10);
		expect(grown.length).toBeGreaterThanOrEqual(10);
		expect([...grown.slice(0, 3)]).toEqual([1, 2, 3]);
		const same = Uint32Array.from([1]);
		expect(growUint32(same, 1)).toBe(same);
	});
});
