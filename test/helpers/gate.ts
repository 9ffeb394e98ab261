/**
 * A gate a test holds shut to stop async work at a known point (a read, a pause between slices) and
 * opens to let it go on, so a race is replayed in a fixed order instead of hoped for with timers.
 */
export class Gate {
	private opened: boolean;
	private waiters: Array<() => void> = [];
	/** How many waits found the gate shut since it was last closed: a test waits for this to know the work reached it. */
	waiting = 0;

	constructor(options: { open: boolean }) {
		this.opened = options.open;
	}

	wait(): Promise<void> {
		if (this.opened) return Promise.resolve();
		this.waiting++;
		return new Promise((resolve) => this.waiters.push(resolve));
	}

	open(): void {
		this.opened = true;
		for (const resolve of this.waiters.splice(0)) resolve();
	}

	close(): void {
		this.opened = false;
		this.waiting = 0;
	}
}
