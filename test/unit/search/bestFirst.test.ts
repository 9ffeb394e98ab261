import { rankByBounds } from "../../../src/search/bestFirst";
import type { Ranked } from "../../../src/search/rank";

/** Candidates with a bound and the score reading gives (null: reading drops it), ranked into a page of `limit`. */
function rankAll(candidates: ReadonlyArray<{ bound: number; read: number | null }>, limit: number) {
	const isRead = new Uint8Array(candidates.length);
	const top: Ranked[] = [];
	const scored = { score: 0, tier: 0 };
	const reads: number[] = [];
	const steps = rankByBounds({
		count: candidates.length,
		slots: Uint32Array.from(candidates.keys()),
		score: (index) => {
			scored.score = isRead[index] === 1 ? (candidates[index]?.read ?? 0) : (candidates[index]?.bound ?? 0);
		},
		scored,
		read: (index) => {
			reads.push(index);
			isRead[index] = 1;
			return candidates[index]?.read !== null;
		},
		keep: (index) => {
			top.push({ slot: index, score: scored.score, tier: 0 });
			top.sort((a, b) => a.score - b.score || b.slot - a.slot);
			if (top.length > limit) top.shift();
		},
		worstKept: () => (top.length >= limit ? (top[0] ?? null) : null),
	});
	for (let step = steps.next(); ; step = steps.next()) if (step.done) return { ...step.value, reads, page: top.map((kept) => kept.slot).reverse() };
}

describe("candidates read best bound first", () => {
	test("reading stops once no unread bound can enter the page, and the page is the one reading all gives", () => {
		const candidates = [
			{ bound: 9, read: 2 },
			{ bound: 8, read: 7 },
			{ bound: 6, read: null },
			{ bound: 5, read: 5 },
			{ bound: 3, read: 3 },
			{ bound: 1, read: 1 },
		];
		const ranked = rankAll(candidates, 2);
		expect(ranked.page).toEqual([1, 3]);
		expect(ranked.reads).toEqual([0, 1, 2, 3]);
		expect(ranked).toMatchObject({ held: 3, checks: { checked: 4, candidates: 6 } });
	});

	test("when every candidate is read, the number held is the whole count and no checks are reported", () => {
		const ranked = rankAll(
			[
				{ bound: 4, read: 1 },
				{ bound: 3, read: null },
			],
			2,
		);
		expect(ranked).toEqual({ held: 1, reads: [0, 1], page: [0] });
	});
});
