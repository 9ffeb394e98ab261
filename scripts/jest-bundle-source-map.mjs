/**
 * A jest transform for the built plugin bundle: the code as built, with the source map esbuild
 * wrote beside it (main.js.map). The released main.js names no map, so without this a failure
 * inside it printed a code frame of minified text, hundreds of kilobytes long.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

const mapOf = (sourcePath) => (existsSync(`${sourcePath}.map`) ? readFileSync(`${sourcePath}.map`, "utf8") : null);

export default {
	process(sourceText, sourcePath) {
		const map = mapOf(sourcePath);
		return map === null ? { code: sourceText } : { code: sourceText, map };
	},
	getCacheKey(sourceText, sourcePath) {
		return createHash("sha256")
			.update(sourceText)
			.update(mapOf(sourcePath) ?? "")
			.digest("hex");
	},
};
