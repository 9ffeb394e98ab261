import { sha256HexInPieces } from "../sha256";
import type { SliceClock } from "../markdown/steps";

/**
 * The SHA-256 of note texts as last hashed, by vault path: a note read again unchanged is not
 * hashed again (a small note's hash was most of read_note's own work). An entry counts only for
 * the very same text (compared in full unless it is the same string), so an edit, a swap or
 * another vault's note of the same path is hashed afresh. The texts kept are bounded by
 * `maxChars` all told, the least recently used dropped first.
 */
export class NoteHashes {
	/** In use order: a Map iterates in insertion order, so the first key is the least recently used. */
	private readonly hashes = new Map<string, { text: string; hash: string }>();
	private chars = 0;

	constructor(private readonly maxChars: number) {}

	/** The text's SHA-256 (hex), hashed in pieces on `clock()` when it is not remembered. */
	async hashOf(path: string, text: string, clock: () => Pick<SliceClock, "checkpoint">): Promise<string> {
		const known = this.hashes.get(path);
		if (known !== undefined) {
			this.hashes.delete(path);
			if (known.text === text) {
				this.hashes.set(path, known);
				return known.hash;
			}
			this.chars -= known.text.length;
		}
		const hash = await sha256HexInPieces(text, clock());
		this.remember(path, text, hash);
		return hash;
	}

	private remember(path: string, text: string, hash: string): void {
		// Hashed meanwhile by another call (a long note's hash pauses).
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
