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
		return { code, map };
	},
	getCacheKey(sourceText, sourcePath) {
		return createHash("sha256").update(version).update(SELF).update(TSCONFIG).update(sourcePath).update(sourceText).digest("hex");
	},
};
