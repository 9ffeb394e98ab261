import { boundedList, boundedText, BudgetExceededError, EvaluationBudget, notAFunctionOf, numberArg, textArg } from "../../../src/bases/evaluationContext";
import { BASES_MAX_EVAL_STEPS, BASES_MAX_LIST_ITEMS, BASES_MAX_VALUE_CHARS } from "../../../src/config/limits";

describe("what every evaluation is checked against", () => {
	test(`the budget allows ${BASES_MAX_EVAL_STEPS} steps by default and refuses the next, saying what to do`, () => {
		const budget = new EvaluationBudget();
		budget.spend(BASES_MAX_EVAL_STEPS);
		expect(() => budget.spend()).toThrow(BudgetExceededError);
		expect(() => new EvaluationBudget(5).spend(6)).toThrow(/more than 5 evaluation steps.*Add a filter \(a folder or a tag\)/);
	});

	test("texts and lists are bounded at their limits, inclusive", () => {
		expect(boundedText("x".repeat(BASES_MAX_VALUE_CHARS))).toHaveLength(BASES_MAX_VALUE_CHARS);
		expect(() => boundedText("x".repeat(BASES_MAX_VALUE_CHARS + 1))).toThrow(`longer than ${BASES_MAX_VALUE_CHARS} characters`);
		expect(boundedList(new Array<null>(BASES_MAX_LIST_ITEMS).fill(null))).toHaveLength(BASES_MAX_LIST_ITEMS);
		expect(() => boundedList(new Array<null>(BASES_MAX_LIST_ITEMS + 1).fill(null))).toThrow(`more than ${BASES_MAX_LIST_ITEMS} items`);
	});

	test("argument checks name the function and the type given", () => {
		expect(numberArg(2, "round")).toBe(2);
		expect(() => numberArg("2", "round")).toThrow("round() needs a number, not a string.");
		expect(textArg("a", "lower")).toBe("a");
		expect(() => textArg(null, "lower")).toThrow("lower() needs a text, not a null.");
		expect(notAFunctionOf("trim", [1]).message).toBe("trim() is not a function of a list.");
	});
});
