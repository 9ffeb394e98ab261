import { webRequestOf } from "./listenStream";
import type { AdmittedRequest, EndpointPolicy, EndpointState, LentServer } from "./endpointState";
import { answerTooLarge, dropIfUnreadWithin, failRequest, JSON_RPC_METHOD_NOT_FOUND, sendJson } from "./replies";

/**
 * Answers a 2026-07-28 request through the SDK's handler, which checks the request's `_meta`
 * envelope and standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) against its body and
 * answers `server/discover`. Its server comes from the same pool as every other request's; the SDK
 * connects it to a transport for this one exchange and disconnects it once the answer is out.
 */
export async function serveModern<S extends EndpointPolicy>(admitted: AdmittedRequest<S>, state: EndpointState<S>): Promise<void> {
	const { req, res, grant, settings, json, releasePlace } = admitted;
	const { deps, deadlinesAndCaps } = state;
	if (isListenRequest(json) && state.listens !== null) {
		await state.listens.serve(
			req,
			res,
			grant,
			json,
			() => deps.lendServer(grant, settings, "modern", releasePlace),
			releasePlace,
			deadlinesAndCaps.maxResponseBodyBytes,
		);
		return;
	}
	if (isListenRequest(json)) {
		// A subscription is an event stream held open for as long as the client likes; this server
		// answers every request in plain JSON and keeps nothing open, so it has none to offer.
		sendJson(res, 404, {
			jsonrpc: "2.0",
			id: (json as { id: unknown }).id,
			error: {
				code: JSON_RPC_METHOD_NOT_FOUND,
				message:
					"Method not found: this server has no subscriptions (it keeps no stream open). Call tools/list, resources/list or prompts/list again to see changes.",
			},
		});
		return;
	}
	const clientGone = new AbortController();
	const onClose = () => clientGone.abort();
	res.once("close", onClose);
	// The URL is this endpoint's own, never built from the Host header a client sent.
	const request = webRequestOf(req, clientGone.signal);
	let lent: LentServer | null = null;
	let disconnected: Promise<void> = Promise.resolve();
	state.modernServers.set(request, () => {
		lent = deps.lendServer(grant, settings, "modern", releasePlace);
		const low = lent.server.server;
		disconnected = new Promise((resolve) => (low.onclose = () => resolve()));
		return lent.server;
	});
	try {
		const response = await state.modern.fetch(request, { parsedBody: json });
		let text = await response.text();
		let bytes = Buffer.byteLength(text);
		// The same cap as a 2025 exchange's: the SDK's handler has none of its own.
		if (bytes > deadlinesAndCaps.maxResponseBodyBytes) {
			text = JSON.stringify(answerTooLarge((json as { id?: unknown }).id ?? null, deadlinesAndCaps.maxResponseBodyBytes));
			bytes = Buffer.byteLength(text);
		}
		if (!res.destroyed) {
			const headers: Record<string, string | number> = {};
			response.headers.forEach((value, name) => (headers[name] = value));
			if (text === "") res.writeHead(response.status, headers).end();
			else {
				headers["Content-Length"] = bytes;
				res.writeHead(response.status, headers);
				res.end(text);
				dropIfUnreadWithin(res, deadlinesAndCaps.responseWriteMs);
			}
		}
	} catch (error) {
		failRequest(res, deps.logger, error);
	} finally {
		res.off("close", onClose);
		const served = lent as LentServer | null;
		if (served) {
			// The SDK disconnects the server once the answer is out; a server still connected cannot be lent again.
			if (served.server.server.transport !== undefined) await disconnected;
			await served.release();
		}
	}
}

function isListenRequest(json: unknown): boolean {
	return (
		json !== null && typeof json === "object" && !Array.isArray(json) && (json as { method?: unknown }).method === "subscriptions/listen" && "id" in json
	);
}
