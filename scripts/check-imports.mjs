// `npm run check:imports` (run by `npm test` before jest): fails when the modules under src/ import
// each other in a circle. Every import counts, `import type` and `export … from` included: a circle
// of types still means two modules that cannot be understood, or moved, one without the other (the
// plugin class passed around whole was one). The folder rules ("http/ never imports mcp/", …) are
// ESLint's no-restricted-imports blocks in eslint.config.mjs.
//
// Written with the TypeScript compiler API rather than dependency-cruiser: dependency-cruiser
// 18.7.2 declares Node ^22 || ^24 || >=26, and this project builds and tests on Node 20.
//
//   node scripts/check-imports.mjs [DIR]    DIR defaults to src/
//
// Exit codes: 0 no circle, 1 a circle (each printed as a → b → a).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(PROJECT_ROOT, process.argv[2] ?? "src");

/** Every .ts file under `dir`, absolute. */
function sourceFiles(dir) {
	return readdirSync(dir, { recursive: true, encoding: "utf8" })
		.filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
		.map((name) => path.join(dir, name));
}

/** The file a relative module specifier names, or null for a package or a file that is not TypeScript. */
function resolveRelative(fromFile, specifier) {
	if (!specifier.startsWith("./") && !specifier.startsWith("../")) return null;
	const base = path.resolve(path.dirname(fromFile), specifier);
	for (const candidate of [`${base}.ts`, path.join(base, "index.ts"), base]) {
		if (candidate.endsWith(".ts") && statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
	}
	return null;
}

/** file → the src files it imports (static, type-only, re-exports and dynamic `import()` alike). */
function importGraph(files) {
	const graph = new Map();
	for (const file of files) {
		const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
		const targets = new Set();
		for (const { fileName } of importedFiles) {
			const target = resolveRelative(file, fileName);
			if (target !== null) targets.add(target);
		}
		graph.set(file, [...targets].sort());
	}
	return graph;
}

/** The strongly connected components with a circle in them (Tarjan), each as a list of files. */
function circularComponents(graph) {
	const index = new Map();
	const low = new Map();
	const stack = [];
	const onStack = new Set();
	const components = [];
	let next = 0;
	const visit = (node) => {
		index.set(node, next);
		low.set(node, next);
		next++;
		stack.push(node);
		onStack.add(node);
		for (const target of graph.get(node) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(node, Math.min(low.get(node), low.get(target)));
			} else if (onStack.has(target)) {
				low.set(node, Math.min(low.get(node), index.get(target)));
			}
		}
		if (low.get(node) !== index.get(node)) return;
		const component = [];
		let member;
		do {
			member = stack.pop();
			onStack.delete(member);
			component.push(member);
		} while (member !== node);
		if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
	};
	for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
	return components;
}

/** One shortest circle through the component's first file, staying inside the component. */
function oneCircle(graph, component) {
	const members = new Set(component);
	const start = component[0];
	const cameFrom = new Map();
	const queue = [start];
	while (queue.length > 0) {
		const node = queue.shift();
		for (const target of graph.get(node) ?? []) {
			if (!members.has(target)) continue;
			if (target === start) {
				const circle = [start];
				for (let at = node; at !== start; at = cameFrom.get(at)) circle.splice(1, 0, at);
				return [...circle, start];
			}
			if (!cameFrom.has(target)) {
				cameFrom.set(target, node);
				queue.push(target);
			}
		}
	}
	return component;
}

const graph = importGraph(sourceFiles(root));
const components = circularComponents(graph);
const show = (file) => path.relative(path.dirname(root), file);
if (components.length === 0) {
	process.stdout.write(`check:imports: no import circle among ${graph.size} files under ${show(root)}/\n`);
} else {
	for (const component of components) {
		console.error(`import circle (${component.length} files): ${oneCircle(graph, component).map(show).join(" → ")}`);
	}
	process.exit(1);
}
