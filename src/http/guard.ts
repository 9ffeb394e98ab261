import { ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { Grant } from "../auth/grant";
import { findTokenRecord, type TokenRecord } from "../auth/tokens";

/**
 * The revision the SDK's 2026-07-28 handler serves, beside the 2025 (and 2024) revisions it lists
 * in SUPPORTED_PROTOCOL_VERSIONS (its list of modern revisions is not exported).
 */
const MODERN_PROTOCOL_VERSION = "2026-07-28";

const UNSUPPORTED_PROTOCOL_VERSION: number = ProtocolErrorCode.UnsupportedProtocolVersion;

/** Every MCP-Protocol-Version this server answers, newest first. */
const SERVED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

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
 * method (405) → bearer token (401) → Content-Type (415) → MCP-Protocol-Version, Mcp-Method or
 * Mcp-Name given more than once (400; refused outright, as a repeated Content-Type is). Which
 * revision the request speaks, and whether these headers match the body, is decided once the body
 * is read: 2026-07-28 asks that the refusal echo the request's id and list the revisions served.
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
	if ((headers["mcp-protocol-version"]?.length ?? 0) > 1) return refuse(400, "protocol_version", "Send the MCP-Protocol-Version header at most once.");
	for (const name of ["mcp-method", "mcp-name"] as const) {
		if ((headers[name]?.length ?? 0) > 1) return refuse(400, "mcp_header", `Send the ${name === "mcp-method" ? "Mcp-Method" : "Mcp-Name"} header at most once.`);
	}
	return { token: record, canWrite: policy.writeEnabled && record.level === "write" };
}

/**
 * The refusal of a 2025-era request whose MCP-Protocol-Version this server does not speak, as a
 * JSON-RPC error with the request's id and, as 2026-07-28 words it, the revisions served and the
 * one asked for; null when the version is served or absent (absent means 2025-03-26). Pure.
 */
export function unsupportedVersionError(version: string | undefined, json: unknown): { id: unknown; error: { code: number; message: string; data: { supported: readonly string[]; requested: string } } } | null {
	if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
	const id = json !== null && typeof json === "object" && !Array.isArray(json) && "id" in json ? json.id : null;
	return {
		id,
		error: {
			code: UNSUPPORTED_PROTOCOL_VERSION,
			message: `Unsupported MCP-Protocol-Version "${version}". Supported: ${SERVED_PROTOCOL_VERSIONS.join(", ")}.`,
			data: { supported: SERVED_PROTOCOL_VERSIONS, requested: version },
		},
	};
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
