import { PhraseLearnt } from "../../../src/search/phraseLearnt";
import { IN_HEADING, IN_TITLE } from "../../../src/search/postingValues";

describe("PhraseLearnt", () => {
	test("knows nothing at first, then each note's sketch bound and value apart, 0 and the heading bit included", () => {
		const learnt = new PhraseLearnt(3);
		expect([0, 1, 2].map((at) => [learnt.pairBound(at), learnt.value(at)])).toEqual([
			[-1, -1],
			[-1, -1],
			[-1, -1],
		]);
		learnt.learnValue(0, 5);
		learnt.learnPairBound(1, 0);
		learnt.learnPairBound(1, 0);
		learnt.learnPairBound(0, 2);
		// Notes whose sketch holds none of the pairs, each counted once.
		expect(learnt.pairlessNotes).toBe(1);
		expect(learnt.pairBound(1)).toBe(0);
		expect(learnt.value(1)).toBe(-1);
		const value = (IN_HEADING | IN_TITLE | 7) >>> 0;
		learnt.learnValue(2, value);
		expect(learnt.value(2)).toBe(value);
		expect(learnt.pairBound(2)).toBe(-1);
		learnt.learnValue(1, 0);
		expect([learnt.pairBound(1), learnt.value(1)]).toEqual([0, 0]);
		expect([learnt.pairBound(0), learnt.value(0)]).toEqual([2, 5]);
	});
});
