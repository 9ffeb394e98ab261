// The Obsidian review rules (eslint-plugin-obsidianmd `recommended`, type-checked) over everything,
// plus the seam: only main.ts, ui/ (the settings tab included) and the Obsidian adapter may import runtime values from `obsidian`.
import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import globals from "globals";
import regexpPlugin from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";
import eslintConfigPrettier from "eslint-config-prettier/flat";

/**
 * The architecture's "never" rules (README, Design), one block per folder of src/. Core
 * `no-restricted-imports` also catches `import type`, so a never-rule holds for types as well.
 * A file gets exactly one of these blocks (flat config would let a later block replace an earlier
 * one's list); import circles are checked by scripts/check-imports.mjs.
 */
const outOfFolder = (folders) => `^(\\.\\./)+(${folders.join("|")})(/|$)`;
const neverImports = (folder, patterns) => ({ files: [`src/${folder}/**/*.ts`], rules: { "no-restricted-imports": ["error", { patterns }] } });
const folderRules = [
	neverImports("http", [
		{
			regex: outOfFolder(["ui", "host", "vault", "mcp"]),
			message: "http/ takes a policy and a lendServer callback; it imports nothing of ui/, host/, vault/ or mcp/.",
		},
		{ regex: "^\\.\\./config/(settings|store|FileSettingsStore)$", message: "http/ reads an EndpointPolicy, never the settings model." },
		{ regex: outOfFolder(["main", "service"]), message: "http/ is wired by service.ts, never the other way round." },
	]),
	neverImports("mcp", [
		{ regex: outOfFolder(["http"]), message: "mcp/ never imports http/: the endpoint hands it a Grant from auth/." },
		{ regex: outOfFolder(["ui", "main"]), message: "mcp/ and its tools never import ui/ or main.ts." },
	]),
	neverImports("vault", [{ regex: outOfFolder(["mcp"]), message: "The vault knows no protocol: vault/ never imports mcp/." }]),
	neverImports("markdown", [
		{
			regex: "^\\.\\./(?!config/limits$|result$|paths/parts$)",
			message: "markdown/ is pure text code: it imports nothing of the app or the vault (config/limits, the Result type and the path parts aside).",
		},
	]),
	neverImports("search", [
		{
			regex: "^\\.\\./(?!config/limits$|result$|markdown/frontmatter$|markdown/chunkedArray$|markdown/splitStringMap$)",
			message:
				"search/ is pure text code: it imports nothing of the app or the vault (config/limits, the Result type, the one frontmatter fence in markdown/frontmatter, the chunked list in markdown/chunkedArray and the split map in markdown/splitStringMap aside).",
		},
	]),
	neverImports("paths", [
		{
			regex: "^\\.\\./(?!config/limits$)",
			message: "paths/ is the pure spelling of a vault path: it imports nothing of the app or the vault (config/limits aside).",
		},
	]),
	neverImports("config", [
		{
			regex: "^\\.\\./(?!paths/|auth/tokens$|auth/rights$|search/stopWords$|search/languages$)",
			message:
				"config/ is the settings model and the limits: it imports nothing of the app (aside from pure modules that import nothing of it: the paths/ spelling, the token record, the rights vocabulary, the default stop words, the search languages), so every folder may read it.",
		},
	]),
	neverImports("host", [
		{
			regex: outOfFolder(["vault", "journal", "mcp", "headless", "ui", "main", "service"]),
			message: "host/ is an adapter over Obsidian's App: it never calls back up into vault/, journal/, mcp/, headless/, ui/ or the plugin.",
		},
	]),
	neverImports("headless", [{ regex: outOfFolder(["ui", "main"]), message: "headless/ runs without Obsidian: it never imports ui/ or main.ts." }]),
];

export default defineConfig([
	globalIgnores(["node_modules/", "main.js", "dist/", "coverage/", "demo-vault/", "screenshots/", "bench/results.json", ".fixtures/"]),
	...obsidianmd.configs.recommended,
	{
		languageOptions: {
			parserOptions: {
				// The build and test scripts are plain JavaScript outside tsconfig; a few more than the default 8 of
				// them (19: the last two, jest's runtime and the tests' CLI code cache, scripts/*.cjs).
				projectService: {
					allowDefaultProject: [
						"eslint.config.mjs",
						"esbuild.config.mjs",
						"jest.config.mjs",
						"scripts/*.mjs",
						"scripts/*.cjs",
						"test/reliability/*.mjs",
						"test/helpers/*.cjs",
					],
					maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 19,
				},
				tsconfigRootDir: import.meta.dirname,
			},
		},
	},
	{
		files: ["src/**/*.ts"],
		ignores: ["src/main.ts", "src/ui/**", "src/host/ObsidianHost.ts"],
		rules: {
			"@typescript-eslint/no-restricted-imports": [
				"error",
				{
					paths: [
						{
							name: "obsidian",
							message: "Only main.ts, ui/ and host/ObsidianHost.ts use Obsidian at run time; use `import type` here.",
							allowTypeImports: true,
						},
					],
				},
			],
		},
	},
	{
		// Regular expressions run on note text and tool arguments, which a hostile author writes: none may
		// backtrack super-linearly (a Tasks pattern once took 21 s on a 117-character line). The rules
		// prove it from each pattern's structure, so a new pattern that could is an error here. A sticky
		// pattern is tried at one position only, so only its own backtracking counts.
		files: ["src/**/*.ts"],
		plugins: { regexp: regexpPlugin },
		rules: {
			"regexp/no-super-linear-backtracking": ["error", { report: "certain" }],
			"regexp/no-super-linear-move": ["error", { report: "certain", ignorePartial: false }],
		},
	},
	...folderRules,
	{
		// The headless host, the CLI, the tests and the build scripts run in plain Node, never in an
		// Obsidian window: popout-window timers do not exist there, and `.obsidian` is the default
		// config folder a vault on disk is opened with (the plugin itself reads Vault#configDir).
		files: ["src/headless/**", "test/**", "bench/**", "scripts/**", "*.mjs", "*.js"],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			"obsidianmd/prefer-window-timers": "off",
			"obsidianmd/hardcoded-config-path": "off",
			"obsidianmd/no-global-this": "off",
			// The host double builds Obsidian's DOM helpers out of plain DOM calls.
			"obsidianmd/prefer-create-el": "off",
		},
	},
	{
		// manifest.json is what Obsidian's review bot checks first: the plugin's own rule, run as an
		// error. The TypeScript parser reads a .json file as one object expression, the shape it expects.
		files: ["manifest.json"],
		languageOptions: { parser: tseslint.parser, parserOptions: { projectService: false, project: null } },
		plugins: { obsidianmd },
		rules: { "obsidianmd/validate-manifest": "error" },
	},
	{
		// A CommonJS preload (scripts/lazy-source-maps.cjs: `node --require` loads no ES module without a loader's cost) imports with require().
		files: ["**/*.cjs"],
		rules: { "@typescript-eslint/no-require-imports": "off" },
	},
	{
		// The benchmark's output is its console table.
		files: ["bench/**"],
		rules: { "obsidianmd/rule-custom-message": "off" },
	},
	{
		// Jest's asymmetric matchers (expect.any, expect.stringContaining) are typed `any`.
		files: ["test/**"],
		rules: { "@typescript-eslint/no-unsafe-assignment": "off" },
	},
	// Last: Prettier owns layout (npm run format); no rule here may disagree with it.
	eslintConfigPrettier,
]);
