import type { AdmittedRequest, EndpointPolicy, EndpointState, LentServer } from "./endpointState";
import { directAnswer } from "./directAnswer";
import { connectExchangeTransport, exchangeTransportOf } from "./exchangeTransports";
import { jsonInPieces } from "./jsonPieces";
import { failRequest, jsonRpcError, sendJson, sendJsonPieces, sentAtOnce, withoutWithdrawn } from "./replies";
import { ProgressStream } from "./progressStream";
import { answerLeftOut, checkMessages, type Answer, type CheckedMessages, type Exchange } from "./statelessTransport";

/**
 * Answers a 2025-era request (one message or a batch) on a lent server: one JSON answer, 202 for
 * notifications only, the answer-size cap and the deadline for a client that does not read its
 * answer. A plain `tools/call` of a read tool or `tools/list` is answered by the server's own
 * handlers directly (`directAnswer`); everything else goes through our own stateless transport
 * and the SDK's protocol layer.
 */
export async function serveLegacy<S extends EndpointPolicy>(admitted: AdmittedRequest<S>, state: EndpointState<S>): Promise<void> {
	const { res, grant, settings, json, releasePlace, written: wrote } = admitted;
	const { deps } = state;
	const checked = checkMessages(json);
	if ("status" in checked) {
		sendJson(res, checked.status, jsonRpcError(checked.code, checked.message));
		return;
	}
	const lent = deps.lendServer(grant, settings, "legacy", releasePlace, wrote);
	// A big answer is still being written when the server goes back for another request; null: nothing is.
	let written: Promise<void> | null = null;
	try {
		// One plain tools/call of a read tool or tools/list: answered by the server's own handlers without the SDK's protocol layer.
		const direct = directAnswer(lent.direct, json);
		if (direct !== null) {
			const answer = await direct;
			// The client went away meanwhile: nothing to answer, as an abandoned exchange answers nothing.
			// A short answer (nearly all) is written in this turn; a long or withdrawn one in pieces.
			if (!res.destroyed && !sentDirectlyAtOnce(admitted, state, answer)) written = sendDirectAnswer(admitted, state, answer);
		} else ({ written } = await serveExchange(admitted, state, lent, checked));
	} catch (error) {
		failRequest(res, deps.logger, error);
	} finally {
		await lent.release();
	}
	if (written !== null) await written.catch((error: unknown) => failRequest(res, deps.logger, error));
}

/**
 * Serves the POST's messages through the server's own stateless transport; resolves once the
 * server has answered every call it started, to the answer still being written.
 */
async function serveExchange<S extends EndpointPolicy>(
	{ res, answerable }: AdmittedRequest<S>,
	state: EndpointState<S>,
	lent: LentServer,
	checked: Exclude<CheckedMessages, { status: number }>,
): Promise<{ written: Promise<void> }> {
	const { deadlinesAndCaps } = state;
	let exchange: Exchange | null = null;
	let written: Promise<void> = Promise.resolve();
	const stream = new ProgressStream(res);
	try {
		// Only a server lent for the first time waits to be connected (an await costs a turn even when nothing is pending).
		const transport = exchangeTransportOf(lent.server) ?? (await connectExchangeTransport(lent.server));
		if (transport === null) throw new Error("A 2025-era server was lent while connected to another transport.");
		exchange = transport.serve(
			checked.messages,
			checked.requests,
			deadlinesAndCaps.maxResponseBodyBytes,
			(answers, body) => {
				// A call that sent its progress is answered on that stream.
				if (stream.streaming) {
					written = stream.end(answers, deadlinesAndCaps.responseWriteMs, state.turns, answerable);
					return;
				}
				// A client that does not read its answer would keep its place and the answer for as long
				// as it liked, so it gets a deadline from the first piece on.
				written = withoutWithdrawn(answers, body, answerable.withdrawn(), state.turns).then((sent) =>
					sendJsonPieces(res, 200, sent, deadlinesAndCaps.responseWriteMs, state.turns, answerable),
				);
			},
			{ turns: state.turns, onNotification: (notification) => stream.notify(notification) },
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
		return { written };
	} finally {
		exchange?.abandon();
	}
}

/** `sendDirectAnswer` done at once, when the answer is one short piece and may be sent (`sentAtOnce`); false when it must be done its way. */
function sentDirectlyAtOnce<S extends EndpointPolicy>({ res, answerable }: AdmittedRequest<S>, state: EndpointState<S>, answer: Answer): boolean {
	const { maxResponseBodyBytes, responseWriteMs } = state.deadlinesAndCaps;
	return sentAtOnce(res, 200, { "Content-Type": "application/json" }, answer, maxResponseBodyBytes, responseWriteMs, answerable);
}

/**
 * Writes a direct answer (`directAnswer`) as an exchange of one request writes its answer: the
 * answer's cap (a call that ran and does not fit says so), then the answer withheld once its
 * request may no longer be answered, or a 401 once the token is revoked (`sendJsonPieces`).
 */
async function sendDirectAnswer<S extends EndpointPolicy>({ res, answerable }: AdmittedRequest<S>, state: EndpointState<S>, answer: Answer): Promise<void> {
	const { deadlinesAndCaps, turns } = state;
	let body = await jsonInPieces(answer, turns);
	if (body.bytes > deadlinesAndCaps.maxResponseBodyBytes) body = await jsonInPieces(answerLeftOut(answer.id, deadlinesAndCaps.maxResponseBodyBytes));
	const sent = await withoutWithdrawn([answer], body, answerable.withdrawn(), turns);
	await sendJsonPieces(res, 200, sent, deadlinesAndCaps.responseWriteMs, turns, answerable);
}
