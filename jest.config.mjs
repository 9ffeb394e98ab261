/**
 * Jest runs the TypeScript sources through esbuild (scripts/jest-esbuild-transform.mjs: types
 * stripped, not checked; `tsc --noEmit` checks them); `obsidian` is mapped to the host double.
 *
 * One project per tier, so a tier runs alone with `--selectProjects`: `unit` (pure code and small
 * real parts, no build and no installed test clients: `npm run test:unit`), `golden` (our parser
 * against metadata captured from real Obsidian), `integration` (real HTTP server, real MCP client,
 * real temp folders), `e2e` (the built CLI and the installed clients: needs `npm run build` and
 * `node scripts/test-tools.mjs`), `reliability` (crashes, races, long runs). `npm test` runs all.
 */
import { existsSync } from "node:fs";
import * as nodePath from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = nodePath.dirname(fileURLToPath(import.meta.url));

const shared = {
	testEnvironment: "node",
	// Jest's runtime, but each module is compiled once per worker rather than once per test file.
	runtime: "<rootDir>/scripts/jest-runtime.cjs",
	transform: {
		"^.+\\.ts$": "<rootDir>/scripts/jest-esbuild-transform.mjs",
		// The built plugin bundle, with its source map (main.js names none): failures point at src/.
		"^.+[\\\\/]main\\.js$": "<rootDir>/scripts/jest-bundle-source-map.mjs",
	},
	moduleNameMapper: {
		"^obsidian$": "<rootDir>/test/double/obsidian.ts",
	},
	setupFilesAfterEnv: ["<rootDir>/test/fastCheckSeed.ts"],
};

// Each project crawls only its own folder, never the test clients installed under test/ (hundreds of
// MB). A tier whose folder is absent (a minimal clone) is left out rather than failing the config.
const TIERS = ["unit", "golden", "integration", "e2e", "reliability"].filter((tier) => existsSync(nodePath.join(ROOT, "test", tier)));

export default {
	// Jest's stop for a test or hook that hangs (one that takes longer needs its own), not a speed check. At 30 s,
	// fourteen tests in eleven integration and e2e files ran out in two runs beside each other and two busy loops
	// (load 25-45 on 2 cores; CI's loaded phase runs its two workers beside the lint, the type check and the quick
	// bench), none failing an assertion: e2e tests that start the CLI six to ten times (about half a second of CPU
	// each), property tests that serve forty vaults, a tools/list after a save per write tool; eight more passed at
	// 24-29 s. A test that truly hangs fails 30 s later than it did.
	testTimeout: 60_000,
	// Jest's order, with the suites far slower than their size first when no time is recorded (a fresh clone).
	testSequencer: "<rootDir>/scripts/jest-sequencer.cjs",
	projects: TIERS.map((tier) => ({
		...shared,
		displayName: tier,
		roots: [`<rootDir>/test/${tier}`],
		testMatch: ["**/*.test.ts"],
	})),
	// Stops the run with one line when the golden data (kept outside the repository) is missing, and
	// holds the default port for the run, as a person's running server would.
	globalSetup: "<rootDir>/test/globalSetup.ts",
	globalTeardown: "<rootDir>/test/globalTeardown.ts",
};
