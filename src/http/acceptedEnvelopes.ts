import { MODERN_ENVELOPE_REMEMBERED_CHARS, MODERN_ENVELOPE_REMEMBERED_DEPTH } from "../config/limits";
import type { ModernWireCodec } from "./exchangeTransports";

/**
 * The `_meta` envelope (protocol version, client info, capabilities) a 2026-07-28 client sends
 * with every request is, on one connection, nearly always the same: checking it with the SDK's
 * schema each time was a good part of a small call's work. Per connection, the JSON text of the
 * last envelope the check took is remembered; an envelope with the very same text is taken without
 * checking again (the check is a schema parse of plain JSON data, so the same text gets the same
 * outcome). A refused envelope is never remembered, and the comparison is between texts the same
 * connection's client sent, which tells that client nothing it did not know. An entry goes with
 * its connection; an envelope over `MODERN_ENVELOPE_REMEMBERED_CHARS`, or nested deeper than
 * `MODERN_ENVELOPE_REMEMBERED_DEPTH`, is checked every time without being made into text.
 */
export class AcceptedEnvelopes {
	private readonly last = new WeakMap<object, string>();

	/**
	 * Whether the codec's check takes `envelope` (it answers undefined), asking it only when this
	 * connection's last envelope taken differs. Every codec asked is the SDK's one for 2026-07-28.
	 */
	accepts(connection: object | null, envelope: Record<string, unknown>, codec: Pick<ModernWireCodec, "checkInboundEnvelope">): boolean {
		// A long or deep envelope is not made into text at all (a client's `_meta` may be a megabyte, or nested thousands deep).
		if (connection === null || charsLeftAfter(envelope, MODERN_ENVELOPE_REMEMBERED_DEPTH, MODERN_ENVELOPE_REMEMBERED_CHARS) < 0)
			return codec.checkInboundEnvelope({ envelope }) === undefined;
		const text = JSON.stringify(envelope);
		if (this.last.get(connection) === text) return true;
		if (codec.checkInboundEnvelope({ envelope }) !== undefined) return false;
		if (text.length <= MODERN_ENVELOPE_REMEMBERED_CHARS) this.last.set(connection, text);
		else this.last.delete(connection);
		return true;
	}
}

/**
 * About how many of `left` characters are left once `value` is written as JSON (keys and strings
 * counted by length, other values at most 24), or -1 as soon as it is over or deeper than `levels`:
 * a walk that stops early, so a huge or deep value costs no more than the bound.
 */
function charsLeftAfter(value: unknown, levels: number, left: number): number {
	if (typeof value === "string") return left - value.length - 2;
	if (value === null || typeof value !== "object") return left - 24;
	if (levels === 0) return -1;
	let rest = left - 2;
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length && rest >= 0; index++) rest = charsLeftAfter(value[index], levels - 1, rest - 1);
		return rest < 0 ? -1 : rest;
	}
	for (const key in value) {
		rest = charsLeftAfter((value as Record<string, unknown>)[key], levels - 1, rest - key.length - 4);
		if (rest < 0) return -1;
	}
	return rest;
}
