import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { Grant } from "../auth/grant";
import { findTokenRecord, type TokenRecord } from "../auth/tokens";

/**
 * The revision the SDK's 2026-07-28 handler serves, beside the 2025 (and 2024) revisions it lists
 * in SUPPORTED_PROTOCOL_VERSIONS (its list of modern revisions is not exported).
 */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/** Every MCP-Protocol-Version this server answers, newest first. */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** The path the MCP endpoint answers on. */
export const MCP_PATH = "/mcp";

/** What a request presents, as the guard needs it: header names lower-case, every value kept. */
export interface GuardInput {
	method: string;
	url: string;
	headers: Readonly<Record<string, readonly string[] | undefined>>;
}

/** Why a request was refused: what the response says, and the kind the activity log keeps. */
export interface Refusal {
	status: number;
	kind: RefusalKind;
	message: string;
	headers?: Record<string, string>;
}

export type RefusalKind =
	| "origin"
	| "host"
	| "not_found"
	| "method"
	| "unauthorized"
	| "media_type"
	| "protocol_version"
	| "mcp_header"
	| "too_large"
	| "parse_error"
	| "rate_limited"
	| "timeout"
	| "busy";

/** The settings the guard decides by. */
export interface GuardPolicy {
	tokens: readonly TokenRecord[];
	writeEnabled: boolean;
}

const LOOPBACK_HOSTNAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);
const BEARER = /^Bearer ([^\s]+)$/i;

/**
 * Decides, before any body is read, whether a request may reach the MCP server. Pure. The checks
 * run in this order, and the first that fails answers:
 * Origin (any Origin means a browser page: 403) → Host (DNS rebinding: 403) → path (404) →
 * method (405) → bearer token (401) → Content-Type (415) → MCP-Protocol-Version (400) → Mcp-Method
 * and Mcp-Name given more than once (400). Whether Mcp-Method and Mcp-Name match the body is the
 * SDK's check, once the body is read (2026-07-28 asks for it; the spec lets a server take the first
 * of repeated headers, and we refuse them instead, as for Content-Type).
 */
export function guardRequest(input: GuardInput, policy: GuardPolicy): Grant | Refusal {
	const { headers } = input;
	if (headers.origin !== undefined) {
		return refuse(403, "origin", "Requests from web pages are refused: this server answers only apps on this computer.");
	}
	const hosts = headers.host ?? [];
	if (hosts.length !== 1 || !LOOPBACK_HOSTNAMES.has(hostnameOf(hosts[0] ?? ""))) {
		return refuse(403, "host", "The Host header must be 127.0.0.1, localhost or [::1].");
	}
	const path = input.url.split("?")[0];
	if (path !== MCP_PATH) {
		return refuse(404, "not_found", `Not found. The MCP endpoint is POST ${MCP_PATH}.`);
	}
	if (input.method !== "POST") {
		return refuse(405, "method", `Method not allowed. The MCP endpoint answers POST only (stateless, no event stream).`, { Allow: "POST" });
	}
	const token = bearerTokenOf(headers.authorization);
	const record = token === null ? null : findTokenRecord(token, policy.tokens);
	if (record === null) {
		return refuse(401, "unauthorized", "A valid bearer token is required: send 'Authorization: Bearer <token>'.", {
			"WWW-Authenticate": 'Bearer realm="vault-mcp"',
		});
	}
	const contentTypes = headers["content-type"] ?? [];
	if (contentTypes.length !== 1 || mediaTypeOf(contentTypes[0] ?? "") !== "application/json") {
		return refuse(415, "media_type", "Content-Type must be application/json.");
	}
	const versions = headers["mcp-protocol-version"];
	if (versions !== undefined && (versions.length !== 1 || !SERVED_PROTOCOL_VERSIONS.includes(versions[0] ?? ""))) {
		return refuse(400, "protocol_version", `Unsupported MCP-Protocol-Version. Supported: ${SERVED_PROTOCOL_VERSIONS.join(", ")}.`);
	}
	for (const name of ["mcp-method", "mcp-name"] as const) {
		if ((headers[name]?.length ?? 0) > 1) return refuse(400, "mcp_header", `Send the ${name === "mcp-method" ? "Mcp-Method" : "Mcp-Name"} header at most once.`);
	}
	return { token: record, canWrite: policy.writeEnabled && record.level === "write" };
}

/** True for a guard answer that refuses. */
export function isRefusal(answer: Grant | Refusal): answer is Refusal {
	return "status" in answer;
}

function refuse(status: number, kind: RefusalKind, message: string, headers?: Record<string, string>): Refusal {
	return headers ? { status, kind, message, headers } : { status, kind, message };
}

/** `localhost:27150` → `localhost`; `[::1]:80` → `[::1]`. Lower-cased, as host names compare. */
function hostnameOf(host: string): string {
	const value = host.trim().toLowerCase();
	if (value.startsWith("[")) {
		const end = value.indexOf("]");
		return end === -1 ? value : value.slice(0, end + 1);
	}
	const colon = value.indexOf(":");
	return colon === -1 ? value : value.slice(0, colon);
}

/** The token from exactly one `Authorization: Bearer <token>` header, or null. */
function bearerTokenOf(values: readonly string[] | undefined): string | null {
	if (values === undefined || values.length !== 1) return null;
	const match = BEARER.exec(values[0] ?? "");
	return match?.[1] ?? null;
}

function mediaTypeOf(contentType: string): string {
	return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}
