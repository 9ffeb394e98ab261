/**
 * The real clients, suites and data the tests use that are not the project's own dependencies,
 * each in a folder of test/ with its own lockfile: the MCP conformance suite (with the Node 22 it
 * needs), Claude Code, and the unseen vaults of the judged search queries (the docs shipped in npm, eslint-plugin-import, fastify, undici, markdownlint, @typescript-eslint/eslint-plugin, eslint-plugin-jest, pino, eslint-plugin-jsx-a11y, and the docs alone of codeceptjs and serverless). `npm test` runs this first, so a fresh clone's
 * `npm ci && npm test` installs them too; a folder whose install is current is left alone.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import * as os from "node:os";
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

/**
 * Packages read only for a folder of their pages, unpacked from their published tarball without
 * their dependencies: codeceptjs's 92 doc pages came with about 370 packages (160 MB, a minute of
 * `npm ci`), and serverless 3's with hundreds more. `paths` are the folders and files of the
 * package to unpack (serverless: its top-level pages, its guides and its AWS pages, not the other
 * providers'). Each tarball is checked against its pinned integrity before it is unpacked, as a
 * lockfile would; `docs-only/<name>/package.json` says which version is there.
 */
const DOCS_ONLY_PACKAGES = [
	{
		name: "codeceptjs",
		version: "4.1.0",
		integrity: "sha512-jj3gxUM9dSn3A/iBMLTh2HGXwpIRGXAi4bzdcA+0enj8lvtzlDDR9euMwmctpqyjKH8vxYtOnHkiQdJKvDgTTg==",
		paths: ["docs"],
	},
	{
		name: "serverless",
		version: "3.40.0",
		integrity: "sha512-6vUSIUqBkhZeIpFz0howqKlT1BNjYxOrucvvSICKCEsxVS9MbTJokGkykDrpr/k4Io3WI8tcvrf25+U5Ynf3lw==",
		paths: [
			"LICENSE.txt",
			...[
				"README",
				"configuration-validation",
				"deprecations",
				"environment-variables",
				"examples-and-tutorials",
				"getting-started",
				"install-standalone",
				"telemetry",
				"tutorial",
			].map((page) => `docs/${page}.md`),
			"docs/guides",
			"docs/providers/aws",
		],
	},
];
const DOCS_ONLY_ROOT = path.join(root, "test/unseen-vaults/docs-only");

for (const pkg of DOCS_ONLY_PACKAGES) {
	const dest = path.join(DOCS_ONLY_ROOT, pkg.name);
	if (unpackedVersion(dest) === pkg.version) continue;
	process.stderr.write(`Unpacking the pages of ${pkg.name}@${pkg.version} into test/unseen-vaults/docs-only…\n`);
	const scratch = mkdtempSync(path.join(os.tmpdir(), "vault-mcp-docs-only-"));
	try {
		const [packed] = JSON.parse(
			execFileSync("npm", ["pack", `${pkg.name}@${pkg.version}`, "--json", "--loglevel=error", "--pack-destination", scratch], {
				cwd: scratch,
				encoding: "utf8",
			}),
		);
		const tarball = path.join(scratch, packed.filename);
		const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
		if (integrity !== pkg.integrity) throw new Error(`${pkg.name}@${pkg.version}: its tarball's integrity is not the pinned one`);
		rmSync(dest, { recursive: true, force: true });
		mkdirSync(dest, { recursive: true });
		const members = ["package/package.json", ...pkg.paths.map((member) => `package/${member}`)];
		execFileSync("tar", ["-xzf", tarball, "-C", dest, "--strip-components=1", ...members]);
	} catch (error) {
		process.stderr.write(
			`Could not unpack ${pkg.name} (offline?): ${error instanceof Error ? error.message : String(error)}; the judged tests over it will fail until \`node scripts/test-tools.mjs\` succeeds.\n`,
		);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

/** The version of the package unpacked at `dest`, if any. */
function unpackedVersion(dest) {
	try {
		return JSON.parse(readFileSync(path.join(dest, "package.json"), "utf8")).version;
	} catch {
		return undefined;
	}
}
