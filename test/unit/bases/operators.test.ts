import fc from "fast-check";
import { EvaluationError } from "../../../src/bases/evaluationContext";
import { arithmetic, compareForOperator, compareValues, minus, plus } from "../../../src/bases/operators";
import { DateValue, DurationValue, formatDate, LinkValue, parseDateText, parseDurationText, type Value } from "../../../src/bases/values";

const date = (text: string) => parseDateText(text) as DateValue;
const duration = (text: string) => parseDurationText(text) as DurationValue;

describe("Bases operators: what a filter or formula answers", () => {
	test("comparisons: numbers, texts, dates (and text that writes one), booleans; a number with numeric text", () => {
		expect(compareForOperator(3, 12)).toBeLessThan(0);
		expect(compareForOperator("b", "a")).toBeGreaterThan(0);
		expect(compareForOperator(date("2026-12-02"), "2026-12-01")).toBeGreaterThan(0);
		expect(compareForOperator(true, false)).toBeGreaterThan(0);
		expect(compareForOperator(5, "10.5")).toBeLessThan(0);
		expect(compareForOperator(duration("1d"), duration("2h"))).toBeGreaterThan(0);
	});

	test("values that do not compare give null (the comparison is false): empty values, text that is not a number, a link and a number", () => {
		expect(compareForOperator(null, 3)).toBeNull();
		expect(compareForOperator(3, null)).toBeNull();
		expect(compareForOperator(5, "five")).toBeNull();
		expect(compareForOperator(5, " ")).toBeNull();
		expect(compareForOperator(new LinkValue("Note", null), 3)).toBeNull();
	});

	test("date + duration moves by the calendar: a month after 31 January is the end of February", () => {
		expect(formatDate(plus(date("2026-01-31"), "1M") as DateValue)).toBe("2026-02-28");
		expect(formatDate(plus(date("2024-01-31"), duration("1 month")) as DateValue)).toBe("2024-02-29");
		expect(formatDate(minus(date("2026-03-01"), "1d") as DateValue)).toBe("2026-02-28");
		expect(formatDate(plus(date("2026-12-02"), "2 weeks") as DateValue)).toBe("2026-12-16");
	});

	test("date − date is milliseconds; duration ± duration is a duration; number arithmetic as usual", () => {
		expect(minus(date("2026-12-02"), date("2026-12-01"))).toBe(86_400_000);
		expect(minus(date("2026-12-02"), "2026-12-01")).toBe(86_400_000);
		expect(plus(duration("1d"), duration("2h"))).toEqual(new DurationValue(0, 1, 7_200_000));
		expect(plus(2, 3)).toBe(5);
		expect(arithmetic("*", 6, 7)).toBe(42);
		expect(arithmetic("%", 7, 4)).toBe(3);
		expect(arithmetic("*", duration("1d"), 2)).toEqual(new DurationValue(0, 2, 0));
	});

	test("text joins with anything; a missing date plus a duration stays missing, not the text of the duration", () => {
		expect(plus("Chapter ", 3)).toBe("Chapter 3");
		expect(plus(null, "2w")).toBeNull();
		expect(plus(null, 3)).toBeNull();
		expect(minus(5, null)).toBeNull();
		expect(arithmetic("/", null, 2)).toBeNull();
	});

	test("operands of the wrong type are an evaluation error naming both types", () => {
		expect(() => plus(true, 1)).toThrow(EvaluationError);
		expect(() => plus(true, 1)).toThrow("Cannot add a number to a boolean.");
		expect(() => minus("a", 1)).toThrow("Cannot subtract a number from a string.");
		expect(() => arithmetic("*", "a", 2)).toThrow('Cannot use "*" on a string and a number.');
	});

	test("compareValues is a total order for sorting: empty values last, antisymmetric and transitive over mixed types", () => {
		const values: fc.Arbitrary<Value> = fc.oneof(
			fc.constant(null),
			fc.boolean(),
			fc.integer({ min: -5, max: 5 }),
			fc.constantFrom("a", "b", "10", "2", "2026-01-01", ""),
			fc.constantFrom(date("2026-01-01"), date("2025-06-30")),
		);
		fc.assert(
			fc.property(values, values, values, (a, b, c) => {
				expect(Math.sign(compareValues(a, b))).toBe(-Math.sign(compareValues(b, a)) || 0);
				if (compareValues(a, b) <= 0 && compareValues(b, c) <= 0 && typeof a === typeof b && typeof b === typeof c)
					expect(compareValues(a, c)).toBeLessThanOrEqual(0);
				if (a === null && b !== null) expect(compareValues(a, b)).toBeGreaterThan(0);
			}),
		);
	});
});
