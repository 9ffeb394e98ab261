import fc from "fast-check";
import { ChunkedArray } from "../../../src/markdown/chunkedArray";
import { CHUNKED_ARRAY_CHUNK } from "../../../src/config/limits";

describe("ChunkedArray", () => {
	test("holds what a plain array would, across chunk edges, after any pushes and sets", () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 2 * CHUNKED_ARRAY_CHUNK + 1 }), fc.array(fc.tuple(fc.nat(), fc.integer())), (length, sets) => {
				const chunked = new ChunkedArray<number>();
				const plain: number[] = [];
				for (let index = 0; index < length; index++) {
					chunked.push(index);
					plain.push(index);
				}
				for (const [at, value] of sets) {
					if (length === 0) break;
					chunked.set(at % length, value);
					plain[at % length] = value;
				}
				expect(chunked.length).toBe(plain.length);
				expect(Array.from({ length }, (_, index) => chunked.get(index))).toEqual(plain);
			}),
			{ numRuns: 12 },
		);
	});
});
