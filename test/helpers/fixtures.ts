import { existsSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";

/**
 * Where the golden test data lives. It stays outside the repository (obsidian-tasks' Tasks-Demo
 * vault and metadata captured from real Obsidian, MIT), so every test and the bench find it here,
 * in this order: the folder named by VAULT_MCP_FIXTURES, `../shared/data` beside the project (CI),
 * `.fixtures/` in the project (what `npm run fixtures` writes).
 */

/** The environment variable naming a folder that holds the data. */
const FIXTURES_ENV = "VAULT_MCP_FIXTURES";

/** What to do when the data is nowhere: one line, printed by jest's globalSetup. */
export const FIXTURES_HINT =
	'The golden test data is missing: run "npm run fixtures" (downloads 1.5 MB, MIT, checksums verified); offline, "npm run fixtures -- --tarball FILE" (a tarball of obsidian-tasks at the pinned commit) or "-- --from DIR" (a checkout of it, or a copy laid out like .fixtures/); or set VAULT_MCP_FIXTURES to a folder that holds it.';

/** The folder with package.json: found by walking up, because the bench bundle runs from dist/. */
export function findProjectRoot(start: string = __dirname): string {
	for (let dir = start; ; dir = nodePath.dirname(dir)) {
		if (existsSync(nodePath.join(dir, "package.json")) && existsSync(nodePath.join(dir, "test", "fixtures-manifest.json"))) return dir;
		if (nodePath.dirname(dir) === dir) throw new Error(`No project root above ${start}`);
	}
}

interface FixturesManifest {
	files: Array<{ path: string }>;
}

/** The folders to try, first match wins. */
function fixtureCandidates(projectRoot: string, env: NodeJS.ProcessEnv): string[] {
	const named = env[FIXTURES_ENV];
	// A folder named on purpose is the only one tried, so a wrong name is reported, not papered over.
	if (named !== undefined && named !== "") return [nodePath.resolve(named)];
	return [nodePath.resolve(projectRoot, "../shared/data"), nodePath.join(projectRoot, ".fixtures")];
}

/** The golden data's manifest, and the Obsidian Help vault's (the unseen judged queries read it). */
const GOLDEN_MANIFEST = "fixtures-manifest.json";
const OBSIDIAN_HELP_MANIFEST = "fixtures-manifest-obsidian-help.json";
const OBSIDIAN_HUB_MANIFEST = "fixtures-manifest-obsidian-hub.json";
const CARGO_BOOK_MANIFEST = "fixtures-manifest-cargo-book.json";
const FOAM_DOCS_MANIFEST = "fixtures-manifest-foam-docs.json";
const JEKYLL_DOCS_MANIFEST = "fixtures-manifest-jekyll-docs.json";
const HOMEBREW_DOCS_MANIFEST = "fixtures-manifest-homebrew-docs.json";
const NUSHELL_BOOK_MANIFEST = "fixtures-manifest-nushell-book.json";

/** The files a manifest lists that a folder lacks (presence only: `npm run fixtures` checks the bytes). */
function missingFixtureFiles(projectRoot: string, dir: string, manifestName: string = GOLDEN_MANIFEST): string[] {
	const manifest = JSON.parse(readFileSync(nodePath.join(projectRoot, "test", manifestName), "utf8")) as FixturesManifest;
	return manifest.files.map((file) => file.path).filter((path) => !existsSync(nodePath.join(dir, ...path.split("/"))));
}

/** The data folder, or the one line that says how to get it. */
export function locateFixtures(projectRoot: string, env: NodeJS.ProcessEnv = process.env): { dir: string } | { problem: string } {
	const candidates = fixtureCandidates(projectRoot, env);
	for (const dir of candidates) {
		if (missingFixtureFiles(projectRoot, dir).length === 0) return { dir };
	}
	const named = env[FIXTURES_ENV];
	if (named !== undefined && named !== "") {
		const missing = missingFixtureFiles(projectRoot, candidates[0] ?? "");
		return {
			problem: `${FIXTURES_ENV}=${named} lacks ${missing.length} file(s) of the golden test data (first: ${missing[0] ?? "?"}); run "npm run fixtures -- --out ${named}" or point it at a complete copy.`,
		};
	}
	return { problem: FIXTURES_HINT };
}

/** The data folder; throws the hint when there is none (globalSetup has stopped the run before then). */
export function fixturesDir(projectRoot: string = findProjectRoot()): string {
	const found = locateFixtures(projectRoot);
	if ("problem" in found) throw new Error(found.problem);
	return found.dir;
}

/**
 * The folder of a fetched set's vault (`vaults/<vault>` of the first data folder holding every file
 * of `manifestName`); throws `hint` (what to run to fetch it) when none does.
 */
function fetchedVaultDir(manifestName: string, vault: string, hint: string, projectRoot: string, env: NodeJS.ProcessEnv): string {
	const dir = fixtureCandidates(projectRoot, env).find((candidate) => missingFixtureFiles(projectRoot, candidate, manifestName).length === 0);
	if (dir === undefined) throw new Error(hint);
	return nodePath.join(dir, "vaults", vault);
}

/** What to do when the Obsidian Help vault is nowhere: the tests that need it fail with this line. */
export const OBSIDIAN_HELP_HINT =
	'The Obsidian Help vault that the unseen judged search queries run on is missing: run "npm run fixtures -- --set obsidian-help" (downloads 0.7 MB from GitHub at a pinned commit, checksums verified; offline, a tarball of that commit with --tarball), or set VAULT_MCP_FIXTURES to a folder that holds it.';

/**
 * The English Obsidian Help vault (test/fixtures-manifest-obsidian-help.json), looked for in the
 * same folders as the golden data; throws OBSIDIAN_HELP_HINT when none holds all of it. Not in
 * jest's globalSetup: only the judged-search test and the bench need it.
 */
export function obsidianHelpVaultDir(projectRoot: string = findProjectRoot(), env: NodeJS.ProcessEnv = process.env): string {
	return fetchedVaultDir(OBSIDIAN_HELP_MANIFEST, "obsidian-help-en", OBSIDIAN_HELP_HINT, projectRoot, env);
}

/** What to do when the Obsidian Hub vault is nowhere: the bench and the ranking test print this line instead of its scores. */
const OBSIDIAN_HUB_HINT =
	'The Obsidian Hub vault that the community judged search queries run on is missing: run "npm run fixtures -- --set obsidian-hub" (6,571 notes, 29 MB from GitHub at a pinned commit, checksums verified; offline, a tarball of that commit with --tarball), or set VAULT_MCP_FIXTURES to a folder that holds it.';

/**
 * The Obsidian Hub community vault (test/fixtures-manifest-obsidian-hub.json), looked for in the
 * same folders as the golden data; throws OBSIDIAN_HUB_HINT when none holds all of it. Only its
 * judged queries read it (the bench, and the ranking test where it was fetched): it is too big a
 * download for every test run.
 */
export function obsidianHubVaultDir(projectRoot: string = findProjectRoot(), env: NodeJS.ProcessEnv = process.env): string {
	return fetchedVaultDir(OBSIDIAN_HUB_MANIFEST, "obsidian-hub", OBSIDIAN_HUB_HINT, projectRoot, env);
}

/** What to do when The Cargo Book is nowhere: the bench and the ranking test print this line instead of its scores. */
const CARGO_BOOK_HINT =
	'The Cargo Book that the eleventh held-out judged search queries run on is missing: run "npm run fixtures -- --set cargo-book" (99 pages and 7 images, 2 MB from GitHub at a pinned commit, checksums verified; offline, a tarball of that commit with --tarball, or --from a checkout of rust-lang/cargo), or set VAULT_MCP_FIXTURES to a folder that holds it.';

/**
 * The Cargo Book (test/fixtures-manifest-cargo-book.json: rust-lang/cargo's `doc/book/src`), looked
 * for in the same folders as the golden data; throws CARGO_BOOK_HINT when none holds all of it.
 * Only its judged queries read it (the bench, and the ranking test where it was fetched).
 */
export function cargoBookVaultDir(projectRoot: string = findProjectRoot(), env: NodeJS.ProcessEnv = process.env): string {
	return fetchedVaultDir(CARGO_BOOK_MANIFEST, "cargo-book", CARGO_BOOK_HINT, projectRoot, env);
}

/** What to do when Foam's documentation is nowhere: the bench and the ranking test print this line instead of its scores. */
const FOAM_DOCS_HINT =
	'Foam\'s documentation that the twelfth held-out judged search queries run on is missing: run "npm run fixtures -- --set foam-docs" (86 pages, 0.3 MB from GitHub at a pinned commit, checksums verified; offline, a tarball of that commit with --tarball, or --from a checkout of foambubble/foam), or set VAULT_MCP_FIXTURES to a folder that holds it.';

/**
 * Foam's documentation (test/fixtures-manifest-foam-docs.json: the Markdown pages of
 * foambubble/foam's `docs`), looked for in the same folders as the golden data; throws
 * FOAM_DOCS_HINT when none holds all of it. Only its judged queries read it (the bench, and the
 * ranking test where it was fetched).
 */
export function foamDocsVaultDir(projectRoot: string = findProjectRoot(), env: NodeJS.ProcessEnv = process.env): string {
	return fetchedVaultDir(FOAM_DOCS_MANIFEST, "foam-docs", FOAM_DOCS_HINT, projectRoot, env);
}

/** What to do when Jekyll's documentation is nowhere: the bench and the ranking test print this line instead of its scores. */
const JEKYLL_DOCS_HINT =
	'Jekyll\'s documentation that the thirteenth held-out judged search queries run on is missing: run "npm run fixtures -- --set jekyll-docs" (91 pages, 0.6 MB from GitHub at a pinned commit, checksums verified; offline, a tarball of that commit with --tarball, or --from a checkout of jekyll/jekyll), or set VAULT_MCP_FIXTURES to a folder that holds it.';

/**
 * Jekyll's documentation (test/fixtures-manifest-jekyll-docs.json: the Markdown pages of
 * jekyll/jekyll's `docs/_docs`), looked for in the same folders as the golden data; throws
 * JEKYLL_DOCS_HINT when none holds all of it. Only its judged queries read it (the bench, and the
 * ranking test where it was fetched).
 */
export function jekyllDocsVaultDir(projectRoot: string = findProjectRoot(), env: NodeJS.ProcessEnv = process.env): string {
	return fetchedVaultDir(JEKYLL_DOCS_MANIFEST, "jekyll-docs", JEKYLL_DOCS_HINT, projectRoot, env);
}

/** What to do when Homebrew's documentation is nowhere: the bench and the ranking test print this line instead of its scores. */
const HOMEBREW_DOCS_HINT =
	'Homebrew\'s documentation that the fourteenth held-out judged search queries run on is missing: run "npm run fixtures -- --set homebrew-docs" (85 pages, 0.8 MB from GitHub at a pinned commit, checksums verified; offline, a tarball of that commit with --tarball, or --from a checkout of Homebrew/brew), or set VAULT_MCP_FIXTURES to a folder that holds it.';

/**
 * Homebrew's documentation (test/fixtures-manifest-homebrew-docs.json: the Markdown pages of
 * Homebrew/brew's `docs`), looked for in the same folders as the golden data; throws
 * HOMEBREW_DOCS_HINT when none holds all of it. Only its judged queries read it (the bench, and the
 * ranking test where it was fetched).
 */
export function homebrewDocsVaultDir(projectRoot: string = findProjectRoot(), env: NodeJS.ProcessEnv = process.env): string {
	const dir = fixtureCandidates(projectRoot, env).find((candidate) => missingFixtureFiles(projectRoot, candidate, HOMEBREW_DOCS_MANIFEST).length === 0);
	if (dir === undefined) throw new Error(HOMEBREW_DOCS_HINT);
	return nodePath.join(dir, "vaults", "homebrew-docs");
}

/** What to do when The Nushell Book is nowhere: the bench and the ranking test print this line instead of its scores. */
const NUSHELL_BOOK_HINT =
	'The Nushell Book that the fifteenth held-out judged search queries run on is missing: run "npm run fixtures -- --set nushell-book" (65 pages, 0.7 MB from GitHub at a pinned commit, checksums verified; offline, a tarball of that commit with --tarball, or --from a checkout of nushell/nushell.github.io), or set VAULT_MCP_FIXTURES to a folder that holds it.';

/**
 * The Nushell Book (test/fixtures-manifest-nushell-book.json: the Markdown pages of
 * nushell/nushell.github.io's `book`), looked for in the same folders as the golden data; throws
 * NUSHELL_BOOK_HINT when none holds all of it. Only its judged queries read it (the bench, and the
 * ranking test where it was fetched).
 */
export function nushellBookVaultDir(projectRoot: string = findProjectRoot(), env: NodeJS.ProcessEnv = process.env): string {
	return fetchedVaultDir(NUSHELL_BOOK_MANIFEST, "nushell-book", NUSHELL_BOOK_HINT, projectRoot, env);
}

/**
 * The folder of test/unseen-vaults/node_modules that holds a judged vault (`parts`), checked by
 * one file it must hold (`marker`); throws a one-line hint naming the vault (`name`) when missing.
 */
function installedVaultDir(projectRoot: string, parts: readonly string[], marker: readonly string[], name: string, under = "node_modules"): string {
	const dir = nodePath.join(projectRoot, "test", "unseen-vaults", under, ...parts);
	if (!existsSync(nodePath.join(dir, ...marker)))
		throw new Error(
			`The ${name} vault of the judged search queries is missing: run "node scripts/test-tools.mjs" (npm test runs it first), which installs it from the npm registry into test/unseen-vaults.`,
		);
	return dir;
}

/**
 * npm's documentation (91 Markdown pages, `npm/docs/content`), the vault of the npm-docs judged
 * queries, installed from the npm registry by scripts/test-tools.mjs; throws a one-line hint when
 * it is missing.
 */
export function npmDocsVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["npm", "docs", "content"], ["commands", "npm-ci.md"], "npm-docs");
}

/**
 * eslint-plugin-import's rule pages (46 Markdown pages), the vault of the held-out judged queries,
 * installed from the npm registry by scripts/test-tools.mjs; throws a one-line hint when missing.
 */
export function importRulesVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["eslint-plugin-import", "docs"], ["rules", "no-cycle.md"], "import-rules");
}

/**
 * Fastify's documentation (42 Markdown pages), the vault of the second held-out judged queries,
 * installed from the npm registry by scripts/test-tools.mjs; throws a one-line hint when missing.
 */
export function fastifyDocsVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["fastify", "docs"], ["Reference", "Server.md"], "fastify-docs");
}

/**
 * Undici's documentation (42 Markdown pages, `undici/docs/docs`), the vault of the third held-out
 * judged queries, installed from the npm registry by scripts/test-tools.mjs; throws a one-line hint
 * when missing.
 */
export function undiciDocsVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["undici", "docs", "docs"], ["api", "MockAgent.md"], "undici-docs");
}

/**
 * Markdownlint's documentation (57 Markdown pages, `markdownlint/doc`), the vault of the fourth
 * held-out judged queries, installed from the npm registry by scripts/test-tools.mjs; throws a
 * one-line hint when missing.
 */
export function markdownlintDocsVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["markdownlint", "doc"], ["md013.md"], "markdownlint-docs");
}

/**
 * typescript-eslint's rule pages (145 Markdown pages, `@typescript-eslint/eslint-plugin/docs`), the
 * vault of the fifth held-out judged queries, installed from the npm registry by
 * scripts/test-tools.mjs; throws a one-line hint when missing.
 */
export function typescriptEslintDocsVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["@typescript-eslint", "eslint-plugin", "docs"], ["rules", "no-floating-promises.md"], "typescript-eslint-docs");
}

/**
 * eslint-plugin-jest's rule pages (71 Markdown pages, `eslint-plugin-jest/docs`), the vault of the
 * sixth held-out judged queries, installed from the npm registry by scripts/test-tools.mjs; throws a
 * one-line hint when missing.
 */
export function jestRulesVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["eslint-plugin-jest", "docs"], ["rules", "no-focused-tests.md"], "jest-rules");
}

/**
 * pino's guide and reference pages (14 Markdown pages, `pino/docs`), the vault of the seventh
 * held-out judged queries, installed from the npm registry by scripts/test-tools.mjs; throws a
 * one-line hint when missing.
 */
export function pinoDocsVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["pino", "docs"], ["redaction.md"], "pino-docs");
}

/**
 * eslint-plugin-jsx-a11y's rule pages (39 Markdown pages, `eslint-plugin-jsx-a11y/docs`), the vault of
 * the eighth held-out judged queries, installed from the npm registry by scripts/test-tools.mjs;
 * throws a one-line hint when missing.
 */
export function jsxA11yRulesVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["eslint-plugin-jsx-a11y", "docs"], ["rules", "alt-text.md"], "jsx-a11y-rules");
}

/**
 * CodeceptJS's guides and helper and plugin pages (92 Markdown pages, `codeceptjs/docs`), the vault
 * of the ninth held-out judged queries, unpacked from its npm tarball without its dependencies by
 * scripts/test-tools.mjs into `test/unseen-vaults/docs-only`; throws a one-line hint when missing.
 */
export function codeceptjsDocsVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["codeceptjs", "docs"], ["retry.md"], "codeceptjs-docs", "docs-only");
}

/**
 * The Serverless Framework 3's documentation as an AWS user reads it (111 Markdown pages of
 * `serverless/docs`: its top-level pages, `guides/` and `providers/aws/`), the vault of the tenth
 * held-out judged queries, unpacked from its npm tarball without its dependencies by
 * scripts/test-tools.mjs into `test/unseen-vaults/docs-only`; throws a one-line hint when missing.
 */
export function serverlessDocsVaultDir(projectRoot: string = findProjectRoot()): string {
	return installedVaultDir(projectRoot, ["serverless", "docs"], ["providers", "aws", "guide", "iam.md"], "serverless-docs", "docs-only");
}
