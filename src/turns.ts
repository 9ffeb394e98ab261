import * as nodeTimers from "node:timers";
import { LONE_REQUEST_FIRST_MS, RATE_LIMIT_WINDOW_MS } from "./config/limits";
import { EntrySweeps } from "./entrySweeps";

/** One turn of Node's event loop: an immediate set from an immediate runs at the next turn, after the network has been looked at. */
function nextImmediate(): Promise<void> {
	return new Promise((resolve) => nodeTimers.setImmediate(resolve));
}

/** Whose turns these are: a token's digest, or UNOWNED for work no one token asked for (parses, indexing, request bodies). */
export const UNOWNED = "";

/**
 * A lone request's claim to go first (see `TurnLane.goFirst`): it holds until `until` (ms, on
 * `performance.now()`'s clock), or until it is ended (then `until` is 0). No timer of its own: a
 * claim that holds nothing back needs none, and a slice held back arms the lane's one timer for the
 * earliest claim's end (`markHeld`). A timer set and cleared for every request cost about as much
 * as the rest of the lane's work for it.
 */
interface FirstClaim {
	until: number;
}

/**
 * Hands out turns to long work one slice per event-loop turn. Each piece of long work (a note's
 * parse, its search indexing, a large request body's parse, a vault-wide call's slices, a big
 * answer's pieces) pauses here between its slices. Pausing on its own instead, each would run a
 * slice in the same turn as every other: one created note's parse and its indexing ran back to
 * back, and four notes created at once ran four indexing slices in a turn, while another client's
 * request waited behind all of them. Taking turns here, it waits behind one slice at most.
 *
 * Turns are shared fairly between owners (tokens, and the work no token owns): each owner's
 * waiting slices run in the order they asked, and the owners take turns round the ring. One
 * token's four calls in flight had four places in a single line, so another token's call got a
 * fifth of the turns and waited behind four slices at each of its own. And while a token with
 * nothing else being answered is answered (`goFirst`), other tokens' slices wait for it.
 */
export class TurnLane {
	/** Each owner's callers waiting, in the order they asked. */
	private readonly waiting = new Map<string, Array<() => void>>();
	/** Owners with callers waiting, in the order they take turns. */
	private ring: string[] = [];
	/** Where in the ring the next turn is looked for: just after the owner that had the last. */
	private cursor = 0;
	/**
	 * Each owner's last claim to go first: other tokens' slices wait while one still holds. An ended
	 * claim stays in the map until its owner's next (one entry per token that ever went first):
	 * taking a key out and putting it back for every request made the map's table shrink and grow.
	 */
	private readonly first = new Map<string, FirstClaim>();
	/** When a new owner's claim makes those that hold nothing any more be forgotten. */
	private readonly sweeps = new EntrySweeps(RATE_LIMIT_WINDOW_MS);
	/**
	 * Since when a token's slice has been held back by other tokens' requests going first, with no
	 * token's slice run since (null: none held). Past `firstMs`, one goes anyway: requests of two
	 * tokens going first one after the other, each within its bound, otherwise held a third token's
	 * long work for as long as they kept coming.
	 */
	private heldSince: number | null = null;
	/**
	 * Until when tokens' slices go whatever requests go first (0: no such window): opened for `firstMs`
	 * once a slice went because it had been held that long. Letting one slice through each `firstMs`
	 * instead, a third token's long work beside two tokens' lone requests kept coming ran one slice
	 * per `firstMs` (a vault-wide call of 200 slices took 20 s while the lane was mostly idle).
	 */
	private tokensFreeUntil = 0;
	private heldTimer: ReturnType<typeof nodeTimers.setTimeout> | null = null;
	private scheduled = false;

	constructor(
		private readonly yieldToHost: () => Promise<void> = nextImmediate,
		private readonly firstMs: number = LONE_REQUEST_FIRST_MS,
	) {}

	/** Resolves when it is this caller's turn to run its next slice: work no one token owns. */
	readonly take = (): Promise<void> => this.takeFor(UNOWNED);

	/**
	 * Resolves when it is `owner`'s turn to run its next slice. An owner asking for a turn has long
	 * work: a request of its that went first stops going first, and takes turns with the others.
	 */
	readonly takeFor = (owner: string): Promise<void> => {
		if (owner !== UNOWNED) this.endFirst(owner);
		const turn = new Promise<void>((resolve) => {
			const queue = this.waiting.get(owner);
			if (queue) queue.push(resolve);
			else {
				this.waiting.set(owner, [resolve]);
				// Behind every owner waiting, in the ring's turn order: just before the cursor, not at the ring's end. Put at the
				// end, two tokens each asking again at once after its turn took every turn between them (the cursor always
				// reached the one put back before it came round to the start), and work no token owns none.
				const at = this.ring.length === 0 ? 0 : this.cursor % this.ring.length;
				this.ring.splice(at, 0, owner);
				this.cursor = at + 1;
			}
		});
		this.schedule();
		return turn;
	};

	/**
	 * `owner`'s request with nothing else of its being answered: until the function returned is
	 * called (it was answered), it takes a turn itself, or `firstMs` has passed, no slice of another
	 * token's runs (work no token owns still takes its turns). Short requests need no turn of their
	 * own: this keeps them from waiting behind another token's slices at every step they take.
	 */
	goFirst(owner: string): () => void {
		this.endFirst(owner);
		const now = performance.now();
		if (!this.first.has(owner) && this.sweeps.due(this.first.size, now)) this.forgetEndedClaims(now);
		const claim: FirstClaim = { until: now + this.firstMs };
		this.first.set(owner, claim);
		return () => this.endClaim(owner, claim);
	}

	/**
	 * Forgets the claims that hold nothing at `now` (ended, or past their bound: `firstClaimsEnd`
	 * passes over them), so the map follows the tokens being answered, not every token that ever
	 * went first. A forgotten claim's end finds another (or none) in its place and does nothing, as
	 * for a claim replaced.
	 */
	private forgetEndedClaims(now: number): void {
		for (const [owner, claim] of this.first) if (claim.until <= now) this.first.delete(owner);
		this.sweeps.swept(this.first.size, now);
	}

	/** Owners with a claim to go first in memory, ended ones not yet forgotten included. */
	get claimsKept(): number {
		return this.first.size;
	}

	private endFirst(owner: string): void {
		const claim = this.first.get(owner);
		if (claim) this.endClaim(owner, claim);
	}

	private endClaim(owner: string, claim: FirstClaim): void {
		if (this.first.get(owner) !== claim || claim.until === 0) return;
		claim.until = 0;
		this.schedule();
	}

	/** When the earliest claim still holding at `now` ends by its bound; Infinity when none holds. */
	private firstClaimsEnd(now: number): number {
		let end = Infinity;
		for (const claim of this.first.values()) if (claim.until > now && claim.until < end) end = claim.until;
		return end;
	}

	/** Where in the ring the owner whose caller has the next turn is: the next after the last served, skipping tokens while a lone request goes first; -1 when none may go. */
	private nextIndex(): number {
		const count = this.ring.length;
		const now = performance.now();
		const tokensGo =
			now < this.tokensFreeUntil || (this.heldSince !== null && now - this.heldSince >= this.firstMs) || this.firstClaimsEnd(now) === Infinity;
		let held = false;
		for (let step = 0; step < count; step++) {
			const index = (this.cursor + step) % count;
			if (tokensGo || this.ring[index] === UNOWNED) return index;
			held = true;
		}
		if (held) this.markHeld(now);
		return -1;
	}

	/**
	 * A token's slice is held back by requests going first: from now on for at most `firstMs`, whoever
	 * goes first. The lane looks again when that bound is reached, or when the earliest claim holding
	 * it ends by its own bound, whichever comes first (and again then, while it is still held).
	 */
	private markHeld(now: number): void {
		if (this.heldSince === null) this.heldSince = now;
		if (this.heldTimer !== null) return;
		const lookAgain = Math.min(this.heldSince + this.firstMs, this.firstClaimsEnd(now));
		this.heldTimer = nodeTimers.setTimeout(
			() => {
				this.heldTimer = null;
				this.schedule();
			},
			Math.max(0, lookAgain - now),
		);
	}

	private schedule(): void {
		if (this.scheduled || this.nextIndex() === -1) return;
		this.scheduled = true;
		void this.yieldToHost().then(() => {
			this.scheduled = false;
			this.serve();
			this.schedule();
		});
	}

	private serve(): void {
		const index = this.nextIndex();
		if (index === -1) return;
		const owner = this.ring[index] as string;
		const queue = this.waiting.get(owner) as Array<() => void>;
		const resolve = queue.shift() as () => void;
		if (owner !== UNOWNED && this.heldSince !== null) {
			const now = performance.now();
			// Held its whole bound: tokens' slices now go for as long, so long work gets half the turns at least.
			if (now - this.heldSince >= this.firstMs) this.tokensFreeUntil = now + this.firstMs;
			this.heldSince = null;
			if (this.heldTimer !== null) nodeTimers.clearTimeout(this.heldTimer);
			this.heldTimer = null;
		}
		if (queue.length > 0) this.cursor = index + 1;
		else {
			// Out of the ring until it asks again (then at its end): the owner after it is now at its place, or, when it was
			// the last, the first. Left at the end, the cursor pointed where the owner would be put back: one that asks again
			// at once (a slice of work after each turn, a call waiting for the index build a turn at a time) got every turn,
			// and an owner with two callers waiting before it none (a build's slice never ran: the call waited for it for ever).
			this.waiting.delete(owner);
			this.ring.splice(index, 1);
			this.cursor = this.ring.length === 0 ? 0 : index % this.ring.length;
		}
		resolve();
	}
}

/**
 * The process's lane on Node's event loop: the headless metadata cache, request bodies, and a
 * service given no way of yielding of its own take their turns here, so all of them share one.
 */
export const eventLoopTurns = new TurnLane();
