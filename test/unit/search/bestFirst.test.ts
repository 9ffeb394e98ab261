import fc from "fast-check";
import { rankByBounds } from "../../../src/search/bestFirst";
import type { Ranked } from "../../../src/search/rank";
import { expectEqual } from "../../helpers/plainEqual";

/**
 * Candidates with a bound, a tighter one refining gives (null: refining rules it out; absent: no
 * refining) and the score reading gives (null: reading drops it), ranked into a page of `limit`.
 */
function rankAll(
	candidates: ReadonlyArray<{ bound: number; refined?: number | null; read: number | null }>,
	limit: number,
	refining = false,
	ruledOut: Uint8Array | null = null,
	loose: ReadonlyArray<number> | null = null,
) {
	const isRead = new Uint8Array(candidates.length);
	let scores = 0;
	const isRefined = new Uint8Array(candidates.length);
	const refinedOnes: number[] = [];
	const top: Ranked[] = [];
	const scored = { score: 0, tier: 0 };
	const reads: number[] = [];
	const steps = rankByBounds({
		count: candidates.length,
		slots: Uint32Array.from(candidates.keys()),
		score: (index) => {
			scores++;
			const candidate = candidates[index];
			scored.score = isRead[index] === 1 ? (candidate?.read ?? 0) : isRefined[index] === 1 ? (candidate?.refined ?? 0) : (candidate?.bound ?? 0);
		},
		...(refining
			? {
					refine: (index: number) => {
						refinedOnes.push(index);
						isRefined[index] = 1;
						return candidates[index]?.refined !== null;
					},
				}
			: {}),
		...(loose ? { bound: (index: number) => (scored.score = loose[index] ?? 0) } : {}),
		ruledOut,
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
	for (let step = steps.next(); ; step = steps.next())
		if (step.done) return { ...step.value, reads, scores, ...(refining ? { refinedOnes } : {}), page: top.map((kept) => kept.slot).reverse() };
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
		expect(ranked).toEqual({ held: 1, reads: [0, 1], page: [0], scores: 3 });
	});

	test("a candidate is refined when its bound comes up first, then waits its turn again: fewer are read, the page is the same", () => {
		const candidates = [
			{ bound: 9, refined: 1, read: 1 },
			{ bound: 8, refined: null, read: null },
			{ bound: 7, refined: 6, read: 6 },
			{ bound: 5, refined: 5, read: 4 },
			{ bound: 3, refined: 2, read: 2 },
			{ bound: 2, refined: 2, read: 2 },
		];
		const refined = rankAll(candidates, 2, true);
		const plain = rankAll(candidates, 2);
		expect(refined.page).toEqual(plain.page);
		expect(refined.page).toEqual([2, 3]);
		expect(refined.refinedOnes).toEqual([0, 1, 2, 3]);
		expect(refined.reads).toEqual([2, 3]);
		expect(plain.reads.length).toBeGreaterThan(refined.reads.length);
		expect(refined).toMatchObject({ held: 2, checks: { checked: 2, candidates: 6 } });
	});

	test("with a loose key first, a candidate is refined when that key comes up, and scored once before it is read", () => {
		const candidates = [
			{ bound: 9, refined: 8, read: 8 },
			{ bound: 7, refined: null, read: null },
			{ bound: 6, refined: 5, read: 5 },
		];
		const ranked = rankAll(candidates, 1, true, null, [10, 8, 7]);
		expect(ranked.page).toEqual([0]);
		expect(ranked.reads).toEqual([0]);
		// Candidate 1 came up at its loose key, tying the page's worst: refined then, and ruled out, never scored.
		expect(ranked.refinedOnes).toEqual([0, 1]);
		// Candidate 0 scored with its refined bound, then with its read: not first with its unrefined bound too.
		expect(ranked.scores).toBe(2);
		expect(ranked).toMatchObject({ held: 1, checks: { checked: 1, candidates: 3 } });
	});

	test("when every candidate is read or ruled out by refining, no checks are reported", () => {
		const ranked = rankAll(
			[
				{ bound: 4, refined: 3, read: 1 },
				{ bound: 3, refined: null, read: null },
			],
			2,
			true,
		);
		expect(ranked).toMatchObject({ held: 1, reads: [0], page: [0] });
		expect(ranked).not.toHaveProperty("checks");
	});
});

describe("tens of thousands of candidates (the heap starts with the best of them by bound)", () => {
	/**
	 * The same reading, each next candidate found by looking at every one left: the order a heap of
	 * all of them gives; each candidate refined one by one when it comes up. `loose`: each
	 * candidate's first key, looser than its bound: when it comes up, the candidate is refined then
	 * (its key the refined bound), or without refining its key becomes the bound.
	 */
	function rankByScanning(
		candidates: ReadonlyArray<{ bound: number; refined?: number | null; read: number | null }>,
		limit: number,
		refining: boolean,
		loose: ReadonlyArray<number> | null = null,
	) {
		const key = loose ? [...loose] : candidates.map((candidate) => candidate.bound);
		const isLoose = new Uint8Array(candidates.length).fill(loose ? 1 : 0);
		const left = new Set(candidates.keys());
		const isRefined = new Uint8Array(candidates.length);
		const reads: number[] = [];
		const refinedOnes: number[] = [];
		const kept: number[] = [];
		let held = 0;
		for (;;) {
			let next = -1;
			for (const index of left)
				if (next === -1 || (key[index] as number) > (key[next] as number) || (key[index] === key[next] && index < next)) next = index;
			if (next === -1) break;
			if (kept.length >= limit && (kept[0] as number) > (key[next] as number)) break;
			const candidate = candidates[next] as { bound: number; refined?: number | null; read: number | null };
			if (isLoose[next] === 1) {
				isLoose[next] = 0;
				key[next] = candidate.bound;
				if (!refining) continue;
			}
			if (refining && isRefined[next] === 0) {
				isRefined[next] = 1;
				refinedOnes.push(next);
				if (candidate.refined === null) left.delete(next);
				else key[next] = candidate.refined ?? candidate.bound;
				continue;
			}
			left.delete(next);
			reads.push(next);
			if (candidate.read === null) continue;
			held++;
			kept.push(candidate.read);
			kept.sort((a, b) => a - b);
			if (kept.length > limit) kept.shift();
		}
		return { held, reads, refinedOnes, checked: left.size === 0 ? undefined : reads.length, page: kept };
	}

	const seeded = (seed: number) => () => {
		seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
		return seed / 0x1_0000_0000;
	};

	test.each([
		["most held, refined first", 10, true, 0.9],
		["few held: nearly every candidate is read", 10, false, 0.001],
		["few held, refined first", 20, true, 0.01],
	])("candidates are refined and read in the order a heap of all of them gives, and the page is the same (%s)", (_, limit, refining, heldShare) => {
		const random = seeded(limit * 7 + (refining ? 1 : 0));
		const candidates = Array.from({ length: 12_000 }, () => {
			const bound = Math.floor(random() * 1000);
			const refined = random() < 0.3 ? null : Math.floor(random() * (bound + 1));
			const read = random() < heldShare ? Math.floor(random() * ((refined ?? bound) + 1)) : null;
			return { bound, refined, read };
		});
		const ranked = rankAll(candidates, limit, refining);
		const expected = rankByScanning(candidates, limit, refining);
		expect(ranked.reads).toEqual(expected.reads);
		expect(ranked.held).toBe(expected.held);
		if (refining) expect(ranked.refinedOnes).toEqual(expected.refinedOnes);
		expect(ranked.checks?.checked).toBe(expected.checked);
	});

	test("thousands of candidates, loosely keyed first or some ruled out by an earlier search: refined and read in the order a heap of all of them gives, the page, the number held and whether every candidate was looked at the same", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 600, max: 3000 }),
				fc.integer({ min: 1, max: 30 }),
				fc.integer({ min: 0, max: 100 }),
				fc.integer({ min: 0, max: 100 }),
				fc.boolean(),
				fc.boolean(),
				fc.integer(),
				(count, limit, ruledOutShare, heldShare, withLoose, withLearnt, seed) => {
					const random = seeded(seed >>> 0);
					const candidates = Array.from({ length: count }, () => {
						const bound = Math.floor(random() * 60);
						const refined = random() * 100 < ruledOutShare ? null : Math.floor(random() * (bound + 1));
						const read = refined !== null && random() * 100 < heldShare ? Math.floor(random() * (refined + 1)) : null;
						return { bound, refined, read };
					});
					const loose = withLoose ? candidates.map((candidate) => candidate.bound + Math.floor(random() * 4)) : null;
					// What an earlier search learnt: some of the candidates refining rules out, never refined or read (ruledOut).
					const learnt = withLearnt ? Uint8Array.from(candidates, (candidate) => (candidate.refined === null && random() < 0.5 ? 1 : 0)) : null;
					const ranked = rankAll(candidates, limit, true, learnt, loose);
					const expected = rankByScanning(candidates, limit, true, loose);
					expect(ranked.reads).toEqual(expected.reads);
					expect(ranked.held).toBe(expected.held);
					expect(ranked.checks?.checked).toBe(expected.checked);
					expect(ranked.page.map((index) => candidates[index]?.read)).toEqual([...expected.page].reverse());
					expect(ranked.refinedOnes).toEqual(learnt ? expected.refinedOnes.filter((index) => learnt[index] !== 1) : expected.refinedOnes);
				},
			),
			{ numRuns: 60 },
		);
	});
});

describe("candidates an earlier search learnt refining rules out (ruledOut)", () => {
	const candidate = fc.record({
		bound: fc.integer({ min: 0, max: 40 }),
		looser: fc.integer({ min: 0, max: 5 }),
		refinedShare: fc.integer({ min: 0, max: 100 }),
		ruledOut: fc.boolean(),
		read: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
	});

	test("are never refined or read, and the reads, the page, the number held and whether every candidate was looked at are those of refining them", () => {
		fc.assert(
			fc.property(fc.array(candidate, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), fc.boolean(), (drawn, limit, withLoose) => {
				// A ruled-out candidate is one refining drops (refined: null); a read score is at most the refined bound.
				const candidates = drawn.map((entry) => {
					const refined = entry.ruledOut ? null : Math.floor((entry.bound * entry.refinedShare) / 100);
					return { bound: entry.bound, refined, read: refined === null || entry.read === null ? null : Math.min(refined, entry.read) };
				});
				const ruledOut = Uint8Array.from(drawn, (entry) => (entry.ruledOut ? 1 : 0));
				const loose = withLoose ? drawn.map((entry) => entry.bound + entry.looser) : null;
				const lazy = rankAll(candidates, limit, true, null, loose);
				const learnt = rankAll(candidates, limit, true, ruledOut, loose);
				expectEqual(learnt.reads, lazy.reads);
				expectEqual(learnt.page, lazy.page);
				expect(learnt.held).toBe(lazy.held);
				expectEqual(learnt.checks, lazy.checks);
				expectEqual(
					learnt.refinedOnes?.some((index) => ruledOut[index] === 1),
					false,
				);
				expectEqual(
					learnt.refinedOnes,
					lazy.refinedOnes?.filter((index) => ruledOut[index] !== 1),
				);
			}),
			{ numRuns: 2000 },
		);
	});

	test("one left waiting below the page's worst means not every candidate was looked at; one above it was", () => {
		// Two read candidates fill a page of 2 at 8 and 6. A ruled-out one bound at 5 would wait below that worst; at 7 it would come up and go.
		const below = [
			{ bound: 9, refined: 8, read: 8 },
			{ bound: 7, refined: 6, read: 6 },
			{ bound: 5, refined: null, read: null },
		];
		const ruledOut = Uint8Array.from([0, 0, 1]);
		expect(rankAll(below, 2, true, ruledOut)).toMatchObject({ held: 2, checks: { checked: 2, candidates: 3 } });
		expect(rankAll(below, 2, true)).toMatchObject({ held: 2, checks: { checked: 2, candidates: 3 } });
		const above = below.map((entry, index) => (index === 2 ? { ...entry, bound: 7 } : entry));
		expect(rankAll(above, 2, true, ruledOut)).not.toHaveProperty("checks");
		expect(rankAll(above, 2, true)).not.toHaveProperty("checks");
	});
});
