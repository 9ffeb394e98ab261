/**
 * A jest transform for the TypeScript sources and tests: esbuild strips the types and writes
 * CommonJS, with a source map. Types are checked by `tsc --noEmit`, not here; ts-jest did only the
 * same (tsconfig.json has `isolatedModules`, so it transpiled each file alone) but took about ten
 * times as long, and a cold run with two workers compiled every module twice. esbuild is the
 * bundler the build already pins; it reads the compiler options that change emitted code
 * (target, class fields) from tsconfig.json, so tests run the code the build would emit.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { transformSync, version } from "esbuild";

const ROOT = new URL("..", import.meta.url);
const TSCONFIG = readFileSync(new URL("tsconfig.json", ROOT), "utf8");
const { compilerOptions } = JSON.parse(TSCONFIG);
const SELF = readFileSync(new URL(import.meta.url), "utf8");

/**
 * esbuild's CommonJS gives each export a getter, and `module.exports` a second getter over it
 * (`__toCommonJS`), on an object of hundreds of accessors (limits.ts: ~390) that V8 keeps in
 * dictionary mode: every `import_limits.X` read in a hot loop is two getter calls and two hash
 * look-ups, where the built bundle reads a constant. Profiled, hostileNotes spent 11 of 132 s of
 * CPU in limits.ts's getter alone (7 December 2026). So once a module's body has run, its exports
 * are copied into a plain object of read-only values, as the bundle's hoisted bindings behave.
 * Only where no binding can change after that: a module exporting a `let` or `var`, or exporting a
 * list (`export { x }`, which may name a `let` or an import a circular import could leave unset at
 * that point) or another module's values, keeps esbuild's getters. An importer that got the module
 * while its body ran (a circular import) keeps the getters too, and reads the same values.
 */
const LIVE_BINDING_EXPORT = /^\s*export\s+(?:let|var)\b|^\s*export\s*[*{]/m;
const SETTLED_EXPORTS =
	"\n;module.exports = ((live) => { const settled = {}; for (const key of Object.getOwnPropertyNames(live)) " +
	"Object.defineProperty(settled, key, { value: live[key], enumerable: Object.getOwnPropertyDescriptor(live, key).enumerable }); return settled; })(module.exports);\n";

export default {
	process(sourceText, sourcePath) {
		const { code, map } = transformSync(sourceText, {
			loader: "ts",
			format: "cjs",
			target: "node20",
			sourcemap: "external",
			sourcefile: sourcePath,
			tsconfigRaw: { compilerOptions },
			// `await import(…)` becomes a require, as tsc writes it for CommonJS: jest's module registry
			// (and the host double mapped for `obsidian`) sees it, and no VM module support is needed.
			supported: { "dynamic-import": false },
		});
		// Appended after the last mapped line: the source map is unchanged.
		const settled = code.includes("module.exports = __toCommonJS(") && !LIVE_BINDING_EXPORT.test(sourceText);
		return { code: settled ? code + SETTLED_EXPORTS : code, map };
	},
	getCacheKey(sourceText, sourcePath) {
		return createHash("sha256").update(version).update(SELF).update(TSCONFIG).update(sourcePath).update(sourceText).digest("hex");
	},
};
