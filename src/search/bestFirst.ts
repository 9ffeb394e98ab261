import { RANKING_SCORE_STEP_MASK, RANKING_READ_STEP_MASK, RANKING_SPLIT_MIN_CANDIDATES, RANKING_SPLIT_FIRST, RANKING_SPLIT_SAMPLE } from "../config/limits";
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
	/**
	 * Bounds a candidate into `scored` more loosely than `score` and at less cost (engine.ts's
	 * boundCandidate). When given, every candidate starts with this bound and is scored when it
	 * first comes up, then waits its turn again.
	 */
	bound?(index: number): void;
	/**
	 * Tightens the candidate's bounds without reading it (CandidateFinder.refine): whether it may
	 * still be a candidate. Called at most once a candidate, when its bound comes up first.
	 */
	refine?(index: number): boolean;
	/** Reads the candidate's body (CandidateFinder.verify): whether it is still a candidate, its row now exact. */
	read(index: number): boolean;
	/** Offers a read candidate to the page, scored into `scored`. */
	keep(index: number): void;
	/** The worst candidate on the page once the page is full; else null. */
	worstKept(): Ranked | null;
}

/**
 * Keys candidates `[from, to)` by their first bound: the loose one when the ranking has it, else
 * the score of their bounds (in slot order). A plain function, not the generator's loop: V8 runs a
 * loop inside a generator several times slower.
 */
function boundRange(ranking: BoundedRanking, from: number, to: number, boundScores: Float64Array, boundTiers: Float64Array): void {
	const { scored } = ranking;
	for (let index = from; index < to; index++) {
		if (ranking.bound) ranking.bound(index);
		else ranking.score(index, false);
		boundScores[index] = scored.score;
		boundTiers[index] = scored.tier;
	}
}

/**
 * The candidates at or above a bound (one candidate's, chosen from an even sample so that about
 * RANKING_SPLIT_FIRST are), and the rest, strictly below it, with a test of whether a candidate's key is at or above it (the
 * candidate's key then, kept: keys change as candidates are read). Building a heap of tens of
 * thousands of candidates cost as much as bounding them all, and a search takes the best few
 * hundred. Null for fewer than RANKING_SPLIT_MIN_CANDIDATES.
 */
function splitByBound(
	count: number,
	boundTiers: Float64Array,
	boundScores: Float64Array,
	slots: Uint32Array,
	before: (a: number, b: number) => boolean,
): { first: Uint32Array; rest: Uint32Array; above: (index: number) => boolean } | null {
	if (count < RANKING_SPLIT_MIN_CANDIDATES) return null;
	const sample = Array.from({ length: RANKING_SPLIT_SAMPLE }, (_, at) => Math.floor(((at + 0.5) * count) / RANKING_SPLIT_SAMPLE));
	sample.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
	const pivot = sample[Math.floor((RANKING_SPLIT_SAMPLE * RANKING_SPLIT_FIRST) / count)] as number;
	const tier = boundTiers[pivot] as number;
	const score = boundScores[pivot] as number;
	const slot = slots[pivot] as number;
	const above = (index: number): boolean => {
		const indexTier = boundTiers[index] as number;
		if (indexTier !== tier) return indexTier > tier;
		const indexScore = boundScores[index] as number;
		return indexScore !== score ? indexScore > score : (slots[index] as number) <= slot;
	};
	const order = new Uint32Array(count);
	let firstCount = 0;
	let restFrom = count;
	for (let index = 0; index < count; index++) {
		if (above(index)) order[firstCount++] = index;
		else order[--restFrom] = index;
	}
	return { first: order.subarray(0, firstCount), rest: order.subarray(restFrom), above };
}

/**
 * Ranks candidates whose values are bounds, reading as few as it can: every candidate is scored
 * with its bounds (which no read score exceeds, the score rising with every value; with `bound`,
 * first bounded more loosely and scored only when that bound comes up first), and they are
 * read best bound first and kept by their read score, until the page is full and the next bound
 * cannot enter it, or all are read. A candidate whose bound comes up first is refined before it is
 * read (`refine`, when given: cheaper than a read, too dear for every candidate), and waits its turn
 * again with its tighter bound. The page is what reading every candidate gives either way. The
 * number held among those read, and, unless all were read or ruled out, how many were read. In
 * steps: it yields every few hundred candidates scored or refined and every few dozen read. Pure.
 */
export function* rankByBounds(ranking: BoundedRanking): Generator<void, { held: number; checks?: PhraseChecks }, void> {
	const { count, scored, slots } = ranking;
	const boundScores = new Float64Array(count);
	const boundTiers = new Float64Array(count);
	// 1: the candidate's key is still its loose bound (ranking.bound).
	const loose = ranking.bound ? new Uint8Array(count).fill(1) : null;
	for (let from = 0; from < count; from += RANKING_SCORE_STEP_MASK + 1) {
		if (from > 0) yield;
		boundRange(ranking, from, Math.min(count, from + RANKING_SCORE_STEP_MASK + 1), boundScores, boundTiers);
	}
	// By tier and score, then slot: a strict order that never compares paths (which ties on the
	// bounds would do thousands of times). So the next bound may tie the page's worst in tier and
	// score and still be ordered apart from it: reading stops only once the next is strictly below.
	const before = (a: number, b: number): boolean => {
		const tierA = boundTiers[a] as number;
		const tierB = boundTiers[b] as number;
		if (tierA !== tierB) return tierA > tierB;
		const scoreA = boundScores[a] as number;
		const scoreB = boundScores[b] as number;
		return scoreA !== scoreB ? scoreA > scoreB : (slots[a] as number) < (slots[b] as number);
	};
	const split = splitByBound(count, boundTiers, boundScores, slots, before);
	const byBound = new IndexHeap(count, before, split?.first);
	// The candidates not yet in the heap, all strictly below the split's bound: they join it once its best is below that bound.
	let rest = split && split.rest.length > 0 ? split.rest : null;
	const refined = ranking.refine ? new Uint8Array(count) : null;
	let refinements = 0;
	let tightened = 0;
	let checked = 0;
	let held = 0;
	while (byBound.size > 0 || rest) {
		if (rest && split && (byBound.size === 0 || !split.above(byBound.peek()))) {
			byBound.addAll(rest);
			rest = null;
		}
		const next = byBound.peek();
		const worst = ranking.worstKept();
		const nextTier = boundTiers[next] as number;
		if (worst && (worst.tier > nextTier || (worst.tier === nextTier && worst.score > (boundScores[next] as number)))) break;
		if (loose && loose[next] === 1) {
			if ((++tightened & RANKING_SCORE_STEP_MASK) === 0) yield;
			loose[next] = 0;
			byBound.pop();
			ranking.score(next, true);
			boundScores[next] = scored.score;
			boundTiers[next] = scored.tier;
			byBound.push(next);
			continue;
		}
		if (refined && refined[next] === 0 && ranking.refine) {
			if ((++refinements & RANKING_SCORE_STEP_MASK) === 0) yield;
			refined[next] = 1;
			byBound.pop();
			if (!ranking.refine(next)) continue;
			ranking.score(next, true);
			boundScores[next] = scored.score;
			boundTiers[next] = scored.tier;
			byBound.push(next);
			continue;
		}
		if ((checked & RANKING_READ_STEP_MASK) === RANKING_READ_STEP_MASK) yield;
		byBound.pop();
		checked++;
		if (!ranking.read(next)) continue;
		held++;
		ranking.score(next, true);
		ranking.keep(next);
	}
	return byBound.size === 0 && !rest ? { held } : { held, checks: { checked, candidates: count } };
}
