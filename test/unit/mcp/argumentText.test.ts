import { argumentNotText } from "../../../src/mcp/argumentText";

/** The runtime's `isWellFormed`, or the pattern used where there is none (Electron before 23). */
const CHECKS = [
	["with String.prototype.isWellFormed", false],
	["without it", true],
] as const;

describe.each(CHECKS)("argumentNotText %s", (_label, withoutNative) => {
	const native = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed");
	beforeAll(() => {
		// Where the runtime lacks it, the pattern must be used: the test would otherwise check nothing.
		if (!withoutNative) expect(native).toBeDefined();
		else delete (String.prototype as { isWellFormed?: unknown }).isWellFormed;
	});
	afterAll(() => {
		if (withoutNative && native) Object.defineProperty(String.prototype, "isWellFormed", native);
	});

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
