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
				try {
					return boundedText(regexInput(text).replace(first.regex, replacement));
				} catch (error) {
					// Past the longest string JavaScript can make (2,000 empty matches each replaced by a megabyte).
					if (error instanceof RangeError) checkTextLength(Number.POSITIVE_INFINITY);
					throw error;
				}
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
