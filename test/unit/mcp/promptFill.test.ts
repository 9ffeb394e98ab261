import fc from "fast-check";
import { filledPlaceholderBytes, fillPlaceholders } from "../../../src/mcp/prompts";

describe("filledPlaceholderBytes", () => {
	test("is the byte length of the filled prompt, for generated notes and arguments, repeated and unknown placeholders included", () => {
		const name = fc.constantFrom("a", "topic", "x_1", "missing");
		const piece = fc.oneof(
			fc.string({ unit: "grapheme", maxLength: 8 }),
			name.map((n) => `{{${n}}}`),
			name.map((n) => `{{ ${n} }}`),
			fc.constant("{{"),
			fc.constant("}}"),
		);
		const args = fc.dictionary(fc.constantFrom("a", "topic", "x_1"), fc.string({ unit: "grapheme", maxLength: 20 }));
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 30 }), args, (pieces, values) => {
				const text = pieces.join("");
				expect(filledPlaceholderBytes(text, values)).toBe(Buffer.byteLength(fillPlaceholders(text, values)));
			}),
			{ numRuns: 500 },
		);
	});
});
