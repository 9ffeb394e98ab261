import { parseExpression } from "../../../src/bases/expression";
import { checkSupported } from "../../../src/bases/supported";

const check = (text: string) => {
	const parsed = parseExpression(text);
	if (!parsed.ok) throw new Error(parsed.error);
	return checkSupported(parsed.value);
};

describe("checkSupported: only what Obsidian's Bases reference documents runs", () => {
	test.each([
		'file.hasTag("book") && status != "done"',
		'if(rating > 3, "good", "meh")',
		'date(due) < today() + "1w"',
		'title.lower().contains("draft")',
		'list(tags).map(value.trim()).unique().join(", ")',
		"max(1, 2, min(3, 4))",
	])("%s is supported", (text) => {
		expect(check(text)).toBeNull();
	});

	test("render-only functions are refused saying query_base returns data", () => {
		for (const name of ["html", "image", "icon"]) expect(check(`${name}("x")`)).toMatch(/only renders in Obsidian's view/);
	});

	test("a function or method outside the reference (a plugin's, a typo) is refused by name, wherever it is nested", () => {
		expect(check("eval(x)")).toMatch(/^The function eval\(\) is not supported/);
		expect(check('title.toUpperCase() == "A"')).toMatch(/toUpperCase\(\) is not supported/);
		expect(check('if(a, list(b).flatMap(c), "x")')).toMatch(/flatMap\(\)/);
	});

	test("now(), today() and random() take no arguments", () => {
		expect(check('now("UTC")')).toBe("The function now() takes no arguments.");
		expect(check("random(6)")).toBe("The function random() takes no arguments.");
	});
});
