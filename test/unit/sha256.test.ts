import fc from "fast-check";
import { createHash } from "node:crypto";
import { NOTE_TEXT_PIECE_CHARS } from "../../src/config/limits";
import { SliceClock } from "../../src/markdown/steps";
import { pieceEnd, sha256Hex, sha256HexInPieces } from "../../src/sha256";

describe("sha256Hex: a note's version, a token's stored hash", () => {
	test("known vectors: the empty text and 'abc' (FIPS 180-2)", () => {
		expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
		expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	});

	test("hashes the UTF-8 bytes: a non-ASCII note hashes as its encoded bytes, not its UTF-16 units", () => {
		const text = "Café 🌍 — naïve";
		expect(sha256Hex(text)).toBe(createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex"));
	});

	test("always 64 lowercase hex digits, and one changed character changes it", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme" }), (text) => {
				expect(sha256Hex(text)).toMatch(/^[0-9a-f]{64}$/);
				expect(sha256Hex(`${text}x`)).not.toBe(sha256Hex(text));
			}),
		);
	});
});

describe("sha256HexInPieces: a long note hashed with pauses between pieces", () => {
	test("the same digest as in one piece, with a surrogate pair or a lone surrogate at every piece boundary, and it pauses", async () => {
		let pauses = 0;
		const clock = new SliceClock(0, () => {
			pauses++;
			return Promise.resolve();
		});
		const pair = "😀";
		for (const text of [
			"a".repeat(NOTE_TEXT_PIECE_CHARS - 1) + pair + "b".repeat(NOTE_TEXT_PIECE_CHARS),
			pair.repeat(NOTE_TEXT_PIECE_CHARS + 3),
			"a".repeat(NOTE_TEXT_PIECE_CHARS - 1) + "\ud83d" + "x".repeat(10),
			"é".repeat(3 * NOTE_TEXT_PIECE_CHARS),
		])
			expect(await sha256HexInPieces(text, clock)).toBe(sha256Hex(text));
		expect(pauses).toBeGreaterThan(0);
	});

	test("a piece never ends between the two halves of a surrogate pair", () => {
		const text = "a".repeat(9) + "😀";
		expect(pieceEnd(text, 0, 10)).toBe(9);
		expect(pieceEnd(text, 0, 11)).toBe(11);
		expect(pieceEnd("abc", 0, 10)).toBe(3);
	});
});
