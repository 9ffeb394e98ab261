/**
 * What the searches of one phrase have worked out about the notes holding its words (the
 * phrase's list, by position in it): each note's bound from its pair sketch, and its value read
 * from its body. Kept with the phrase's notes (PostingsIndex.resolveSteps' memo, let go when any
 * note is added, changed or removed), so a phrase searched again reads no sketch and no body it
 * read before: a sketch read is a cache miss in a buffer as large as the vault, and a common
 * two-word phrase refines thousands of notes a search. The search still refines and reads the
 * same notes in the same order (only cheaper), so its page, total and notice are what they were.
 * Pure.
 */

const PAIR_BOUND_KNOWN = 1;
const VALUE_KNOWN = 2;

export class PhraseLearnt {
	/** Per note: PAIR_BOUND_KNOWN and VALUE_KNOWN bits. */
	private readonly known: Uint8Array;
	private readonly pairBounds: Uint32Array;
	private readonly values: Uint32Array;
	/** Notes whose pair sketch was learnt to hold none of the phrase's pairs: how many notes a search may leave out unread. */
	pairlessNotes = 0;

	/** Nothing learnt yet of `notes` notes. */
	constructor(readonly notes: number) {
		this.known = new Uint8Array(notes);
		this.pairBounds = new Uint32Array(notes);
		this.values = new Uint32Array(notes);
	}

	/** The `at`-th note's bound from its pair sketch, as learnt; −1 when not learnt yet. */
	pairBound(at: number): number {
		return ((this.known[at] as number) & PAIR_BOUND_KNOWN) !== 0 ? (this.pairBounds[at] as number) : -1;
	}

	learnPairBound(at: number, bound: number): void {
		if (bound === 0 && ((this.known[at] as number) & PAIR_BOUND_KNOWN) === 0) this.pairlessNotes++;
		this.pairBounds[at] = bound;
		this.known[at] = (this.known[at] as number) | PAIR_BOUND_KNOWN;
	}

	/** The phrase's packed value in the `at`-th note, read from its body, as learnt; −1 when not read yet. */
	value(at: number): number {
		return ((this.known[at] as number) & VALUE_KNOWN) !== 0 ? (this.values[at] as number) : -1;
	}

	learnValue(at: number, value: number): void {
		this.values[at] = value;
		this.known[at] = (this.known[at] as number) | VALUE_KNOWN;
	}
}
