import { isJsonTextSteps, jsonShapeOver } from "../../../src/http/jsonShape";
import { runSteps } from "../../../src/markdown/steps";

/** Read in steps of a few characters, so that every pause point is passed. */
const isJsonText = (text: string) => runSteps(isJsonTextSteps(text, 3));

const bounds = (depth: number, members: number, containers = Infinity) => ({ depth, members, containers });

/** Whether a body's text nests more than `maxDepth` deep, its keys not counted. */
const nestsDeeperThan = (text: string, maxDepth: number) => jsonShapeOver(text, bounds(maxDepth, Infinity)) === "nesting";

describe("jsonShapeOver: a body's nesting and keys, read from its text", () => {
	test.each<[string, unknown, number, boolean]>([
		["a scalar nests 0 deep", 1, 0, false],
		["an empty object is one level", {}, 0, true],
		["a message of arguments within the bound (five levels)", { params: { arguments: { value: [1, [2]] } } }, 5, false],
		["one level past the bound is refused", { params: { arguments: { value: [1, [2]] } } }, 4, true],
		["the deepest branch counts, not the first (four levels)", [1, {}, [[[]]]], 4, false],
		["…and past it is refused", [1, {}, [[[]]]], 3, true],
		["brackets, braces and colons inside strings are text, escaped quotes too", { a: '[[[{"b":1}]]] \\" \\\\', c: ["\\", '"'] }, 2, false],
	])("%s", (_name, json, maxDepth, deeper) => {
		expect(nestsDeeperThan(JSON.stringify(json), maxDepth)).toBe(deeper);
	});

	test("keys are counted over every object, array items not, colons in strings not", () => {
		const message = JSON.stringify({ jsonrpc: "2.0:1", params: { _meta: { a: "x:y", b: 2 }, arguments: { list: [1, 2, 3, 4, 5, 6] } } });
		// jsonrpc, params, _meta, arguments, a, b, list: 7 keys.
		expect(jsonShapeOver(message, bounds(64, 7))).toBeNull();
		expect(jsonShapeOver(message, bounds(64, 6))).toBe("keys");
		expect(jsonShapeOver(JSON.stringify([{ a: 1 }, { b: 1 }, { c: 1 }]), bounds(64, 2))).toBe("keys");
		expect(jsonShapeOver(JSON.stringify(Array.from({ length: 100_000 }, () => 1)), bounds(64, 0, 1))).toBeNull();
		expect(jsonShapeOver(JSON.stringify({ a: { b: { c: 1 } } }), bounds(2, 10))).toBe("nesting");
	});

	test("arrays and objects are counted in all, however shallow, strings' brackets not", () => {
		const text = JSON.stringify({ a: [[], {}, [1]], b: "[[{{" });
		// The message, its list, and the list's three.
		expect(jsonShapeOver(text, bounds(64, 64, 5))).toBeNull();
		expect(jsonShapeOver(text, bounds(64, 64, 4))).toBe("containers");
		expect(jsonShapeOver(`[${Array.from({ length: 330_000 }, () => "[]").join(",")}]`, bounds(64, 4096, 4096))).toBe("containers");
	});

	test("a batch's entries are counted, so a batch over its cap is refused as one before its messages' keys are", () => {
		const batch = (entries: number) => JSON.stringify(Array.from({ length: entries }, (_, id) => ({ jsonrpc: "2.0", id, method: "tools/list" })));
		const withCap = (cap: number) => ({ ...bounds(64, 4096), batchEntries: cap });
		expect(jsonShapeOver(batch(32), withCap(32))).toBeNull();
		expect(jsonShapeOver(batch(33), withCap(32))).toBe("batch");
		// 5,000 messages of 3 keys: the cap is reached long before the 4,096 keys.
		expect(jsonShapeOver(batch(5_000), withCap(32))).toBe("batch");
		// Commas inside strings, inside an entry, or in an object at the top are not entries.
		expect(jsonShapeOver(JSON.stringify([{ a: ",,,,", b: [1, 2, 3, 4, 5] }]), withCap(1))).toBeNull();
		expect(jsonShapeOver(JSON.stringify({ a: 1, b: 2, c: 3 }), withCap(1))).toBeNull();
	});

	test("a key given twice is counted twice (JSON.parse reads both)", () => {
		expect(jsonShapeOver('{"a":1,"a":2,"a":3}', bounds(64, 2))).toBe("keys");
	});

	test("arrays 100,000 deep are measured", () => {
		const deep = `${"[".repeat(100_000)}1${"]".repeat(100_000)}`;
		expect(nestsDeeperThan(deep, 99_999)).toBe(true);
		expect(nestsDeeperThan(deep, 100_000)).toBe(false);
	});

	test("agrees with a walk of what JSON.parse builds, for random JSON", () => {
		const random = seeded(7);
		for (let round = 0; round < 400; round++) {
			const value = randomJson(random, 0);
			const text = JSON.stringify(value, null, round % 3 === 0 ? 1 : undefined);
			const { depth, keys, containers } = walk(value);
			expect(jsonShapeOver(text, bounds(depth, keys, containers))).toBeNull();
			if (depth > 0) expect(jsonShapeOver(text, bounds(depth - 1, Infinity))).toBe("nesting");
			if (keys > 0) expect(jsonShapeOver(text, bounds(Infinity, keys - 1))).toBe("keys");
			if (containers > 0) expect(jsonShapeOver(text, bounds(Infinity, Infinity, containers - 1))).toBe("containers");
		}
	});
});

describe("isJsonTextSteps: JSON as JSON.parse reads it, nothing built", () => {
	test("a megabyte of arrays is read in steps of about the size asked for", () => {
		const text = `${"[".repeat(500_000)}${"]".repeat(500_000)}`;
		const steps = isJsonTextSteps(text, 64 * 1024);
		let pauses = 0;
		for (let next = steps.next(); !next.done; next = steps.next()) pauses++;
		expect(pauses).toBe(Math.ceil(text.length / (64 * 1024)) - 1);
	});

	test("a megabyte string of escapes is read in steps too, not in one", () => {
		// Read whole, such a string in a body refused for its nesting held the server 7–15 ms in one piece.
		const text = `["${"\\u0041".repeat(170_000)}"]`;
		const steps = isJsonTextSteps(text, 64 * 1024);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(next.value).toBe(true);
		expect(pauses).toBeGreaterThanOrEqual(Math.floor(text.length / (64 * 1024)) - 1);
	});

	test.each(["1", " -0.5e+10 ", '"\\u00e9\\n\\/"', '"\ud800"', "[]", "{}", '{"a":[1,{"b":null}],"c":true}', "\t[\r\n1 , 2 ]\n"])("JSON: %s", (text) => {
		expect(() => JSON.parse(text) as unknown).not.toThrow();
		expect(isJsonText(text)).toBe(true);
	});

	test.each([
		"",
		" ",
		"\ufeff{}",
		"{",
		"[1,]",
		'{"a":1,}',
		"{a:1}",
		'{"a" 1}',
		'{"a":}',
		"[1 2]",
		"01",
		"1.",
		"+1",
		".5",
		"tru",
		"nul",
		"[] []",
		'"a\nb"',
		'"\\x"',
		'"\\u12g4"',
		'"\\u001\u0010"',
		'"\\u00"',
		'"unclosed',
		"[}",
		'{"a":1]',
		'{"a":1 "b":2}',
		'{"a"}',
		'{{"a":1}}',
		"[:]",
	])("not JSON: %j", (text) => {
		expect(() => JSON.parse(text) as unknown).toThrow();
		expect(isJsonText(text)).toBe(false);
	});

	test("arrays 100,000 deep are JSON when closed, and not when one is left open", () => {
		expect(isJsonText(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toBe(true);
		expect(isJsonText(`${"[".repeat(100_000)}${"]".repeat(99_999)}`)).toBe(false);
	});

	test("agrees with JSON.parse on random JSON and on each of its texts with one character changed or cut", () => {
		const random = seeded(11);
		const alphabet = ['"', "\\", "[", "]", "{", "}", ",", ":", " ", "1", "-", ".", "e", "u", "a", "\n", "\u0001", "t", "0"];
		for (let round = 0; round < 300; round++) {
			const text = JSON.stringify(randomJson(random, 0));
			const at = Math.floor(random() * text.length);
			const changed = [
				text,
				text.slice(0, at),
				text.slice(0, at) + text.slice(at + 1),
				text.slice(0, at) + (alphabet[Math.floor(random() * alphabet.length)] ?? "") + text.slice(at + 1),
			];
			for (const each of changed) expect([each, isJsonText(each)]).toEqual([each, parses(each)]);
		}
	});
});

function parses(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

/** How deep a parsed value nests, how many object keys it holds, and how many arrays and objects. */
function walk(value: unknown): { depth: number; keys: number; containers: number } {
	if (typeof value !== "object" || value === null) return { depth: 0, keys: 0, containers: 0 };
	const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
	const inner = children.map(walk);
	return {
		depth: 1 + Math.max(0, ...inner.map((each) => each.depth)),
		keys: (Array.isArray(value) ? 0 : children.length) + inner.reduce((sum, each) => sum + each.keys, 0),
		containers: 1 + inner.reduce((sum, each) => sum + each.containers, 0),
	};
}

function randomJson(random: () => number, depth: number): unknown {
	const pick = Math.floor(random() * (depth > 4 ? 4 : 7));
	const strings = ["", "a", 'q"uo\\te', "[{:,}]", "é😀", "\u0000\n\t", "\ud800"];
	if (pick === 0) return Math.floor(random() * 2000) - 1000 + (random() < 0.3 ? 0.25 : 0);
	if (pick === 1) return strings[Math.floor(random() * strings.length)];
	if (pick === 2) return [true, false, null][Math.floor(random() * 3)];
	if (pick === 3) return -1e21 * random();
	const size = Math.floor(random() * 4);
	if (pick === 4 || pick === 5) return Array.from({ length: size }, () => randomJson(random, depth + 1));
	return Object.fromEntries(Array.from({ length: size }, (_, index) => [`${strings[index % strings.length] ?? ""}${index}`, randomJson(random, depth + 1)]));
}

/** A small seeded generator (mulberry32), so a failure can be run again. */
function seeded(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
		mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
	};
}
