import { NOTE_TEXT_PIECE_CHARS } from "../config/limits";

/** The largest char code a string of one byte a character holds. */
const MAX_ONE_BYTE_CODE = 0xff;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/**
 * A text with a character wider than one byte, kept as its UTF-8 bytes: V8 keeps such a string at
 * two bytes a character (one emoji, as in a task's date, is enough), and notes are mostly ASCII.
 */
class WideText {
	constructor(
		readonly bytes: Uint8Array,
		/** The text's length in characters, what the budget counts. */
		readonly length: number,
	) {}
}

/** True when a character of `text` is wider than one byte. */
function hasWide(text: string): boolean {
	for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > MAX_ONE_BYTE_CODE) return true;
	return false;
}

/**
 * `text` as kept: its UTF-8 bytes when it has a wide character and is at most NOTE_TEXT_PIECE_CHARS
 * long (a read then decodes it whole, a piece of a few milliseconds at most, as a read from disk
 * decodes the file), else as it is (also when a lone surrogate has no UTF-8 that gives it back).
 * On the realistic 10,000-note vault the full cache held 3.96 MiB; as UTF-8 about 2 MiB.
 */
function kept(text: string): string | WideText {
	if (text.length > NOTE_TEXT_PIECE_CHARS || !hasWide(text)) return text;
	const bytes = utf8.encode(text);
	return fromUtf8.decode(bytes) === text ? new WideText(bytes, text.length) : text;
}

/**
 * Note texts kept in memory, the least recently used dropped first once they hold more than
 * `maxChars` characters. Every note's text kept for good would cost more than the notes on disk
 * (V8 stores a text with one emoji or CJK character at two bytes a character), so on a big vault
 * only the notes in use stay; a miss reads the disk, as the first read did.
 */
export class TextCache {
	/** In use order: a Map iterates in insertion order, so the first key is the least recently used. */
	private readonly texts = new Map<string, string | WideText>();
	private chars = 0;
	/** The key last in use order, when known: read again (one note read over and over), it is not moved. */
	private newest: string | undefined = undefined;

	constructor(private readonly maxChars: number) {}

	get(path: string): string | undefined {
		const text = this.texts.get(path);
		if (text === undefined) return undefined;
		// Moving the newest key to the end changes nothing, and a delete and set of a Map's key cost microseconds.
		if (path !== this.newest) {
			this.texts.delete(path);
			this.texts.set(path, text);
			this.newest = path;
		}
		return text instanceof WideText ? fromUtf8.decode(text.bytes) : text;
	}

	set(path: string, text: string): void {
		this.delete(path);
		// A text bigger than the whole budget would only push every other note out, then itself.
		if (text.length > this.maxChars) return;
		this.texts.set(path, kept(text));
		this.newest = path;
		this.chars += text.length;
		for (const [oldest, oldText] of this.texts) {
			if (this.chars <= this.maxChars) break;
			this.texts.delete(oldest);
			this.chars -= oldText.length;
		}
	}

	delete(path: string): void {
		const text = this.texts.get(path);
		if (text === undefined) return;
		this.texts.delete(path);
		if (path === this.newest) this.newest = undefined;
		this.chars -= text.length;
	}
}
