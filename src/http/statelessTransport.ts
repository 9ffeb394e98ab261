import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isInitializeRequest, isJSONRPCRequest, JSONRPCMessageSchema, type JSONRPCMessage, type MessageExtraInfo, type RequestId } from "@modelcontextprotocol/sdk/types.js";

const JSON_RPC_SERVER_ERROR = -32000;

/** A JSON-RPC answer (a result or an error) with the id of the request it answers. */
export type Answer = JSONRPCMessage & { id: RequestId };

/** What one POST carries once its messages are checked: the messages, or why they are refused (HTTP status, JSON-RPC code, message). */
export type CheckedMessages = { messages: JSONRPCMessage[]; requests: number } | { status: number; code: number; message: string };

/**
 * Checks a POST body the way the Streamable HTTP transport does: every entry a JSON-RPC message,
 * and an `initialize` only on its own. Pure.
 */
export function checkMessages(json: unknown): CheckedMessages {
	const entries = Array.isArray(json) ? (json as unknown[]) : [json];
	const messages: JSONRPCMessage[] = [];
	for (const entry of entries) {
		const parsed = JSONRPCMessageSchema.safeParse(entry);
		if (!parsed.success) return { status: 400, code: -32700, message: "Parse error: Invalid JSON-RPC message" };
		messages.push(parsed.data);
	}
	if (messages.length > 1 && messages.some(isInitializeRequest)) return { status: 400, code: -32600, message: "Invalid Request: Only one initialization request is allowed" };
	return { messages, requests: messages.filter(isJSONRPCRequest).length };
}

/**
 * The server side of one stateless POST answered with plain JSON: the messages go to the MCP
 * server, and once every request among them has its answer, `onAnswers` gets them in the order the
 * requests came. Unlike the SDK's Node transport, nothing is converted to web `Request` and
 * `Response` objects, which cost more than the rest of a small tool call.
 *
 * Each answer is already capped (MAX_RESPONSE_BYTES), but a batch of 32 could add up to tens of
 * megabytes, all built at once and then held for a client that does not read. So the calls of a
 * batch run one after another, and once the answers so far pass `maxBytes`, each further call is
 * not run: its answer is a short JSON-RPC error with the same id.
 */
export class StatelessJsonTransport implements Transport {
	onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
	onclose?: () => void;
	onerror?: (error: Error) => void;

	private bytes = 0;
	/** An answer did not fit: the calls still waiting are not run. */
	private full = false;
	private closed = false;
	private readonly answers: Answer[] = [];
	private readonly waiting: Array<JSONRPCMessage & { id: RequestId }> = [];
	private running: RequestId | null = null;
	private extra: MessageExtraInfo | undefined;
	private settle: () => void = () => undefined;
	/** Resolves once every answer is handed to `onAnswers`, or the transport is closed first. */
	readonly finished = new Promise<void>((resolve) => (this.settle = resolve));

	constructor(
		private readonly maxBytes: number,
		private readonly expectedAnswers: number,
		private readonly onAnswers: (answers: Answer[]) => void,
	) {}

	start(): Promise<void> {
		return Promise.resolve();
	}

	/** Hands the POST's messages to the server: notifications at once, requests one at a time. */
	deliver(messages: readonly JSONRPCMessage[], extra?: MessageExtraInfo): void {
		for (const message of messages) {
			if (isJSONRPCRequest(message)) this.waiting.push(message);
			else this.onmessage?.(message, extra);
		}
		this.extra = extra;
		if (this.expectedAnswers === 0) this.settle();
		this.runNext();
	}

	send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
		// Notifications and requests to the client have no stream to go on in a plain JSON answer.
		if (this.closed || !isAnswer(message)) return Promise.resolve();
		let answer: Answer = message;
		let size = Buffer.byteLength(JSON.stringify(answer));
		if (this.bytes + size > this.maxBytes) {
			this.full = true;
			answer = leftOut(answer.id, this.maxBytes);
			size = Buffer.byteLength(JSON.stringify(answer));
		}
		this.bytes += size;
		this.answers.push(answer);
		if (this.answers.length === this.expectedAnswers) {
			this.onAnswers(this.answers);
			this.settle();
		}
		if (answer.id === this.running) {
			this.running = null;
			this.runNext();
		}
		return Promise.resolve();
	}

	close(): Promise<void> {
		if (this.closed) return Promise.resolve();
		this.closed = true;
		this.waiting.length = 0;
		this.settle();
		this.onclose?.();
		return Promise.resolve();
	}

	/** Runs the next waiting request, unless one is running; past the budget, answers it without running it. */
	private runNext(): void {
		if (this.running !== null || this.closed) return;
		const next = this.waiting.shift();
		if (!next) return;
		this.running = next.id;
		if (this.full) void this.send(leftOut(next.id, this.maxBytes));
		else this.onmessage?.(next, this.extra);
	}
}

function isAnswer(message: JSONRPCMessage): message is Answer {
	return "id" in message && message.id !== undefined && ("result" in message || "error" in message);
}

function leftOut(id: RequestId, maxBytes: number): Answer {
	return { jsonrpc: "2.0", id, error: { code: JSON_RPC_SERVER_ERROR, message: `The answers to this batch passed ${maxBytes} bytes, so this call was not run. Send it again on its own or in a smaller batch.` } };
}
