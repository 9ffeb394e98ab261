import { RANKING_SCORE_STEP_MASK, RANKING_READ_STEP_MASK, RANKING_SPLIT_MIN_CANDIDATES, RANKING_SPLIT_FIRST, RANKING_SPLIT_SAMPLE } from "../config/limits";
import { IndexHeap, type HeapOrder } from "./indexHeap";

/** A read's answer when it must pause before reading more of the candidate's body: it is asked again after. */
export const PAUSE_FIRST = "pause first";
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
	 * still be a candidate. Called at most once a candidate, when its bound comes up first (with
	 * `bound`, its loose bound: then it is scored once, refined).
	 */
	refine?(index: number): boolean;
	/**
	 * With `refine`: per candidate, 1 when `refine` is known to rule it out, without looking at it
	 * (CandidateFinder.ruledOutSteps: what an earlier search of the phrase learnt). Such a candidate is
	 * never read; it is left out of the heap, and only whether it would still be waiting at the end
	 * (which tells whether every candidate was looked at) is worked out, from its key and the page.
	 */
	ruledOut?: Uint8Array | null;
	/**
	 * Reads the candidate's body (CandidateFinder.verify): whether it is still a candidate, its row
	 * now exact; PAUSE_FIRST when it must pause first (its phrases' reading used the step's share),
	 * then it is asked again.
	 */
	read(index: number): boolean | typeof PAUSE_FIRST;
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
 * Candidates by their keys (each one's tier and score, kept in typed arrays: they change as
 * candidates are read), then slot: a strict order that never compares paths (which ties on the
 * bounds would do thousands of times). So the next bound may tie the page's worst in tier and
 * score and still be ordered apart from it: reading stops only once the next is strictly below. A
 * class, not a comparison made per search: every search's heap then calls the same `before`.
 */
class BoundOrder implements HeapOrder {
	constructor(
		private readonly tiers: Float64Array,
		private readonly scores: Float64Array,
		private readonly slots: Uint32Array,
	) {}

	before(a: number, b: number): boolean {
		const tierA = this.tiers[a] as number;
		const tierB = this.tiers[b] as number;
		if (tierA !== tierB) return tierA > tierB;
		const scoreA = this.scores[a] as number;
		const scoreB = this.scores[b] as number;
		return scoreA !== scoreB ? scoreA > scoreB : (this.slots[a] as number) < (this.slots[b] as number);
	}

	/** The key candidate `index` has now: a split's bound (splitByBound). */
	keyOf(index: number): SplitKey {
		return { tier: this.tiers[index] as number, score: this.scores[index] as number, slot: this.slots[index] as number };
	}

	/** Whether candidate `index`'s key is at or above `key`. */
	atOrAbove(index: number, key: SplitKey): boolean {
		const tier = this.tiers[index] as number;
		if (tier !== key.tier) return tier > key.tier;
		const score = this.scores[index] as number;
		return score !== key.score ? score > key.score : (this.slots[index] as number) <= key.slot;
	}
}

/** A candidate's key (tier, score, slot) when a split was made at it: keys change as candidates are read. */
interface SplitKey {
	tier: number;
	score: number;
	slot: number;
}

/**
 * The `members` (null: all `candidates`) at or above a bound (one candidate's, chosen from an even
 * sample so that about RANKING_SPLIT_FIRST are), and the rest, strictly below it, with that bound
 * (`at`, for BoundOrder.atOrAbove). Building a heap of tens of thousands of candidates cost as much
 * as bounding them all, and a search takes the best few hundred. Null for fewer than
 * RANKING_SPLIT_MIN_CANDIDATES.
 */
function splitByBound(members: Uint32Array | null, candidates: number, order: BoundOrder): { first: Uint32Array; rest: Uint32Array; at: SplitKey } | null {
	const count = members ? members.length : candidates;
	if (count < RANKING_SPLIT_MIN_CANDIDATES) return null;
	const sample = Array.from({ length: RANKING_SPLIT_SAMPLE }, (_, at) => {
		const member = Math.floor(((at + 0.5) * count) / RANKING_SPLIT_SAMPLE);
		return members ? (members[member] as number) : member;
	});
	sample.sort((a, b) => (order.before(a, b) ? -1 : order.before(b, a) ? 1 : 0));
	const at = order.keyOf(sample[Math.floor((RANKING_SPLIT_SAMPLE * RANKING_SPLIT_FIRST) / count)] as number);
	const sorted = new Uint32Array(count);
	let firstCount = 0;
	let restFrom = count;
	for (let member = 0; member < count; member++) {
		const index = members ? (members[member] as number) : member;
		if (order.atOrAbove(index, at)) sorted[firstCount++] = index;
		else sorted[--restFrom] = index;
	}
	return { first: sorted.subarray(0, firstCount), rest: sorted.subarray(restFrom), at };
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
	const order = new BoundOrder(boundTiers, boundScores, slots);
	// The candidates refining is known to rule out wait outside the heap (BoundedRanking.ruledOut).
	const ruledOut = ranking.refine ? (ranking.ruledOut ?? null) : null;
	const members = ruledOut ? membersLeft(ruledOut, count) : null;
	const split = splitByBound(members, count, order);
	const byBound = new IndexHeap(count, order, split?.first ?? members ?? undefined);
	// With candidates ruled out: the key of each candidate read and the page's worst after it, in reading order (stillWaiting).
	const readKeys: ReadKeys | null = members ? { tiers: [], scores: [], slots: [], worstTiers: [], worstScores: [] } : null;
	// The candidates not yet in the heap, all strictly below the split's bound: they join it once its best is below that bound.
	let rest = split && split.rest.length > 0 ? split.rest : null;
	const refined = ranking.refine ? new Uint8Array(count) : null;
	let refinements = 0;
	let tightened = 0;
	let checked = 0;
	let held = 0;
	while (byBound.size > 0 || rest) {
		if (rest && split && (byBound.size === 0 || !order.atOrAbove(byBound.peek(), split.at))) {
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
			// Refined before it is scored, not after it has come up again: one score and one turn of the heap
			// instead of two (a phrase whose words mostly stand apart refines 10,000 notes at 50,000). Its
			// refined key is below the scored one, so the reads and the page are the same; a note refining rules
			// out no longer waits once its loose key has come up (ruledOutWaiting).
			if (refined && ranking.refine) {
				if ((++refinements & RANKING_SCORE_STEP_MASK) === 0) yield;
				refined[next] = 1;
				if (!ranking.refine(next)) continue;
			}
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
		let read = ranking.read(next);
		for (; read === PAUSE_FIRST; read = ranking.read(next)) yield;
		byBound.pop();
		checked++;
		if (!read) continue;
		held++;
		ranking.score(next, true);
		ranking.keep(next);
		if (readKeys) noteRead(readKeys, boundTiers[next] as number, boundScores[next] as number, slots[next] as number, ranking.worstKept());
	}
	const allLookedAt = byBound.size === 0 && !rest && !(ruledOut && readKeys && (yield* ruledOutWaiting(ranking, ruledOut, readKeys)));
	return allLookedAt ? { held } : { held, checks: { checked, candidates: count } };
}

/** The candidates `ruledOut` leaves, in index order; null when it rules out none. */
function membersLeft(ruledOut: Uint8Array, count: number): Uint32Array | null {
	let left = 0;
	for (let index = 0; index < count; index++) if (ruledOut[index] !== 1) left++;
	if (left === count) return null;
	const members = new Uint32Array(left);
	for (let index = 0, at = 0; index < count; index++) if (ruledOut[index] !== 1) members[at++] = index;
	return members;
}

/** The keys of the candidates read, in reading order (best first), each with the page's worst after it (−Infinity tier: not full). */
interface ReadKeys {
	tiers: number[];
	scores: number[];
	slots: number[];
	worstTiers: number[];
	worstScores: number[];
}

function noteRead(keys: ReadKeys, tier: number, score: number, slot: number, worst: Ranked | null): void {
	keys.tiers.push(tier);
	keys.scores.push(score);
	keys.slots.push(slot);
	keys.worstTiers.push(worst ? worst.tier : -Infinity);
	keys.worstScores.push(worst ? worst.score : -Infinity);
}

/**
 * Whether a candidate `ruledOut` left out of the heap would still be waiting when every other was
 * looked at: in the heap, it would come up (and be ruled out by refining) once every read
 * candidate whose key is before its own was read, unless the page's worst was then strictly above
 * its key (with `bound`, its loose bound, at which it is refined; else its bounds scored).
 * Reading stops there, so it would wait. The reads are in order of their keys, best first: the
 * worst in force is found by a binary search. In steps, as rankByBounds.
 */
function* ruledOutWaiting(ranking: BoundedRanking, ruledOut: Uint8Array, keys: ReadKeys): Generator<void, boolean, void> {
	const { scored, slots } = ranking;
	// Paused by the candidates scored, not by their indexes: ruled-out notes may all miss the indexes a mask picks (review63b).
	let scoredHere = 0;
	for (let index = 0; index < ranking.count; index++) {
		if (ruledOut[index] !== 1) continue;
		if ((++scoredHere & RANKING_SCORE_STEP_MASK) === 0) yield;
		// Refining rules it out when its first key comes up: its loose bound, when the ranking has one (rankByBounds).
		if (ranking.bound) ranking.bound(index);
		else ranking.score(index, true);
		const tier = scored.tier;
		const score = scored.score;
		const slot = slots[index] as number;
		// The reads whose key is before this one's: [0, low).
		let low = 0;
		let high = keys.tiers.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			const readTier = keys.tiers[middle] as number;
			const readScore = keys.scores[middle] as number;
			const isBefore = readTier !== tier ? readTier > tier : readScore !== score ? readScore > score : (keys.slots[middle] as number) < slot;
			if (isBefore) low = middle + 1;
			else high = middle;
		}
		if (low === 0) continue;
		const worstTier = keys.worstTiers[low - 1] as number;
		const worstScore = keys.worstScores[low - 1] as number;
		if (worstTier > tier || (worstTier === tier && worstScore > score)) return true;
	}
	return false;
}
