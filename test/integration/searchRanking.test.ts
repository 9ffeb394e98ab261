import { scoreJudgedQueries, withJudgedSearch } from "../../bench/judgedQueries";
import { TASKS_DEMO_VAULT, copyVault, removeDir, copyDemoVault } from "../helpers/vault";

/**
 * The figures of the first run of the 58 judged queries with stop words and whole-title ranking
 * (issue 16; the engine before them scored 0.78 / 0.75 on the same set): a ranking change that
 * makes fewer of them find the notes a person expects fails here. One more miss in the first
 * three drops success@3 to 0.897. Raise them when ranking improves.
 */
const JUDGED_SUCCESS_AT_3 = 0.91;
const JUDGED_MRR = 0.89;

test("the judged queries find the notes a person expects at least as well as the first run", async () => {
	const roots = { "tasks-demo": await copyVault(TASKS_DEMO_VAULT), "demo-vault": await copyDemoVault() };
	try {
		const scores = await withJudgedSearch(roots, (search) => scoreJudgedQueries(search));
		expect(scores.queries).toBeGreaterThanOrEqual(58);
		expect(scores.successAt3).toBeGreaterThanOrEqual(JUDGED_SUCCESS_AT_3);
		expect(scores.mrr).toBeGreaterThanOrEqual(JUDGED_MRR);
	} finally {
		for (const root of Object.values(roots)) await removeDir(root);
	}
}, 60_000);
