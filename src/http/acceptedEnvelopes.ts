import { MODERN_ENVELOPE_REMEMBERED_CHARS } from "../config/limits";
import type { ModernWireCodec } from "./exchangeTransports";

/**
 * The `_meta` envelope (protocol version, client info, capabilities) a 2026-07-28 client sends
 * with every request is, on one connection, nearly always the same: checking it with the SDK's
 * schema each time was a good part of a small call's work. Per connection, the JSON text of the
 * last envelope the check took is remembered; an envelope with the very same text is taken without
 * checking again (the check is a schema parse of plain JSON data, so the same text gets the same
 * outcome). A refused envelope is never remembered, and the comparison is between texts the same
 * connection's client sent, which tells that client nothing it did not know. An entry goes with
 * its connection; an envelope over `MODERN_ENVELOPE_REMEMBERED_CHARS` is checked every time.
 */
export class AcceptedEnvelopes {
	private readonly last = new WeakMap<object, string>();

	/**
	 * Whether the codec's check takes `envelope` (it answers undefined), asking it only when this
	 * connection's last envelope taken differs. Every codec asked is the SDK's one for 2026-07-28.
	 */
	accepts(connection: object | null, envelope: Record<string, unknown>, codec: Pick<ModernWireCodec, "checkInboundEnvelope">): boolean {
		if (connection === null) return codec.checkInboundEnvelope({ envelope }) === undefined;
		const text = JSON.stringify(envelope);
		if (this.last.get(connection) === text) return true;
		if (codec.checkInboundEnvelope({ envelope }) !== undefined) return false;
		if (text.length <= MODERN_ENVELOPE_REMEMBERED_CHARS) this.last.set(connection, text);
		else this.last.delete(connection);
		return true;
	}
}
