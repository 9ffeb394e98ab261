import { DETACH_STEP_STRINGS, DETACH_STEP_ENTRIES } from "../config/limits";
import type { Steps } from "../markdown/steps";

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

/** An object or array being walked: its keys (null for an array, walked by index) and the next to look at. */
interface Walked {
	holder: Holder;
	keys: string[] | null;
	next: number;
	length: number;
}

function walked(holder: Holder): Walked {
	if (Array.isArray(holder)) return { holder, keys: null, next: 0, length: holder.length };
	const keys = Object.keys(holder);
	return { holder, keys, next: 0, length: keys.length };
}

/** `detachStrings` in steps, for a caller that pauses between them: the same value, the same copies. */
export function* detachStringsSteps<T>(value: T): Steps<T> {
	if (typeof value !== "object" || value === null) return value;
	const stack: Walked[] = [walked(value as Holder)];
	let holders: Array<[Holder, string]> = [];
	let looked = 0;
	while (stack.length > 0) {
		const top = stack[stack.length - 1] as Walked;
		if (top.next >= top.length) {
			stack.pop();
			continue;
		}
		const key = top.keys === null ? String(top.next) : (top.keys[top.next] as string);
		top.next++;
		const inner = top.holder[key];
		if (typeof inner === "string") {
			if (inner.length >= MIN_SLICED_STRING_LENGTH) holders.push([top.holder, key]);
		} else if (typeof inner === "object" && inner !== null && !NUMBERS_ONLY_KEYS.has(key)) {
			stack.push(walked(inner as Holder));
		}
		if (holders.length >= DETACH_STEP_STRINGS || ++looked >= DETACH_STEP_ENTRIES) {
			copyStrings(holders);
			holders = [];
			looked = 0;
			yield;
		}
	}
	copyStrings(holders);
	return value;
}

/** Gives each held string a copy of its own, in one structured clone. */
function copyStrings(holders: ReadonlyArray<[Holder, string]>): void {
	if (holders.length === 0) return;
	const copies = structuredClone(holders.map(([holder, key]) => holder[key]));
	holders.forEach(([holder, key], index) => {
		holder[key] = copies[index];
	});
}
