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
} from "../../../src/config/limits";
import { httpDeadlinesAndCaps } from "../../../src/http/deadlinesAndCaps";

describe("httpDeadlinesAndCaps: the per-connection deadlines and caps", () => {
	test("by default, the documented limits", () => {
		expect(httpDeadlinesAndCaps()).toEqual({
			bodyReadMs: BODY_READ_TIMEOUT_MS,
			responseWriteMs: RESPONSE_WRITE_TIMEOUT_MS,
			firstRequestMs: FIRST_REQUEST_TIMEOUT_MS,
			headersMs: HEADERS_TIMEOUT_MS,
			maxResponseBodyBytes: MAX_RESPONSE_BODY_BYTES,
			maxUnauthenticatedConnections: MAX_UNAUTHENTICATED_CONNECTIONS,
			placeWaitMs: PLACE_WAIT_MS,
			stopMs: STOP_TIMEOUT_MS,
			subscriptionKeepAliveMs: SUBSCRIPTION_KEEPALIVE_MS,
		});
	});

	test("an override replaces only what it names", () => {
		const shorter = httpDeadlinesAndCaps({ bodyReadMs: 50 });
		expect(shorter.bodyReadMs).toBe(50);
		expect(shorter.placeWaitMs).toBe(PLACE_WAIT_MS);
	});

	test("every default is a positive, finite number (a zero deadline would refuse every request)", () => {
		for (const value of Object.values(httpDeadlinesAndCaps())) {
			expect(Number.isFinite(value)).toBe(true);
			expect(value).toBeGreaterThan(0);
		}
	});
});
