import * as fc from "fast-check";
import { appendFileSync, closeSync, openSync, promises as fs, readFileSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { NOTE_READ_GROWTH_BYTES, NOTE_TEXT_PIECE_CHARS } from "../../../src/config/limits";
import {
	decodeInPieces,
	decodeInvalidInPieces,
	encodeInPieces,
	fileHoldsAt,
	fileStartsWith,
	readBytesInPieces,
	readInPieces,
} from "../../../src/headless/bytePieces";
import { makeTempDir, removeDir } from "../../helpers/vault";

const noPause = (): Promise<void> => Promise.resolve();

/** Bytes of mostly multi-byte characters around piece boundaries, sometimes with invalid sequences. */
const noteBytes = fc
	.tuple(
		fc.array(fc.constantFrom("a", "\n", "é", "€", "😀", "\u0301"), { minLength: 0, maxLength: 400 }),
		fc.integer({ min: 0, max: 3 }),
		fc.option(fc.uint8Array({ minLength: 1, maxLength: 4 }), { nil: undefined }),
		fc.nat(),
	)
	.map(([characters, copies, junk, at]) => {
		// Past one piece, so the reads are cut inside characters.
		const text = characters.join("").repeat(1 + copies * Math.ceil(NOTE_TEXT_PIECE_CHARS / Math.max(1, characters.join("").length)));
		const bytes = Buffer.from(text, "utf8");
		if (junk === undefined) return bytes;
		const cut = bytes.length === 0 ? 0 : at % bytes.length;
		return Buffer.concat([bytes.subarray(0, cut), Buffer.from(junk), bytes.subarray(cut)]);
	});

describe("bytePieces", () => {
	let folder: string;
	beforeAll(async () => {
		folder = await makeTempDir("byte-pieces-");
	});
	afterAll(async () => {
		await removeDir(folder);
	});

	/**
	 * The contract changed with the bound on growth (it used to be "whatever `readFileSync` gives, to
	 * the end, whatever size was said"): a file another program keeps appending to is read only to
	 * NOTE_READ_GROWTH_BYTES past the size said, so an edit ends however fast it grows. A size said too
	 * small (0, a third) stands for a file that grew that much since its stats were taken: what was
	 * read is then a prefix of the file, ending at a line end of its last piece where it has one (else
	 * after a whole character), and its text is the decoding of exactly those bytes.
	 */
	test("a file read in pieces gives its bytes and their text, valid or not, to its end or to the growth bound past the size said", async () => {
		const file = nodePath.join(folder, "note.md");
		await fc.assert(
			fc.asyncProperty(noteBytes, fc.integer({ min: 0, max: 2 }), async (bytes, sizeGuess) => {
				writeFileSync(file, bytes);
				const fd = openSync(file, "r");
				try {
					// The expected size may be off (the file grew or shrank since its stats were taken).
					const size = [bytes.length, 0, Math.floor(bytes.length / 3)][sizeGuess] ?? 0;
					const bound = size + NOTE_READ_GROWTH_BYTES;
					const read = await readInPieces(fd, size, noPause);
					expect(read.bytes.equals(bytes.subarray(0, read.bytes.length))).toBe(true);
					if (bytes.length <= bound) expect(read.bytes.length).toBe(bytes.length);
					else {
						expect(read.bytes.length).toBeLessThanOrEqual(bound);
						// The last line end of the last piece read, or (none there) a whole character's end.
						const lastPiece = bytes.subarray(bound - NOTE_TEXT_PIECE_CHARS, bound);
						if (lastPiece.includes(0x0a)) {
							expect(read.bytes[read.bytes.length - 1]).toBe(0x0a);
							expect(bytes.subarray(read.bytes.length, bound).includes(0x0a)).toBe(false);
						} else expect(read.bytes.length).toBeGreaterThanOrEqual(bound - 3);
					}
					expect(read.text).toBe(read.bytes.toString("utf8"));
					expect(read.utf8).toBe(Buffer.from(read.text, "utf8").equals(read.bytes));
				} finally {
					closeSync(fd);
				}
				expect(await decodeInPieces(bytes, noPause)).toBe(bytes.toString("utf8"));
			}),
			{ numRuns: 60 },
		);
	});

	test("a file another program appends to faster than it is read is read to its size when opened and the growth bound, ending a line, not chased to its end", async () => {
		const file = nodePath.join(folder, "growing.md");
		const start = "# Log\n" + "- é€😀 entry\n".repeat(20_000);
		writeFileSync(file, start);
		const fd = openSync(file, "r");
		let pauses = 0;
		try {
			// Another program appends 256 KiB of whole lines between any two pieces read: four times what a piece reads.
			const appended = Buffer.from("- appended line\n".repeat(16 * 1024));
			const read = await readInPieces(fd, Buffer.byteLength(start), () => {
				// Before: read on for as long as the other program appended (here, stopped after 2,000 pieces).
				if (++pauses > 2_000) throw new Error("still reading");
				appendFileSync(file, appended);
				return Promise.resolve();
			});
			const bound = Buffer.byteLength(start) + NOTE_READ_GROWTH_BYTES;
			expect(read.bytes.length).toBeLessThanOrEqual(bound);
			expect(read.bytes.length).toBeGreaterThan(bound - NOTE_TEXT_PIECE_CHARS);
			expect(read.text.startsWith(start)).toBe(true);
			expect(read.text.endsWith("- appended line\n")).toBe(true);
			expect(read.bytes.equals(readFileSync(file).subarray(0, read.bytes.length))).toBe(true);
			expect(read.utf8).toBe(true);
			expect(pauses).toBeLessThanOrEqual(Math.ceil(bound / NOTE_TEXT_PIECE_CHARS));
		} finally {
			closeSync(fd);
		}
	});

	test("a file grown by one endless line is cut after a whole character at the growth bound", async () => {
		const file = nodePath.join(folder, "one-line.md");
		// Four-byte characters with no line end: the bound falls inside one of them.
		writeFileSync(file, "😀".repeat(60_000));
		const fd = openSync(file, "r");
		try {
			const read = await readInPieces(fd, 1, noPause);
			expect(read.bytes.length % 4).toBe(0);
			expect(read.bytes.length).toBeLessThanOrEqual(1 + NOTE_READ_GROWTH_BYTES);
			expect(read.bytes.length).toBeGreaterThan(1 + NOTE_READ_GROWTH_BYTES - 4);
			expect(read.text).toBe("😀".repeat(read.bytes.length / 4));
			expect(read.utf8).toBe(true);
		} finally {
			closeSync(fd);
		}
	});

	test("a file that ends exactly at the growth bound is read whole", async () => {
		const file = nodePath.join(folder, "at-bound.md");
		const text = "x".repeat(100 + NOTE_READ_GROWTH_BYTES - 1) + "y";
		writeFileSync(file, text);
		const fd = openSync(file, "r");
		try {
			expect((await readInPieces(fd, 100, noPause)).text).toBe(text);
		} finally {
			closeSync(fd);
		}
	});

	test("a megabyte is read and decoded a piece at a time", async () => {
		const file = nodePath.join(folder, "big.md");
		const text = "é€😀 line\n".repeat(80_000);
		await fs.writeFile(file, text);
		const fd = openSync(file, "r");
		let pauses = 0;
		try {
			const read = await readInPieces(fd, Buffer.byteLength(text), () => {
				pauses++;
				return Promise.resolve();
			});
			expect(read.text).toBe(text);
		} finally {
			closeSync(fd);
		}
		expect(pauses).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(text) / NOTE_TEXT_PIECE_CHARS));
	});

	test("megabytes with bad bytes throughout are decoded a piece at a time, to exactly the text a decoding of the whole gives", async () => {
		// Truncated, overlong, surrogate, out-of-range and lone continuation sequences, a byte-order mark first, and
		// the bad sequences placed across the pieces' cuts as well as inside them.
		const bad = [[0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xf0, 0x9f, 0x98], [0xff], [0xe0, 0x80]];
		const parts: Buffer[] = [Buffer.from([0xef, 0xbb, 0xbf])];
		let length = 3;
		for (let index = 0; length < 3 * 1024 * 1024; index++) {
			const text = Buffer.from(`é€😀 line ${index}\n`);
			const junk = Buffer.from(bad[index % bad.length] ?? []);
			// Now and then right before a cut between two pieces.
			const toCut = NOTE_TEXT_PIECE_CHARS - (length % NOTE_TEXT_PIECE_CHARS);
			const filler = index % 7 === 0 && toCut > junk.length ? Buffer.alloc(toCut - 1, 0x61) : Buffer.alloc(0);
			parts.push(text, filler, junk);
			length += text.length + filler.length + junk.length;
		}
		const bytes = Buffer.concat(parts);
		let pauses = 0;
		const counted = () => {
			pauses++;
			return Promise.resolve();
		};
		// Before: decoded whole, with no pause.
		expect(await decodeInPieces(bytes, counted)).toBe(bytes.toString("utf8"));
		expect(pauses).toBeGreaterThanOrEqual(Math.floor(bytes.length / NOTE_TEXT_PIECE_CHARS) - 1);
		const file = nodePath.join(folder, "bad.md");
		writeFileSync(file, bytes);
		const fd = openSync(file, "r");
		pauses = 0;
		try {
			const read = await readInPieces(fd, bytes.length, counted);
			expect(read.text).toBe(bytes.toString("utf8"));
			expect(read.utf8).toBe(false);
		} finally {
			closeSync(fd);
		}
		// The read's pieces and the decode's, each a piece at a time.
		expect(pauses).toBeGreaterThanOrEqual(2 * Math.floor(bytes.length / NOTE_TEXT_PIECE_CHARS) - 2);
	});

	test("a file's bytes read in pieces as they are, to its end or the limit, one pause a piece and no decode", async () => {
		// Three and a half pieces, with a byte that is not UTF-8 in the first: readInPieces paused for its decode too.
		const bytes = Buffer.alloc(Math.floor(NOTE_TEXT_PIECE_CHARS * 3.5), "ab\n");
		bytes[10] = 0xff;
		const file = nodePath.join(folder, "copy.md");
		writeFileSync(file, bytes);
		const fd = openSync(file, "r");
		let pauses = 0;
		const counted = (): Promise<void> => {
			pauses++;
			return Promise.resolve();
		};
		try {
			expect((await readBytesInPieces(fd, bytes.length * 2, counted)).equals(bytes)).toBe(true);
			// One a piece read (the last before the read that finds the end); readInPieces took as many again for its decode.
			expect(pauses).toBe(Math.ceil(bytes.length / NOTE_TEXT_PIECE_CHARS));
			expect((await readBytesInPieces(fd, NOTE_TEXT_PIECE_CHARS + 5, noPause)).equals(bytes.subarray(0, NOTE_TEXT_PIECE_CHARS + 5))).toBe(true);
			expect((await readBytesInPieces(fd, 0, noPause)).length).toBe(0);
		} finally {
			closeSync(fd);
		}
	});

	test("bad bytes anywhere decode in pieces to the text of a decoding of the whole", async () => {
		await fc.assert(
			fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.nat({ max: 8 }), async (random, before) => {
				// The random bytes across the cut between the first two pieces.
				const bytes = Buffer.concat([Buffer.alloc(NOTE_TEXT_PIECE_CHARS - before, 0x61), random, Buffer.from("é\n")]);
				expect(await decodeInvalidInPieces(bytes, noPause)).toBe(bytes.toString("utf8"));
			}),
			{ numRuns: 150 },
		);
	});

	test("text is made into the bytes of the whole, a piece at a time, surrogate pairs kept whole", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(fc.constantFrom("a", "😀", "é", "\n"), { maxLength: 200 }), fc.nat({ max: 3 }), async (characters, copies) => {
				const text = characters.join("").repeat(1 + copies * 700);
				let pauses = 0;
				const pieces = await encodeInPieces(text, () => {
					pauses++;
					return Promise.resolve();
				});
				expect(Buffer.concat(pieces).equals(Buffer.from(text, "utf8"))).toBe(true);
				expect(pauses).toBe(Math.max(0, pieces.length - 1));
				for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(4 * NOTE_TEXT_PIECE_CHARS);
			}),
			{ numRuns: 40 },
		);
	});

	test("a file is said to start with the parts only when it does, and to hold nothing more only when exactly", async () => {
		const file = nodePath.join(folder, "parts.md");
		const whole = Buffer.from("x".repeat(NOTE_TEXT_PIECE_CHARS + 10) + "end\n");
		writeFileSync(file, whole);
		const fd = openSync(file, "r");
		try {
			const head = whole.subarray(0, NOTE_TEXT_PIECE_CHARS + 5);
			const tail = whole.subarray(NOTE_TEXT_PIECE_CHARS + 5);
			expect(fileStartsWith(fd, [head, tail], true)).toBe(true);
			expect(fileStartsWith(fd, [head])).toBe(true);
			expect(fileStartsWith(fd, [head], true)).toBe(false);
			expect(fileStartsWith(fd, [head, Buffer.from("xxxxxend?")])).toBe(false);
			expect(fileStartsWith(fd, [whole, Buffer.from("more")])).toBe(false);
			expect(fileStartsWith(fd, [])).toBe(true);
		} finally {
			closeSync(fd);
		}
	});

	test("a file is said to hold bytes at a place only when all of them are there", () => {
		const file = nodePath.join(folder, "held.md");
		writeFileSync(file, "- one\n- two\n");
		const fd = openSync(file, "r");
		try {
			expect(fileHoldsAt(fd, Buffer.from("- two\n"), 6)).toBe(true);
			expect(fileHoldsAt(fd, Buffer.from("- two\n"), 0)).toBe(false);
			// Past the end: fewer bytes than asked for.
			expect(fileHoldsAt(fd, Buffer.from("- two\n- three\n"), 6)).toBe(false);
			expect(fileHoldsAt(fd, Buffer.alloc(0), 12)).toBe(true);
		} finally {
			closeSync(fd);
		}
	});
});
