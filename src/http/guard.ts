import { PROTOCOL_VERSION_META_KEY, ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { Grant } from "../auth/grant";
import { findTokenRecord, type TokenRecord } from "../auth/tokens";
import { MCP_PATH } from "./endpointAddress";

/**
 * The revision the SDK's 2026-07-28 handler serves, beside the 2025 (and 2024) revisions it lists
 * in SUPPORTED_PROTOCOL_VERSIONS (its list of modern revisions is not exported).
 */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

const UNSUPPORTED_PROTOCOL_VERSION: number = ProtocolErrorCode.UnsupportedProtocolVersion;

/** Every MCP-Protocol-Version this server answers, newest first. */
const SERVED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** What a request presents, as the guard needs it: header names lower-case, every value kept. */
export interface GuardInput {
	method: string;
	url: string;
	headers: Readonly<Record<string, readonly string[] | undefined>>;
	/** The port the request arrived on: a Host that names a port must name this one. */
	localPort?: number;
	/** The presented token's SHA-256 (`presentedTokenDigest`), when the caller remembers it; absent: hashed here. */
	tokenDigest?: (token: string) => Buffer;
}

/** The headers guardRequest reads, lower-case: the others need not be split into lists for it. */
const GUARDED_HEADERS: ReadonlySet<string> = new Set(["origin", "host", "authorization", "content-type", "mcp-protocol-version", "mcp-method", "mcp-name"]);

/**
 * The headers the guard reads, from a request's raw name and value list, as Node's
 * `headersDistinct` gives them (names lower-case, every value kept in order) but without a list
 * for every other header the client sent. Pure.
 */
export function guardedHeadersOf(rawHeaders: readonly string[]): Record<string, string[]> {
	const headers: Record<string, string[]> = {};
	for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
		const name = (rawHeaders[index] as string).toLowerCase();
		if (!GUARDED_HEADERS.has(name)) continue;
		const value = rawHeaders[index + 1] as string;
		const values = headers[name];
		if (values === undefined) headers[name] = [value];
		else values.push(value);
	}
	return headers;
}

/** Why a request was refused: what the response says, and the kind the activity log keeps. */
export interface Refusal {
	status: number;
	kind: RefusalKind;
	message: string;
	headers?: Record<string, string>;
}

type RefusalKind =
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
	| "invalid_request"
	| "rate_limited"
	| "timeout"
	| "busy";

/** The settings the guard decides by. */
export interface GuardPolicy {
	tokens: readonly TokenRecord[];
	writeEnabled: boolean;
}

/**
 * A loopback name and, optionally, a port: nothing else. A looser reading ("the text before the
 * first colon") let `[::1]junk` or `localhost:abc` through, which no URL parser accepts.
 */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i;
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
	if (hosts.length !== 1 || !namesThisServer(hosts[0] ?? "", input.localPort)) {
		return refuse(403, "host", "The Host header must be 127.0.0.1, localhost or [::1], with this server's port if a port is given.");
	}
	if (pathOf(input.url) !== MCP_PATH) {
		return refuse(404, "not_found", `Not found. The MCP endpoint is POST ${MCP_PATH}.`);
	}
	if (input.method !== "POST") {
		return refuse(405, "method", `Method not allowed. The MCP endpoint answers POST only (stateless, no event stream).`, { Allow: "POST" });
	}
	const token = bearerTokenOf(headers.authorization);
	const record = token === null ? null : findTokenRecord(token, policy.tokens, input.tokenDigest?.(token));
	if (record === null) return UNAUTHORIZED;
	const contentTypes = headers["content-type"] ?? [];
	if (contentTypes.length !== 1 || mediaTypeOf(contentTypes[0] ?? "") !== "application/json") {
		return refuse(415, "media_type", "Content-Type must be application/json.");
	}
	if ((headers["mcp-protocol-version"]?.length ?? 0) > 1) return refuse(400, "protocol_version", "Send the MCP-Protocol-Version header at most once.");
	if ((headers["mcp-method"]?.length ?? 0) > 1) return refuse(400, "mcp_header", "Send the Mcp-Method header at most once.");
	if ((headers["mcp-name"]?.length ?? 0) > 1) return refuse(400, "mcp_header", "Send the Mcp-Name header at most once.");
	return grantOf(record, policy);
}

/** The refusal of a request without a valid token (or whose token was revoked while it arrived). */
export const UNAUTHORIZED: Refusal = {
	status: 401,
	kind: "unauthorized",
	message: "A valid bearer token is required: send 'Authorization: Bearer <token>'.",
	headers: { "WWW-Authenticate": 'Bearer realm="vault-mcp"' },
};

/**
 * The grant of the token with this hash under `policy` as it is now, or null once it is revoked:
 * a request is checked again once its body has arrived. Pure.
 */
export function currentGrant(tokenHash: string, policy: GuardPolicy): Grant | null {
	const record = policy.tokens.find((candidate) => candidate.hash === tokenHash);
	return record === undefined ? null : grantOf(record, policy);
}

function grantOf(record: TokenRecord, policy: GuardPolicy): Grant {
	return { token: record, canWrite: policy.writeEnabled && record.level === "write" };
}

/**
 * The refusal of a request whose MCP-Protocol-Version this server does not speak, as a JSON-RPC
 * error with the request's id and, as 2026-07-28 words it, every revision served and the one asked
 * for; null when the version is served or absent (absent means 2025-03-26). A body that names its
 * revision in `_meta` speaks 2026-07-28's envelope: the SDK's handler answers it, listing what
 * `server/discover` lists, so the two agree (the conformance suite checks that they do). Pure.
 */
export function unsupportedVersionError(
	version: string | undefined,
	json: unknown,
): { id: unknown; error: { code: number; message: string; data: { supported: readonly string[]; requested: string } } } | null {
	const message = json !== null && typeof json === "object" && !Array.isArray(json) ? (json as { id?: unknown; params?: { _meta?: unknown } }) : null;
	if (version === undefined || SERVED_PROTOCOL_VERSIONS.includes(version) || namesMetaVersion(message?.params?._meta)) return null;
	return {
		id: message !== null && "id" in message ? message.id : null,
		error: {
			code: UNSUPPORTED_PROTOCOL_VERSION,
			message: `Unsupported MCP-Protocol-Version "${version}". Supported: ${SERVED_PROTOCOL_VERSIONS.join(", ")}.`,
			data: { supported: SERVED_PROTOCOL_VERSIONS, requested: version },
		},
	};
}

/** True for a `_meta` that names a protocol version (valid or not: the SDK's handler says which). */
function namesMetaVersion(meta: unknown): boolean {
	return meta !== null && typeof meta === "object" && !Array.isArray(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/** True for a guard answer that refuses. */
export function isRefusal(answer: Grant | Refusal): answer is Refusal {
	return "status" in answer;
}

function refuse(status: number, kind: RefusalKind, message: string, headers?: Record<string, string>): Refusal {
	return headers ? { status, kind, message, headers } : { status, kind, message };
}

/** The Host and port `namesThisServer` last took: a client sends the same Host with every request, so it is not matched again. */
const lastHostTaken = { host: "", localPort: undefined as number | undefined };

/** True for `127.0.0.1`, `localhost` (any case) or `[::1]`, with no port or the port the request arrived on. */
function namesThisServer(host: string, localPort: number | undefined): boolean {
	if (host === lastHostTaken.host && localPort === lastHostTaken.localPort && host !== "") return true;
	const taken = hostNamesThisServer(host, localPort);
	if (taken) {
		lastHostTaken.host = host;
		lastHostTaken.localPort = localPort;
	}
	return taken;
}

function hostNamesThisServer(host: string, localPort: number | undefined): boolean {
	const match = LOOPBACK_HOST.exec(host);
	if (match === null) return false;
	const port = match[1];
	return port === undefined || localPort === undefined || Number(port) === localPort;
}

/** The token from exactly one `Authorization: Bearer <token>` header, or null. */
function bearerTokenOf(values: readonly string[] | undefined): string | null {
	if (values === undefined || values.length !== 1) return null;
	const match = BEARER.exec(values[0] ?? "");
	return match?.[1] ?? null;
}

/** A URL's path: what comes before its query. Cut with `indexOf`, not `split`: every request's URL is read (a list made for each was 1% of a small call). */
function pathOf(url: string): string {
	const query = url.indexOf("?");
	return query === -1 ? url : url.slice(0, query);
}

/** A Content-Type's media type, lower case, without its parameters (cut as `pathOf` cuts). */
function mediaTypeOf(contentType: string): string {
	// What nearly every client sends, already in its one spelling.
	if (contentType === "application/json") return contentType;
	const parameters = contentType.indexOf(";");
	return (parameters === -1 ? contentType : contentType.slice(0, parameters)).trim().toLowerCase();
}
