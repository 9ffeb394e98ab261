/** The methods of text and number values. */
import { BASES_MAX_VALUE_CHARS } from "../config/limits";
import { RegexValue, type Value } from "./values";
import { boundedList, boundedText, checkTextLength, EvaluationError, notAFunctionOf, numberArg, perCharacterInput, textArg } from "./evaluationContext";
import { regexInput } from "./regexSafety";

export function textMethod(text: string, name: string, args: Value[]): Value {
	const [first, second] = args;
	switch (name) {
		case "contains":
			return text.includes(textArg(first ?? null, name));
		case "containsAll":
			return args.every((arg) => text.includes(textArg(arg, name)));
		case "containsAny":
			return args.some((arg) => text.includes(textArg(arg, name)));
		case "startsWith":
			return text.startsWith(textArg(first ?? null, name));
		case "endsWith":
			return text.endsWith(textArg(first ?? null, name));
		case "isEmpty":
			return text.length === 0;
		case "lower":
			return text.toLowerCase();
		case "title":
			return perCharacterInput(text, name).replace(/(^|\s)(\p{L})/gu, (_whole, space: string, letter: string) => space + letter.toUpperCase());
		case "trim":
			return text.trim();
		case "reverse":
			return [...perCharacterInput(text, name)].reverse().join("");
		case "repeat": {
			const count = numberArg(first ?? null, name);
			if (count < 0 || !Number.isInteger(count)) throw new EvaluationError("repeat() needs a whole number of at least 0.");
			return boundedText(count * text.length > BASES_MAX_VALUE_CHARS ? "x".repeat(BASES_MAX_VALUE_CHARS + 1) : text.repeat(count));
		}
		case "slice":
			return text.slice(numberArg(first ?? null, name), second === undefined ? undefined : numberArg(second, name));
		case "replace": {
			const replacement = textArg(second ?? null, name);
			if (first instanceof RegexValue) {
				// A fresh copy, as replacementWork looks with: a sticky pattern's lastIndex left by an earlier call moves nothing.
				const regex = new RegExp(first.regex.source, first.regex.flags);
				checkTextLength(replacementWork(regexInput(text), regex, replacement));
				return text.replace(regex, replacement);
			}
			const pattern = textArg(first ?? null, name);
			const parts = perCharacterInput(text, name).split(pattern);
			// Measured before it is built: 100,000 letters each replaced by 5,000 characters is half a gigabyte.
			checkTextLength(text.length + (parts.length - 1) * (replacement.length - pattern.length));
			return parts.join(replacement);
		}
		case "split": {
			const separator = first instanceof RegexValue ? first.regex : textArg(first ?? null, name);
			const parts = (first instanceof RegexValue ? regexInput(text) : perCharacterInput(text, name)).split(separator);
			const limited = second === undefined ? parts : parts.slice(0, numberArg(second, name));
			return boundedList(limited);
		}
		default:
			throw notAFunctionOf(name, text);
	}
}

export function numberMethod(value: number, name: string, args: Value[]): Value {
	const [first] = args;
	switch (name) {
		case "abs":
			return Math.abs(value);
		case "ceil":
			return Math.ceil(value);
		case "floor":
			return Math.floor(value);
		case "isEmpty":
			return false;
		case "round": {
			if (first === undefined) return Math.round(value);
			const digits = numberArg(first, name);
			if (!Number.isInteger(digits) || digits < 0 || digits > 20) throw new EvaluationError("round() takes a whole number of digits from 0 to 20.");
			const factor = 10 ** digits;
			return Math.round(value * factor) / factor;
		}
		case "toFixed": {
			const digits = numberArg(first ?? null, name);
			if (!Number.isInteger(digits) || digits < 0 || digits > 100) throw new EvaluationError("toFixed() takes a whole number of digits from 0 to 100.");
			return value.toFixed(digits);
		}
		default:
			throw notAFunctionOf(name, value);
	}
}

/**
 * At least the characters and pieces `text.replace(regex, replacement)` builds, counted match by
 * match before it is built. A replacement's `$&`, `` $` ``, `$'`, `$1` and `$<name>` each insert a
 * part of the text, and the engine keeps a piece for each (even an empty one): 400,000 `$&` over
 * 2,000 matches ended the process (V8's fatal "invalid size", no error to catch), 25,000 `` $` ``
 * held it 11 s and took 1.6 GB, and 400,000 `$&` of empty matches held it 1.6 s. Each insertion
 * counts one more than its length; a `$` that inserts nothing counts its own characters.
 */
export function replacementWork(text: string, regex: RegExp, replacement: string): number {
	// A copy of its own: exec() moves a sticky pattern's lastIndex, which replace() then starts from.
	const looking = new RegExp(regex.source, regex.flags);
	const matches = looking.global ? [...text.matchAll(looking)] : [looking.exec(text)].filter((match) => match !== null);
	const [firstMatch] = matches;
	if (firstMatch === undefined) return text.length;
	const groups = firstMatch.length - 1;
	const names = firstMatch.groups;
	// The replacement read once: its plain characters, and how often each part of a match is inserted.
	let plain = 0;
	const inserted = new Map<string, number>();
	const insert = (part: string) => inserted.set(part, (inserted.get(part) ?? 0) + 1);
	for (let at = 0; at < replacement.length; at++) {
		const next = replacement[at + 1];
		if (replacement[at] !== "$" || next === undefined) {
			plain++;
			continue;
		}
		if (next === "&" || next === "`" || next === "'") insert(next);
		else if (next >= "0" && next <= "9") {
			// `$1`, or `$12` when there are 12 groups: counted as the longer of the two, its own characters as plain.
			insert(`${next}${replacement[at + 2] ?? ""}`);
			plain += 2;
		} else if (next === "<" && names !== undefined && replacement.indexOf(">", at) !== -1) {
			// `$<name>`: a name the pattern has no group of inserts nothing (its characters are counted as plain).
			const end = replacement.indexOf(">", at);
			const name = replacement.slice(at + 2, end);
			if (Object.hasOwn(names, name)) insert(`<${name}`);
			plain += end - at + 1;
			at = end;
			continue;
		} else plain += 2;
		at++;
	}
	let work = text.length;
	for (const match of matches) {
		const whole = match[0].length;
		work += plain;
		for (const [part, count] of inserted) work += count * (1 + insertedLength(part, match, whole, text.length, groups));
	}
	return work;
}

/** How long the part of `match` a replacement's `$` + `part` inserts is at most (see replacementWork). */
function insertedLength(part: string, match: RegExpMatchArray, whole: number, textLength: number, groups: number): number {
	const index = match.index ?? 0;
	if (part === "&") return whole;
	if (part === "`") return index;
	if (part === "'") return textLength - index - whole;
	if (part.startsWith("<")) return match.groups?.[part.slice(1)]?.length ?? 0;
	const one = Number(part[0]);
	const two = Number(part);
	return Math.max(one <= groups ? (match[one]?.length ?? 0) : 0, part.length === 2 && two <= groups ? (match[two]?.length ?? 0) : 0);
}
