/**
 * Jest's own order (failed suites first, then those with no time recorded, largest file first, then
 * the rest, longest recorded first), except that the suites below start first wherever jest has no
 * time recorded for them. Without times (a fresh clone: every CI run) file size is all jest goes
 * by, and each of these is a short file with a long run: started among the last suites of the
 * two-worker tiers, it ran on while the other worker, its queue empty, waited.
 */
const Sequencer = require("@jest/test-sequencer").default;

/** Suites far slower than their size says, each with its CPU time measured alone (5 December 2026). */
const SLOW_FOR_THEIR_SIZE = [
	// 35 s of CPU in a 2.8 KB file (18th smallest of the 148 suites of the two-worker tiers): 46 scans of 2,000 notes.
	"test/integration/searchWorstCasesAgreeWithScan.test.ts",
	// 5.9 s in CI (a vault of 3,001 notes made, read and indexed with 600 excluded folders) in a 2.8 KB file, 19th smallest of 148: it would start among the last.
	"test/reliability/hubNoteLinks.test.ts",
];

function slowWithoutTime(test) {
	return test.duration == null && SLOW_FOR_THEIR_SIZE.some((path) => test.path.split("\\").join("/").endsWith(path));
}

class SlowForTheirSizeFirst extends Sequencer {
	async sort(tests) {
		const sorted = await super.sort(tests);
		return [...sorted.filter(slowWithoutTime), ...sorted.filter((test) => !slowWithoutTime(test))];
	}
}

module.exports = SlowForTheirSizeFirst;
