/**
 * Token ids packed seven bits to a byte (unsigned LEB128): a note's body is kept this way in the
 * index for phrase checks and removal, where a plain Uint32Array took four bytes a token. Ids are
 * given in order of first sight, so the common words of a vault fit one byte and most others two
 * (the body is most of the index's heap). Pure.
 */

/** Appends ids to a growing byte buffer. */
export class PackedIdWriter {
	private bytes: Uint8Array;
	private used = 0;
	/** Ids written. */
	count = 0;

	constructor(expectedIds: number) {
		this.bytes = new Uint8Array(Math.max(16, expectedIds + (expectedIds >> 1)));
	}

	write(id: number): void {
		if (this.used + 5 > this.bytes.length) {
			const grown = new Uint8Array(this.bytes.length * 2 + 5);
			grown.set(this.bytes.subarray(0, this.used));
			this.bytes = grown;
		}
		let rest = id >>> 0;
		while (rest >= 0x80) {
			this.bytes[this.used++] = (rest & 0x7f) | 0x80;
			rest >>>= 7;
		}
		this.bytes[this.used++] = rest;
		this.count++;
	}

	/** Appends `bytes` zero bytes (room a caller fills after `finish`). */
	skip(bytes: number): void {
		if (this.used + bytes > this.bytes.length) {
			const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + bytes) + 5);
			grown.set(this.bytes.subarray(0, this.used));
			this.bytes = grown;
		}
		this.used += bytes;
	}

	/** Bytes written so far. */
	get byteLength(): number {
		return this.used;
	}

	/** The ids written, in a buffer of exactly their size. */
	finish(): Uint8Array {
		return this.bytes.slice(0, this.used);
	}
}

/** Unpacks every id of `packed` from byte `from` to byte `to` into `into` (which must hold them all); returns how many there are. */
export function unpackIds(packed: Uint8Array, into: Uint32Array, from = 0, to = packed.length): number {
	let count = 0;
	let value = 0;
	let shift = 0;
	for (let index = from; index < to; index++) {
		const byte = packed[index] as number;
		value |= (byte & 0x7f) << shift;
		if (byte & 0x80) {
			shift += 7;
			continue;
		}
		into[count++] = value >>> 0;
		value = 0;
		shift = 0;
	}
	return count;
}
