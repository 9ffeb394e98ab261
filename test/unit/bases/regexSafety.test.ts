import { regexProblem } from "../../../src/bases/regexSafety";
import { BASES_MAX_REGEX_INPUT_CHARS } from "../../../src/config/limits";

describe("a base's regular expression runs only when its backtracking stays bounded", () => {
	test.each([["abc"], [","], ["^\\d{4}-\\d{2}-\\d{2}$"], ["[a|b(+*]+x"], ["(?:ab)c*"], ["colou?r"], ["a{2,5}b*"]])("/%s/ is run", (pattern) => {
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
		["a?a?a?a?a?aaaaa", /optional or repeated/],
	])("/%s/ is refused, saying why", (pattern, why) => {
		expect(regexProblem(pattern)).toMatch(why);
	});

	test("the patterns it runs end quickly on the longest input it matches", () => {
		const hostile = "a".repeat(BASES_MAX_REGEX_INPUT_CHARS - 1) + "!";
		for (const pattern of ["a*$", "^a+b", ".*x", "a?a?a?a+b"]) {
			expect(regexProblem(pattern)).toBeNull();
			const started = performance.now();
			new RegExp(pattern).test(hostile);
			// At most quadratic: 2,000² steps is milliseconds even on a loaded machine; the refused shapes take minutes.
			expect(performance.now() - started).toBeLessThan(2_000);
		}
	});
});
