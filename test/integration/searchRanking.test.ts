import { JUDGED_QUERIES, scoreJudgedQueries, withJudgedSearch } from "../../bench/judgedQueries";
import { NPM_DOCS_JUDGED_QUERIES } from "../../bench/npmDocsJudgedQueries";
import { npmDocsVaultDir } from "../helpers/fixtures";
import { TASKS_DEMO_VAULT, copyVault, removeDir, copyDemoVault } from "../helpers/vault";

/**
 * The 58 judged queries over this project's vaults with ranking by evidence strength: all 58 find
 * an expected note in the first three, MRR 0.983 (whole-title ranking before it: 0.91 / 0.89;
 * the engine before that: 0.78 / 0.75). One miss in the first three fails here.
 */
const JUDGED_SUCCESS_AT_3 = 1;
const JUDGED_MRR = 0.98;

/**
 * The unseen set CI always runs (bench/npmDocsJudgedQueries.ts, over npm's own documentation,
 * installed from the npm registry by scripts/test-tools.mjs), never tuned on. Measured once when
 * it was written: the engine before ranking by evidence strength scored 0.64 / 0.583 on it; with
 * it, 0.78 / 0.673. The Obsidian Help set (bench/unseenJudgedQueries.ts) needs a download from
 * GitHub, so only the bench reports it, where it has been fetched.
 */
const UNSEEN_SUCCESS_AT_3 = 0.78;
const UNSEEN_MRR = 0.67;

test("the judged queries find the notes a person expects at least as well as the first run", async () => {
	const roots = { "tasks-demo": await copyVault(TASKS_DEMO_VAULT), "demo-vault": await copyDemoVault() };
	try {
		const scores = await withJudgedSearch(roots, (search) => scoreJudgedQueries(search, JUDGED_QUERIES));
		expect(scores.queries).toBeGreaterThanOrEqual(58);
		expect(scores.successAt3).toBeGreaterThanOrEqual(JUDGED_SUCCESS_AT_3);
		expect(scores.mrr).toBeGreaterThanOrEqual(JUDGED_MRR);
	} finally {
		for (const root of Object.values(roots)) await removeDir(root);
	}
}, 60_000);

test("the unseen judged questions over npm's documentation find the pages a person expects at least as well as recorded", async () => {
	// Throws the one line that says how to install the vault when it is missing.
	const roots = { "npm-docs": await copyVault(npmDocsVaultDir()) };
	try {
		const scores = await withJudgedSearch(roots, (search) => scoreJudgedQueries(search, NPM_DOCS_JUDGED_QUERIES));
		expect(scores.queries).toBeGreaterThanOrEqual(40);
		expect(scores.successAt3).toBeGreaterThanOrEqual(UNSEEN_SUCCESS_AT_3);
		expect(scores.mrr).toBeGreaterThanOrEqual(UNSEEN_MRR);
	} finally {
		for (const root of Object.values(roots)) await removeDir(root);
	}
}, 60_000);
