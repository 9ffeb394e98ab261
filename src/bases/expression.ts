/**
 * The expression language of Obsidian Bases (filters and formulas), parsed into a tree. Pure:
 * imports nothing of the app. Follows the published Bases syntax: JavaScript-like operators with
 * JavaScript's precedence, member and index access, method calls, string, number, boolean, null,
 * list, object and regular-expression literals. The text and the tree are bounded in size and
 * depth, so a hostile `.base` file costs a parse of bounded work.
 */
import { BASES_MAX_EXPRESSION_CHARS, BASES_MAX_EXPRESSION_DEPTH } from "../config/limits";
import { fail, ok, type Result } from "../result";

type BinaryOperator = "||" | "&&" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "+" | "-" | "*" | "/" | "%";

/** One node of a parsed expression. */
export type Expression =
	| { kind: "literal"; value: string | number | boolean | null }
	| { kind: "regex"; pattern: string; flags: string }
	| { kind: "identifier"; name: string }
	| { kind: "list"; items: Expression[] }
	| { kind: "object"; entries: Array<[string, Expression]> }
	| { kind: "member"; object: Expression; name: string }
	| { kind: "index"; object: Expression; index: Expression }
	| { kind: "call"; callee: Expression; args: Expression[] }
	| { kind: "unary"; operator: "!" | "-"; operand: Expression }
	| { kind: "binary"; operator: BinaryOperator; left: Expression; right: Expression };

type Token =
	| { type: "number"; value: number; at: number }
	| { type: "string"; value: string; at: number }
	| { type: "regex"; pattern: string; flags: string; at: number }
	| { type: "name"; value: string; at: number }
	| { type: "punct"; value: string; at: number }
	| { type: "end"; at: number };

/** Operators and punctuation, longest first so `==` is never read as `=` `=`. */
const PUNCTUATION = ["||", "&&", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "!", "(", ")", "[", "]", "{", "}", ",", ".", ":"];
/** Binding strength of each binary operator (JavaScript's order). */
const PRECEDENCE: Record<BinaryOperator, number> = {
	"||": 1,
	"&&": 2,
	"==": 3,
	"!=": 3,
	"<": 4,
	"<=": 4,
	">": 4,
	">=": 4,
	"+": 5,
	"-": 5,
	"*": 6,
	"/": 6,
	"%": 6,
};
const IDENTIFIER_START = /[\p{L}_$]/u;
const IDENTIFIER_PART = /[\p{L}\p{N}_$]/u;
const REGEX_FLAGS = /^[dgimsuy]*$/;

class ParseError extends Error {}

/** Parses one filter statement or formula; the error says what is wrong and where. */
export function parseExpression(text: string): Result<Expression> {
	if (text.length > BASES_MAX_EXPRESSION_CHARS) return fail(`The expression is longer than ${BASES_MAX_EXPRESSION_CHARS} characters.`);
	try {
		const tokens = tokenize(text);
		const parser = new Parser(tokens);
		const expression = parser.expression(0);
		parser.expectEnd();
		return ok(expression);
	} catch (error) {
		if (error instanceof ParseError) return fail(`Cannot read the expression \`${text}\`: ${error.message}`);
		throw error;
	}
}

/** True when a `/` at this point starts a regular expression rather than dividing. */
function regexMayStart(previous: Token | undefined): boolean {
	if (!previous) return true;
	if (previous.type === "punct") return ![")", "]", "}"].includes(previous.value);
	return false;
}

function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	let at = 0;
	while (at < text.length) {
		const char = text[at] ?? "";
		if (/\s/.test(char)) {
			at++;
			continue;
		}
		if (/[0-9]/.test(char)) {
			const match = /^[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(at));
			const raw = match?.[0] ?? char;
			tokens.push({ type: "number", value: Number(raw), at });
			at += raw.length;
			continue;
		}
		if (char === '"' || char === "'") {
			const { value, end } = readString(text, at);
			tokens.push({ type: "string", value, at });
			at = end;
			continue;
		}
		if (char === "/" && regexMayStart(tokens[tokens.length - 1])) {
			const { pattern, flags, end } = readRegex(text, at);
			tokens.push({ type: "regex", pattern, flags, at });
			at = end;
			continue;
		}
		if (IDENTIFIER_START.test(char)) {
			let end = at + 1;
			while (end < text.length && IDENTIFIER_PART.test(text[end] ?? "")) end++;
			tokens.push({ type: "name", value: text.slice(at, end), at });
			at = end;
			continue;
		}
		const punct = PUNCTUATION.find((candidate) => text.startsWith(candidate, at));
		if (!punct) throw new ParseError(`unexpected character "${char}" at position ${at + 1}.`);
		tokens.push({ type: "punct", value: punct, at });
		at += punct.length;
	}
	tokens.push({ type: "end", at });
	return tokens;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "0": "\0", b: "\b", f: "\f", v: "\v" };

function readString(text: string, start: number): { value: string; end: number } {
	const quote = text[start];
	let value = "";
	let at = start + 1;
	while (at < text.length) {
		const char = text[at] ?? "";
		if (char === quote) return { value, end: at + 1 };
		if (char === "\\") {
			const next = text[at + 1];
			if (next === undefined) break;
			value += ESCAPES[next] ?? next;
			at += 2;
			continue;
		}
		value += char;
		at++;
	}
	throw new ParseError(`the text starting at position ${start + 1} has no closing quote.`);
}

function readRegex(text: string, start: number): { pattern: string; flags: string; end: number } {
	let at = start + 1;
	let inClass = false;
	while (at < text.length) {
		const char = text[at];
		if (char === "\\") {
			at += 2;
			continue;
		}
		if (char === "[") inClass = true;
		else if (char === "]") inClass = false;
		else if (char === "/" && !inClass) {
			const pattern = text.slice(start + 1, at);
			let end = at + 1;
			while (end < text.length && /[a-z]/i.test(text[end] ?? "")) end++;
			const flags = text.slice(at + 1, end);
			if (!REGEX_FLAGS.test(flags)) throw new ParseError(`the regular expression at position ${start + 1} has unknown flags "${flags}".`);
			return { pattern, flags, end };
		}
		at++;
	}
	throw new ParseError(`the regular expression starting at position ${start + 1} has no closing "/".`);
}

class Parser {
	private position = 0;
	private depth = 0;

	constructor(private readonly tokens: Token[]) {}

	private peek(): Token {
		return this.tokens[this.position] ?? { type: "end", at: 0 };
	}

	private next(): Token {
		const token = this.peek();
		if (token.type !== "end") this.position++;
		return token;
	}

	private isPunct(value: string): boolean {
		const token = this.peek();
		return token.type === "punct" && token.value === value;
	}

	private expect(value: string): void {
		const token = this.next();
		if (token.type !== "punct" || token.value !== value) throw new ParseError(`expected "${value}" at position ${token.at + 1}, found ${describe(token)}.`);
	}

	expectEnd(): void {
		const token = this.peek();
		if (token.type !== "end") throw new ParseError(`unexpected ${describe(token)} at position ${token.at + 1}.`);
	}

	/** Precedence climbing: binds operators stronger than `minimum`. */
	expression(minimum: number): Expression {
		this.enter();
		let left = this.unary();
		for (;;) {
			const token = this.peek();
			if (token.type !== "punct" || !(token.value in PRECEDENCE)) break;
			const operator = token.value as BinaryOperator;
			const precedence = PRECEDENCE[operator];
			if (precedence <= minimum) break;
			this.next();
			const right = this.expression(precedence);
			left = { kind: "binary", operator, left, right };
		}
		this.depth--;
		return left;
	}

	private enter(): void {
		this.depth++;
		if (this.depth > BASES_MAX_EXPRESSION_DEPTH) throw new ParseError(`it is nested more than ${BASES_MAX_EXPRESSION_DEPTH} levels deep.`);
	}

	private unary(): Expression {
		if (this.isPunct("!") || this.isPunct("-")) {
			const operator = (this.next() as { value: "!" | "-" }).value;
			this.enter();
			const operand = this.unary();
			this.depth--;
			return { kind: "unary", operator, operand };
		}
		return this.postfix(this.primary());
	}

	private postfix(start: Expression): Expression {
		let expression = start;
		for (let steps = 0; ; steps++) {
			if (steps > BASES_MAX_EXPRESSION_DEPTH) throw new ParseError(`it chains more than ${BASES_MAX_EXPRESSION_DEPTH} accesses.`);
			if (this.isPunct(".")) {
				this.next();
				const name = this.next();
				if (name.type !== "name") throw new ParseError(`expected a name after "." at position ${name.at + 1}, found ${describe(name)}.`);
				expression = { kind: "member", object: expression, name: name.value };
			} else if (this.isPunct("[")) {
				this.next();
				const index = this.expression(0);
				this.expect("]");
				expression = { kind: "index", object: expression, index };
			} else if (this.isPunct("(")) {
				if (expression.kind !== "identifier" && expression.kind !== "member")
					throw new ParseError(`only functions can be called (position ${this.peek().at + 1}).`);
				this.next();
				expression = { kind: "call", callee: expression, args: this.listOf(")") };
			} else {
				return expression;
			}
		}
	}

	private listOf(close: string): Expression[] {
		const items: Expression[] = [];
		if (this.isPunct(close)) {
			this.next();
			return items;
		}
		for (;;) {
			items.push(this.expression(0));
			if (this.isPunct(",")) {
				this.next();
				continue;
			}
			this.expect(close);
			return items;
		}
	}

	private primary(): Expression {
		const token = this.next();
		switch (token.type) {
			case "number":
				return { kind: "literal", value: token.value };
			case "string":
				return { kind: "literal", value: token.value };
			case "regex":
				return { kind: "regex", pattern: token.pattern, flags: token.flags };
			case "name":
				if (token.value === "true") return { kind: "literal", value: true };
				if (token.value === "false") return { kind: "literal", value: false };
				if (token.value === "null") return { kind: "literal", value: null };
				return { kind: "identifier", name: token.value };
			case "punct":
				if (token.value === "(") {
					const inner = this.expression(0);
					this.expect(")");
					return inner;
				}
				if (token.value === "[") return { kind: "list", items: this.listOf("]") };
				if (token.value === "{") return this.objectLiteral();
				throw new ParseError(`unexpected "${token.value}" at position ${token.at + 1}.`);
			case "end":
				throw new ParseError("it ends where a value was expected.");
		}
	}

	private objectLiteral(): Expression {
		const entries: Array<[string, Expression]> = [];
		if (this.isPunct("}")) {
			this.next();
			return { kind: "object", entries };
		}
		for (;;) {
			const key = this.next();
			if (key.type !== "string" && key.type !== "name") throw new ParseError(`expected a key at position ${key.at + 1}, found ${describe(key)}.`);
			this.expect(":");
			entries.push([key.value, this.expression(0)]);
			if (this.isPunct(",")) {
				this.next();
				continue;
			}
			this.expect("}");
			return { kind: "object", entries };
		}
	}
}

function describe(token: Token): string {
	switch (token.type) {
		case "end":
			return "the end";
		case "number":
			return `the number ${token.value}`;
		case "string":
			return "a text";
		case "regex":
			return "a regular expression";
		default:
			return `"${token.value}"`;
	}
}

/**
 * Every node of the tree, depth first, children in order. With a stack of its own: nested `yield*`
 * resumed every generator above a node for each node, so a chain of 300 `||` (a tree 300 deep,
 * which the parser's depth bound does not count: it reads a chain in a loop) took a million
 * resumptions per walk, and sixty such formulas held a query_base 0.65 s before any file was read.
 */
export function* walkExpression(expression: Expression): Generator<Expression> {
	const stack: Expression[] = [expression];
	for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
		yield node;
		// Pushed last child first, so the first child comes next.
		const children = childrenOf(node);
		for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Expression);
	}
}

function childrenOf(expression: Expression): Expression[] {
	switch (expression.kind) {
		case "list":
			return expression.items;
		case "object":
			return expression.entries.map(([, value]) => value);
		case "member":
			return [expression.object];
		case "index":
			return [expression.object, expression.index];
		case "call":
			return [expression.callee, ...expression.args];
		case "unary":
			return [expression.operand];
		case "binary":
			return [expression.left, expression.right];
		default:
			return [];
	}
}
