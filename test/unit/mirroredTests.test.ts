import { existsSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import ts from "typescript";
import { findProjectRoot } from "../helpers/fixtures";

/**
 * Every pure module under src/ has a unit test at the mirrored path: `src/a/b.ts` ⇒ `test/unit/a/b.test.ts`,
 * so a maintainer finds the test of a file without searching.
 *
 * A module is pure when it does no I/O itself and imports nothing that does. Its I/O would be:
 * - a runtime import (not `import type`) of a node module that reaches the outside world
 *   (`NODE_IO_MODULES`), of `obsidian` (the app), or of chokidar or proper-lockfile (the disk);
 * - a use of a global that reaches the outside world (`IO_GLOBALS`: the console, the DOM, `fetch`, the
 *   process's streams, arguments, environment and exit), resolved by the compiler so that a local
 *   variable named `window` or `document` is not taken for the global;
 * - a runtime import of another module of src/ that is not pure.
 * A module handed a `Host` (or any other port) as a parameter is pure by this rule: the I/O is the
 * caller's, and its test passes the host double or a `NodeHost` on a temp folder.
 * Reading a clock (`Date.now()`, `process.cpuUsage()`) and timers are not I/O here.
 */
const NODE_IO_MODULES = new Set([
	"fs",
	"fs/promises",
	"http",
	"https",
	"http2",
	"net",
	"tls",
	"dgram",
	"dns",
	"dns/promises",
	"child_process",
	"cluster",
	"os",
	"worker_threads",
	"readline",
	"readline/promises",
	"process",
	"inspector",
	"repl",
	"tty",
]);
const PACKAGES_DOING_IO = new Set(["obsidian", "chokidar", "proper-lockfile"]);
const IO_GLOBALS = new Set([
	"console",
	"fetch",
	"XMLHttpRequest",
	"WebSocket",
	"window",
	"document",
	"activeWindow",
	"activeDocument",
	"localStorage",
	"sessionStorage",
	"navigator",
	"require",
	"process",
]);
/** Members of the global `process` that read a clock or a constant, not the outside world. */
const PROCESS_CLOCKS = new Set(["cpuUsage", "hrtime", "platform"]);

/**
 * Pure modules without a mirrored test, on purpose. Keep it short; each says why. (A type-only
 * module, only interfaces and type aliases, has no runtime code to test and needs no entry.)
 */
const EXCEPTIONS: Record<string, string> = {
	"markdown/blockquote.ts": "a markdown-it rule swapped in by blocks.ts; blocks.test.ts checks it against markdown-it's own rule",
};

const ROOT = findProjectRoot();
const SRC = nodePath.join(ROOT, "src");

function sourceModules(): string[] {
	return readdirSync(SRC, { recursive: true, encoding: "utf8" })
		.filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
		.map((name) => name.split(nodePath.sep).join("/"))
		.sort();
}

/** The src/ module a relative specifier names, or null. */
function resolveRelative(from: string, specifier: string): string | null {
	const base = nodePath.posix.normalize(nodePath.posix.join(nodePath.posix.dirname(from), specifier));
	for (const candidate of [`${base}.ts`, `${base}/index.ts`]) if (existsSync(nodePath.join(SRC, candidate))) return candidate;
	return null;
}

interface ModuleFacts {
	/** Module specifiers imported or re-exported for their values (type-only ones left out). */
	runtimeImports: string[];
	/** The I/O globals the module uses. */
	ioGlobals: string[];
	/** Only interfaces, type aliases and type imports: nothing runs. */
	typeOnly: boolean;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
	const clause = node.importClause;
	if (!clause) return false;
	if (clause.phaseModifier === ts.SyntaxKind.TypeKeyword) return true;
	const bindings = clause.namedBindings;
	return (
		!clause.name &&
		bindings !== undefined &&
		ts.isNamedImports(bindings) &&
		bindings.elements.length > 0 &&
		bindings.elements.every((element) => element.isTypeOnly)
	);
}

function isNameNotReference(node: ts.Identifier): boolean {
	const parent = node.parent;
	return (
		(ts.isPropertyAccessExpression(parent) && parent.name === node) ||
		(ts.isQualifiedName(parent) && parent.right === node) ||
		(ts.isPropertyAssignment(parent) && parent.name === node) ||
		((ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent)) &&
			parent.name === node) ||
		ts.isTypeReferenceNode(parent)
	);
}

/** What every module imports and which I/O globals it uses (a global is an identifier the compiler finds no declaration for, with no lib loaded). */
function moduleFacts(modules: string[]): Map<string, ModuleFacts> {
	const program = ts.createProgram(
		modules.map((module) => nodePath.join(SRC, module)),
		{ noLib: true, noResolve: true, types: [], allowJs: false, target: ts.ScriptTarget.ES2022 },
	);
	const checker = program.getTypeChecker();
	const facts = new Map<string, ModuleFacts>();
	for (const module of modules) {
		const sourceFile = program.getSourceFile(nodePath.join(SRC, module));
		if (!sourceFile) throw new Error(`not parsed: ${module}`);
		const runtimeImports: string[] = [];
		const ioGlobals = new Set<string>();
		const visit = (node: ts.Node): void => {
			if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
				if (!isTypeOnlyImport(node)) runtimeImports.push(node.moduleSpecifier.text);
			} else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
				if (!node.isTypeOnly) runtimeImports.push(node.moduleSpecifier.text);
			} else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
				const [specifier] = node.arguments;
				if (specifier && ts.isStringLiteral(specifier)) runtimeImports.push(specifier.text);
			} else if (ts.isIdentifier(node) && IO_GLOBALS.has(node.text) && !isNameNotReference(node) && checker.getSymbolAtLocation(node) === undefined) {
				const parent = node.parent;
				const member = ts.isPropertyAccessExpression(parent) && parent.expression === node ? parent.name.text : null;
				// `typeof process` asks whether the runtime has one: feature detection, not a use.
				const detection = ts.isTypeOfExpression(parent);
				if (!detection && !(node.text === "process" && member !== null && PROCESS_CLOCKS.has(member))) ioGlobals.add(node.text);
			}
			ts.forEachChild(node, visit);
		};
		visit(sourceFile);
		const typeOnly = sourceFile.statements.every(
			(statement) =>
				ts.isInterfaceDeclaration(statement) ||
				ts.isTypeAliasDeclaration(statement) ||
				(ts.isImportDeclaration(statement) && isTypeOnlyImport(statement)) ||
				(ts.isExportDeclaration(statement) && statement.isTypeOnly),
		);
		facts.set(module, { runtimeImports, ioGlobals: [...ioGlobals], typeOnly });
	}
	return facts;
}

/** module → why it is not pure (the chain to the I/O), or null when it is pure. */
function classify(modules: string[], facts: Map<string, ModuleFacts>): Map<string, string | null> {
	const verdicts = new Map<string, string | null>();
	const visiting = new Set<string>();
	const impurity = (module: string): string | null => {
		const known = verdicts.get(module);
		if (known !== undefined) return known;
		// A circle (check-imports forbids them) would otherwise recurse forever: a module on the path is judged by its other imports.
		if (visiting.has(module)) return null;
		visiting.add(module);
		const { runtimeImports, ioGlobals } = facts.get(module) as ModuleFacts;
		let verdict: string | null = ioGlobals.length > 0 ? `uses the global ${ioGlobals.join(", ")}` : null;
		for (const specifier of runtimeImports) {
			if (verdict !== null) break;
			if (specifier.startsWith(".")) {
				const target = resolveRelative(module, specifier);
				const reason = target === null ? null : impurity(target);
				if (reason !== null) verdict = `${target} → ${reason}`;
			} else if (NODE_IO_MODULES.has(specifier.replace(/^node:/, "")) || PACKAGES_DOING_IO.has(specifier)) {
				verdict = `imports ${specifier}`;
			}
		}
		visiting.delete(module);
		verdicts.set(module, verdict);
		return verdict;
	};
	for (const module of modules) impurity(module);
	return verdicts;
}

const mirroredTest = (module: string) => `test/unit/${module.replace(/\.ts$/, ".test.ts")}`;
const hasMirroredTest = (module: string) => existsSync(nodePath.join(ROOT, mirroredTest(module)));

describe("every pure module has a unit test at the mirrored path", () => {
	const modules = sourceModules();
	const facts = moduleFacts(modules);
	const verdicts = classify(modules, facts);
	const pure = modules.filter((module) => verdicts.get(module) === null && !(facts.get(module) as ModuleFacts).typeOnly);

	test("each pure module without a mirrored test is named (write test/unit/<same path>.test.ts)", () => {
		const missing = pure.filter((module) => !hasMirroredTest(module) && !(module in EXCEPTIONS));
		expect(missing.map((module) => `src/${module} ⇒ ${mirroredTest(module)}`)).toEqual([]);
	});

	test("the exceptions name only pure modules without a test", () => {
		const stale = Object.keys(EXCEPTIONS).filter((module) => !pure.includes(module) || hasMirroredTest(module));
		expect(stale).toEqual([]);
	});

	test("each exception says why in one line", () => {
		for (const reason of Object.values(EXCEPTIONS)) expect(reason).toMatch(/^[^\n]{10,120}$/);
	});

	test("type-only modules are told apart from modules with code: the tool context and the host seam are types, the result helpers are code", () => {
		expect((facts.get("mcp/context.ts") as ModuleFacts).typeOnly).toBe(true);
		expect((facts.get("auth/grant.ts") as ModuleFacts).typeOnly).toBe(true);
		expect((facts.get("result.ts") as ModuleFacts).typeOnly).toBe(false);
	});

	test("the rule sees I/O where there is some: the hosts, the disk, the HTTP server and the Obsidian views are not pure", () => {
		for (const module of [
			"headless/NodeVault.ts",
			"host/FolderJail.ts",
			"http/server.ts",
			"journal/JournalFile.ts",
			"ui/SettingsTab.ts",
			"main.ts",
			"headless/cli.ts",
		]) {
			expect({ module, pure: verdicts.get(module) === null }).toEqual({ module, pure: false });
		}
	});
});
