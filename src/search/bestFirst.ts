import { IndexHeap } from "./indexHeap";
import type { PhraseChecks } from "./phrases";
import type { Ranked } from "./rank";

/** What ranking by bounds asks of the search ranking candidates 0…count−1 (engine.ts). */
export interface BoundedRanking {
	count: number;
	/** Each candidate's note, by slot. */
	slots: Uint32Array;
	/** Scores a candidate into `scored` from its row of values (bounds until it is read); `anyOrder`: not called in slot order. */
	score(index: number, anyOrder: boolean): void;
	scored: { score: number; tier: number };
	/** Positive when the first ranks above the second, by tier, score, then the notes (their slots) for the ties. */
	compareKeys(tierA: number, scoreA: number, slotA: number, tierB: number, scoreB: number, slotB: number): number;
	/** Reads the candidate's body (CandidateFinder.verify): whether it is still a candidate, its row now exact. */
	read(index: number): boolean;
	/** Offers a read candidate to the page, scored into `scored`. */
	keep(index: number): void;
	/** The worst candidate on the page once the page is full; else null. */
	worstKept(): Ranked | null;
}

/** Candidates scored between two chances to pause (a mask), as the ranking's loop. */
const SCORE_STEP_MASK = 255;
/** Candidates read between two chances to pause (a mask): reading a body costs as much as scoring dozens of candidates. */
const READ_STEP_MASK = 63;

/**
 * Ranks candidates whose values are bounds, reading as few as it can: every candidate is scored
 * with its bounds (which no read score exceeds, the score rising with every value), and they are
 * read best bound first and kept by their read score, until the page is full and the next bound
 * cannot enter it, or all are read. The page is what reading every candidate gives either way. The
 * number held among those read, and, unless all were read, how many were. In steps: it yields
 * every few hundred candidates scored and every few dozen read. Pure.
 */
export function* rankByBounds(ranking: BoundedRanking): Generator<void, { held: number; checks?: PhraseChecks }, void> {
	const { count, scored, slots } = ranking;
	const boundScores = new Float64Array(count);
	const boundTiers = new Float64Array(count);
	for (let index = 0; index < count; index++) {
		if ((index & SCORE_STEP_MASK) === SCORE_STEP_MASK) yield;
		ranking.score(index, false);
		boundScores[index] = scored.score;
		boundTiers[index] = scored.tier;
	}
	const byBound = new IndexHeap(
		count,
		(a, b) =>
			ranking.compareKeys(
				boundTiers[a] as number,
				boundScores[a] as number,
				slots[a] as number,
				boundTiers[b] as number,
				boundScores[b] as number,
				slots[b] as number,
			) > 0,
	);
	let checked = 0;
	let held = 0;
	while (byBound.size > 0) {
		const next = byBound.peek();
		const worst = ranking.worstKept();
		if (
			worst &&
			ranking.compareKeys(worst.tier, worst.score, worst.slot, boundTiers[next] as number, boundScores[next] as number, slots[next] as number) > 0
		)
			break;
		if ((checked & READ_STEP_MASK) === READ_STEP_MASK) yield;
		byBound.pop();
		checked++;
		if (!ranking.read(next)) continue;
		held++;
		ranking.score(next, true);
		ranking.keep(next);
	}
	return byBound.size === 0 ? { held } : { held, checks: { checked, candidates: count } };
}
