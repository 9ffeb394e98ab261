import { parseExpression, walkExpression, type Expression } from "../../../src/bases/expression";

function parsed(text: string): Expression {
	const result = parseExpression(text);
	if (!result.ok) throw new Error(result.error);
	return result.value;
}

describe("parseExpression", () => {
	test("binds * before +, comparison before &&, && before ||, as JavaScript does", () => {
		expect(parsed("a + b * c")).toEqual({
			kind: "binary",
			operator: "+",
			left: { kind: "identifier", name: "a" },
			right: { kind: "binary", operator: "*", left: { kind: "identifier", name: "b" }, right: { kind: "identifier", name: "c" } },
		});
		const logic = parsed("x > 1 && y || z");
		expect(logic).toMatchObject({ operator: "||", left: { operator: "&&", left: { operator: ">" } } });
		expect(parsed("a - b - c")).toMatchObject({ operator: "-", left: { operator: "-" }, right: { name: "c" } });
	});

	test("reads member calls on numbers, texts, lists, objects and regular expressions", () => {
		expect(parsed("1.isTruthy()")).toEqual({ kind: "call", callee: { kind: "member", object: { kind: "literal", value: 1 }, name: "isTruthy" }, args: [] });
		expect(parsed("(2.5).round()")).toMatchObject({ kind: "call", callee: { object: { value: 2.5 }, name: "round" } });
		expect(parsed('"a,b".split(/,/g, 1)')).toMatchObject({ callee: { name: "split" }, args: [{ kind: "regex", pattern: ",", flags: "g" }, { value: 1 }] });
		expect(parsed('{"a": 1}.keys()')).toMatchObject({ callee: { object: { kind: "object", entries: [["a", { value: 1 }]] } } });
		expect(parsed("[1, [2]][0]")).toMatchObject({ kind: "index", object: { kind: "list" }, index: { value: 0 } });
		expect(parsed('note["my price"]')).toMatchObject({ kind: "index", object: { name: "note" }, index: { value: "my price" } });
	});

	test("a / after a value divides; elsewhere it starts a regular expression", () => {
		expect(parsed("price / age")).toMatchObject({ kind: "binary", operator: "/" });
		expect(parsed("(price) / 2")).toMatchObject({ kind: "binary", operator: "/" });
		expect(parsed("/a/.matches(x)")).toMatchObject({ callee: { object: { kind: "regex", pattern: "a" } } });
	});

	test("reads escapes in both quotes, and unary operators", () => {
		expect(parsed('\'it\\\'s\' + "\\"q\\""')).toMatchObject({ left: { value: "it's" }, right: { value: '"q"' } });
		expect(parsed("!-x")).toEqual({ kind: "unary", operator: "!", operand: { kind: "unary", operator: "-", operand: { kind: "identifier", name: "x" } } });
	});

	test.each([
		["price >", /ends where a value was expected/],
		["a b", /unexpected "b" at position 3/],
		["'open", /has no closing quote/],
		["f(1", /expected "\)"/],
		["1 # 2", /unexpected character "#" at position 3/],
		["/x/q.matches(y)", /unknown flags "q"/],
		['"x"(1)', /only functions can be called/],
		["(".repeat(65) + "1" + ")".repeat(65), /nested more than 64 levels deep/],
		["!".repeat(200) + "x", /nested more than 64 levels deep/],
		["x" + ".a".repeat(100), /chains more than 64 accesses/],
		["1+".repeat(3000) + "1", /longer than 4000 characters/],
	])("refuses %s with a reason", (text, reason) => {
		const result = parseExpression(text);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).toMatch(reason);
	});
});

describe("walkExpression", () => {
	const kindsAndNames = (text: string) => {
		return [...walkExpression(parsed(text))].map((node) =>
			node.kind === "identifier" || node.kind === "member"
				? `${node.kind}:${node.name}`
				: node.kind === "literal"
					? `literal:${String(node.value)}`
					: node.kind,
		);
	};

	test("every node, depth first, children in order", () => {
		expect(kindsAndNames('a.b(1, [c, {k: d}])[e] + !f || "x"')).toEqual([
			"binary",
			"binary",
			"index",
			"call",
			"member:b",
			"identifier:a",
			"literal:1",
			"list",
			"identifier:c",
			"object",
			"identifier:d",
			"identifier:e",
			"unary",
			"identifier:f",
			"literal:x",
		]);
	});

	test("a chain of 1,000 `||` (a tree 1,000 deep) is walked whole", () => {
		const names = kindsAndNames(Array.from({ length: 1000 }, (_, index) => `n${index % 10}`).join("||"));
		expect(names.filter((name) => name === "binary")).toHaveLength(999);
		expect(names.filter((name) => name.startsWith("identifier:"))[999]).toBe("identifier:n9");
	});
});
