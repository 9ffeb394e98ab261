import { headerPairsOf } from "../../../src/http/listenStream";

describe("headerPairsOf", () => {
	test("gives every raw header as a pair, and a repeated one reads joined as Node joins it", () => {
		const raw = ["Host", "127.0.0.1:1", "Mcp-Param-Folder", "a", "mcp-param-folder", "b", "Accept", "application/json"];
		const pairs = headerPairsOf(raw);
		expect(pairs).toEqual([
			["Host", "127.0.0.1:1"],
			["Mcp-Param-Folder", "a"],
			["mcp-param-folder", "b"],
			["Accept", "application/json"],
		]);
		const headers = new Headers(pairs);
		expect(headers.get("mcp-param-folder")).toBe("a, b");
		expect(headers.get("host")).toBe("127.0.0.1:1");
	});
});
