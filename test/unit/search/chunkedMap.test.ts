import { CHUNKED_MAP_KEYS } from "../../../src/config/limits";
import { ChunkedMap } from "../../../src/search/chunkedMap";

describe("ChunkedMap", () => {
	test("holds what a Map would across a chunk's edge: values, size, missing keys and keys in the order added", () => {
		const KEYS = CHUNKED_MAP_KEYS + 10;
		const chunked = new ChunkedMap<number>();
		const plain = new Map<string, number>();
		for (let index = 0; index < KEYS; index++) {
			chunked.add(`k${index}`, index);
			plain.set(`k${index}`, index);
			if (index === 0 || index === CHUNKED_MAP_KEYS - 1 || index === CHUNKED_MAP_KEYS) expect(chunked.size).toBe(plain.size);
		}
		expect(chunked.size).toBe(KEYS);
		for (const index of [0, 1, CHUNKED_MAP_KEYS - 1, CHUNKED_MAP_KEYS, KEYS - 1]) expect(chunked.get(`k${index}`)).toBe(index);
		expect(chunked.get(`k${KEYS}`)).toBeUndefined();
		expect([...chunked.keys()]).toEqual([...plain.keys()]);
	});
});
