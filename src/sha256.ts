import { createHash } from "node:crypto";

/** Hex SHA-256 of a text's UTF-8 bytes: a note's version, a token's stored hash. */
export function sha256Hex(text: string): string {
	return createHash("sha256").update(text, "utf8").digest("hex");
}
