import { VAULT_WIDE_CALL_WORK_MS, VAULT_WIDE_SLICE_MS } from "../config/limits";
import { fail, ok, type Result } from "../result";

/** Gives the event loop back for one turn: pending requests and I/O run before the work goes on. */
export function yieldToEventLoop(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}

/** Thrown by `CallBudget.checkpoint` when a call has done all the work it may do. */
export class CallOverBudget extends Error {
	constructor(readonly workMs: number) {
		super(`The call did ${workMs} ms of work, its limit`);
		this.name = "CallOverBudget";
	}
}

/**
 * The CPU one vault-wide call may use: it works in slices of `sliceMs`, giving the event loop back
 * between them, and ends with `CallOverBudget` once its slices add up to `workMs`. Only time spent
 * working counts, so a call that waited behind others is not ended for being slow through no fault of its own.
 */
export class CallBudget {
	private sliceStart = performance.now();
	private worked = 0;

	constructor(
		private readonly pause: () => Promise<void> = yieldToEventLoop,
		private readonly sliceMs: number = VAULT_WIDE_SLICE_MS,
		readonly workMs: number = VAULT_WIDE_CALL_WORK_MS,
	) {}

	/** Milliseconds of work done so far, the current slice included. */
	get workDone(): number {
		return this.worked + (performance.now() - this.sliceStart);
	}

	/**
	 * Call often inside a vault-wide loop: when the slice is used up, pauses for the event loop
	 * (or throws `CallOverBudget` when the whole budget is).
	 */
	async checkpoint(): Promise<void> {
		const slice = performance.now() - this.sliceStart;
		if (slice < this.sliceMs) return;
		this.worked += slice;
		if (this.worked >= this.workMs) throw new CallOverBudget(this.workMs);
		await this.pause();
		this.sliceStart = performance.now();
	}
}

/**
 * Runs a vault-wide computation under a fresh budget; a call over budget becomes an error the
 * model can act on (`narrowing` says how), any other failure is passed on.
 */
export async function withinCallBudget<T>(work: (budget: CallBudget) => Promise<T>, narrowing: string, pause?: () => Promise<void>): Promise<Result<T>> {
	const budget = new CallBudget(pause);
	try {
		return ok(await work(budget));
	} catch (error) {
		if (!(error instanceof CallOverBudget)) throw error;
		return fail(`This call needed more than ${error.workMs / 1000} s of work over the vault and was stopped, so other clients are not held up. ${narrowing}`);
	}
}
