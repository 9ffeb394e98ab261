/**
 * Note texts kept in memory, the least recently used dropped first once they hold more than
 * `maxChars` characters. Every note's text kept for good would cost more than the notes on disk
 * (V8 stores a text with one emoji or CJK character at two bytes a character), so on a big vault
 * only the notes in use stay; a miss reads the disk, as the first read did.
 */
export class TextCache {
	/** In use order: a Map iterates in insertion order, so the first key is the least recently used. */
	private readonly texts = new Map<string, string>();
	private chars = 0;
	/** The key last in use order, when known: read again (one note read over and over), it is not moved. */
	private newest: string | undefined = undefined;

	constructor(private readonly maxChars: number) {}

	get(path: string): string | undefined {
		const text = this.texts.get(path);
		if (text === undefined) return undefined;
		// Moving the newest key to the end changes nothing, and a delete and set of a Map's key cost microseconds.
		if (path === this.newest) return text;
		this.texts.delete(path);
		this.texts.set(path, text);
		this.newest = path;
		return text;
	}

	set(path: string, text: string): void {
		this.delete(path);
		// A text bigger than the whole budget would only push every other note out, then itself.
		if (text.length > this.maxChars) return;
		this.texts.set(path, text);
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
