import type { McpServer } from "@modelcontextprotocol/server";
import type { AdmittedRequest, EndpointPolicy, EndpointState } from "./endpointState";
import { dropIfUnreadWithin, failRequest, jsonRpcError, sendJson, sendJsonText } from "./replies";
import { checkMessages, ExchangeTransport, type Exchange } from "./statelessTransport";

/** Each pooled MCP server's transport, connected the first time the server is lent and kept for its life. */
const transports = new WeakMap<McpServer, ExchangeTransport>();

async function connectedTransport(server: McpServer): Promise<ExchangeTransport> {
	const transport = new ExchangeTransport();
	transports.set(server, transport);
	await server.connect(transport);
	return transport;
}

/**
 * Answers a 2025-era request (one message or a batch) through our own stateless transport on a
 * lent server: one JSON answer, 202 for notifications only, the answer-size cap and the deadline
 * for a client that does not read its answer.
 */
export async function serveLegacy<S extends EndpointPolicy>(admitted: AdmittedRequest<S>, state: EndpointState<S>): Promise<void> {
	const { res, grant, settings, json, releasePlace } = admitted;
	const { deps, deadlinesAndCaps } = state;
	const checked = checkMessages(json);
	if ("status" in checked) {
		sendJson(res, checked.status, jsonRpcError(checked.code, checked.message));
		return;
	}
	const lent = deps.lendServer(grant, settings, "legacy", releasePlace);
	let exchange: Exchange | null = null;
	try {
		// Only a server lent for the first time waits to be connected (an await costs a turn even when nothing is pending).
		const transport = transports.get(lent.server) ?? (await connectedTransport(lent.server));
		exchange = transport.serve(checked.messages, checked.requests, deadlinesAndCaps.maxResponseBodyBytes, (_answers, body) => {
			sendJsonText(res, 200, body);
			// Once the answer is written, a client that does not read it would keep its place and the
			// buffered answer for as long as it liked, so it gets a deadline from then on.
			dropIfUnreadWithin(res, deadlinesAndCaps.responseWriteMs);
		});
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
}
