/**
 * The real clients, suites and data the tests use that are not the project's own dependencies,
 * each in a folder of test/ with its own lockfile: the MCP conformance suite (with the Node 22 it
 * needs), Claude Code, and the unseen vaults of the judged search queries (the docs shipped in npm, eslint-plugin-import, fastify, undici, markdownlint, @typescript-eslint/eslint-plugin, eslint-plugin-jest, pino, eslint-plugin-jsx-a11y and codeceptjs). `npm test` runs this first, so a fresh clone's
 * `npm ci && npm test` installs them too; a folder whose install is current is left alone.
 */
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import * as path from "node:path";

const TOOL_FOLDERS = ["test/conformance", "test/claude-code", "test/unseen-vaults"];
const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), "..");

for (const folder of TOOL_FOLDERS) {
	const lockFile = path.join(root, folder, "package-lock.json");
	const installed = path.join(root, folder, "node_modules/.package-lock.json");
	if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lockFile).mtimeMs) continue;
	process.stderr.write(`Installing the test tools in ${folder} (npm ci)…\n`);
	try {
		execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", path.join(root, folder)], {
			stdio: ["ignore", "ignore", "inherit"],
		});
	} catch {
		// Offline, say: jest still runs, so a missing fixture gets its own one-line hint, and the
		// tests that need this tool fail saying how to install it.
		process.stderr.write(`Could not install ${folder} (offline?); the tests that use it will fail until \`node scripts/test-tools.mjs\` succeeds.\n`);
	}
}
