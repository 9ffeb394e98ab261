import { sha256Hex } from "../../../src/sha256";
import { NoteHashes } from "../../../src/vault/noteHashes";

/** A clock factory that counts how often a text is hashed (it is asked for one per hash). */
function countingClock(): { clock: () => { checkpoint: () => Promise<void> }; hashed: () => number } {
	let made = 0;
	return {
		clock: () => {
			made++;
			return { checkpoint: () => Promise.resolve() };
		},
		hashed: () => made,
	};
}

describe("NoteHashes", () => {
	test("a note read again unchanged is not hashed again; its hash is the text's SHA-256", async () => {
		const hashes = new NoteHashes(1000);
		const { clock, hashed } = countingClock();
		const text = "# Hello\n\nA short note.\n";
		expect(await hashes.hashOf("Hello.md", text, clock)).toBe(sha256Hex(text));
		// An equal text made anew (read from disk again) counts as unchanged too.
		expect(await hashes.hashOf("Hello.md", `${"# Hello\n\n"}A short note.\n`, clock)).toBe(sha256Hex(text));
		expect(hashed()).toBe(1);
	});

	test("a remembered hash is given at once, without a clock; none for a text not hashed, edited, or of another path", async () => {
		const hashes = new NoteHashes(1000);
		const { clock, hashed } = countingClock();
		const text = "# Hello\n\nA short note.\n";
		expect(hashes.remembered("Hello.md", text)).toBeUndefined();
		await hashes.hashOf("Hello.md", text, clock);
		// A plain string, not a promise: read_note takes it without waiting for a turn.
		expect(hashes.remembered("Hello.md", `${"# Hello\n\n"}A short note.\n`)).toBe(sha256Hex(text));
		expect(hashes.remembered("Hello.md", "# Hello\n\nEdited.\n")).toBeUndefined();
		expect(hashes.remembered("Other.md", text)).toBeUndefined();
		expect(hashed()).toBe(1);
	});

	test("an edited note, or another note of the same path, is hashed afresh", async () => {
		const hashes = new NoteHashes(1000);
		const { clock, hashed } = countingClock();
		expect(await hashes.hashOf("A.md", "one", clock)).toBe(sha256Hex("one"));
		expect(await hashes.hashOf("A.md", "two", clock)).toBe(sha256Hex("two"));
		expect(await hashes.hashOf("A.md", "one", clock)).toBe(sha256Hex("one"));
		expect(await hashes.hashOf("B.md", "one", clock)).toBe(sha256Hex("one"));
		expect(hashed()).toBe(4);
	});

	test("keeps texts up to its bound, the first hashed dropped first; a text over it is hashed every time", async () => {
		const hashes = new NoteHashes(10);
		const { clock, hashed } = countingClock();
		await hashes.hashOf("A.md", "aaaa", clock);
		await hashes.hashOf("B.md", "bbbb", clock);
		await hashes.hashOf("A.md", "aaaa", clock);
		// 12 characters: A, the first hashed, goes.
		await hashes.hashOf("C.md", "cccc", clock);
		expect(hashed()).toBe(3);
		await hashes.hashOf("B.md", "bbbb", clock);
		await hashes.hashOf("C.md", "cccc", clock);
		expect(hashed()).toBe(3);
		await hashes.hashOf("A.md", "aaaa", clock);
		expect(hashed()).toBe(4);
		// An edited note's older text no longer counts against the bound.
		await hashes.hashOf("C.md", "cc", clock);
		await hashes.hashOf("C.md", "cc", clock);
		expect(hashed()).toBe(5);
		const long = "x".repeat(11);
		expect(await hashes.hashOf("L.md", long, clock)).toBe(sha256Hex(long));
		await hashes.hashOf("L.md", long, clock);
		expect(hashed()).toBe(7);
	});
});
