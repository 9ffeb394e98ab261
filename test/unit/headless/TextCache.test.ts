import { NOTE_TEXT_PIECE_CHARS } from "../../../src/config/limits";
import { TextCache } from "../../../src/headless/TextCache";
import { heapAndBuffersAfterGc } from "../../helpers/gc";

describe("TextCache (note texts the headless vault keeps in memory)", () => {
	test("past its budget it drops the least recently used text first", () => {
		const cache = new TextCache(10);
		cache.set("a.md", "aaaa");
		cache.set("b.md", "bbbb");
		expect(cache.get("a.md")).toBe("aaaa");
		cache.set("c.md", "cccc");
		expect(cache.get("b.md")).toBeUndefined();
		expect(cache.get("a.md")).toBe("aaaa");
		expect(cache.get("c.md")).toBe("cccc");
	});

	test("the text read last, read again, is not moved (a Map delete and set a read), and the least recently used still goes first", () => {
		const cache = new TextCache(10);
		cache.set("a.md", "aaaa");
		cache.set("b.md", "bbbb");
		const deletes = jest.spyOn(Map.prototype, "delete");
		try {
			for (let read = 0; read < 3; read++) expect(cache.get("b.md")).toBe("bbbb");
			expect(deletes).not.toHaveBeenCalled();
		} finally {
			deletes.mockRestore();
		}
		expect(cache.get("a.md")).toBe("aaaa");
		expect(cache.get("a.md")).toBe("aaaa");
		cache.set("c.md", "cccc");
		expect(cache.get("b.md")).toBeUndefined();
		cache.delete("c.md");
		expect(cache.get("a.md")).toBe("aaaa");
	});

	test("replacing or deleting a text gives its characters back to the budget", () => {
		const cache = new TextCache(10);
		cache.set("a.md", "aaaaaaaa");
		cache.set("a.md", "aa");
		cache.set("b.md", "bbbbbbbb");
		expect(cache.get("a.md")).toBe("aa");
		cache.delete("a.md");
		cache.set("c.md", "cc");
		expect(cache.get("b.md")).toBe("bbbbbbbb");
		expect(cache.get("c.md")).toBe("cc");
		expect(cache.get("a.md")).toBeUndefined();
	});

	test("a text bigger than the whole budget is not kept and pushes nothing out", () => {
		const cache = new TextCache(10);
		cache.set("small.md", "small");
		cache.set("huge.md", "x".repeat(11));
		expect(cache.get("huge.md")).toBeUndefined();
		expect(cache.get("small.md")).toBe("small");
	});
});

describe("TextCache's memory", () => {
	test("texts with an emoji (two bytes a character as strings) are kept at under 1.5 bytes a character, and read back as they were", async () => {
		const notes = 1000;
		const chars = 2000;
		const cache = new TextCache(notes * chars);
		// Mostly ASCII, with one emoji as a task's date has: V8 keeps such a string at two bytes a character.
		// Joined, so one flat string each, as a text read from disk is (padEnd or repeat would make ropes that share their pieces).
		const textOf = (index: number) =>
			[`- [ ] task ${index} 📅 2026-12-07`, ...Array.from({ length: 100 }, (_, line) => `line ${line} of note ${index}`)].join("\n").slice(0, chars);
		const before = await heapAndBuffersAfterGc();
		for (let index = 0; index < notes; index++) cache.set(`${index}.md`, textOf(index));
		const growth = (await heapAndBuffersAfterGc()) - before;
		// As strings: 2.07 bytes a character here; as UTF-8 1.15 (the bytes, and an object and a buffer a text).
		expect(growth / (notes * chars)).toBeLessThan(1.5);
		for (const index of [0, 1, 500, 999]) expect(cache.get(`${index}.md`)).toBe(textOf(index));
		// A lone surrogate has no UTF-8 that gives it back, and a text over a piece is not decoded whole at each read: both kept as they are.
		const lone = `half a pair \ud83d and ✅${"x".repeat(20)}`;
		cache.set("lone.md", lone);
		expect(cache.get("lone.md")).toBe(lone);
		const long = `✅${"y".repeat(NOTE_TEXT_PIECE_CHARS)}`;
		cache.set("long.md", long);
		expect(cache.get("long.md")).toBe(long);
		// The budget counts characters, as before: the least recently used notes went to make room for the long one.
		expect(cache.get("2.md")).toBeUndefined();
		expect(cache.get("999.md")).toBe(textOf(999));
	});
});
