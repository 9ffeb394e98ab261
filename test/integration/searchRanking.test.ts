import { JUDGED_QUERIES, scoreJudgedQueries, withJudgedSearch } from "../../bench/judgedQueries";
import { UNSEEN_JUDGED_QUERIES } from "../../bench/unseenJudgedQueries";
import * as nodePath from "node:path";
import { findProjectRoot, obsidianHelpVaultDir } from "../helpers/fixtures";
import { TASKS_DEMO_VAULT, copyVault, removeDir } from "../helpers/vault";

const DEMO_VAULT = nodePath.join(findProjectRoot(), "demo-vault");

/**
 * The 58 judged queries over this project's vaults with ranking by evidence strength: all 58 find
 * an expected note in the first three, MRR 0.983 (whole-title ranking before it: 0.91 / 0.89;
 * the engine before that: 0.78 / 0.75). One miss in the first three fails here.
 */
const JUDGED_SUCCESS_AT_3 = 1;
const JUDGED_MRR = 0.98;

/**
 * The unseen set (bench/unseenJudgedQueries.ts, over the Obsidian Help vault), never tuned on.
 * First measured on the engine before ranking by evidence strength: 0.5625 / 0.545 over 64
 * questions. With it (word forms, prefixes that only fill, title and alias tiers, soft AND):
 * 0.6875 / 0.653. Raise the floors to what a ranking change reaches.
 */
const UNSEEN_SUCCESS_AT_3 = 0.68;
const UNSEEN_MRR = 0.65;

test("the judged queries find the notes a person expects at least as well as the first run", async () => {
	const roots = { "tasks-demo": await copyVault(TASKS_DEMO_VAULT), "demo-vault": await copyVault(DEMO_VAULT) };
	try {
		const scores = await withJudgedSearch(roots, (search) => scoreJudgedQueries(search, JUDGED_QUERIES));
		expect(scores.queries).toBeGreaterThanOrEqual(58);
		expect(scores.successAt3).toBeGreaterThanOrEqual(JUDGED_SUCCESS_AT_3);
		expect(scores.mrr).toBeGreaterThanOrEqual(JUDGED_MRR);
	} finally {
		for (const root of Object.values(roots)) await removeDir(root);
	}
}, 60_000);

test("the unseen judged questions over the Obsidian Help vault find the pages a person expects at least as well as recorded", async () => {
	// Throws the one line that says how to get the vault when it is missing.
	const roots = { "obsidian-help": await copyVault(obsidianHelpVaultDir()) };
	try {
		const scores = await withJudgedSearch(roots, (search) => scoreJudgedQueries(search, UNSEEN_JUDGED_QUERIES));
		expect(scores.queries).toBeGreaterThanOrEqual(40);
		expect(scores.successAt3).toBeGreaterThanOrEqual(UNSEEN_SUCCESS_AT_3);
		expect(scores.mrr).toBeGreaterThanOrEqual(UNSEEN_MRR);
	} finally {
		for (const root of Object.values(roots)) await removeDir(root);
	}
}, 60_000);
