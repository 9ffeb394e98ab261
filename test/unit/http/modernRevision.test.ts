import { claimsModernRevision } from "../../../src/http/protocolRevision";

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/** Which requests go to the SDK's 2026-07-28 handler, and which to the 2025-era transport. */
describe("claimsModernRevision", () => {
	test("a request naming its revision in _meta, or sending a 2026 MCP-Protocol-Version, is 2026-era", () => {
		expect(claimsModernRevision({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [VERSION_KEY]: "2026-07-28" } } }, undefined)).toBe(true);
		// Any claimed revision goes to the SDK, which refuses the ones it does not serve with the list it does.
		expect(claimsModernRevision({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { [VERSION_KEY]: "2099-01-01" } } }, undefined)).toBe(true);
		expect(claimsModernRevision({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, "2026-07-28")).toBe(true);
		expect(
			claimsModernRevision(
				[
					{ jsonrpc: "2.0", id: 1, method: "ping" },
					{ jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: { [VERSION_KEY]: "2026-07-28" } } },
				],
				undefined,
			),
		).toBe(true);
	});

	test("everything else is 2025-era traffic: initialize, plain calls, other _meta keys, batches, junk", () => {
		expect(claimsModernRevision({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } }, undefined)).toBe(false);
		expect(claimsModernRevision({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", _meta: { progressToken: 1 } } }, "2025-06-18")).toBe(
			false,
		);
		expect(claimsModernRevision([{ jsonrpc: "2.0", id: 1, method: "ping" }], undefined)).toBe(false);
		expect(claimsModernRevision({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: null } }, undefined)).toBe(false);
		for (const junk of [null, 3, "text", [], [null]]) expect(claimsModernRevision(junk, undefined)).toBe(false);
	});
});
