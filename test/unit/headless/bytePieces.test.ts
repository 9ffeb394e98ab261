import * as fc from "fast-check";
import { closeSync, openSync, promises as fs, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { NOTE_TEXT_PIECE_CHARS } from "../../../src/config/limits";
import { decodeInPieces, encodeInPieces, fileHoldsAt, fileStartsWith, readInPieces } from "../../../src/headless/bytePieces";
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

	test("a file read in pieces gives its bytes, and the text a decoding of the whole gives, valid or not", async () => {
		const file = nodePath.join(folder, "note.md");
		await fc.assert(
			fc.asyncProperty(noteBytes, fc.integer({ min: 0, max: 2 }), async (bytes, sizeGuess) => {
				writeFileSync(file, bytes);
				const fd = openSync(file, "r");
				try {
					// The expected size may be off (the file grew or shrank since its stats were taken).
					const size = [bytes.length, 0, Math.floor(bytes.length / 3)][sizeGuess] ?? 0;
					const read = await readInPieces(fd, size, noPause);
					expect(read.bytes.equals(bytes)).toBe(true);
					expect(read.text).toBe(bytes.toString("utf8"));
					expect(read.utf8).toBe(Buffer.from(read.text, "utf8").equals(bytes));
				} finally {
					closeSync(fd);
				}
				expect(await decodeInPieces(bytes, noPause)).toBe(bytes.toString("utf8"));
			}),
			{ numRuns: 60 },
		);
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
