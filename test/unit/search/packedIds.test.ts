import { PackedIdWriter, unpackIds } from "../../../src/search/packedIds";

describe("packed token ids", () => {
	test("every id comes back in order, from 0 to the largest 32-bit id", () => {
		const ids = [0, 1, 127, 128, 300, 16_383, 16_384, 2_097_151, 2_097_152, 0x7fffffff, 0xffffffff, 5];
		const writer = new PackedIdWriter(2);
		for (const id of ids) writer.write(id);
		const packed = writer.finish();
		const into = new Uint32Array(ids.length);
		expect(writer.count).toBe(ids.length);
		expect(unpackIds(packed, into)).toBe(ids.length);
		expect([...into]).toEqual(ids);
	});

	test("ids under 128 take one byte each, under 16,384 two", () => {
		const small = new PackedIdWriter(0);
		for (let id = 0; id < 100; id++) small.write(id);
		expect(small.finish().length).toBe(100);
		const medium = new PackedIdWriter(0);
		for (let id = 200; id < 300; id++) medium.write(id);
		expect(medium.finish().length).toBe(200);
	});
});
