import { fail, ok, type Result } from "../../src/result";

describe("Result: a value, or why not", () => {
	test("ok carries the value unchanged, whatever it is (null and undefined included)", () => {
		for (const value of [0, "", null, undefined, { a: 1 }, [1, 2]]) expect(ok(value)).toEqual({ ok: true, value });
	});

	test("fail carries the sentence unchanged, and narrows by `ok` to the error", () => {
		const result: Result<number> = fail("Note not found: Daily/2026-12-02.md");
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).toBe("Note not found: Daily/2026-12-02.md");
	});
});
