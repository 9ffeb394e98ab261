// Two bundles from one source tree: the Obsidian plugin (main.js) and the headless CLI (dist/cli.js).
import esbuild from "esbuild";
import { builtinModules } from "node:module";
import path from "node:path";
import process from "node:process";

const production = process.argv[2] === "production";
/**
 * zod bundles the messages of every language it speaks (about 250 KB); the server's messages are
 * English, so only that locale goes into the bundles.
 */
const zodEnglishOnly = {
	name: "zod-english-only",
	setup(build) {
		build.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
			contents: 'export { default as en } from "./en.js";',
			loader: "js",
			resolveDir: path.dirname(args.path),
		}));
	},
};

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

const shared = {
	bundle: true,
	format: "cjs",
	platform: "node",
	target: "node20",
	// A production build prints only warnings and errors: its size table (with a mark for every bundle over 1 MB) is noise on every `npm start`.
	logLevel: production ? "warning" : "info",
	sourcemap: production ? false : "inline",
	treeShaking: true,
	minify: production,
	legalComments: "none",
	plugins: [zodEnglishOnly],
};

const builds = [
	{
		...shared,
		entryPoints: ["src/main.ts"],
		outfile: "main.js",
		external: ["obsidian", "electron", "@codemirror/*", "@lezer/*", ...nodeBuiltins],
		// The released main.js carries no map and names none; main.js.map beside it (never released)
		// lets the tests that load the bundle show a failure at its src/ line, not a minified one.
		sourcemap: production ? "external" : "inline",
	},
	{
		...shared,
		entryPoints: ["src/headless/cli.ts"],
		outfile: "dist/cli.js",
		external: ["obsidian", ...nodeBuiltins],
		banner: { js: "#!/usr/bin/env node" },
		// The CLI is a tool people read stack traces from; keep it readable, and map it to the
		// sources (`node --enable-source-maps`; the tests read it through scripts/lazy-source-maps.cjs) so a failure names src/ lines.
		minify: false,
		sourcemap: production ? "linked" : "inline",
	},
];

if (production) {
	await Promise.all(builds.map((options) => esbuild.build(options)));
} else {
	const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
	await Promise.all(contexts.map((context) => context.watch()));
}
