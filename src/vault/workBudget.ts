import { VAULT_WIDE_CALL_WORK_MS, VAULT_WIDE_SLICE_MS, SORT_CHECK_ITEMS, LINKS_PER_CLOCK_CHECK } from "../config/limits";
import { fail, ok, type Result } from "../result";
import type { Steps } from "../markdown/steps";
import { eventLoopTurns } from "../turns";

/**
 * Gives the event loop back for one turn: pending requests and I/O run before the work goes on.
 * The turn is taken in the process's lane, one slice of long work per turn in all (see TurnLane).
 */
export function yieldToEventLoop(): Promise<void> {
	return eventLoopTurns.take();
}

/** Thrown by `CallBudget.checkpoint` when a call has done all the work it may do. */
export class CallOverBudget extends Error {
	constructor(readonly workMs: number) {
		super(`The call did ${workMs} ms of work, its limit`);
		this.name = "CallOverBudget";
	}
}

/**
 * A clock of work done: this process's CPU time in ms where the runtime reports it, else wall time.
 * On a busy machine wall time also counts the time other programs had the core.
 */
export function workClockMs(): number {
	return processCpuMs() ?? performance.now();
}

/**
 * A stopwatch of work started now: each reading is the ms of work since, the process's CPU time
 * where the runtime reports it, never more than the wall time (the process's CPU time also counts
 * helper threads beside this one: the garbage collector, the thread pool, a renderer's compositor).
 * Time the system gave the core to other programs is not counted, so the same work reads the same
 * on a quiet machine and a busy one. A reading asked to tell only whether the work passed `bound`
 * ms is the wall time while that is within it (the work cannot be more): reading the CPU clock
 * costs about ten times as much, and a base looks every 64 steps.
 */
export function startWorkStopwatch(): (bound?: number) => number {
	const wallStart = performance.now();
	const cpuStart = processCpuMs();
	return (bound = -1) => {
		const wall = performance.now() - wallStart;
		if (wall <= bound) return wall;
		const cpuNow = cpuStart === null ? null : processCpuMs();
		return cpuNow === null || cpuStart === null ? wall : Math.min(wall, cpuNow - cpuStart);
	};
}

/** CPU time this process has used, in ms, where the runtime tells it (Node and Electron do); else null. */
function processCpuMs(): number | null {
	if (typeof process === "undefined" || typeof process.cpuUsage !== "function") return null;
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
}

/**
 * The CPU one vault-wide call may use: it works in slices of `sliceMs`, giving the event loop back
 * between them, and ends with `CallOverBudget` once its slices add up to `workMs` of work. Only
 * work counts: not the time spent waiting behind others between slices, nor (where the runtime
 * reports CPU time) the time the system gave the core to other programs, so a busy machine does
 * not end calls that did little.
 */
export class CallBudget {
	private sliceStart = performance.now();
	private sliceWork = startWorkStopwatch();
	private worked = 0;

	constructor(
		private readonly pause: () => Promise<void> = yieldToEventLoop,
		private readonly sliceMs: number = VAULT_WIDE_SLICE_MS,
		readonly workMs: number = VAULT_WIDE_CALL_WORK_MS,
	) {}

	/** Milliseconds of work done in the slices that have ended. */
	get workDone(): number {
		return this.worked;
	}

	/**
	 * Starts a fresh slice now: what ran since the last one (a search helping the index build, work
	 * the build does anyway and that gave the event loop back on its own) is not this call's work.
	 */
	beginSlice(): void {
		this.sliceStart = performance.now();
		this.sliceWork = startWorkStopwatch();
	}

	/** True when the slice is used up: the loop should `await checkpoint()` (most steps need not await at all). */
	due(): boolean {
		return performance.now() - this.sliceStart >= this.sliceMs;
	}

	/** Gives the host one turn now, whatever is left of the slice, and starts a fresh slice after it. */
	async nextTurn(): Promise<void> {
		await this.endSlice();
	}

	/**
	 * Call often inside a vault-wide loop: when the slice is used up, pauses for the event loop
	 * (or throws `CallOverBudget` when the whole budget is).
	 */
	async checkpoint(): Promise<void> {
		if (this.due()) await this.endSlice();
	}

	/** Counts the slice's work, then pauses (or throws `CallOverBudget` when the whole budget is used). */
	private async endSlice(): Promise<void> {
		this.worked += this.sliceWork();
		if (this.worked >= this.workMs) throw new CallOverBudget(this.workMs);
		await this.pause();
		this.beginSlice();
	}
}

/** Runs stepped work (one huge note's tasks or tags) to its end, pausing on `budget` when there is one. */
export async function runStepsOnBudget<T>(steps: Steps<T>, budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<T> {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
		if (budget?.due()) await budget.checkpoint();
	}
}

/**
 * `items` (a list, or a set or map: its entries) mapped by `each` into a new list, as `Array.prototype.map`, looking at `budget`'s clock every LINKS_PER_CLOCK_CHECK
 * items (none: in one piece). `items` must not change at its pauses. A list of 100,000 entries made at once was a piece of
 * tens of ms (get_note_links' backlinks of a hub).
 */
export async function mapOnBudget<T, U>(
	items: readonly T[] | (Iterable<T> & { readonly size: number }),
	each: (item: T) => U,
	budget?: Pick<CallBudget, "due" | "checkpoint">,
): Promise<U[]> {
	// A list is read by index, a run of LINKS_PER_CLOCK_CHECK items between two looks at the clock, into a list grown a
	// push at a time (kept packed): read by its iterator into a list made at its length, with a remainder an item, a
	// finished walk's answer of 100,000 backlinks took 32 ms of the main thread's CPU where `Array.prototype.map` took 20
	// (review183, load 31); this way, 20.
	const mapped: U[] = [];
	if (isList(items)) {
		for (let at = 0; at < items.length;) {
			const end = Math.min(items.length, at + LINKS_PER_CLOCK_CHECK);
			for (; at < end; at++) mapped.push(each(items[at] as T));
			if (at < items.length && budget?.due()) await budget.checkpoint();
		}
		return mapped;
	}
	let left = LINKS_PER_CLOCK_CHECK;
	for (const item of items) {
		mapped.push(each(item));
		if (--left > 0) continue;
		left = LINKS_PER_CLOCK_CHECK;
		if (budget?.due()) await budget.checkpoint();
	}
	return mapped;
}

function isList<T>(items: readonly T[] | Iterable<T>): items is readonly T[] {
	return Array.isArray(items);
}

/** How vault-wide calls are run: how they give the host its turn, their slice and their whole budget. */
export interface CallBudgetSettings {
	pause: () => Promise<void>;
	sliceMs: number;
	callWorkMs: number;
	/** Milliseconds between a long call's progress notifications (mcp/progress.ts); default PROGRESS_NOTIFICATION_INTERVAL_MS. */
	progressIntervalMs?: number;
}

/**
 * Sorts like `Array.prototype.sort` (stable; the same order for a comparison that never says two
 * different items are equal), in slices: a bottom-up merge sort that pauses on `budget`, so sorting
 * every note of a large vault is never one long piece.
 */
export function sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number, budget: Pick<CallBudget, "due" | "checkpoint">): Promise<T[]> {
	return new MergeSortInPieces([...items], compare).run(budget);
}

/**
 * `sortInSlices` as an object that keeps where it is: a call stopped at its budget inside the sort (a checkpoint throws)
 * leaves it to the next `run`, which goes on from the item it stopped at. Kept by a walk whose first answer is a sort
 * of every linking file: redone from the start at each call, a sort longer than one call's budget never ended.
 */
export class MergeSortInPieces<T> {
	private from: T[];
	private into: T[];
	private width = 1;
	private start = 0;
	/** The merge of `start`'s two runs under way: the next item out, and the next of each run. */
	private out = 0;
	private left = 0;
	private right = 0;
	private result: T[] | null = null;

	/** Sorts `items` itself, as `Array.prototype.sort` does (a copy of 100,000 was another piece). */
	constructor(
		items: T[],
		private readonly compare: (a: T, b: T) => number,
	) {
		this.from = items;
		this.into = new Array<T>(this.from.length);
		this.beginMerge(0);
	}

	/** Whether the list is sorted: `run` answers at once. */
	get sorted(): boolean {
		return this.result !== null;
	}

	/** Goes on to the end, pausing on `budget` (none: in one piece); the sorted list. */
	async run(budget?: Pick<CallBudget, "due" | "checkpoint">): Promise<T[]> {
		if (this.result) return this.result;
		const { compare } = this;
		let since = 0;
		for (; this.width < this.from.length; this.width *= 2, this.beginMerge(0), [this.from, this.into] = [this.into, this.from]) {
			for (; this.start < this.from.length; this.beginMerge(this.start + 2 * this.width)) {
				const { from, into } = this;
				const middle = Math.min(this.start + this.width, from.length);
				const end = Math.min(this.start + 2 * this.width, from.length);
				let { left, right } = this;
				for (let out = this.out; out < end;) {
					const takeLeft = right >= end || (left < middle && compare(from[left] as T, from[right] as T) <= 0);
					into[out++] = (takeLeft ? from[left++] : from[right++]) as T;
					// Inside a merge too: the last passes merge halves of the whole list, 800,000 tags in one piece.
					if (++since >= SORT_CHECK_ITEMS) {
						since = 0;
						// Where the merge is, before a checkpoint that may stop the call here.
						this.out = out;
						this.left = left;
						this.right = right;
						if (budget?.due()) await budget.checkpoint();
					}
				}
			}
		}
		this.result = this.from;
		this.into = [];
		return this.result;
	}

	private beginMerge(start: number): void {
		this.start = start;
		this.out = start;
		this.left = start;
		this.right = Math.min(start + this.width, this.from.length);
	}
}

/**
 * What the same call does when made again after it was stopped at its budget: `resumes` from what
 * the stopped one worked out (kept by the server: the search index and the notes' bodies it read,
 * a tag count where it stopped, the graph counts note by note, each note's tasks, a note's own links
 * resolved so far), or `redoes` all of it (nothing is kept: the counts of get_vault_status). The answer says
 * which: an agent told the same call gets further calls it again, forever when it never does.
 */
export type StoppedCallAgain = "resumes" | "redoes";

/**
 * What a vault-wide call stopped at its budget tells the model: whether calling again helps (for a
 * call that keeps only some of its work, asked at the stop: where it stopped decides), and how to
 * narrow the call.
 */
export interface WhenStopped {
	again: StoppedCallAgain | (() => StoppedCallAgain);
	narrowing: string;
}

/**
 * Runs a vault-wide computation under a fresh budget; a call over budget becomes an error the
 * model can act on (`stopped` says whether the same call again gets further, and how to narrow
 * it), any other failure is passed on.
 */
export async function withinCallBudget<T>(work: (budget: CallBudget) => Promise<T>, stopped: WhenStopped, settings?: CallBudgetSettings): Promise<Result<T>> {
	const budget = settings ? new CallBudget(settings.pause, settings.sliceMs, settings.callWorkMs) : new CallBudget();
	try {
		return ok(await work(budget));
	} catch (error) {
		if (!(error instanceof CallOverBudget)) throw error;
		const again =
			(typeof stopped.again === "function" ? stopped.again() : stopped.again) === "resumes"
				? "What it worked out is kept, so the same call again gets further."
				: "The same call again would need as much: nothing it worked out is kept.";
		return fail(
			`This call needed more than ${error.workMs / 1000} s of work over the vault and was stopped, so other clients are not held up. ${again} ${stopped.narrowing}`,
		);
	}
}
