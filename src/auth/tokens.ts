import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sha256Hex } from "../sha256";
import { TOKEN_BYTES, TOKEN_DISPLAY_SECRET_CHARS } from "../config/limits";
import type { ToolRights } from "./rights";

/** What a token allows: `read` sees the read tools; `write` also sees the write tools when writing is on. */
export type TokenLevel = "read" | "write";

/** A token as stored in data.json: never the token itself, only its SHA-256 hash. */
export interface TokenRecord {
	name: string;
	level: TokenLevel;
	/** Hex SHA-256 of the token. */
	hash: string;
	/** The first characters of the token, so a person can tell tokens apart in a list. */
	displayPrefix: string;
	/** ISO time of creation. */
	created: string;
	/** ISO time of the last accepted request, or null if never used. */
	lastUsed: string | null;
	/** Tool name → allow, ask or deny. Absent on tokens made before rights existed: they keep every tool of their level. */
	rights?: ToolRights;
	/** The only folders this token may see, in the vault's one spelling. Absent or empty: the whole vault. */
	folders?: string[];
}

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = "vmcp_";

/** A new token and the record to store for it. The token is shown once and never kept. */
export function generateToken(
	name: string,
	level: TokenLevel,
	rights?: ToolRights,
	now: Date = new Date(),
	folders: readonly string[] = [],
): { token: string; record: TokenRecord } {
	const token = TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString("base64url");
	return {
		token,
		record: {
			name,
			level,
			hash: hashToken(token),
			displayPrefix: token.slice(0, TOKEN_PREFIX.length + TOKEN_DISPLAY_SECRET_CHARS),
			created: now.toISOString(),
			lastUsed: null,
			...(rights === undefined ? {} : { rights }),
			...(folders.length === 0 ? {} : { folders: [...folders] }),
		},
	};
}

/** Hex SHA-256 of a token. */
export function hashToken(token: string): string {
	return sha256Hex(token);
}

/** The same digest as hashToken's, as bytes: the hex form would only be decoded again to compare. */
export function presentedTokenDigest(presented: string): Buffer {
	return createHash("sha256").update(presented, "utf8").digest();
}

/**
 * The record whose hash matches the presented token, or null. Every stored hash is compared, in
 * constant time, whatever matched earlier: how long this takes does not tell how much of a token
 * was right, nor which record it was.
 */
export function findTokenRecord(
	presented: string,
	records: readonly TokenRecord[],
	presentedHash: Buffer = presentedTokenDigest(presented),
): TokenRecord | null {
	let found: TokenRecord | null = null;
	for (const record of records) {
		const storedHash = storedHashBytesOf(record);
		const same = storedHash.length === presentedHash.length && timingSafeEqual(storedHash, presentedHash);
		if (same && found === null) found = record;
	}
	return found;
}

/**
 * Each record's stored hash as bytes, decoded once rather than on every request. Keyed by the
 * record and checked against its hex (stored hash against stored hash: nothing about the presented
 * token), so a record edited in place is decoded again. Only hashes are kept, never a token.
 */
const storedHashBytes = new WeakMap<TokenRecord, { hex: string; bytes: Buffer }>();

function storedHashBytesOf(record: TokenRecord): Buffer {
	const cached = storedHashBytes.get(record);
	if (cached !== undefined && cached.hex === record.hash) return cached.bytes;
	const bytes = Buffer.from(record.hash, "hex");
	storedHashBytes.set(record, { hex: record.hash, bytes });
	return bytes;
}
