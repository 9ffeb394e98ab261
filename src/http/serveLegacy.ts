import type { AdmittedRequest, EndpointPolicy, EndpointState } from "./endpointState";
import { connectExchangeTransport, exchangeTransportOf } from "./exchangeTransports";
import { failRequest, jsonRpcError, sendJson, sendJsonPieces, withoutWithdrawn } from "./replies";
import { checkMessages, type Exchange } from "./statelessTransport";

/**
 * Answers a 2025-era request (one message or a batch) through our own stateless transport on a
 * lent server: one JSON answer, 202 for notifications only, the answer-size cap and the deadline
 * for a client that does not read its answer.
 */
export async function serveLegacy<S extends EndpointPolicy>(admitted: AdmittedRequest<S>, state: EndpointState<S>): Promise<void> {
	const { res, grant, settings, json, releasePlace, written: wrote, answerable } = admitted;
	const { deps, deadlinesAndCaps } = state;
	const checked = checkMessages(json);
	if ("status" in checked) {
		sendJson(res, checked.status, jsonRpcError(checked.code, checked.message));
		return;
	}
	const lent = deps.lendServer(grant, settings, "legacy", releasePlace, wrote);
	let exchange: Exchange | null = null;
	// A big answer is still being written when the server goes back for another request.
	let written: Promise<void> = Promise.resolve();
	try {
		// Only a server lent for the first time waits to be connected (an await costs a turn even when nothing is pending).
		const transport = exchangeTransportOf(lent.server) ?? (await connectExchangeTransport(lent.server));
		if (transport === null) throw new Error("A 2025-era server was lent while connected to another transport.");
		exchange = transport.serve(
			checked.messages,
			checked.requests,
			deadlinesAndCaps.maxResponseBodyBytes,
			(answers, body) => {
				// A client that does not read its answer would keep its place and the answer for as long
				// as it liked, so it gets a deadline from the first piece on.
				written = withoutWithdrawn(answers, body, answerable.withdrawn(), state.turns).then((sent) =>
					sendJsonPieces(res, 200, sent, deadlinesAndCaps.responseWriteMs, state.turns, answerable),
				);
			},
			{ turns: state.turns },
		);
		const served = exchange;
		res.once("close", () => served.abandon());
		await served.finished;
		// Only notifications: accepted, nothing to answer.
		if (checked.requests === 0 && !res.headersSent) {
			res.writeHead(202);
			res.end();
		}
		// The server goes back for another request once it has answered every call it started.
		await transport.whenIdle();
	} catch (error) {
		failRequest(res, deps.logger, error);
	} finally {
		exchange?.abandon();
		await lent.release();
	}
	await written.catch((error: unknown) => failRequest(res, deps.logger, error));
}
