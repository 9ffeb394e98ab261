/**
 * Jest's runtime, except that each module whose text has no dynamic `import(` is compiled once per
 * jest worker rather than once per test file.
 *
 * Each test file has its own module registry and context, so every file that imports
 * src/service.ts compiled the ~465 modules under it anew (the MCP SDK and ajv, zod, yaml,
 * markdown-it, our src): jest compiles each module with `vm.compileFunction`, which V8 never takes
 * from its compilation cache, nor could it with the dynamic-import callback jest gives every
 * compile. Compiling took 3.0 of the 13.1 s of CPU that six one-line test files importing the
 * service took (6 December 2026), and every function a file ran was compiled lazily again.
 * Here a module is compiled once as a `vm.Script` (not bound to any context) and run in each test
 * file's context: each file still runs every module's body in its own context (its own module
 * objects, globals and mocks) as before, and the functions compiled as earlier files ran are
 * compiled already. A module whose text has an `import(`, outside a line that starts as a comment
 * (the ajv bundle's JSDoc names types as `import('…')`), goes through jest's compile with its
 * callback as before; our TypeScript has none (scripts/jest-esbuild-transform.mjs writes it as a
 * require), nor has most of node_modules. A module put on this path wrongly fails loudly at its
 * first dynamic import (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING); it never loads anything from
 * outside jest's registry.
 */
const { statSync } = require("node:fs");
const { Script } = require("node:vm");
const JestRuntime = require("jest-runtime").default;

const DYNAMIC_IMPORT = /\bimport\s*\(/g;
const COMMENT_LINE_START = /^[ \t]*(?:\/?\*|\/\/)/;

/** Whether the text has an `import(` on a line that does not start as a comment (`//`, `/*`, `/**` or a block comment's `*`). */
function hasDynamicImport(source) {
	for (const found of source.matchAll(DYNAMIC_IMPORT)) {
		const lineStart = source.lastIndexOf("\n", found.index) + 1;
		if (!COMMENT_LINE_START.test(source.slice(lineStart, found.index))) return true;
	}
	return false;
}

/** The property the compiled script's one object holds the module's function in. */
const WRAPPER_KEY = "jestModule";

/**
 * Built-ins a module reads from a binding of its wrapper's scope, taken from the test file's context
 * once as the module is run, rather than from the context's global object on each read. In a `vm`
 * context every read of a global goes through Node's interceptor on that object and is never made
 * fast: run in jest, the search index's pair hash (four `Math.imul` a word pair) took 7.8 s of CPU in
 * searchRanking where the same build outside jest spent too little in it to be listed (7 December
 * 2026); a loop of 30,000 of them took 55-90 ms in a context against 0.4-0.8 ms with `Math` bound so.
 * The bindings are the context's own objects (a spy on `Math.random` is seen as before) and a module's
 * own declaration of a name shadows it. Left out: what tests replace on the global object itself
 * (`RegExp`, `setTimeout`, `structuredClone`) and what jest's fake timers replace (`Date`,
 * `performance`, the timers, `queueMicrotask`, `process.nextTick`'s `process`).
 */
const BOUND_BUILTINS = [
	"Array",
	"ArrayBuffer",
	"BigInt",
	"Boolean",
	"Buffer",
	"DataView",
	"Error",
	"Float32Array",
	"Float64Array",
	"Int8Array",
	"Int16Array",
	"Int32Array",
	"JSON",
	"Map",
	"Math",
	"Number",
	"Object",
	"Promise",
	"RangeError",
	"Reflect",
	"Set",
	"String",
	"Symbol",
	"SyntaxError",
	"TextDecoder",
	"TextEncoder",
	"TypeError",
	"Uint8Array",
	"Uint8ClampedArray",
	"Uint16Array",
	"Uint32Array",
	"URL",
	"WeakMap",
	"WeakSet",
	"decodeURIComponent",
	"encodeURIComponent",
	"isFinite",
	"isNaN",
	"parseFloat",
	"parseInt",
].join(", ");

/**
 * This worker's modules, by file name: the text and parameters compiled, and the script, or null
 * for a module jest compiles (one with a dynamic import, or with a syntax error for jest to report).
 */
const compiledModules = new Map();

function compiledOnce(scriptSource, filename, parameters) {
	const parameterList = parameters.join(", ");
	const compiled = compiledModules.get(filename);
	if (compiled !== undefined && compiled.source === scriptSource && compiled.parameterList === parameterList) return compiled.script;
	let script = null;
	if (!hasDynamicImport(scriptSource)) {
		// The wrapper has a line of its own, and `lineOffset: -1` numbers the module's first line 1: a
		// stack names the lines and columns of the module's text, as jest's compile does.
		const wrapped = `(() => { const { ${BOUND_BUILTINS} } = globalThis; return { ${WRAPPER_KEY}: function (${parameterList}) {\n${scriptSource}\n} }; })()`;
		try {
			script = new Script(wrapped, { filename, lineOffset: -1 });
		} catch {
			// A syntax error: jest's compile throws it again, with its own message and code frame.
		}
	}
	compiledModules.set(filename, { source: scriptSource, parameterList, script });
	return script;
}

/**
 * This worker's module texts (as transformed), by file name: the file's modification time and size
 * and the transform options they were made for, the text, and jest's record of the transform (its
 * source map) for a module jest transforms.
 */
const transformedModules = new Map();

class CompiledOncePerWorker extends JestRuntime {
	constructor(...args) {
		super(...args);
		// jest-runtime 30's ModuleExecutor (package.json pins the version): its compile(source, filename).
		const executor = this.executor;
		if (typeof executor?.compile !== "function" || !Array.isArray(executor.injectedModuleParameters)) {
			throw new Error("scripts/jest-runtime.cjs: jest-runtime's ModuleExecutor changed; update this file to the new jest.");
		}
		// Jest reads every module's file again for each test file, even where the transform's result is
		// kept in memory (by file name and modification time): a stat of the file does instead.
		const transformCache = this.transformCache;
		if (typeof transformCache?.transform !== "function" || !(transformCache.transforms instanceof Map) || !(transformCache.sourceMaps instanceof Map)) {
			throw new Error("scripts/jest-runtime.cjs: jest-runtime's TransformCache changed; update this file to the new jest.");
		}
		const transformAfterReading = transformCache.transform.bind(transformCache);
		transformCache.transform = (filename, options) => {
			const { mtimeMs, size } = statSync(filename);
			const version = `${mtimeMs} ${size} ${JSON.stringify(options ?? null)}`;
			const kept = transformedModules.get(filename);
			if (kept?.version === version) {
				if (kept.transformedFile !== undefined) {
					transformCache.transforms.set(filename, kept.transformedFile);
					if (kept.transformedFile.sourceMapPath) transformCache.sourceMaps.set(filename, kept.transformedFile.sourceMapPath);
				}
				return kept.code;
			}
			transformCache.transforms.delete(filename);
			const code = transformAfterReading(filename, options);
			transformedModules.set(filename, { version, code, transformedFile: transformCache.transforms.get(filename) });
			return code;
		};
		const compileWithImportCallback = executor.compile.bind(executor);
		executor.compile = (scriptSource, filename) => {
			const script = executor.resolution.isCoreModule(filename) ? null : compiledOnce(scriptSource, filename, executor.injectedModuleParameters);
			if (script === null) return compileWithImportCallback(scriptSource, filename);
			const vmContext = executor.environment.getVmContext();
			return vmContext == null ? null : script.runInContext(vmContext)[WRAPPER_KEY];
		};
	}
}

module.exports = CompiledOncePerWorker;
module.exports.default = CompiledOncePerWorker;
