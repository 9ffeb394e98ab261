// The Obsidian review rules (eslint-plugin-obsidianmd `recommended`, type-checked) over everything,
// plus the seam: only main.ts, ui/ (the settings tab included) and the Obsidian adapter may import runtime values from `obsidian`.
import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import globals from "globals";

export default defineConfig([
	globalIgnores(["node_modules/", "main.js", "dist/", "coverage/", "demo-vault/", "screenshots/", "bench/results.json", ".fixtures/"]),
	...obsidianmd.configs.recommended,
	{
		languageOptions: {
			parserOptions: {
				projectService: { allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs", "jest.config.js", "scripts/*.mjs", "test/reliability/*.mjs"] },
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
				{ paths: [{ name: "obsidian", message: "Only main.ts, ui/ and host/ObsidianHost.ts use Obsidian at run time; use `import type` here.", allowTypeImports: true }] },
			],
		},
	},
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
		// The benchmark's output is its console table.
		files: ["bench/**"],
		rules: { "obsidianmd/rule-custom-message": "off" },
	},
	{
		// Jest's asymmetric matchers (expect.any, expect.stringContaining) are typed `any`.
		files: ["test/**"],
		rules: { "@typescript-eslint/no-unsafe-assignment": "off" },
	},
]);
