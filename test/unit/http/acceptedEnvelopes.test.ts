import { MODERN_ENVELOPE_REMEMBERED_CHARS, MODERN_ENVELOPE_REMEMBERED_DEPTH } from "../../../src/config/limits";
import { AcceptedEnvelopes } from "../../../src/http/acceptedEnvelopes";

const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": "2026-07-28",
	"io.modelcontextprotocol/clientInfo": { name: "client", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

/** A codec whose check refuses a client info that is not an object, and counts its checks. */
function countingCodec(): { checks: () => number; checkInboundEnvelope: (material: { envelope: Record<string, unknown> }) => string | undefined } {
	let checks = 0;
	return {
		checks: () => checks,
		checkInboundEnvelope: ({ envelope }) => {
			checks++;
			const info = envelope["io.modelcontextprotocol/clientInfo"];
			return info !== null && typeof info === "object" ? undefined : "Invalid _meta envelope";
		},
	};
}

describe("AcceptedEnvelopes", () => {
	test("the same envelope sent again on one connection is taken without a second check, even as a new object", () => {
		const envelopes = new AcceptedEnvelopes();
		const codec = countingCodec();
		const connection = {};
		expect(envelopes.accepts(connection, ENVELOPE, codec)).toBe(true);
		expect(envelopes.accepts(connection, JSON.parse(JSON.stringify(ENVELOPE)) as Record<string, unknown>, codec)).toBe(true);
		expect(codec.checks()).toBe(1);
	});

	test("another envelope, another connection, or no connection is checked; a refused envelope is refused every time", () => {
		const envelopes = new AcceptedEnvelopes();
		const codec = countingCodec();
		const [first, second] = [{}, {}];
		expect(envelopes.accepts(first, ENVELOPE, codec)).toBe(true);
		const refused = { ...ENVELOPE, "io.modelcontextprotocol/clientInfo": 7 };
		expect(envelopes.accepts(first, refused, codec)).toBe(false);
		expect(envelopes.accepts(first, refused, codec)).toBe(false);
		expect(envelopes.accepts(second, ENVELOPE, codec)).toBe(true);
		expect(envelopes.accepts(null, ENVELOPE, codec)).toBe(true);
		expect(envelopes.accepts(null, ENVELOPE, codec)).toBe(true);
		expect(codec.checks()).toBe(6);
		// The one remembered on the first connection is still its last taken.
		expect(envelopes.accepts(first, ENVELOPE, codec)).toBe(true);
		expect(codec.checks()).toBe(6);
	});

	test("an envelope over MODERN_ENVELOPE_REMEMBERED_CHARS is checked every time", () => {
		const envelopes = new AcceptedEnvelopes();
		const codec = countingCodec();
		const connection = {};
		const long = { ...ENVELOPE, "io.modelcontextprotocol/clientInfo": { name: "c".repeat(MODERN_ENVELOPE_REMEMBERED_CHARS), version: "1" } };
		expect(envelopes.accepts(connection, long, codec)).toBe(true);
		expect(envelopes.accepts(connection, long, codec)).toBe(true);
		expect(codec.checks()).toBe(2);
	});

	test("an envelope nested thousands deep, or a megabyte long, is checked every time and never made into text", () => {
		const envelopes = new AcceptedEnvelopes();
		const codec = countingCodec();
		const connection = {};
		const deep = JSON.parse(`{"io.modelcontextprotocol/clientInfo":{"deep":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`) as Record<string, unknown>;
		const long = { ...ENVELOPE, padding: "m".repeat(1_000_000) };
		const nested = {
			...ENVELOPE,
			deep: JSON.parse("[".repeat(MODERN_ENVELOPE_REMEMBERED_DEPTH) + "]".repeat(MODERN_ENVELOPE_REMEMBERED_DEPTH)) as unknown,
		};
		const stringified = jest.spyOn(JSON, "stringify");
		try {
			for (const envelope of [deep, deep, long, long, nested, nested]) expect(envelopes.accepts(connection, envelope, codec)).toBe(true);
			expect(stringified).not.toHaveBeenCalled();
		} finally {
			stringified.mockRestore();
		}
		expect(codec.checks()).toBe(6);
	});
});
