import { RESPONSE_WRITE_TIMEOUT_MS } from "../../../src/config/limits";
import type { Answerable } from "../../../src/http/endpointState";
import { jsonInPieces, OWN_TURNS } from "../../../src/http/jsonPieces";
import { ProgressStream } from "../../../src/http/progressStream";
import { rawRequest, withServer } from "../../helpers/http";

function answerable(tokenValid: () => boolean = () => true): Answerable {
	return { tokenValid, withdrawn: () => new Map(), wrote: () => false };
}

const get = (port: number) => rawRequest(port, { method: "GET", headers: [["Host", `127.0.0.1:${port}`]] });

/** The JSON messages of a body of server-sent events, in order. */
function eventsOf(body: string): unknown[] {
	return body
		.split("\n\n")
		.filter((event) => event !== "")
		.map((event) => {
			expect(event.startsWith("event: message\ndata: ")).toBe(true);
			return JSON.parse(event.slice("event: message\ndata: ".length)) as unknown;
		});
}

const progress = (n: number) => ({ jsonrpc: "2.0" as const, method: "notifications/progress", params: { progressToken: "p", progress: n } });
const answer = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "renamed" }] } };

describe("ProgressStream: a POST whose call sent progress is answered as server-sent events", () => {
	test("nothing is streamed until a notification is sent: the POST is then still answered as plain JSON", async () => {
		let streaming: boolean | undefined;
		await withServer(
			(_req, res) => {
				streaming = new ProgressStream(res, answerable(), RESPONSE_WRITE_TIMEOUT_MS).streaming;
				res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
			},
			async (port) => {
				const response = await get(port);
				expect(response.headers["content-type"]).toBe("application/json");
				expect(JSON.parse(response.body)).toEqual(answer);
			},
		);
		expect(streaming).toBe(false);
	});

	test("the notifications, then the answer, each one event, in the order sent", async () => {
		await withServer(
			async (_req, res) => {
				const stream = new ProgressStream(res, answerable(), RESPONSE_WRITE_TIMEOUT_MS);
				stream.notify(progress(1));
				stream.notify(progress(2));
				expect(stream.streaming).toBe(true);
				await stream.end([answer], [await jsonInPieces(answer)], OWN_TURNS);
			},
			async (port) => {
				const response = await get(port);
				expect(response.status).toBe(200);
				expect(response.headers["content-type"]).toBe("text/event-stream");
				expect(eventsOf(response.body)).toEqual([progress(1), progress(2), answer]);
			},
		);
	});

	test("a token revoked while the call ran gets no answer: the stream is cut, not ended with the call's result", async () => {
		let valid = true;
		await withServer(
			async (_req, res) => {
				const stream = new ProgressStream(
					res,
					answerable(() => valid),
					RESPONSE_WRITE_TIMEOUT_MS,
				);
				stream.notify(progress(1));
				valid = false;
				await stream.end([answer], [await jsonInPieces(answer)], OWN_TURNS);
			},
			async (port) => {
				const response = await get(port).catch((error: unknown) => ({ cut: error }));
				if ("body" in response) expect(response.body).not.toContain("renamed");
			},
		);
	});

	test("a token revoked while the client has not yet taken the last notification has its stream cut at the next one", async () => {
		let valid = true;
		let cut: boolean | undefined;
		await withServer(
			(_req, res) => {
				const stream = new ProgressStream(
					res,
					answerable(() => valid),
					RESPONSE_WRITE_TIMEOUT_MS,
				);
				// A token as big as a request body: the event is more than the socket takes at once, and waits for the client.
				stream.notify({ ...progress(1), params: { progressToken: "p".repeat(4 * 1024 * 1024), progress: 1 } });
				valid = false;
				stream.notify(progress(2));
				// On c9445824 the stream stayed open, sending on, until the client took the first event and another came.
				cut = res.destroyed;
				res.destroy();
			},
			async (port) => {
				await get(port).catch(() => undefined);
			},
		);
		expect(cut).toBe(true);
	});

	test("a notification once a plain answer began is dropped, and the plain answer is left whole", async () => {
		await withServer(
			(_req, res) => {
				const stream = new ProgressStream(res, answerable(), RESPONSE_WRITE_TIMEOUT_MS);
				res.writeHead(200, { "Content-Type": "application/json" });
				stream.notify(progress(1));
				expect(stream.streaming).toBe(false);
				res.end(JSON.stringify(answer));
			},
			async (port) => expect(JSON.parse((await get(port)).body)).toEqual(answer),
		);
	});
});
