import * as nodeTimers from "node:timers";

/** One turn of Node's event loop: an immediate set from an immediate runs at the next turn, after the network has been looked at. */
function nextImmediate(): Promise<void> {
	return new Promise((resolve) => nodeTimers.setImmediate(resolve));
}

/**
 * Hands out turns to long work one slice per event-loop turn, in arrival order. Each piece of long
 * work (a note's parse, its search indexing, a large request body's parse, a vault-wide call's
 * slices, a big answer's pieces) pauses here between its slices. Pausing on its own instead, each
 * would run a slice in the same turn as every other: one created note's parse and its indexing ran
 * back to back, and four notes created at once ran four indexing slices in a turn, while another
 * client's request waited behind all of them. Taking turns here, it waits behind one slice at most.
 */
export class TurnLane {
	private readonly waiting: Array<() => void> = [];
	private scheduled = false;

	constructor(private readonly yieldToHost: () => Promise<void> = nextImmediate) {}

	/** Resolves when it is this caller's turn to run its next slice. */
	readonly take = (): Promise<void> => {
		const turn = new Promise<void>((resolve) => this.waiting.push(resolve));
		this.schedule();
		return turn;
	};

	private schedule(): void {
		if (this.scheduled || this.waiting.length === 0) return;
		this.scheduled = true;
		void this.yieldToHost().then(() => {
			this.scheduled = false;
			this.waiting.shift()?.();
			this.schedule();
		});
	}
}

/**
 * The process's lane on Node's event loop: the headless metadata cache, request bodies, and a
 * service given no way of yielding of its own take their turns here, so all of them share one.
 */
export const eventLoopTurns = new TurnLane();
