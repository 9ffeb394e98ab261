import { presentedTokenDigest } from "../auth/tokens";

/**
 * The SHA-256 of the bearer token last presented on each connection: a keep-alive client sends
 * the same token with every request, and hashing it again was a good part of a small call's work.
 * Only the digest of what was presented is remembered, never whether it matched: every stored
 * hash is still compared on every request (`findTokenRecord`), so a token revoked is refused on
 * the very next request. The comparison here is between two strings the same connection's client
 * sent, which tells that client nothing it did not know. An entry goes with its connection.
 */
export class PresentedTokenDigests {
	private readonly last = new WeakMap<object, { token: string; digest: Buffer }>();

	digestOf(connection: object, token: string): Buffer {
		const known = this.last.get(connection);
		if (known !== undefined && known.token === token) return known.digest;
		const digest = presentedTokenDigest(token);
		this.last.set(connection, { token, digest });
		return digest;
	}
}
