import { existsSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";

/**
 * Where the golden test data lives. It stays outside the repository (obsidian-tasks' Tasks-Demo
 * vault and metadata captured from real Obsidian, MIT), so every test and the bench find it here,
 * in this order: the folder named by VAULT_MCP_FIXTURES, `../shared/data` beside the project (CI),
 * `.fixtures/` in the project (what `npm run fixtures` writes).
 */

/** The environment variable naming a folder that holds the data. */
export const FIXTURES_ENV = "VAULT_MCP_FIXTURES";

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
export function fixtureCandidates(projectRoot: string, env: NodeJS.ProcessEnv): string[] {
	const named = env[FIXTURES_ENV];
	// A folder named on purpose is the only one tried, so a wrong name is reported, not papered over.
	if (named !== undefined && named !== "") return [nodePath.resolve(named)];
	return [nodePath.resolve(projectRoot, "../shared/data"), nodePath.join(projectRoot, ".fixtures")];
}

/** The files the manifest lists that a folder lacks (presence only: `npm run fixtures` checks the bytes). */
export function missingFixtureFiles(projectRoot: string, dir: string): string[] {
	const manifest = JSON.parse(readFileSync(nodePath.join(projectRoot, "test", "fixtures-manifest.json"), "utf8")) as FixturesManifest;
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
		return { problem: `${FIXTURES_ENV}=${named} lacks ${missing.length} file(s) of the golden test data (first: ${missing[0] ?? "?"}); run "npm run fixtures -- --out ${named}" or point it at a complete copy.` };
	}
	return { problem: FIXTURES_HINT };
}

/** The data folder; throws the hint when there is none (globalSetup has stopped the run before then). */
export function fixturesDir(projectRoot: string = findProjectRoot()): string {
	const found = locateFixtures(projectRoot);
	if ("problem" in found) throw new Error(found.problem);
	return found.dir;
}
