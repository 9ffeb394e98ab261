import { TOKEN_ENTRIES_BEFORE_SWEEP } from "./config/limits";

/**
 * When a table kept per token (rate and write windows, places, served copies, the lane's claims)
 * forgets its entries that hold nothing: asked when a new key is about to be added, it is due once
 * the table holds TOKEN_ENTRIES_BEFORE_SWEEP entries, then twice the entries the last sweep left,
 * or once `everyMs` has passed since that sweep. So a table follows the tokens in use, not every
 * token ever served, at a cost spread over the new keys. Pure: the clock is the caller's.
 */
export class EntrySweeps {
	private above = TOKEN_ENTRIES_BEFORE_SWEEP;
	/** When the last sweep was, on the caller's clock (null: none yet; the first key asked about starts the clock). */
	private sweptAt: number | null = null;

	constructor(private readonly everyMs: number) {}

	/** Whether a table of `size` entries should sweep before its new key is added at `now`. */
	due(size: number, now: number): boolean {
		this.sweptAt ??= now;
		return size >= this.above || now - this.sweptAt >= this.everyMs;
	}

	/** The sweep at `now` left `size` entries. */
	swept(size: number, now: number): void {
		this.above = Math.max(TOKEN_ENTRIES_BEFORE_SWEEP, 2 * size);
		this.sweptAt = now;
	}
}
