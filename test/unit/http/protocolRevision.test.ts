import fc from "fast-check";
import { isLegacyRequest, PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { unsupportedVersionError } from "../../../src/http/guard";
import { claimsModernRevision } from "../../../src/http/protocolRevision";
import { checkMessages } from "../../../src/http/statelessTransport";

const MODERN = "2026-07-28";

/** Versions a client may name: every served one, and some it may not (future, past, junk). */
const version = fc.oneof(
	fc.constantFrom(MODERN, ...SUPPORTED_PROTOCOL_VERSIONS),
	fc.constantFrom("2099-01-01", "2024-01-01", "2026-01-01", "latest", ""),
	fc.string({ maxLength: 12 }),
);

/** A `_meta` object: none, other keys only, or a protocol version claim (valid or not). */
const meta = fc.oneof(
	fc.constant(undefined),
	fc.constant(null),
	fc.record({ progressToken: fc.integer() }),
	fc.record({ [PROTOCOL_VERSION_META_KEY]: version }),
	fc.record({ [PROTOCOL_VERSION_META_KEY]: fc.oneof(fc.integer(), fc.constant(null)) }),
);

const params = meta.chain((value) =>
	fc.oneof(
		fc.constant(undefined),
		fc.constant(value === undefined ? {} : { _meta: value }),
		fc.constant(value === undefined ? { name: "read_note" } : { name: "read_note", _meta: value }),
	),
);

const method = fc.constantFrom("initialize", "tools/list", "tools/call", "ping", "resources/read", "notifications/initialized", "notifications/cancelled");

/** JSON-RPC requests and notifications, as clients of both eras send them. */
const message = fc.record({ method, id: fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }), params }).map(({ method: name, id, params: given }) => {
	const out: Record<string, unknown> = { jsonrpc: "2.0", method: name };
	if (id !== undefined && !name.startsWith("notifications/")) out.id = id;
	if (given !== undefined) out.params = given;
	return out;
});

const body = fc.oneof({ weight: 4, arbitrary: message }, { weight: 1, arbitrary: fc.array(message, { minLength: 1, maxLength: 3 }) });

/**
 * Our classifier (which decides, before the SDK sees a request, whether our own 2025-era transport
 * or the SDK's 2026-07-28 handler answers it) against the SDK's own routing predicate: for every
 * well-formed request the endpoint classifies at all (one whose MCP-Protocol-Version header passed
 * the version check), a request we keep is one the SDK would serve as legacy, and one we hand over is one the
 * SDK would not (it serves it as modern, or rejects it with its own error).
 */
describe("claimsModernRevision agrees with the SDK's isLegacyRequest", () => {
	test("on generated requests of both eras, with and without an MCP-Protocol-Version header", async () => {
		await fc.assert(
			fc.asyncProperty(body, fc.option(version, { nil: undefined }), async (json, header) => {
				// The endpoint answers an unserved version, and our transport a malformed message, before either path is taken.
				fc.pre(unsupportedVersionError(header, json) === null && !("status" in checkMessages(json)));
				const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
				if (header !== undefined) headers["mcp-protocol-version"] = header;
				const request = new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: JSON.stringify(json) });
				const legacy = await isLegacyRequest(request, json);
				expect(claimsModernRevision(json, header)).toBe(!legacy);
			}),
			{ numRuns: 2_000 },
		);
	});
});
