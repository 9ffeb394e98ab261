import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { CallToolResult, ListToolsResult, McpHttpHandler, McpServer, ProtocolEra } from "@modelcontextprotocol/server";
import type { Logger } from "../activity";
import type { Grant } from "../auth/grant";
import type { TokenRecord } from "../auth/tokens";
import type { HttpDeadlinesAndCaps } from "./deadlinesAndCaps";
import type { Turns } from "./jsonPieces";
import type { ListenStreams, SubscriptionFeed } from "./listenStream";
import type { InFlightPlaces, RateLimiter, TokenLimits, WriteBudget } from "./tokenBudgets";
import type { WrittenAnswerSet } from "./writtenAnswers";

/*
 * The shapes the endpoint and its two protocol paths (serveLegacy, serveModern) share, apart from
 * the endpoint itself so the paths need not import the module that imports them.
 */

/** The settings the endpoint enforces: who may come in, and how much each token may do. */
export interface EndpointPolicy extends TokenLimits {
	tokens: readonly TokenRecord[];
	writeEnabled: boolean;
}

/** What the endpoint reads on every request. Settings are read live, so a revoked token or a flipped write switch counts at once. */
export interface EndpointDeps<S extends EndpointPolicy> {
	currentSettings(): S;
	/**
	 * An MCP server from the pool, lent to one request of `era`, with the grant and the settings read
	 * when the request was let in. `releasePlace` gives the request's place in flight back early: a
	 * call waiting for the person's approval does no work meanwhile. `wrote` is told once a write
	 * call of the request has changed the vault (`Answerable.wrote`).
	 */
	lendServer(grant: Grant, settings: S, era: ProtocolEra, releasePlace: () => void, wrote: () => void): LentServer;
	logger: Logger;
	/**
	 * True for a tool that writes and that this grant may call: its calls count against the token's
	 * write budget. A tool the grant is denied must not, or the budget's refusal would show it exists.
	 */
	isWriteTool(name: string, grant: Grant): boolean;
	onTokenUsed?(token: TokenRecord): void;
	/** Told when a request on a connection presents a valid token, so the connection is no longer capped as unauthenticated. */
	onAuthenticated?(socket: Socket): void;
	/** Overrides for the deadlines and caps in src/config/limits.ts (tests use short ones). */
	deadlinesAndCaps?: Partial<HttpDeadlinesAndCaps>;
	/** The vault's changes for subscriptions/listen streams (2026-07-28); absent: the method is not offered. */
	subscriptions?: SubscriptionFeed;
	/** Where a big answer's pieces take their turns: the queue vault-wide work takes its slices from; absent: turns of the event loop's own. */
	turns?: Turns;
	/**
	 * False once the answer to `request`, made for `grant` under the settings `admitted`, may no
	 * longer be sent: its read right denied or the folders the token sees changed since (a batch's
	 * answers wait for its last call; a big answer is written in pieces). Asked of write calls too: a
	 * write's answer is still sent once the request wrote (`Answerable.wrote`), as it says what was
	 * written. Absent: only a revocation withholds answers.
	 */
	stillAnswers?(grant: Grant, admitted: S, request: AskedRequest): boolean;
}

/** One request of a POST as `stillAnswers` is asked about it: its method and, for a tool call, the tool's name. */
export interface AskedRequest {
	method: string;
	name?: string;
	/** A call of a write tool the grant may call. */
	writes?: boolean;
}

/** Whether what was made for one admitted request may still be sent, read again before the answer and each of its pieces. */
export interface Answerable {
	/** False once the token is revoked: nothing of the answer is sent (401), or the rest is cut off. */
	tokenValid(): boolean;
	/** The POST's requests whose answers may no longer be sent (`stillAnswers`), by id: its write calls only while nothing was written. */
	withdrawn(): ReadonlyMap<unknown, AskedRequest>;
	/**
	 * Whether a write call of the POST changed the vault: its answer is then never cut off half-way
	 * for a Deny or a change of folders, or the client would not know what was written and might
	 * send it again. A write call that wrote nothing (refused, failed, declined) does not count.
	 */
	wrote(): boolean;
}

/** An MCP server lent to one request: connected to that request's transport, then given back. */
export interface LentServer {
	server: McpServer;
	/** Called once the request is answered (or its client gone); resolves once the server may serve another request. */
	release(): Promise<void>;
	/** What it answers without the SDK's protocol layer (http/directAnswer.ts); absent: everything goes through the SDK. */
	direct?: DirectAnswers;
}

/**
 * What a lent server answers without the SDK's protocol layer, exactly as its registered handlers
 * would: the same tools, schemas and per-call checks, without the SDK's per-request dispatch.
 */
export interface DirectAnswers {
	/**
	 * The result of a call of one of its read tools, its arguments parsed by the tool's input schema
	 * (as the SDK parses them); null when the SDK is to answer instead: no such read tool, or
	 * arguments the schema refuses (the SDK words that error).
	 */
	callTool(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> | null;
	/** Its tools/list result: one object for every request with these tools. */
	listTools(): ListToolsResult;
}

/**
 * One request the endpoint let in, as both protocol paths serve it: its grant and the settings read
 * once its body had arrived and its place was taken, its parsed body, and its place's early release.
 */
export interface AdmittedRequest<S extends EndpointPolicy> {
	req: IncomingMessage;
	res: ServerResponse;
	grant: Grant;
	settings: S;
	json: unknown;
	releasePlace: () => void;
	/** Told by the request's write calls once one has changed the vault (`answerable.wrote()` then turns true). */
	written: () => void;
	/** Whether what was made for it may still be sent: an answer made or being written after a revocation, a Deny or a change of folders is not sent, or not finished. */
	answerable: Answerable;
}

/** What every request of one endpoint shares (one per endpoint: no state at module level but the legacy transports of pooled servers). */
export interface EndpointState<S extends EndpointPolicy> {
	deps: EndpointDeps<S>;
	deadlinesAndCaps: HttpDeadlinesAndCaps;
	rateLimiter: RateLimiter;
	writeBudget: WriteBudget;
	places: InFlightPlaces;
	/** The SDK's 2026-07-28 handler; each request's server comes from `modernServers`. */
	modern: McpHttpHandler;
	/** The server factory of each modern request being answered, by the web request the SDK hands back to the factory. */
	modernServers: WeakMap<Request, () => Promise<McpServer>>;
	/** The open subscriptions/listen streams; null when no feed is given. */
	listens: ListenStreams | null;
	/** Where a big answer's pieces are made and written: `deps.turns`, or the event loop's own. */
	turns: Turns;
	/** The answers of requests that wrote, until sent: the server stopping waits for them before it closes their connections. */
	writtenAnswers: WrittenAnswerSet;
}
