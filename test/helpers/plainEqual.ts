/** How deep the first look walks before it leaves the rest to jest (which knows cycles): far below the stack's reach. */
const PLAIN_DEPTH = 1_000;

/**
 * `expect(actual).toEqual(expected)` for plain data (arrays, plain objects, primitives), with a fast
 * first look: jest's `equals` walks each value through its custom testers, type checks and key
 * lists, and property tests comparing thousands of parses' tokens spent most of their time there
 * (about 40% of test/unit/markdown/blocks.test.ts). When the first look finds the two the same,
 * `toEqual` would too (the same own keys, no symbol keys, every primitive `Object.is` the same);
 * anything else (a difference, or a value that is not plain data) goes to `toEqual` itself, so the
 * test passes and fails exactly as before, with jest's diff when it fails.
 */
export function expectEqual(actual: unknown, expected: unknown): void {
	if (!plainEqual(actual, expected)) expect(actual).toEqual(expected);
}

/**
 * `expect(actual).toStrictEqual(expected)` with the same first look, strict: the tests comparing a
 * note's compact metadata with its plain parse (tens of thousands of entries, or 1,500 property
 * runs) spent about 70 % of their time in jest's `equals`. The first look already holds to what
 * toStrictEqual adds (the same keys, those set to undefined too; no holes; plain objects and arrays
 * only); an object with its own `constructor` key goes to toStrictEqual, which compares constructors.
 */
export function expectStrictEqual(actual: unknown, expected: unknown): void {
	if (!plainEqual(actual, expected, true)) expect(actual).toStrictEqual(expected);
}

/**
 * Whether `a` and `b` are the same plain data: true only where `toEqual` holds too (and
 * `toStrictEqual` when `strict`); false may be a difference or a value it does not know (a class
 * instance, a Map, an array with a hole, data nested deeper than PLAIN_DEPTH: a cycle, such as the yaml
 * package's `toJS` makes of `&x [*x`, which toEqual compares and this walk would follow until the stack ran out).
 */
export function plainEqual(a: unknown, b: unknown, strict = false, depth = 0): boolean {
	if (Object.is(a, b)) return true;
	if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || depth > PLAIN_DEPTH) return false;
	// jest compares enumerable symbol keys, and no other (a compact note keeps its packed form under a hidden one).
	if (hasEnumerableSymbol(a) || hasEnumerableSymbol(b)) return false;
	if (Array.isArray(a)) {
		// Only the indexes, none missing: an array with a hole or a named property of its own goes to toEqual.
		if (!Array.isArray(b) || a.length !== b.length || Object.keys(a).length !== a.length || Object.keys(b).length !== b.length) return false;
		for (let index = 0; index < a.length; index++) {
			if (!plainEqual(a[index], b[index], strict, depth + 1)) return false;
		}
		return true;
	}
	if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
	if (strict && (Object.hasOwn(a, "constructor") || Object.hasOwn(b, "constructor"))) return false;
	const keys = Object.keys(a);
	if (keys.length !== Object.keys(b).length) return false;
	const left = a as Record<string, unknown>;
	const right = b as Record<string, unknown>;
	for (const key of keys) {
		if (!Object.prototype.hasOwnProperty.call(right, key) || !plainEqual(left[key], right[key], strict, depth + 1)) return false;
	}
	return true;
}

function hasEnumerableSymbol(value: object): boolean {
	return Object.getOwnPropertySymbols(value).some((symbol) => Object.prototype.propertyIsEnumerable.call(value, symbol));
}
