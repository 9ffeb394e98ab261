import {
	BODY_READ_TIMEOUT_MS,
	FIRST_REQUEST_TIMEOUT_MS,
	HEADERS_TIMEOUT_MS,
	MAX_RESPONSE_BODY_BYTES,
	MAX_UNAUTHENTICATED_CONNECTIONS,
	PLACE_WAIT_MS,
	RESPONSE_WRITE_TIMEOUT_MS,
	STOP_TIMEOUT_MS,
	SUBSCRIPTION_KEEPALIVE_MS,
} from "../config/limits";

/**
 * The deadlines (body, answer, first request, waiting for a place, a stop, a stream's keep-alive) and the caps (answer bytes,
 * unauthenticated connections) the HTTP layer enforces per connection and per answer. The defaults
 * are the limits in src/config/limits.ts; tests pass shorter ones so a deadline can be watched in a second.
 */
export interface HttpDeadlinesAndCaps {
	/** How long a request body may take to arrive after its headers (408 after it). */
	bodyReadMs: number;
	/** How long a client may take to read a whole answer once it is written (dropped after it). */
	responseWriteMs: number;
	/** How long a new connection may take to send its first request head (closed after it). */
	firstRequestMs: number;
	/** How long any request head may take to arrive, a kept-alive connection's later ones included (closed after it). */
	headersMs: number;
	/** Largest answer body for one request, batch included. */
	maxResponseBodyBytes: number;
	/** Connections open at once that have not yet presented a valid token. */
	maxUnauthenticatedConnections: number;
	/** How long a request may wait in line for an in-flight place before it is answered 503. */
	placeWaitMs: number;
	/** How long a stop waits in all for streams to end, written answers to be sent and running calls to finish. */
	stopMs: number;
	/** How often an open subscription stream sends a keep-alive comment. */
	subscriptionKeepAliveMs: number;
}

/** The deadlines and caps from src/config/limits.ts, with any given overrides. */
export function httpDeadlinesAndCaps(overrides: Partial<HttpDeadlinesAndCaps> = {}): HttpDeadlinesAndCaps {
	return {
		bodyReadMs: BODY_READ_TIMEOUT_MS,
		responseWriteMs: RESPONSE_WRITE_TIMEOUT_MS,
		firstRequestMs: FIRST_REQUEST_TIMEOUT_MS,
		headersMs: HEADERS_TIMEOUT_MS,
		maxResponseBodyBytes: MAX_RESPONSE_BODY_BYTES,
		maxUnauthenticatedConnections: MAX_UNAUTHENTICATED_CONNECTIONS,
		placeWaitMs: PLACE_WAIT_MS,
		stopMs: STOP_TIMEOUT_MS,
		subscriptionKeepAliveMs: SUBSCRIPTION_KEEPALIVE_MS,
		...overrides,
	};
}
