import { knownJsonText, pieceEnd, rememberJsonText } from "../../src/jsonText";

describe("JSON text shared by answers and the transport", () => {
	test("a value's text is known once remembered, and only for that value", () => {
		const value = { a: 1 };
		expect(knownJsonText(value)).toBeUndefined();
		rememberJsonText(value, JSON.stringify(value));
		expect(knownJsonText(value)).toBe('{"a":1}');
		expect(knownJsonText({ a: 1 })).toBeUndefined();
	});

	test("a piece never ends between the two halves of a surrogate pair", () => {
		const text = "ab😀cd";
		// "😀" is two code units at 2 and 3: a piece of 3 from 0 would cut it, so it takes the pair whole.
		expect(pieceEnd(text, 0, 3)).toBe(4);
		expect(pieceEnd(text, 0, 2)).toBe(2);
		expect(pieceEnd(text, 4, 10)).toBe(text.length);
		// A lone high surrogate at the end of the text is simply the end.
		expect(pieceEnd("ab\ud800", 0, 3)).toBe(3);
		const pieces: string[] = [];
		for (let start = 0; start < text.length;) {
			const end = pieceEnd(text, start, 1);
			pieces.push(text.slice(start, end));
			start = end;
		}
		expect(pieces).toEqual(["a", "b", "😀", "c", "d"]);
	});
});
