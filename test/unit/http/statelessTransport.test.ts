import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isJSONRPCRequest } from "@modelcontextprotocol/server";
import { checkMessages, ExchangeTransport, type Answer } from "../../../src/http/statelessTransport";

const call = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", arguments: {} } });

describe("checkMessages", () => {
	test("refuses a body that is not JSON-RPC, and an initialize in a batch", () => {
		expect(checkMessages({ hello: 1 })).toMatchObject({ status: 400, code: -32600 });
		expect(
			checkMessages([
				call(1),
				{
					jsonrpc: "2.0",
					id: 2,
					method: "initialize",
					params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
				},
			]),
		).toMatchObject({ status: 400, code: -32600 });
		expect(checkMessages([call(1), { jsonrpc: "2.0", method: "notifications/initialized" }])).toMatchObject({ requests: 1 });
	});

	test('refuses a batch in which two requests share an id (1 and "1" are two ids; a result may share a request\'s)', () => {
		expect(checkMessages([call(1), call(2), call(1)])).toMatchObject({ status: 400, code: -32600 });
		expect(checkMessages([call(1), { jsonrpc: "2.0", id: "1", method: "ping" }])).toMatchObject({ requests: 2 });
		expect(checkMessages([call(1), { jsonrpc: "2.0", id: 1, result: {} }])).toMatchObject({ requests: 1 });
	});

	test("counts requests as the SDK's isJSONRPCRequest does", () => {
		const entries: unknown[] = [
			call(1),
			{ jsonrpc: "2.0", id: "a", method: "ping" },
			{ jsonrpc: "2.0", method: "notifications/initialized" },
			{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
			{ jsonrpc: "2.0", id: 3, result: {} },
			{ jsonrpc: "2.0", id: 4, error: { code: -32000, message: "no" } },
		];
		for (const entry of entries) {
			const checked = checkMessages(entry);
			expect(checked).toHaveProperty("requests", isJSONRPCRequest(entry) ? 1 : 0);
		}
		expect(checkMessages(entries)).toHaveProperty("requests", entries.filter((entry) => isJSONRPCRequest(entry)).length);
	});
});

describe("ExchangeTransport", () => {
	/**
	 * A server stand-in that answers each request with `size` bytes of text, after a turn of the
	 * event loop; like the SDK's, it never answers a request cancelled before its answer was sent.
	 */
	function answering(transport: ExchangeTransport, size: number, seen: number[], cancelled: number[] = []): void {
		transport.onmessage = (message) => {
			if ("method" in message && message.method === "notifications/cancelled") {
				cancelled.push(Number((message.params as { requestId: number }).requestId));
				return;
			}
			if (!("id" in message)) return;
			seen.push(Number(message.id));
			const id = message.id as number;
			setImmediate(() => {
				if (!cancelled.includes(id)) void transport.send({ jsonrpc: "2.0", id, result: { text: "x".repeat(size) } });
			});
		};
	}

	test("runs a batch's calls one at a time, in order, and past the byte budget answers the rest without running them", async () => {
		const transport = new ExchangeTransport();
		const seen: number[] = [];
		answering(transport, 600, seen);
		let answers: Answer[] = [];
		let body = "";
		const exchange = transport.serve([call(1), call(2), call(3)], 3, 1000, (all, text) => {
			answers = all;
			body = text.pieces.join("");
		});
		await exchange.finished;
		// The body is the answers serialised once, as JSON.stringify would write them.
		expect(body).toBe(JSON.stringify(answers));
		await transport.whenIdle();
		// The second answer does not fit, so it is replaced; the third call is never run.
		expect(seen).toEqual([1, 2]);
		expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3]);
		expect(answers[0]).toHaveProperty("result");
		// The second ran, so its error says so (a write must not be sent again); the third says it did not run.
		expect(answers[1]).toMatchObject({ error: { message: expect.stringMatching(/^This call ran, but .* past 1000 bytes/) } });
		expect(answers[2]).toMatchObject({ error: { message: expect.stringMatching(/passed 1000 bytes, so this call was not run/) } });
	});

	test("a client gone cancels the running call, stops the calls still waiting, and leaves the server idle", async () => {
		const transport = new ExchangeTransport();
		const seen: number[] = [];
		const cancelled: number[] = [];
		answering(transport, 10, seen, cancelled);
		let delivered = false;
		const exchange = transport.serve([call(1), call(2)], 2, 1000, () => (delivered = true));
		exchange.abandon();
		await exchange.finished;
		await transport.whenIdle();
		expect(seen).toEqual([1]);
		// The running call's signal aborts (a call waiting for approval leaves the queue).
		expect(cancelled).toEqual([1]);
		expect(delivered).toBe(false);
		// The same transport serves the next POST.
		const next = transport.serve([call(7)], 1, 1000, (all, body) => {
			expect(all.map((answer) => answer.id)).toEqual([7]);
			// One answer alone is the body, not an array of one.
			expect(body.pieces.join("")).toBe(JSON.stringify(all[0]));
		});
		await next.finished;
		expect(seen).toEqual([1, 7]);
	});
});
