/**
 * A preload for the tests' CLI starts (`node --require ./scripts/cli-code-cache.cjs dist/cli.js …`):
 * the bundle is compiled from V8's code cache of an earlier start, not parsed again. V8 parses the
 * 3.6 MB bundle at every start (about 0.1 s of CPU of a `help` start's 0.45 s), and the tests start
 * the CLI some hundreds of times. Node 20 has no compile cache of its own (NODE_COMPILE_CACHE is 22.1+).
 *
 * The cache is kept in the system's temp folder under a hash of the bundle file's identity (its device,
 * inode, size and modification and change times, to the nanosecond) and Node's flags, and Node's version,
 * so a rebuilt bundle, other flags or another Node get a cache of their own; V8
 * checks it again on use (a cache it rejects is written anew). It is written when the process exits, after the start's functions
 * were compiled, through a temporary file renamed into place, so starts that run side by side never
 * read half a cache. Any other file, and the CLI when the cache cannot be read or written, is
 * compiled as Node compiles it.
 */
const { createHash } = require("node:crypto");
const { readFileSync, renameSync, statSync, writeFileSync } = require("node:fs");
const Module = require("node:module");
const { tmpdir } = require("node:os");
const nodePath = require("node:path");
const { Script } = require("node:vm");

const CLI_BUNDLE = nodePath.resolve(__dirname, "../dist/cli.js");
/** Hex digits of the SHA-256 of the bundle's identity in the cache's name: enough that two builds never share one. */
const CACHE_NAME_HASH_CHARS = 16;
/**
 * The CLI loads a command's modules only when that command runs (src/headless/cli/run.ts), and a cache
 * holds the functions its start compiled: a cache made by `help` would leave `serve` to compile the
 * server's modules anew at every start. So each command has a cache of its own; `help`, `--version`
 * and refused command lines share one.
 */
const COMMANDS_CACHED_APART = new Set(["serve", "token", "inspect", "history", "undo"]);

const compile = Module.prototype._compile;

Module.prototype._compile = function compileFromCodeCache(content, filename) {
	if (filename !== CLI_BUNDLE) return compile.call(this, content, filename);
	// The file's identity, not its content: hashing the 3.9 MB text was about 15-20 ms of CPU a start (`token list`: 0.299 →
	// 0.286 s, means of 25 interleaved starts), and every build writes the file anew (another modification time). Node's flags too: V8 rejects a cache made under
	// other flags, and starts with two sets of flags would each write over the other's.
	const { dev, ino, size, mtimeNs, ctimeNs } = statSync(filename, { bigint: true });
	const hash = createHash("sha256")
		.update([dev, ino, size, mtimeNs, ctimeNs].join(" "))
		.update(process.execArgv.join("\0"))
		.digest("hex")
		.slice(0, CACHE_NAME_HASH_CHARS);
	const command = COMMANDS_CACHED_APART.has(process.argv[2]) ? process.argv[2] : "other";
	const cacheFile = nodePath.join(tmpdir(), `vault-mcp-cli-code-cache-${hash}-${command}-${process.version}.bin`);
	let cachedData;
	try {
		cachedData = readFileSync(cacheFile);
	} catch {
		cachedData = undefined;
	}
	// The bundle's first line is a shebang, which Node strips before compiling; inside the wrapper it is a comment.
	const source = content.startsWith("#!") ? `//${content}` : content;
	const script = new Script(Module.wrap(source), { filename, cachedData });
	if (cachedData === undefined || script.cachedDataRejected) {
		process.once("exit", () => {
			const partial = `${cacheFile}.${process.pid}`;
			try {
				writeFileSync(partial, script.createCachedData());
				renameSync(partial, cacheFile);
			} catch {
				// No cache this time: the next start parses the bundle and tries again.
			}
		});
	}
	const wrapper = script.runInThisContext({ displayErrors: true });
	// The bundle's own require, as Node gives a module (arrows: `this` is the module being compiled).
	const requireFromBundle = (id) => this.require(id);
	requireFromBundle.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
	requireFromBundle.main = process.mainModule;
	requireFromBundle.extensions = Module._extensions;
	requireFromBundle.cache = Module._cache;
	return wrapper.call(this.exports, this.exports, requireFromBundle, this, filename, nodePath.dirname(filename));
};
