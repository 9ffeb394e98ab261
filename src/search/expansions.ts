import type { Stemmer } from "./stemmers";

/**
 * Words that mean the same in technical writing though they share no stem: a common abbreviation
 * and its full form (`params` / `parameters`, `config` / `configuration`, `repo` / `repository`),
 * the verbs rule pages use interchangeably for "this is not allowed" (`forbid`, `prohibit`,
 * `disallow`, `ban`), a question's everyday word for the page's term (`my own` for `custom`,
 * `too many` for `max` / `maximum`, `rerun` for `retry`, `several` for `multiple`, `blank` for
 * `empty`, `check` for `assert` or `verify`) and Markdown's two names for each style
 * (`bold` / `strong`, `italic` / `emphasis`). A question may use either word and the page the
 * other: the engine finds a note holding one when the question says another of its group, and
 * ranks it below one holding the word as typed or in another form (EXPANSION_MATCH_WEIGHT). Pure.
 *
 * Each group is one meaning, so every word of it stands for every other. A word is matched by its
 * stem, so `parameters`, `configured` or `repos` find their group as `parameter`, `configuration`
 * and `repo` do. Left out on purpose:
 * - abbreviations that code samples use as names or keywords (`err`, `req`, `msg`, `str`, `fn`,
 *   `var`, `async`, `app`, `env`, `min`, `lib`, `dir`): documentation shows them in every
 *   snippet, so they say nothing of what a page is about, and a question's `error` or `request`
 *   lifted pages for their code (measured: one held-out question fell a place). `max` is the
 *   exception: rule pages name their limits by it (`max-params`, `max-expects`, `max-depth`), and
 *   a question says "too many" of what they limit;
 * - abbreviations whose full form's stem is another everyday word's (`spec` / `specification`
 *   would make `specific` mean `spec`; `init` / `initial`; `opt` / `optional`; `perf` / `perform`;
 *   `prod` / `product`) or of several meanings (`desc`, `res`, `stat`, `id`, `dev`);
 * - phrases (`regular expression`, `command line`): a group holds single words.
 */
export const EXPANSION_GROUPS: readonly (readonly string[])[] = [
	["param", "parameter"],
	["arg", "argument"],
	["config", "configuration"],
	["repo", "repository"],
	["docs", "documentation"],
	["dep", "dependency"],
	["auth", "authentication"],
	["impl", "implementation"],
	["pkg", "package"],
	["admin", "administrator"],
	["org", "organization"],
	["nav", "navigation"],
	["regex", "regexp"],
	["site", "website"],
	["forbid", "prohibit", "disallow", "ban"],
	// A question's "my own X" is the page's "custom X"; its "too many X", the page's "max-X" or "maximum X".
	["own", "custom"],
	["many", "max", "maximum"],
	// Markdown's two names for each style (CommonMark's "strong emphasis" and "emphasis").
	["bold", "strong"],
	["italic", "emphasis"],
	["rerun", "retry"],
	["several", "multiple"],
	["empty", "blank"],
	["check", "assert", "verify"],
];

/** Per stemmer (null: words as typed), each group word's key (its stem) to the other words of its group(s). */
const byStemmer = new WeakMap<Stemmer, ReadonlyMap<string, readonly string[]>>();
let asTyped: ReadonlyMap<string, readonly string[]> | null = null;

function buildMap(key: (word: string) => string): ReadonlyMap<string, readonly string[]> {
	const map = new Map<string, string[]>();
	for (const group of EXPANSION_GROUPS)
		for (const word of group) {
			const others = map.get(key(word)) ?? [];
			for (const other of group) if (other !== word && !others.includes(other)) others.push(other);
			map.set(key(word), others);
		}
	return map;
}

/**
 * The words of `word`'s groups (EXPANSION_GROUPS) other than it, matched by stem when there is a
 * stemmer (`parameters` → `param`), as typed when not; none for a word in no group. The map of
 * stems is built once per stemmer, so a search pays one stem and one lookup per word.
 */
export function expansionsOf(word: string, stem: Stemmer | null): readonly string[] {
	if (!stem) {
		asTyped ??= buildMap((entry) => entry);
		return asTyped.get(word) ?? [];
	}
	let map = byStemmer.get(stem);
	if (!map) {
		map = buildMap(stem);
		byStemmer.set(stem, map);
	}
	const key = stem(word);
	return (map.get(key) ?? []).filter((other) => stem(other) !== key);
}
