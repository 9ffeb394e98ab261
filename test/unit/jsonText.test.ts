import { runInNewContext } from "node:vm";
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

	test("a value remembered, then frozen, sealed or closed to new keys and remembered again gives its newest text, not the first", () => {
		for (const close of [Object.freeze, Object.seal, Object.preventExtensions]) {
			const value: Record<string, unknown> = { a: 1 };
			rememberJsonText(value, JSON.stringify(value));
			value.a = 2;
			close(value);
			rememberJsonText(value, JSON.stringify(value));
			// On lead7 the text went aside for a closed value while the first stayed on it, and was the one given back: {"a":1}.
			expect(knownJsonText(value)).toBe('{"a":2}');
		}
	});

	test("any object takes a remembered text and shows nothing of it: an array, a class instance, a proxy, one from another realm", () => {
		class Row {
			readonly #id = 1;
			name = "n";
			id(): number {
				return this.#id;
			}
		}
		const target = { a: 1 };
		const values: object[] = [[1, 2], new Row(), new Proxy(target, {}), runInNewContext("({ a: 1, list: [1] })") as object, new Map()];
		for (const value of values) {
			const json = JSON.stringify(value);
			const keys = Reflect.ownKeys(value);
			rememberJsonText(value, json);
			expect(knownJsonText(value)).toBe(json);
			expect([JSON.stringify(value), Reflect.ownKeys(value)]).toEqual([json, keys]);
		}
		// A proxy's text is its own: the object behind it was not remembered.
		expect(knownJsonText(target)).toBeUndefined();
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
