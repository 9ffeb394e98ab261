import fc from "fast-check";
import { EvaluationError } from "../../../src/bases/evaluationContext";
import { makeRegex } from "../../../src/bases/regexSafety";
import { numberMethod, replacementWork, textMethod } from "../../../src/bases/scalarMethods";
import { RegexValue } from "../../../src/bases/values";
import { BASES_MAX_LIST_ITEMS, BASES_MAX_REGEX_INPUT_CHARS, BASES_MAX_VALUE_CHARS } from "../../../src/config/limits";

describe("methods of text values", () => {
	test("replace() refuses a result past the text bound before building it, and one past what JavaScript can hold, naming the bound", () => {
		const over = `A text value would be longer than ${BASES_MAX_VALUE_CHARS} characters.`;
		// 20,000 letters each replaced by 5,000 characters: 100 million, measured, not built.
		expect(() => textMethod("a".repeat(20_000), "replace", ["a", "x".repeat(5000)])).toThrow(over);
		expect(textMethod("abab", "replace", ["b", "xyz"])).toBe("axyzaxyz");
		// 2,001 empty matches each replaced by a megabyte: a RangeError inside the engine before.
		const thrown = (() => {
			try {
				textMethod("a".repeat(2000), "replace", [new RegexValue(makeRegex("b*", "g")), "x".repeat(BASES_MAX_VALUE_CHARS)]);
			} catch (error) {
				return error;
			}
			return null;
		})();
		expect(thrown).toBeInstanceOf(EvaluationError);
		expect((thrown as Error).message).toBe(over);
	});

	test("replace() with a pattern measures what its replacement's $&, $` and $' insert before building it", () => {
		const over = `A text value would be longer than ${BASES_MAX_VALUE_CHARS} characters.`;
		const everyX = new RegexValue(makeRegex("x", "g"));
		const nowhere = new RegexValue(makeRegex("b*", "g"));
		// 2,001 empty matches, each given 400,000 empty insertions: built, 1.6 s in one piece before, and 2,000 characters long.
		expect(() => textMethod("x".repeat(2000), "replace", [nowhere, "$&".repeat(400_000)])).toThrow(over);
		// Each of 2,000 matches given 400,000 copies of itself: the process ended (V8's fatal "invalid size") before.
		expect(() => textMethod("x".repeat(2000), "replace", [everyX, "$&".repeat(400_000)])).toThrow(over);
		// What came before each match, 25,000 times: 11 s and 1.6 GB before the engine gave up.
		expect(() => textMethod("x".repeat(2000), "replace", [everyX, "$`".repeat(25_000)])).toThrow(over);
		// A replacement as people write one is made as before.
		expect(textMethod("2024-01-05", "replace", [new RegexValue(makeRegex("(\\d{4})-(\\d\\d)-(\\d\\d)", "")), "$3/$2/$1"])).toBe("05/01/2024");
		expect(textMethod("a-b", "replace", [new RegexValue(makeRegex("(\\w)-", "")), "$1$$$&"])).toBe("a$a-b");
	});

	test("replacementWork is never less than the text replace() makes", () => {
		const patterns = [
			["x", "g"],
			["x", ""],
			["x", "y"],
			["x*", "g"],
			["(x)(y)?", "g"],
			["(?<n>x)y", "g"],
			["(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)", "g"],
		] as const;
		const parts = ["$&", "$`", "$'", "$1", "$2", "$12", "$0", "$<n>", "$<m>", "$<", "$$", "$", "a", "<", ">", "1", "x"];
		fc.assert(
			fc.property(
				fc.string({ unit: fc.constantFrom("x", "y", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"), maxLength: 30 }),
				fc.constantFrom(...patterns),
				fc.array(fc.constantFrom(...parts), { maxLength: 12 }),
				(text, [pattern, flags], replacementParts) => {
					const replacement = replacementParts.join("");
					const made = text.replace(new RegExp(pattern, flags), replacement);
					expect(replacementWork(text, new RegExp(pattern, flags), replacement)).toBeGreaterThanOrEqual(made.length);
				},
			),
		);
	});

	test("tests and changes of case, as a formula writes them", () => {
		expect(textMethod("Project plan", "contains", ["plan"])).toBe(true);
		expect(textMethod("Project plan", "containsAll", ["Pro", "plan"])).toBe(true);
		expect(textMethod("Project plan", "containsAny", ["x", "y"])).toBe(false);
		expect(textMethod("Project plan", "startsWith", ["Pro"])).toBe(true);
		expect(textMethod("Project plan", "endsWith", ["an"])).toBe(true);
		expect(textMethod("", "isEmpty", [])).toBe(true);
		expect(textMethod("  Ünïcode  ", "trim", [])).toBe("Ünïcode");
		expect(textMethod("élan vital", "title", [])).toBe("Élan Vital");
		expect(textMethod("ABC", "lower", [])).toBe("abc");
	});

	test("reverse keeps characters outside the BMP whole", () => {
		expect(textMethod("a🚀b", "reverse", [])).toBe("b🚀a");
	});

	test("replace and split, with text or a safe regular expression", () => {
		expect(textMethod("a-b-c", "replace", ["-", "+"])).toBe("a+b+c");
		expect(textMethod("a1b22c", "replace", [new RegexValue(makeRegex("\\d+", "g")), "#"])).toBe("a#b#c");
		expect(textMethod("a, b,c", "split", [new RegexValue(makeRegex(",\\s*", ""))])).toEqual(["a", "b", "c"]);
		expect(textMethod("a,b,c", "split", [",", 2])).toEqual(["a", "b"]);
		expect(textMethod("hello", "slice", [1, 3])).toBe("el");
	});

	test("limits: a text past its size, a list past its items, a regex over too long a text", () => {
		expect(() => textMethod("ab", "repeat", [BASES_MAX_VALUE_CHARS])).toThrow(new RegExp(`longer than ${BASES_MAX_VALUE_CHARS}`));
		expect(textMethod("ab", "repeat", [3])).toBe("ababab");
		expect(() => textMethod(",".repeat(BASES_MAX_LIST_ITEMS), "split", [","])).toThrow(/more than .* items/);
		expect(() => textMethod("x".repeat(BASES_MAX_REGEX_INPUT_CHARS + 1), "replace", [new RegexValue(/x/), ""])).toThrow(/at most/);
	});

	test("wrong arguments and unknown methods are evaluation errors that say which", () => {
		expect(() => textMethod("a", "contains", [3])).toThrow("contains() needs a text, not a number.");
		expect(() => textMethod("a", "repeat", [1.5])).toThrow("repeat() needs a whole number of at least 0.");
		expect(() => textMethod("a", "round", [])).toThrow("round() is not a function of a string.");
		expect(() => textMethod("a", "slice", ["1"])).toThrow(EvaluationError);
	});

	test("split then join with the same separator gives the text back", () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 50 }), fc.constantFrom(",", " ", "--"), (text, separator) => {
				expect((textMethod(text, "split", [separator]) as string[]).join(separator)).toBe(text);
			}),
		);
	});
});

describe("methods of number values", () => {
	test("rounding as a formula writes it", () => {
		expect(numberMethod(-2.5, "abs", [])).toBe(2.5);
		expect(numberMethod(2.1, "ceil", [])).toBe(3);
		expect(numberMethod(2.9, "floor", [])).toBe(2);
		expect(numberMethod(2.345, "round", [])).toBe(2);
		expect(numberMethod(2.345, "round", [2])).toBe(2.35);
		expect(numberMethod(2.5, "toFixed", [2])).toBe("2.50");
		expect(numberMethod(0, "isEmpty", [])).toBe(false);
	});

	test("digits out of range are refused, not passed to JavaScript (which would throw a RangeError)", () => {
		expect(() => numberMethod(1, "round", [21])).toThrow("round() takes a whole number of digits from 0 to 20.");
		expect(() => numberMethod(1, "round", [-1])).toThrow(EvaluationError);
		expect(() => numberMethod(1, "toFixed", [101])).toThrow("toFixed() takes a whole number of digits from 0 to 100.");
		expect(() => numberMethod(1, "toFixed", [])).toThrow("toFixed() needs a number, not a null.");
		expect(() => numberMethod(1, "lower", [])).toThrow("lower() is not a function of a number.");
	});
});
