import { addToken, revokeToken } from "../../../src/auth/tokenList";
import { findTokenRecord, generateToken, hashToken, TOKEN_PREFIX } from "../../../src/auth/tokens";
import { defaultSettings } from "../../../src/config/settings";

describe("tokens", () => {
	test("a token is the prefix and 32 random bytes; the record keeps only its hash and a short prefix", () => {
		const { token, record } = generateToken("laptop", "read", undefined, new Date("2026-01-02T03:04:05Z"));
		expect(token).toMatch(/^vmcp_[A-Za-z0-9_-]{43}$/);
		expect(Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url")).toHaveLength(32);
		expect(record).toEqual({
			name: "laptop",
			level: "read",
			hash: hashToken(token),
			displayPrefix: token.slice(0, 9),
			created: "2026-01-02T03:04:05.000Z",
			lastUsed: null,
		});
		expect(JSON.stringify(record)).not.toContain(token.slice(9));
	});

	test("two tokens are never the same", () => {
		const tokens = new Set(Array.from({ length: 200 }, () => generateToken("x", "read").token));
		expect(tokens.size).toBe(200);
	});

	test("findTokenRecord finds the matching record among many, and nothing for near misses", () => {
		const made = Array.from({ length: 5 }, (_, index) => generateToken(`t${index}`, index % 2 ? "write" : "read"));
		const records = made.map((entry) => entry.record);
		for (const entry of made) expect(findTokenRecord(entry.token, records)).toBe(entry.record);
		const first = made[0]?.token ?? "";
		expect(findTokenRecord(first.toUpperCase(), records)).toBeNull();
		expect(findTokenRecord(first + " ", records)).toBeNull();
		expect(findTokenRecord("", records)).toBeNull();
		expect(findTokenRecord(first, [])).toBeNull();
	});

	test("findTokenRecord follows a record whose stored hash is changed in place after a lookup", () => {
		const one = generateToken("one", "read");
		const other = generateToken("other", "read");
		const record = { ...one.record };
		expect(findTokenRecord(one.token, [record])).toBe(record);
		record.hash = other.record.hash;
		expect(findTokenRecord(one.token, [record])).toBeNull();
		expect(findTokenRecord(other.token, [record])).toBe(record);
	});

	test("addToken refuses duplicate and empty names; revokeToken removes by name", () => {
		const first = addToken(defaultSettings(), "desk", "write");
		if ("error" in first) throw new Error(first.error);
		expect(addToken(first.settings, "desk", "read")).toEqual({ error: expect.stringContaining("already exists") });
		expect(addToken(first.settings, "   ", "read")).toEqual({ error: expect.stringContaining("1 to 64") });
		const revoked = revokeToken(first.settings, "desk");
		expect("settings" in revoked && revoked.settings.tokens).toEqual([]);
		expect(revokeToken(defaultSettings(), "desk")).toEqual({ error: 'No token named "desk". There are no tokens.' });
	});
});
