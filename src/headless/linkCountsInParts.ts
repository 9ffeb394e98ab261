import { OrderedSplitStringMap } from "../markdown/splitStringMap";

/** Keys a plain object lists first, in ascending order: canonical integers below 2³² − 1 (ECMAScript's array indices). */
function isArrayIndex(key: string): boolean {
	if (key === "0") return true;
	const first = key.charCodeAt(0);
	if (!(first >= 49 && first <= 57) || key.length > 10) return false;
	for (let at = 1; at < key.length; at++) {
		const code = key.charCodeAt(at);
		if (code < 48 || code > 57) return false;
	}
	return Number(key) < 4_294_967_295;
}

/**
 * One source's link counts (link path → links), as Obsidian's `unresolvedLinks[source]` gives them,
 * held in an `OrderedSplitStringMap`: a plain object of 650,000 keys is one hash table, and the insert that
 * grew it past 350,000 copied every entry in one piece (45–130 ms of the main thread). Counted with
 * `add`, then read through `record()`, which answers as the plain object would (keys in its order,
 * `in`, `Object.keys`, `JSON.stringify`); listing its keys is the only read that costs their number.
 */
export class LinkCountsInParts {
	private readonly counts = new OrderedSplitStringMap<number>();
	/** Integer-like keys, which a plain object lists before the others, in ascending order. */
	private readonly indexKeys: string[] = [];

	add(key: string): void {
		// A plain object's `__proto__` is its prototype: Obsidian's records (and the small ones here) never hold that key.
		if (key === "__proto__") return;
		const count = this.counts.get(key);
		if (count !== undefined) this.counts.set(key, count + 1);
		else {
			if (isArrayIndex(key)) this.indexKeys.push(key);
			this.counts.add(key, 1);
		}
	}

	/** The counts as a read-only record with a plain object's reads. One record is made; the counts are not to be added to after. */
	record(): Record<string, number> {
		const { counts, indexKeys } = this;
		// Every count is at least 1: undefined is a key not held, found with one look (a trap each key read, not two).
		const countOf = (key: string | symbol): number | undefined => (typeof key === "string" ? counts.get(key) : undefined);
		const keys = (): string[] => {
			const ordered = indexKeys.sort((a, b) => Number(a) - Number(b)).slice();
			for (const [key] of counts) if (!isArrayIndex(key)) ordered.push(key);
			return ordered;
		};
		return new Proxy<Record<string, number>>(
			{},
			{
				get: (target, key, receiver) => countOf(key) ?? (Reflect.get(target, key, receiver) as unknown),
				has: (target, key) => countOf(key) !== undefined || Reflect.has(target, key),
				ownKeys: keys,
				getOwnPropertyDescriptor: (_target, key) => {
					const value = countOf(key);
					return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
				},
				// The cache's records are never changed in place: a new record is made when a source is resolved again.
				set: () => false,
				defineProperty: () => false,
				deleteProperty: () => false,
				setPrototypeOf: () => false,
				// Made non-extensible (`Object.freeze`), the empty target would have every listing of the record throw after.
				preventExtensions: () => false,
			},
		);
	}
}
