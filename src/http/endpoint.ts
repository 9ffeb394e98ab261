import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler, preloadSchemas, type McpServer } from "@modelcontextprotocol/server";
import type { Grant } from "../auth/grant";
import {
	MAX_IN_FLIGHT_PER_TOKEN,
	MAX_WAITING_PER_TOKEN,
	MAX_IN_FLIGHT_REQUESTS,
	MAX_REQUEST_BODY_BYTES,
	RETRY_AFTER_BUSY_SECONDS,
	RATE_LIMIT_WINDOW_MS,
} from "../config/limits";
import { EntrySweeps } from "../entrySweeps";
import { readJsonBody, refuseBeforeBody } from "./body";
import { httpDeadlinesAndCaps } from "./deadlinesAndCaps";
import { currentGrant, guardedHeadersOf, guardRequest, isRefusal, UNAUTHORIZED, unsupportedVersionError } from "./guard";
import { claimsModernRevision } from "./protocolRevision";
import { failRequest, JSON_RPC_SERVER_ERROR, jsonRpcError, sendJson, sendRefusal } from "./replies";
import { serveLegacy } from "./serveLegacy";
import { serveModern } from "./serveModern";
import { PresentedTokenDigests } from "./tokenDigests";
import { WrittenAnswerSet, type WrittenAnswers } from "./writtenAnswers";
import { ListenStreams } from "./listenStream";
import { OWN_TURNS } from "./jsonPieces";
import { chargeMessages, InFlightPlaces, RateLimiter, rateLimitRefusal, WriteBudget } from "./tokenBudgets";
import type { Answerable, AskedRequest, EndpointDeps, EndpointPolicy, EndpointState } from "./endpointState";

export type { EndpointDeps, EndpointPolicy, LentServer } from "./endpointState";

/** The endpoint: a node:http request listener, and a way to wait for the requests it is still answering. */
export interface McpEndpoint {
	(req: IncomingMessage, res: ServerResponse): void;
	/** Resolves once no request is being answered (each one's tool call, and any write, finished); the server stops listening first. */
	drain(): Promise<void>;
	/**
	 * Null when no request holds a place (none is being worked on: one waiting for a person's answer,
	 * or a subscription stream, gives its place back); else settled once none does.
	 */
	whenIdle(): Promise<void> | null;
	/** Ends every open subscription stream with its closing result (the server is stopping); resolves once they are closed. */
	closeStreams(): Promise<void>;
	/**
	 * The answers being made to requests whose write call changed the vault: their connections, and a promise settled
	 * once each is sent or its connection gone. The server stopping keeps those connections until then: such an
	 * answer says what was written, and a client without it may send the write again.
	 */
	writtenAnswers(): WrittenAnswers;
	/** How many tokens the endpoint keeps an entry for, in each of its per-token tables (TOKEN_ENTRIES_BEFORE_SWEEP). */
	entriesKept(): { rateWindows: number; writeWindows: number; places: number; servedCopies: number };
}

/** The start of the warning the SDK writes to the console whenever a handler is made in json response mode. */
const JSON_MODE_WARNING_START = "responseMode: 'json' drops mid-call notifications";

/**
 * `make`'s handler without the SDK's console warning that json mode drops a call's notifications:
 * that is why it is chosen (see its use), and the warning went to the CLI's stderr and Obsidian's
 * console on every start of the server, telling the person of a loss they cannot act on. Any other
 * warning is written. Synchronous: nothing else runs while the console is wrapped.
 */
function withoutJsonModeWarning<T>(make: () => T): T {
	const warn = console.warn;
	console.warn = (...args: unknown[]) => {
		if (typeof args[0] === "string" && args[0].startsWith(JSON_MODE_WARNING_START)) return;
		warn(...args);
	};
	try {
		return make();
	} finally {
		console.warn = warn;
	}
}

/** The node:http request listener for the whole server: refusals first, then one stateless MCP exchange. */
export function createMcpEndpoint<S extends EndpointPolicy>(deps: EndpointDeps<S>): McpEndpoint {
	// The SDK builds its wire schemas on the first message that needs them: 25-60 ms of CPU in one
	// piece inside the first write call (or first 2026-07-28 call), while every other client waited.
	// Built here instead, before the port is open, so no request pays it (once a process: a memo).
	preloadSchemas();
	const modernServers = new WeakMap<Request, () => Promise<McpServer>>();
	const deadlinesAndCaps = httpDeadlinesAndCaps(deps.deadlinesAndCaps);
	const state: EndpointState<S> = {
		deps,
		deadlinesAndCaps,
		rateLimiter: new RateLimiter(),
		writeBudget: new WriteBudget(),
		places: new InFlightPlaces(MAX_IN_FLIGHT_REQUESTS, MAX_IN_FLIGHT_PER_TOKEN),
		// 2025-era traffic never reaches this handler (it goes to our own transport below), so it is strict.
		modern: withoutJsonModeWarning(() =>
			createMcpHandler(
				({ requestInfo }) => {
					const lend = requestInfo === undefined ? undefined : modernServers.get(requestInfo);
					if (!lend) throw new Error("A 2026-07-28 request reached the SDK handler without a server to lend.");
					return lend();
				},
				// A call's progress goes on an event stream only where it is written as it comes (serveModern's serveDirectly):
				// this handler's answer is read whole before it is written, so every notification (each echoing the
				// client's token) would be held to the end, and sent too late to reset the client's timeout.
				{ legacy: "reject", maxRequestBodySize: MAX_REQUEST_BODY_BYTES, responseMode: "json" },
			),
		),
		modernServers,
		listens: deps.subscriptions ? new ListenStreams(deps.subscriptions, deps.logger, deadlinesAndCaps.subscriptionKeepAliveMs) : null,
		turns: deps.turns ?? OWN_TURNS,
		writtenAnswers: new WrittenAnswerSet(),
	};
	// Requests being answered, counted (a set of their promises hashed each one in and out), and who waits for none.
	let answering = 0;
	let whenNoneAnswered: Array<() => void> = [];
	const answered = () => {
		if (--answering > 0) return;
		const waiting = whenNoneAnswered;
		whenNoneAnswered = [];
		for (const resolve of waiting) resolve();
	};
	const digests = new PresentedTokenDigests();

	const endpoint = (req: IncomingMessage, res: ServerResponse): void => {
		const settings = deps.currentSettings();
		const headers = guardedHeadersOf(req.rawHeaders);
		const answer = guardRequest(
			{
				method: req.method ?? "",
				url: req.url ?? "",
				headers,
				localPort: req.socket.localPort,
				tokenDigest: (token) => digests.digestOf(req.socket, token),
			},
			{ tokens: settings.tokens, writeEnabled: settings.writeEnabled },
		);
		if (isRefusal(answer)) {
			refuseBeforeBody(req, res, answer, state.deadlinesAndCaps.bodyReadMs);
			return;
		}
		deps.onAuthenticated?.(req.socket);
		// One message is counted before the body is read, so a client over its limit is refused
		// without reading anything; a batch pays for its other messages once it is parsed.
		const rate = state.rateLimiter.take(answer.token.hash, settings.rateLimitPerMinute);
		if (!rate.allowed) {
			refuseBeforeBody(req, res, rateLimitRefusal(settings, rate, 1), state.deadlinesAndCaps.bodyReadMs);
			return;
		}
		deps.onTokenUsed?.(answer.token);
		// A failure nothing below caught still answers, and never becomes an unhandled rejection (which ends a headless server).
		// One reaction for both outcomes, not a `catch` and then a `finally` (five promises a request).
		answering++;
		void serveMcp(req, res, answer, headers["mcp-protocol-version"]?.[0], state).then(answered, (error: unknown) => {
			failRequest(res, deps.logger, error);
			answered();
		});
	};
	return Object.assign(endpoint, {
		drain: () => (answering === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenNoneAnswered.push(resolve))),
		whenIdle: () => state.places.whenNoneTaken(),
		closeStreams: async () => await state.listens?.closeAll(),
		writtenAnswers: () => state.writtenAnswers.now(),
		entriesKept: () => ({
			rateWindows: state.rateLimiter.keys,
			writeWindows: state.writeBudget.keys,
			places: state.places.keys,
			servedCopies: statesOfTokens.get(state)?.copies.size ?? 0,
		}),
	});
}

/**
 * One request that passed the guard: its body read, its form checked, a place taken, its token
 * checked again and its budgets charged, then served by the revision it claims.
 */
async function serveMcp<S extends EndpointPolicy>(
	req: IncomingMessage,
	res: ServerResponse,
	grantOnArrival: Grant,
	version: string | undefined,
	state: EndpointState<S>,
): Promise<void> {
	const { deps, deadlinesAndCaps } = state;
	// The body is read before a place is taken: a client that never finishes sending holds only its own socket.
	const body = await readJsonBody(req, deadlinesAndCaps.bodyReadMs);
	if ("refusal" in body) {
		sendRefusal(req, res, body.refusal);
		return;
	}
	// A request refused for its form costs the token nothing: no place, no rate or write budget.
	if (!acceptsJson(req)) {
		sendJson(res, 406, jsonRpcError(JSON_RPC_SERVER_ERROR, "Not Acceptable: Client must accept both application/json and text/event-stream"));
		return;
	}
	const unsupported = unsupportedVersionError(version, body.json);
	if (unsupported) {
		sendJson(res, 400, { jsonrpc: "2.0", ...unsupported });
		return;
	}
	const key = grantOnArrival.token.hash;
	// A place free now (nearly always) is taken without a promise; else the request waits in line.
	const free = state.places.tryEnter(key);
	const entered = "refused" in free ? await state.places.enter(key, deadlinesAndCaps.placeWaitMs, MAX_WAITING_PER_TOKEN) : free;
	if ("refused" in entered) {
		const message =
			entered.refused === "token_busy"
				? `This token already has ${MAX_IN_FLIGHT_PER_TOKEN} requests being answered; wait for one to finish.`
				: "The server is busy answering other requests.";
		sendRefusal(req, res, { status: 503, kind: "busy", message, headers: { "Retry-After": String(RETRY_AFTER_BUSY_SECONDS) } });
		return;
	}
	// Nearly always decided at once: a request waits for a turn only beside others of its token.
	const taken = takeTurnOfToken(
		state,
		key,
		entered,
		callsWriteTool(body.json, (name) => deps.isWriteTool(name, grantOnArrival)),
	);
	const { place, state: served } = taken instanceof Promise ? await taken : taken;
	// The client may have gone while it waited in line: give the place straight back.
	if (res.destroyed || req.socket.destroyed) {
		place.leave();
		return;
	}
	// This request's big answer takes its pieces' turns as its token's.
	state = served;
	// The body may take seconds to arrive and the place a moment more: a token revoked, or writing
	// turned off, meanwhile counts for this request too, as it does for the next.
	const settings = deps.currentSettings();
	const grant = currentGrant(grantOnArrival.token.hash, settings);
	if (grant === null) {
		place.leave();
		sendRefusal(req, res, UNAUTHORIZED);
		return;
	}
	const messages = Array.isArray(body.json) ? (body.json as unknown[]) : [body.json];
	const refusal = chargeMessages(state, grant, settings, messages, (name) => deps.isWriteTool(name, grant));
	if (refusal) {
		place.leave();
		sendRefusal(req, res, refusal);
		return;
	}
	// A place frees once the answer is handed over ('finish'), or the client went away ('close'):
	// a client that sends its next request the moment it has an answer must find the place free.
	// Listened to with `on`, not `once`: each event comes once per answer, giving the place back twice is harmless, and `once` wraps each listener anew.
	res.on("finish", place.leave);
	res.on("close", place.leave);
	let wrote = false;
	const answerable = answerableOf(deps, grant, settings, messages, () => wrote);
	const written = () => {
		if (!wrote) state.writtenAnswers.add(res);
		wrote = true;
	};
	const admitted = { req, res, grant, settings, json: body.json, releasePlace: place.leave, written, answerable };
	if (claimsModernRevision(body.json, version)) {
		await serveModern(admitted, state);
		return;
	}
	await serveLegacy(admitted, state);
}

/**
 * Where a request stands in the lane of long work (see TurnLane): a token's only request being
 * answered, when it calls no write tool, goes first (other tokens' slices wait until it is answered, it takes a turn of long work
 * itself, or LONE_REQUEST_FIRST_MS has passed); a token's request beside others of its own waits
 * for its token's turn before it is served, so a token flooding calls takes turns with the others
 * from the first piece of each call, not only from its first pause. The place it returns also ends
 * the request's going first when given back.
 */
function takeTurnOfToken<S extends EndpointPolicy>(
	state: EndpointState<S>,
	key: string,
	entered: { leave: () => void },
	writes: boolean,
): TurnTaken<S> | Promise<TurnTaken<S>> {
	const lane = state.turns.lane;
	if (!lane) return { place: entered, state };
	const served = stateOfToken(state, key, lane);
	if (state.places.heldBy(key) > 1) return lane.takeFor(key).then(() => ({ place: entered, state: served }));
	// A write waits for a note's lock, the journal's sync, or a person's answer: it does not hold others' work meanwhile.
	if (writes) return { place: entered, state: served };
	const endFirst = lane.goFirst(key);
	const leave = () => {
		endFirst();
		entered.leave();
	};
	return { place: { leave }, state: served };
}

/** A request's place in line, and the state it is served with (its pieces' turns taken as its token's). */
interface TurnTaken<S extends EndpointPolicy> {
	place: { leave: () => void };
	state: EndpointState<S>;
}

/**
 * Each endpoint state's copies per token, whose pauses take that token's turns: made once per token,
 * not for every request. A new token's copy makes the copies of tokens with no request being
 * answered be forgotten when due (EntrySweeps): they hold no right, limit or count, and a request
 * being served keeps its own, so a revoked token's is not kept until restart.
 */
const statesOfTokens = new WeakMap<object, { copies: Map<string, object>; sweeps: EntrySweeps }>();

/** The endpoint's state with `key`'s turns: big answers' pieces, and long work the request pauses for, take turns as that token's. */
function stateOfToken<S extends EndpointPolicy>(state: EndpointState<S>, key: string, lane: NonNullable<EndpointState<S>["turns"]["lane"]>): EndpointState<S> {
	let states = statesOfTokens.get(state);
	if (states === undefined) statesOfTokens.set(state, (states = { copies: new Map<string, object>(), sweeps: new EntrySweeps(RATE_LIMIT_WINDOW_MS) }));
	const { copies } = states;
	let served = copies.get(key) as EndpointState<S> | undefined;
	if (served === undefined) {
		const now = Date.now();
		if (states.sweeps.due(copies.size, now)) {
			for (const other of copies.keys()) if (state.places.heldBy(other) === 0) copies.delete(other);
			states.sweeps.swept(copies.size, now);
		}
		served = { ...state, turns: { ...state.turns, pause: () => lane.takeFor(key) } };
		copies.set(key, served);
	}
	return served;
}

/** Whether a request's message (or batch) calls a write tool. */
function callsWriteTool(json: unknown, isWriteTool: (name: string) => boolean): boolean {
	return (Array.isArray(json) ? (json as unknown[]) : [json]).some((message) => {
		if (message === null || typeof message !== "object") return false;
		const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
		return method === "tools/call" && typeof params?.name === "string" && isWriteTool(params.name);
	});
}

/**
 * A batch's answers wait for its last call, and a big answer is written a piece at a time: a token
 * revoked meanwhile, or denied a read or narrowed meanwhile, is sent none of what was made for it
 * (read again before the answer and each piece).
 */
function answerableOf<S extends EndpointPolicy>(
	deps: EndpointDeps<S>,
	grant: Grant,
	settings: S,
	messages: readonly unknown[],
	wrote: () => boolean,
): Answerable {
	const asked: Array<AskedRequest & { id: unknown }> = [];
	for (const message of messages) {
		if (message === null || typeof message !== "object" || !("id" in message)) continue;
		const { id, method, params } = message as { id: unknown; method?: unknown; params?: { name?: unknown } };
		if (typeof method !== "string") continue;
		const name = params?.name;
		if (typeof name !== "string") asked.push({ id, method });
		else asked.push(method === "tools/call" && deps.isWriteTool(name, grant) ? { id, method, name, writes: true } : { id, method, name });
	}
	// A write call's answer is withheld only while nothing of the POST was written: it then says "nothing was written" (and may quote the note).
	const stillAnswers = (request: AskedRequest) => (request.writes === true && wrote()) || (deps.stillAnswers?.(grant, settings, request) ?? true);
	return {
		tokenValid: () => currentGrant(grant.token.hash, deps.currentSettings()) !== null,
		withdrawn: () => {
			// Asked before every answer and piece: nothing is made while none is withdrawn (nearly always).
			let withdrawn: Map<unknown, AskedRequest> | null = null;
			for (let index = 0; index < asked.length; index++) {
				const request = asked[index] as AskedRequest & { id: unknown };
				if (!stillAnswers(request)) (withdrawn ??= new Map()).set(request.id, request);
			}
			return withdrawn ?? NONE_WITHDRAWN;
		},
		wrote,
	};
}

/** What `Answerable.withdrawn` gives while every answer may still be sent: one empty map, never changed. */
const NONE_WITHDRAWN: ReadonlyMap<unknown, AskedRequest> = new Map();

/** The Streamable HTTP transport asks the client to accept both a JSON answer and an event stream. */
function acceptsJson(req: IncomingMessage): boolean {
	const accept = req.headers.accept ?? "";
	return accept.includes("application/json") && accept.includes("text/event-stream");
}
