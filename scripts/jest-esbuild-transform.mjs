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
 * esbuild's CommonJS output gives a module's exports object one getter per export, `() => from[key]`,
 * that reads the export through a second getter (`() => NAME`, the live binding): every getter of
 * every module shares that first one's code, so its `from[key]` is a look-up V8 cannot specialize or
 * inline, and each read of an imported constant (`COMMIT_STEP_POSTINGS` in a loop) paid it: 5% of
 * the profile of two of test/unit/vault/search.test.ts's big-note tests was that one getter (the two
 * took 6.6 → 6.0 s of CPU with the change). The exports object gets the second getters themselves
 * instead: the same live bindings (a getter of the binding, enumerable, not configurable), one
 * function each, which V8 inlines where it is read. The build's bundle reads the bindings directly,
 * with no getter at all. `export * from` keeps esbuild's own copy.
 */
const TO_COMMON_JS = 'var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);';
const TO_COMMON_JS_DIRECT =
	'var __toCommonJS = (mod) => Object.defineProperties(__defProp({}, "__esModule", { value: true }), Object.getOwnPropertyDescriptors(mod));';

function withDirectExports(code, sourcePath) {
	if (!code.includes("var __toCommonJS =")) return code;
	// An esbuild whose helper differs fails here, not with exports that are slow or wrong.
	if (!code.includes(TO_COMMON_JS)) throw new Error(`jest-esbuild-transform: esbuild ${version} wrote another __toCommonJS in ${sourcePath}`);
	return code.replace(TO_COMMON_JS, TO_COMMON_JS_DIRECT);
}

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
		return { code: withDirectExports(code, sourcePath), map };
	},
	getCacheKey(sourceText, sourcePath) {
		return createHash("sha256").update(version).update(SELF).update(TSCONFIG).update(sourcePath).update(sourceText).digest("hex");
	},
};
