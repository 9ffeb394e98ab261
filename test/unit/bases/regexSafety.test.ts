import { EvaluationError } from "../../../src/bases/evaluationContext";
import { makeRegex, regexInput, regexProblem } from "../../../src/bases/regexSafety";
import { BASES_MAX_REGEX_INPUT_CHARS } from "../../../src/config/limits";
import { workClock } from "../../helpers/threadCpu";

describe("a base's regular expression runs only when its backtracking stays bounded", () => {
	test.each([
		["abc"],
		[","],
		["^\\d{4}-\\d{2}-\\d{2}$"],
		["[a|b(+*]+x"],
		["(?:ab)c*"],
		["colou?r"],
		["a{2,5}b*"],
		["(?:a)(?:b)(?:c)(?:d)(?:e)c?d?e?f?"],
		["a{1,8}b*"],
		["a{1,16}b"],
	])("/%s/ is run", (pattern) => {
		expect(regexProblem(pattern)).toBeNull();
	});

	test.each([
		["(a|aa)+", /alternatives/],
		["(a+)+$", /repeats a group/],
		["(ab)*c", /repeats a group/],
		["(x)\\1", /refers back/],
		["a(?=b)", /looks around/],
		["a*a*$", /without a bound/],
		["\\w+@\\w+", /without a bound/],
		["a{1,100}b+", /without a bound/],
		["a?a?a?a?a?aaaaa", /more than 16 ways/],
		// 17⁴ ways before a repeat that walks the input: minutes on 2,000 characters.
		["a{0,16}a{0,16}a{0,16}a{0,16}a*b", /without a bound/],
		["a{0,15}a{0,15}a{0,15}a{0,15}a*b", /more than 16 ways/],
		["a{0,7}a?a?a*b", /more than 16 ways/],
		["a{1,16}a*b", /more than 16 ways/],
		["a?a?a?a?a*b", /more than 16 ways/],
		// A count too long to read in a glance is still a repeat.
		["a{0,99999999999999999999999}a{0,99999999999999999999999}b", /without a bound/],
	])("/%s/ is refused, saying why", (pattern, why) => {
		expect(regexProblem(pattern)).toMatch(why);
	});

	test("the patterns it runs end quickly on the longest input it matches", () => {
		const hostile = "a".repeat(BASES_MAX_REGEX_INPUT_CHARS - 1) + "!";
		// Work, not wall time: a busy machine taking the core away lengthens only the latter.
		const clock = workClock();
		for (const pattern of ["a*$", "^a+b", ".*x", "a?a?a?a+b", "a?a?a?a*b", "a{0,3}a?a*b", "a{1,8}a*b", "a{0,3}a{0,3}b"]) {
			expect(regexProblem(pattern)).toBeNull();
			const started = clock();
			new RegExp(pattern).test(hostile);
			// At most quadratic: 2,000² steps is milliseconds; the refused shapes take minutes.
			expect(clock() - started).toBeLessThan(2_000);
		}
	});
});

describe("makeRegex and regexInput: what a formula's regular expression answers", () => {
	test("a safe pattern is compiled with its flags", () => {
		const regex = makeRegex("^project-\\d+$", "i");
		expect(regex.test("PROJECT-12")).toBe(true);
		expect(regex.flags).toBe("i");
	});

	test("a refused pattern says why and what to use instead", () => {
		expect(() => makeRegex("(a+)+$", "")).toThrow(EvaluationError);
		expect(() => makeRegex("(a+)+$", "")).toThrow(/repeats a group.*contains\(\), startsWith\(\)/);
	});

	test("an invalid pattern or flag is an evaluation error, not a crash", () => {
		expect(() => makeRegex("[unclosed", "")).toThrow(/not a valid regular expression/);
		expect(() => makeRegex("abc", "zz")).toThrow(/not a valid regular expression/);
	});

	test(`a text of up to ${BASES_MAX_REGEX_INPUT_CHARS} characters is matched; a longer one is refused`, () => {
		const longest = "x".repeat(BASES_MAX_REGEX_INPUT_CHARS);
		expect(regexInput(longest)).toBe(longest);
		expect(() => regexInput(`${longest}x`)).toThrow(new RegExp(`${BASES_MAX_REGEX_INPUT_CHARS + 1} characters`));
	});
});
