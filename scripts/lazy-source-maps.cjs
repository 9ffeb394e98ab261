/**
 * A preload (`node --require ./scripts/lazy-source-maps.cjs dist/cli.js …`) that maps a stack's
 * frames in a bundle to its src/ lines, as `--enable-source-maps` does, but reads and parses the
 * bundle's map only when a stack is first formatted. `--enable-source-maps` parses the CLI's 7 MB
 * map at every start (about 0.3 s of CPU, a third of a `help` start's), and the tests start the CLI
 * some hundreds of times; almost none of those starts ever prints a stack.
 */
const { readFileSync } = require("node:fs");
const { SourceMap } = require("node:module");
const nodePath = require("node:path");
const { fileURLToPath } = require("node:url");

/** Each bundle's map once read: null when it names none or it cannot be read. */
const maps = new Map();

function mapOf(file) {
	if (maps.has(file)) return maps.get(file);
	let found = null;
	try {
		const path = file.startsWith("file:") ? fileURLToPath(file) : file;
		const named = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(path, "utf8"));
		if (named?.[1] && !named[1].startsWith("data:")) {
			const mapPath = nodePath.resolve(nodePath.dirname(path), named[1]);
			found = { map: new SourceMap(JSON.parse(readFileSync(mapPath, "utf8"))), folder: nodePath.dirname(mapPath) };
		}
	} catch {
		found = null;
	}
	maps.set(file, found);
	return found;
}

/** One frame as V8 prints it, its bundle position replaced by the source position when the map has one. */
function frameText(frame) {
	const text = String(frame);
	const file = frame.getFileName();
	const line = frame.getLineNumber();
	const column = frame.getColumnNumber();
	if (!file || !line || !column || file.startsWith("node:") || !nodePath.isAbsolute(file.startsWith("file:") ? fileURLToPath(file) : file)) return text;
	const mapped = mapOf(file);
	const entry = mapped?.map.findEntry(line - 1, column - 1);
	if (!entry?.originalSource) return text;
	const source = entry.originalSource.startsWith("file:") ? fileURLToPath(entry.originalSource) : nodePath.resolve(mapped.folder, entry.originalSource);
	return text.replace(`${file}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
}

function header(error) {
	try {
		return Error.prototype.toString.call(error);
	} catch {
		return "Error";
	}
}

Error.prepareStackTrace = (error, frames) => [header(error), ...frames.map((frame) => `    at ${frameText(frame)}`)].join("\n");
