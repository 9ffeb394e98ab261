import { knownJsonText, pieceEnd, rememberJsonText } from "../../src/jsonText";

describe("JSON text shared by answers and the transport", () => {
	test("a value's text is known once remembered, and only for that value", () => {
		const value = { a: 1 };
		expect(knownJsonText(value)).toBeUndefined();
		rememberJsonText(value, JSON.stringify(value));
		expect(knownJsonText(value)).toBe('{"a":1}');
		expect(knownJsonText({ a: 1 })).toBeUndefined();
	});

	test("a remembered value's JSON, keys and copies are as before: a copy changed afterwards is written as it is", () => {
		const value: Record<string, unknown> = { a: 1, list: [1, 2] };
		rememberJsonText(value, JSON.stringify(value));
		rememberJsonText(value.list as object, "[1,2]");
		expect(JSON.stringify(value)).toBe('{"a":1,"list":[1,2]}');
		expect(Object.keys(value)).toEqual(["a", "list"]);
		const copies = [{ ...value }, Object.assign({}, value), structuredClone(value), Object.create(value) as object];
		for (const copy of copies) expect(knownJsonText(copy)).toBeUndefined();
		expect(knownJsonText([...(value.list as number[])])).toBeUndefined();
		expect(knownJsonText(value)).toBe('{"a":1,"list":[1,2]}');
	});

	test("a value remembered again gives its newest text; a frozen value's text is remembered too", () => {
		const value = { a: 1 };
		rememberJsonText(value, '{"a":0}');
		rememberJsonText(value, '{"a":1}');
		expect(knownJsonText(value)).toBe('{"a":1}');
		const frozen = Object.freeze({ b: 2 });
		rememberJsonText(frozen, '{"b":2}');
		expect(knownJsonText(frozen)).toBe('{"b":2}');
		expect(knownJsonText(Object.freeze({ b: 2 }))).toBeUndefined();
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
