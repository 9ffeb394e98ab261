import { endpointUrl } from "../../../src/http/endpointAddress";

describe("endpointUrl", () => {
	test("is the loopback MCP endpoint on the port", () => {
		expect(endpointUrl(27150)).toBe("http://127.0.0.1:27150/mcp");
	});
});
