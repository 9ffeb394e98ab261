import fc from "fast-check";
import { expectEqual, expectStrictEqual, plainEqual } from "../../helpers/plainEqual";

/** Whether jest's toEqual holds. */
function jestEqual(a: unknown, b: unknown): boolean {
	try {
		expect(a).toEqual(b);
		return true;
	} catch {
		return false;
	}
}

/** Whether jest's toStrictEqual holds. */
function jestStrictEqual(a: unknown, b: unknown): boolean {
	try {
		expect(a).toStrictEqual(b);
		return true;
	} catch {
		return false;
	}
}

describe("plainEqual, the first look of expectEqual", () => {
	test("whenever it finds two values the same, toEqual does too (any values, and copies of one)", () => {
		fc.assert(
			fc.property(
				fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withSparseArray: true }),
				fc.anything(),
				(a, b) => {
					if (plainEqual(a, b)) expect(jestEqual(a, b)).toBe(true);
					const copy = structuredClone(a);
					if (plainEqual(a, copy)) expect(jestEqual(a, copy)).toBe(true);
				},
			),
			{ numRuns: 2000 },
		);
	});

	test("data with a cycle (the yaml package's toJS of `&x [*x`) is left to toEqual, which compares it, not walked until the stack runs out", () => {
		const cycle = (): unknown[] => {
			const list: unknown[] = [];
			list.push(list);
			return list;
		};
		expect(plainEqual(cycle(), cycle())).toBe(false);
		expect(() => expectEqual(cycle(), cycle())).not.toThrow();
		expect(() => expectEqual(cycle(), [[1]])).toThrow();
	});

	test("tokens as the parse tests record them: the same, or each kind of difference", () => {
		const token = { type: "paragraph_open", map: [0, 2], level: 0, markup: "", info: "", content: "" };
		expect(plainEqual([token], [{ ...token, map: [0, 2] }])).toBe(true);
		for (const other of [
			{ ...token, map: [0, 3] },
			{ ...token, map: null },
			{ ...token, level: -0 },
			{ ...token, content: undefined },
			{ ...token, extra: 1 },
			Object.assign([0, 2], { named: 1 }),
		]) {
			expect(plainEqual([token], [other])).toBe(false);
		}
		// A hole, a named property on an array, a class instance, a symbol key: left to toEqual.
		const holey: Array<number | undefined> = [];
		holey[0] = 1;
		holey[2] = 3;
		expect(plainEqual(holey, [1, undefined, 3])).toBe(false);
		expect(plainEqual(Object.assign([1], { x: 1 }), [1])).toBe(false);
		expect(plainEqual(new Map(), new Map())).toBe(false);
		expect(plainEqual({ [Symbol.for("s")]: 1 }, { [Symbol.for("s")]: 1 })).toBe(false);
		// A symbol key that is not enumerable, which toEqual does not look at: not a reason to leave it.
		const hidden = (value: number) => Object.defineProperty({ a: 1 }, Symbol.for("s"), { value });
		expect(plainEqual(hidden(1), hidden(2))).toBe(true);
		expect(jestEqual(hidden(1), hidden(2))).toBe(true);
	});

	test("expectEqual fails exactly where toEqual fails, with its message", () => {
		expect(() => expectEqual([{ a: 1 }], [{ a: 2 }])).toThrow(/toEqual/);
		expect(() => expectEqual([{ a: 1, b: undefined }], [{ a: 1 }])).not.toThrow();
		expect(() => expectEqual([expect.objectContaining({ a: 1 })], [{ a: 1, b: 2 }])).not.toThrow();
		expect(() => expectEqual([NaN], [NaN])).not.toThrow();
		expect(() => expectEqual([0], [-0])).toThrow(/toEqual/);
	});
});

describe("plainEqual strict, the first look of expectStrictEqual", () => {
	test("whenever it finds two values the same, toStrictEqual does too (any values, and copies of one)", () => {
		fc.assert(
			fc.property(
				fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withSparseArray: true }),
				fc.anything(),
				(a, b) => {
					if (plainEqual(a, b, true)) expect(jestStrictEqual(a, b)).toBe(true);
					const copy = structuredClone(a);
					if (plainEqual(a, copy, true)) expect(jestStrictEqual(a, copy)).toBe(true);
				},
			),
			{ numRuns: 2000 },
		);
	});

	test("what toStrictEqual tells apart and toEqual does not is left to toStrictEqual", () => {
		// An own `constructor` key: toStrictEqual compares the two objects' constructors, here two different objects.
		const withConstructor = () => ({ constructor: {} });
		expect(plainEqual(withConstructor(), withConstructor())).toBe(true);
		expect(plainEqual(withConstructor(), withConstructor(), true)).toBe(false);
		expect(jestStrictEqual(withConstructor(), withConstructor())).toBe(false);
		expect(() => expectStrictEqual(withConstructor(), withConstructor())).toThrow(/toStrictEqual/);
		expect(() => expectStrictEqual([{ a: 1, b: undefined }], [{ a: 1 }])).toThrow(/toStrictEqual/);
		const holey: Array<number | undefined> = [];
		holey[1] = 1;
		expect(() => expectStrictEqual(holey, [undefined, 1])).toThrow(/toStrictEqual/);
		expect(() => expectStrictEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).not.toThrow();
		expect(() => expectStrictEqual([0], [-0])).toThrow(/toStrictEqual/);
		const hidden = (value: number) => Object.defineProperty({ a: 1 }, Symbol.for("s"), { value });
		expect(plainEqual(hidden(1), hidden(2), true)).toBe(true);
		expect(jestStrictEqual(hidden(1), hidden(2))).toBe(true);
	});
});
