/**
 * Puts `replacement` in place of `owner[name]` until `restore()`: a spy that records nothing. Tests
 * that count calls of a built-in the code under test makes millions of times (`Array.prototype.push`,
 * `String.prototype.toLowerCase`, `Map.prototype.set`, the clock) keep their count in the replacement;
 * a jest spy also records every call's arguments, `this` and result, which cost seconds of CPU a test
 * and held every array, map and string the code made until the spy was restored.
 */
export function replaceMethod<Owner extends object, Name extends keyof Owner>(owner: Owner, name: Name, replacement: Owner[Name]): { restore(): void } {
	// An inherited method (`performance.now` is Performance.prototype's) is shadowed on `owner`, then the shadow deleted.
	const own = Object.getOwnPropertyDescriptor(owner, name);
	if (typeof (own ? own.value : owner[name]) !== "function") throw new Error(`replaceMethod: ${String(name)} is not a method`);
	Object.defineProperty(owner, name, { configurable: true, enumerable: own?.enumerable ?? false, writable: true, value: replacement });
	return {
		restore: () => {
			if (own) Object.defineProperty(owner, name, own);
			else delete owner[name];
		},
	};
}

/**
 * Shows `seen` every string whose `toLowerCase` is called, until `restore()`: how the tests count
 * headings, tags and words keyed (each is lowered once) between two pauses.
 */
export function onLowerCase(seen: (text: string) => void): { restore(): void } {
	const lower = Object.getOwnPropertyDescriptor(String.prototype, "toLowerCase")?.value as (this: string) => string;
	return replaceMethod(String.prototype, "toLowerCase", function (this: string): string {
		seen(this);
		return lower.call(this);
	});
}
