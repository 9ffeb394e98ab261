import { TextCache } from "../../../src/headless/TextCache";

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
