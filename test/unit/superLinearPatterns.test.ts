import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { checkSync } from "recheck";
import ts from "typescript";

/**
 * Every regular expression the plugin runs can meet note text or a client's arguments, so none may
 * backtrack super-linearly: a 117-character task line once held the server 21 s. eslint-plugin-regexp
 * sees only the literals; this checks those and the patterns built at run time with `new RegExp`
 * (the task fields' patterns are assembled from pieces), with recheck, which searches for an
 * attack string instead of matching shapes.
 */

const SOURCE_ROOT = nodePath.join(__dirname, "..", "..", "src");

interface Pattern {
	source: string;
	flags: string;
	where: string;
}

async function sourceFiles(folder: string): Promise<string[]> {
	const found: string[] = [];
	for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
		const path = nodePath.join(folder, entry.name);
		if (entry.isDirectory()) found.push(...(await sourceFiles(path)));
		else if (entry.name.endsWith(".ts")) found.push(path);
	}
	return found;
}

/** The regular expression literals written in a source file. */
function literalsOf(path: string, text: string): Pattern[] {
	const patterns: Pattern[] = [];
	const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const visit = (node: ts.Node): void => {
		if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
			const literal = node.getText(file);
			const end = literal.lastIndexOf("/");
			const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
			patterns.push({ source: literal.slice(1, end), flags: literal.slice(end + 1), where: `${nodePath.relative(SOURCE_ROOT, path)}:${line}` });
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	return patterns;
}

/**
 * The patterns that loading `modules` builds with `new RegExp`: the global constructor is wrapped
 * while they load (in isolation, so each module's top level runs here).
 */
function builtWhileLoading(modules: readonly string[]): Pattern[] {
	const built: Pattern[] = [];
	const original = globalThis.RegExp;
	globalThis.RegExp = new Proxy(original, {
		construct(target, args: [string | RegExp, string?]) {
			const made = new target(...args);
			built.push({ source: made.source, flags: made.flags, where: "built at run time" });
			return made;
		},
	});
	try {
		jest.isolateModules(() => {
			for (const module of modules) jest.requireActual(module);
		});
	} finally {
		globalThis.RegExp = original;
	}
	return built;
}

/**
 * markdown-it's tag patterns, which it builds when it is loaded (a module here that loads the block
 * parser loads them): an unquoted attribute value that may hold a non-breaking space makes them
 * exponential. The block parser never runs them: its HTML block rule is src/markdown/htmlBlock.ts
 * (test/unit/markdown/htmlBlock.test.ts parses a line that would take them for ever), and
 * markdown-it's inline rules, the other user, never run.
 */
function isMarkdownItTagPattern(pattern: Pattern): boolean {
	return pattern.where === "built at run time" && pattern.source.includes("(?:[^\"'=<>`\\x00-\\x20]+|");
}

/**
 * recheck's fuzzing counts a string as an attack when matching it takes longer than a wall-clock
 * bound (1 s by default), as well as when it reads too many characters: at a load of 13-15, three
 * patterns found safe on a quiet machine were reported vulnerable. Only the counted characters decide.
 */
const STEPS_NOT_TIME = { attackTimeout: null, incubationTimeout: null, seedingTimeout: null } as const;

describe("regular expressions run on note text and arguments", () => {
	let literals: Pattern[] = [];
	let built: Pattern[] = [];

	beforeAll(async () => {
		const files = await sourceFiles(SOURCE_ROOT);
		const builders: string[] = [];
		for (const path of files) {
			const text = await fs.readFile(path, "utf8");
			literals.push(...literalsOf(path, text));
			if (text.includes("new RegExp(") && !path.endsWith("regexSafety.ts")) builders.push(path);
		}
		built = builtWhileLoading(builders);
	});

	test("are found: the literals and the task fields' patterns built from pieces", () => {
		expect(literals.length).toBeGreaterThan(100);
		expect(built.some((pattern) => pattern.source.startsWith("⛔"))).toBe(true);
		expect(built.some((pattern) => pattern.source.includes("priority::"))).toBe(true);
	});

	test("none backtracks super-linearly (recheck finds no attack string)", () => {
		const unsafe: string[] = [];
		const seen = new Set<string>();
		for (const pattern of [...literals, ...built.filter((pattern) => !isMarkdownItTagPattern(pattern))]) {
			// With its flags: a sticky pattern is tried at one place (the task fields are tried where they can start).
			const key = `${pattern.source}/${pattern.flags}`;
			if (seen.has(key)) continue;
			seen.add(key);
			const diagnostics = checkSync(pattern.source, pattern.flags, STEPS_NOT_TIME);
			if (diagnostics.status !== "safe") unsafe.push(`${pattern.where}: /${pattern.source}/${pattern.flags} is ${diagnostics.status}`);
		}
		expect(unsafe).toEqual([]);
	}, 120_000);
});
