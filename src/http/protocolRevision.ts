import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";

/** Revisions from 2026-07-28 on: the SDK's handler answers them (MCP-Protocol-Version header values). */
const MODERN_VERSION_PREFIX = /^20(2[6-9]|[3-9]\d)-/;

/**
 * Whether a request claims the 2026-07-28 revision or a later one: a message with a protocol
 * version in its `_meta`, or (for one message, not a batch) such a version in the
 * MCP-Protocol-Version header. Everything else is
 * 2025-era traffic. The SDK's handler then checks the claim in full (a header that disagrees with
 * the body, a missing envelope, Mcp-Name against the body) and answers what does not hold. An
 * `initialize` (the 2025 handshake) claims the new revision only with a whole, valid envelope: that
 * rule is the SDK's own, so it decides (a client says initialize once, so the cost does not count).
 * test/unit/http/protocolRevision.property.test.ts pins this to the SDK's `isLegacyRequest`. Pure.
 */
export function claimsModernRevision(json: unknown, versionHeader: string | undefined): boolean {
	if (json !== null && typeof json === "object" && !Array.isArray(json) && (json as { method?: unknown }).method === "initialize") {
		return classifyInboundRequest({ httpMethod: "POST", protocolVersionHeader: versionHeader, body: json }).kind !== "legacy";
	}
	// A batch is 2025-era whatever the header says; one of its messages claiming the new revision sends it to the SDK, which refuses it.
	if (Array.isArray(json)) return json.some(namesProtocolVersion);
	return (versionHeader !== undefined && MODERN_VERSION_PREFIX.test(versionHeader)) || namesProtocolVersion(json);
}

/** True for a message whose `params._meta` names a protocol version (valid or not). */
function namesProtocolVersion(message: unknown): boolean {
	const params = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params;
	return params?._meta !== undefined && params._meta !== null && typeof params._meta === "object" && PROTOCOL_VERSION_META_KEY in params._meta;
}
