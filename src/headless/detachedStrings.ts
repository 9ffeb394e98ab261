/**
 * V8 keeps a substring of this many characters or more as a pointer into the text it was cut
 * from (a shorter one is copied): an engine fact, not a limit of ours.
 */
const MIN_SLICED_STRING_LENGTH = 13;

/** Keys whose values hold only numbers (Obsidian positions): not walked. */
const NUMBERS_ONLY_KEYS = new Set(["position", "frontmatterPosition"]);

type Holder = Record<string, unknown>;

function collectLongStrings(value: unknown, holders: Array<[Holder, string]>): void {
	if (typeof value !== "object" || value === null) return;
	const holder = value as Holder;
	for (const key of Object.keys(holder)) {
		const inner = holder[key];
		if (typeof inner === "string") {
			if (inner.length >= MIN_SLICED_STRING_LENGTH) holders.push([holder, key]);
		} else if (!NUMBERS_ONLY_KEYS.has(key)) {
			collectLongStrings(inner, holders);
		}
	}
}

/**
 * Replaces, in place, every string of a freshly parsed value that could be a slice of the text it
 * was parsed from with a copy of its own, and returns the value. Kept in a cache, such slices
 * (headings, link texts, tags, frontmatter values) would keep every note's whole text alive.
 * Only the strings are copied, in one structured clone: cloning the whole value cost
 * more time than the parse's objects it would save.
 */
export function detachStrings<T>(value: T): T {
	const holders: Array<[Holder, string]> = [];
	collectLongStrings(value, holders);
	if (holders.length === 0) return value;
	const copies = structuredClone(holders.map(([holder, key]) => holder[key]));
	holders.forEach(([holder, key], index) => {
		holder[key] = copies[index];
	});
	return value;
}
