import { WATCH_QUEUE_COMPACTED_AT } from "../config/limits";

/** A watch event a look or listing has not answered yet, numbered in the order events came. */
export interface OpenEvent {
	readonly number: number;
	answered: boolean;
}

/** A wait for the events up to `upTo` to be answered: `onEnd` is called once, when they are, when it is ended early, or at `endAll`. */
interface EventWait {
	readonly upTo: number;
	ended: boolean;
	readonly onEnd: () => void;
}

/**
 * The file watcher's events not yet answered, oldest first, and the waits for all those up to a
 * number to be answered (a dropping unlink waits for a rename's other half among them). Answered
 * events and ended waits are cut out once they are most of their queue and it holds more than
 * `compactedAt`, not only those at the front: a look that never ends (a share that stopped
 * answering) holds the front, and every event answered after it was kept, about one a look (4 MB
 * an hour beside a busy writer), as was every wait that ran out of time. So each queue holds at
 * most `compactedAt` or twice what is still open. Amortized constant work: a compaction costs at
 * most twice what it cuts out. Events must be opened with numbers that never decrease.
 */
export class OpenEvents {
	private events: OpenEvent[] = [];
	/** Events before this index are answered (skipped without a look). */
	private eventsFrom = 0;
	/** Answered events still in `events`. */
	private answeredKept = 0;
	private waits: EventWait[] = [];
	/** Waits before this index are ended. */
	private waitsFrom = 0;
	/** Ended waits still in `waits`. */
	private waitsEnded = 0;

	constructor(private readonly compactedAt = WATCH_QUEUE_COMPACTED_AT) {}

	/** Entries held, answered events and ended waits not yet cut out among them. */
	get held(): { events: number; waits: number } {
		return { events: this.events.length, waits: this.waits.length };
	}

	/** An event numbered `number` (no lower than any opened before), open until `answered`. */
	opened(number: number): OpenEvent {
		const open = { number, answered: false };
		this.events.push(open);
		return open;
	}

	/** Whether every event numbered up to `upTo` is answered. */
	answeredUpTo(upTo: number): boolean {
		return this.oldestOpen() > upTo;
	}

	/** Marks an event answered (again: nothing), and ends the waits whose events are all answered now. */
	answered(open: OpenEvent | null): void {
		if (open === null || open.answered) return;
		open.answered = true;
		this.answeredKept++;
		while (this.events[this.eventsFrom]?.answered === true) this.eventsFrom++;
		const oldestOpen = this.oldestOpen();
		for (let wait = this.waits[this.waitsFrom]; wait !== undefined && wait.upTo < oldestOpen; wait = this.waits[this.waitsFrom]) {
			this.waitsFrom++;
			this.end(wait);
		}
		this.compact();
	}

	/**
	 * Calls `onEnd` once the events up to `upTo` are answered, and gives what ends the wait sooner
	 * (it ran out of time); null, and no call, when they are answered already.
	 */
	waitFor(upTo: number, onEnd: () => void): (() => void) | null {
		if (this.answeredUpTo(upTo)) return null;
		const wait: EventWait = { upTo, ended: false, onEnd };
		this.waits.push(wait);
		return () => {
			this.end(wait);
			this.compact();
		};
	}

	/** Ends every wait (the watcher closed). */
	endAll(): void {
		const waits = this.waits;
		this.waits = [];
		this.waitsFrom = 0;
		this.waitsEnded = 0;
		for (const wait of waits)
			if (!wait.ended) {
				wait.ended = true;
				wait.onEnd();
			}
	}

	private oldestOpen(): number {
		return this.events[this.eventsFrom]?.number ?? Infinity;
	}

	private end(wait: EventWait): void {
		if (wait.ended) return;
		wait.ended = true;
		this.waitsEnded++;
		wait.onEnd();
	}

	private compact(): void {
		if (this.events.length > this.compactedAt && this.answeredKept * 2 > this.events.length) {
			this.events = this.events.filter((open) => !open.answered);
			this.eventsFrom = 0;
			this.answeredKept = 0;
		}
		if (this.waits.length > this.compactedAt && this.waitsEnded * 2 > this.waits.length) {
			this.waits = this.waits.filter((wait) => !wait.ended);
			this.waitsFrom = 0;
			this.waitsEnded = 0;
		}
	}
}
