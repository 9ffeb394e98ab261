/**
 * Regular expressions written in a base: only patterns whose worst case stays polynomial of a low
 * degree are run, over bounded text.
 */
import { BASES_MAX_REGEX_INPUT_CHARS, BASES_MAX_REGEX_UNBOUNDED_REPEATS, BASES_MAX_REGEX_WAYS } from "../config/limits";
import { EvaluationError } from "./evaluationContext";

/**
 * A regular expression written in a base, which anyone who can write a note may author. JavaScript's
 * engine backtracks, so only patterns whose worst case stays polynomial of a low degree on the
 * bounded input are run (see `regexProblem`); the text a pattern runs over is bounded too.
 */
export function makeRegex(pattern: string, flags: string): RegExp {
	const problem = regexProblem(pattern);
	if (problem !== null)
		throw new EvaluationError(
			`The regular expression /${pattern}/ is not run: ${problem} A pattern written in a note could otherwise hold the server for minutes. Use contains(), startsWith() or a simpler pattern.`,
		);
	try {
		return new RegExp(pattern, flags);
	} catch {
		throw new EvaluationError(`/${pattern}/${flags} is not a valid regular expression.`);
	}
}

/**
 * Why a pattern could backtrack for long, or null. Read in one pass, outside character classes: no
 * alternation, no quantified group, no back-reference or look-around, at most
 * BASES_MAX_REGEX_UNBOUNDED_REPEATS repeat without a small bound (`*`, `+`, `{n,}`, a `{n,m}` of
 * more than BASES_MAX_REGEX_WAYS counts) and the repeats that choose a count at most
 * BASES_MAX_REGEX_WAYS ways together (the product of their counts: `a?` is 2 ways, `a{0,15}` 16,
 * an unbounded repeat 2) — so a search is at most that many times quadratic in its (bounded) input, where
 * `(a|aa)+`, `(a+)+`, `a*a*$` or `a?a?a?…aaa…` are exponential, and four `a{0,16}` before an `a*`
 * (17⁴ ways, each walking the input) took minutes on 2,000 characters.
 */
export function regexProblem(pattern: string): string | null {
	let unbounded = 0;
	let ways = 1;
	let inClass = false;
	for (let at = 0; at < pattern.length; at++) {
		const char = pattern[at];
		if (char === "\\") {
			const next = pattern[at + 1] ?? "";
			if (!inClass && (/[1-9]/.test(next) || next === "k")) return "it refers back to a group.";
			at++;
			continue;
		}
		if (inClass) {
			if (char === "]") inClass = false;
			continue;
		}
		if (char === "[") inClass = true;
		else if (char === "|") return "it has alternatives (|).";
		else if (char === "(" && pattern[at + 1] === "?") {
			if (pattern[at + 2] !== ":") return "it looks around or names a group.";
			at += 2; // `(?:` opens a group: its `?` chooses nothing.
		} else if (char === ")" && /[*+?{]/.test(pattern[at + 1] ?? "")) return "it repeats a group.";
		else {
			const repeat = repeatAt(pattern, at);
			if (repeat === "unbounded" && ++unbounded > BASES_MAX_REGEX_UNBOUNDED_REPEATS)
				return `it has more than ${BASES_MAX_REGEX_UNBOUNDED_REPEATS} repeat without a bound.`;
			// The unbounded repeat counts as two ways here (it walks the input on each of the others').
			if ((ways *= repeat === "unbounded" ? 2 : repeat) > BASES_MAX_REGEX_WAYS)
				return `its optional and repeated parts can match in more than ${BASES_MAX_REGEX_WAYS} ways together.`;
		}
	}
	return null;
}

/**
 * What the quantifier at `at` is: unbounded, or the number of counts it chooses from (1 for none or
 * a fixed count such as `{3}`, 2 for `?`, 4 for `{2,5}`); a choice of more than BASES_MAX_REGEX_WAYS
 * counts is unbounded.
 */
function repeatAt(pattern: string, at: number): number | "unbounded" {
	const char = pattern[at];
	if (char === "*" || char === "+") return "unbounded";
	if (char === "?") return pattern[at - 1] === "*" || pattern[at - 1] === "+" || pattern[at - 1] === "}" || pattern[at - 1] === "?" ? 1 : 2;
	if (char !== "{") return 1;
	// Read where it stands, however long its numbers: `{0,99999999999999999999999}` is a repeat too.
	const quantifier = /\{(\d+)(,(\d*))?\}/y;
	quantifier.lastIndex = at;
	const range = quantifier.exec(pattern);
	if (range === null || range[2] === undefined) return 1;
	if (range[3] === "") return "unbounded";
	const counts = Number(range[3]) - Number(range[1]) + 1;
	return counts > BASES_MAX_REGEX_WAYS ? "unbounded" : Math.max(1, counts);
}

export function regexInput(text: string): string {
	if (text.length > BASES_MAX_REGEX_INPUT_CHARS)
		throw new EvaluationError(`A regular expression was given a text of ${text.length} characters; at most ${BASES_MAX_REGEX_INPUT_CHARS} are matched.`);
	return text;
}
