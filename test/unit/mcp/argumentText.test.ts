import { argumentNotText } from "../../../src/mcp/argumentText";

describe("argumentNotText", () => {
	test("well-formed texts, surrogate pairs included, pass", () => {
		expect(argumentNotText({ path: "Notes/😀.md", content: "𝄞 and \uD83D\uDE00", value: ["a", 1, true, null], overwrite: false })).toBeNull();
		expect(argumentNotText({})).toBeNull();
	});

	test.each([
		[{ path: "a\uD800.md" }, "path"],
		[{ content: "ends with a high half \uD83D" }, "content"],
		[{ content: "starts with a low half \uDE00" }, "content"],
		[{ content: "halves the wrong way round \uDE00\uD83D" }, "content"],
		[{ path: "Note.md", value: ["fine", "half \uDC00"] }, "value[1]"],
		[{ outer: { inner: "\uD800" } }, "outer.inner"],
		[{ ["key \uD800"]: "fine" }, "a key of arguments"],
	])("%j names %s", (args, name) => {
		expect(argumentNotText(args)).toBe(name);
	});
});
