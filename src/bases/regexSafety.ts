/**
 * Regular expressions written in a base: only patterns whose worst case stays polynomial of a low
 * degree are run, over bounded text.
 */
import { BASES_MAX_REGEX_INPUT_CHARS, BASES_MAX_REGEX_CHOICES, BASES_MAX_REGEX_UNBOUNDED_REPEATS } from "../config/limits";
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
 * BASES_MAX_REGEX_UNBOUNDED_REPEATS repeat without a small bound (`*`, `+`, `{n,}`, a wide
 * `{n,m}`) and at most BASES_MAX_REGEX_CHOICES repeats that choose a count at all — so a search
 * is at most quadratic in its (bounded) input, where `(a|aa)+`, `(a+)+`, `a*a*$` or `a?a?a?…aaa…`
 * are exponential or worse.
 */
export function regexProblem(pattern: string): string | null {
	let unbounded = 0;
	let choices = 0;
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
		else if (char === "(" && pattern[at + 1] === "?" && pattern[at + 2] !== ":") return "it looks around or names a group.";
		else if (char === ")" && /[*+?{]/.test(pattern[at + 1] ?? "")) return "it repeats a group.";
		else {
			const repeat = repeatAt(pattern, at);
			if (repeat === "none" || repeat === "fixed") continue;
			if (repeat === "unbounded" && ++unbounded > BASES_MAX_REGEX_UNBOUNDED_REPEATS)
				return `it has more than ${BASES_MAX_REGEX_UNBOUNDED_REPEATS} repeat without a bound.`;
			if (++choices > BASES_MAX_REGEX_CHOICES) return `it has more than ${BASES_MAX_REGEX_CHOICES} optional or repeated parts.`;
		}
	}
	return null;
}

/** Repeats whose count range is wider than this are treated as unbounded. */
const WIDE_REPEAT_RANGE = 16;

/** What the quantifier at `at` is: none, a fixed count (`{3}`), a small choice (`?`, `{2,5}`), or unbounded. */
function repeatAt(pattern: string, at: number): "none" | "fixed" | "choice" | "unbounded" {
	const char = pattern[at];
	if (char === "*" || char === "+") return "unbounded";
	if (char === "?") return pattern[at - 1] === "*" || pattern[at - 1] === "+" || pattern[at - 1] === "}" || pattern[at - 1] === "?" ? "none" : "choice";
	if (char !== "{") return "none";
	const range = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at, at + 24));
	if (range === null) return "none";
	if (range[2] === undefined) return "fixed";
	if (range[3] === "") return "unbounded";
	return Number(range[3]) - Number(range[1]) > WIDE_REPEAT_RANGE ? "unbounded" : "choice";
}

export function regexInput(text: string): string {
	if (text.length > BASES_MAX_REGEX_INPUT_CHARS)
		throw new EvaluationError(`A regular expression was given a text of ${text.length} characters; at most ${BASES_MAX_REGEX_INPUT_CHARS} are matched.`);
	return text;
}
