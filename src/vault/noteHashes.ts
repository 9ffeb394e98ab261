import { sha256HexInPieces } from "../sha256";
import type { SliceClock } from "../markdown/steps";

/**
 * The SHA-256 of note texts as last hashed, by vault path: a note read again unchanged is not
 * hashed again (a small note's hash was most of read_note's own work). An entry counts only for
 * the very same text (compared in full unless it is the same string), so an edit, a swap or
 * another vault's note of the same path is hashed afresh. The texts kept are bounded by
 * `maxChars` all told, the first hashed dropped first.
 */
export class NoteHashes {
	/** In the order they were hashed: a Map iterates in insertion order, so the first key is the oldest. */
	private readonly hashes = new Map<string, { text: string; hash: string }>();
	private chars = 0;

	constructor(private readonly maxChars: number) {}

	/**
	 * The text's SHA-256 (hex) when it is remembered for `path`, at once: a lookup and a comparison, no
	 * more (not moved to the end: the first hashed go first). A caller that finds it here waits for no
	 * turn of the microtask queue and makes no clock, as `hashOf` would.
	 */
	remembered(path: string, text: string): string | undefined {
		const known = this.hashes.get(path);
		return known !== undefined && known.text === text ? known.hash : undefined;
	}

	/** The text's SHA-256 (hex), hashed in pieces on `clock()` when it is not remembered. */
	async hashOf(path: string, text: string, clock: () => Pick<SliceClock, "checkpoint">): Promise<string> {
		const known = this.remembered(path, text);
		if (known !== undefined) return known;
		const hash = await sha256HexInPieces(text, clock());
		this.remember(path, text, hash);
		return hash;
	}

	private remember(path: string, text: string, hash: string): void {
		// The path's older text, or one hashed meanwhile by another call (a long note's hash pauses).
		const other = this.hashes.get(path);
		if (other !== undefined) {
			this.hashes.delete(path);
			this.chars -= other.text.length;
		}
		if (text.length > this.maxChars) return;
		this.hashes.set(path, { text, hash });
		this.chars += text.length;
		for (const [oldest, entry] of this.hashes) {
			if (this.chars <= this.maxChars) break;
			this.hashes.delete(oldest);
			this.chars -= entry.text.length;
		}
	}
}
