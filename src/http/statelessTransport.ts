import {
	isInitializeRequest,
	parseJSONRPCMessage,
	PerRequestHTTPServerTransport,
	type JSONRPCMessage,
	type MessageClassification,
	type MessageExtraInfo,
	type RequestId,
	type Transport,
	type TransportSendOptions,
} from "@modelcontextprotocol/server";
import { jsonInPieces, joinedAsArray, OWN_TURNS, type JsonPieces, type Turns } from "./jsonPieces";
import { certainlyRequest } from "./jsonRpcRequest";

const JSON_RPC_SERVER_ERROR = -32000;
const JSON_RPC_INTERNAL_ERROR = -32603;

/** A JSON-RPC answer (a result or an error) with the id of the request it answers. */
export type Answer = JSONRPCMessage & { id: RequestId };

/** What one POST carries once its messages are checked: the messages, or why they are refused (HTTP status, JSON-RPC code, message). */
export type CheckedMessages = { messages: JSONRPCMessage[]; requests: number } | { status: number; code: number; message: string };

/**
 * Checks a POST body the way the Streamable HTTP transport does: every entry a JSON-RPC message,
 * and an `initialize` only on its own; and that no two requests share an id. Pure.
 */
export function checkMessages(json: unknown): CheckedMessages {
	// One plain request, nearly every POST, is told by its keys and types: the message schema would
	// parse it whole only to hand back a copy of it.
	if (certainlyRequest(json)) return { messages: [json], requests: 1 };
	const entries = Array.isArray(json) ? (json as unknown[]) : [json];
	const messages: JSONRPCMessage[] = [];
	for (const entry of entries) {
		try {
			messages.push(parseJSONRPCMessage(entry));
		} catch {
			// The body parsed as JSON: JSON-RPC calls an entry that is not a message an invalid request, not a parse error.
			return { status: 400, code: -32600, message: "Invalid Request: not a JSON-RPC message" };
		}
	}
	if (messages.length > 1 && messages.some(isInitializeRequest))
		return { status: 400, code: -32600, message: "Invalid Request: Only one initialization request is allowed" };
	const requests = messages.filter(isParsedRequest);
	// Answers are told apart by id alone: with two calls of one id, neither the client nor the
	// endpoint (which withholds a read's answer after a Deny) could tell a write's answer from the other's.
	const ids = new Set<RequestId>();
	for (const request of requests) {
		if (ids.has(request.id))
			return {
				status: 400,
				code: -32600,
				message: `Invalid Request: two requests in this batch have the same id (${JSON.stringify(request.id)}); give each its own. Nothing was run.`,
			};
		ids.add(request.id);
	}
	return { messages, requests: requests.length };
}

/**
 * Whether a message that parseJSONRPCMessage accepted is a request. Each shape of the SDK's
 * message union is a strict object and only a request has both `id` and `method`, so this answers
 * as the SDK's `isJSONRPCRequest` does without running the schema a second time on every message.
 */
function isParsedRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
	return "method" in message && "id" in message;
}

/**
 * The transport of one pooled MCP server, connected once and then used by one POST at a time: the
 * POST's messages go to the server, and once every request among them has its answer,
 * `onAnswers` gets them in the order the requests came. Nothing is converted to web `Request` and
 * `Response` objects, and nothing is connected or closed per request: the SDK's Node transport and
 * a connect and close for each request cost more than the rest of a small tool call.
 *
 * Each answer is already capped (MAX_RESPONSE_BYTES), but a batch of 32 could add up to tens of
 * megabytes, all built at once and then held for a client that does not read. So the calls of a
 * batch run one after another, and once the answers so far pass `maxBytes`, each further call is
 * not run: its answer is a short JSON-RPC error with the same id.
 *
 * It is the SDK's per-request transport by kind, though not by use: the SDK binds a server to the
 * 2026-07-28 revision only when it is connected to that kind of transport classified at that
 * revision. Classified so, it keeps a pooled server bound to 2026-07-28 for its life, and each
 * 2026-07-28 request's classification goes with its message, as the SDK's own transport sends it.
 * Unclassified (2025-era traffic) it binds nothing. The methods the protocol layer calls (start,
 * send, close) are all replaced here, so nothing of that transport's single-use state is read.
 */
export class ExchangeTransport extends PerRequestHTTPServerTransport implements Transport {
	private exchange: Exchange | null = null;
	/** Requests handed to the server and not yet answered, of this exchange or one abandoned. */
	private outstanding = 0;
	private idle: () => void = () => undefined;
	/** True while a request is being handed to the server: an answer sent meanwhile came from the SDK's checks before any handler ran. */
	private dispatching = false;
	/** Where requests go instead of `onmessage`, once the server has said (`deliverRequestsTo`). */
	private requestReceiver: RequestReceiver | null = null;

	constructor(classification: MessageClassification = { era: "legacy" }) {
		super({ classification });
	}

	override start(): Promise<void> {
		return Promise.resolve();
	}

	/**
	 * Hands requests straight to `receiver` (the server's own request dispatch) rather than to
	 * `onmessage`. Every request this transport delivers is already known to be a JSON-RPC request,
	 * and `onmessage` would test each message against three of the SDK's message schemas again
	 * to find that out (two of them fail, building an error each time).
	 */
	deliverRequestsTo(receiver: RequestReceiver): void {
		this.requestReceiver = receiver;
	}

	/** Whether requests skip `onmessage` (for the test that notices an SDK update taking the dispatch away). */
	get deliversRequestsDirectly(): boolean {
		return this.requestReceiver !== null;
	}

	/**
	 * Serves one POST's messages: notifications at once, requests one at a time. Resolves once every
	 * answer is handed to `onAnswers`, or the exchange is abandoned (the client went away).
	 * `classified` goes with every message: a 2026-07-28 request's classification. Such an exchange
	 * withholds an answer the SDK's checks give before any handler runs (`answeredBeforeHandler`):
	 * the SDK's HTTP handler answers those, with its own HTTP statuses. A big answer is made on `turns`.
	 */
	serve(
		messages: readonly JSONRPCMessage[],
		requests: number,
		maxBytes: number,
		onAnswers: AnswersListener,
		options: { classified?: MessageExtraInfo; turns?: Turns; onNotification?: NotificationListener } = {},
	): Exchange {
		const { classified, turns, onNotification } = options;
		const exchange = new Exchange(requests, maxBytes, onAnswers, (id) => this.cancel(id), classified, turns);
		exchange.onNotification = onNotification ?? null;
		this.exchange = exchange;
		for (const message of messages) {
			if (isParsedRequest(message)) exchange.waiting.push(message);
			else this.onmessage?.(message, classified);
		}
		if (requests === 0) exchange.settle();
		this.runNext();
		return exchange;
	}

	/** Resolves once the server has answered every request it was given, so it may serve another POST. */
	whenIdle(): Promise<void> {
		if (this.outstanding === 0) return Promise.resolve();
		return new Promise((resolve) => (this.idle = resolve));
	}

	override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
		if (!isAnswer(message)) {
			// A notification about the running call (its progress) goes to the POST's listener, which may answer as a stream;
			// any other notification or request to the client has no stream to go on in a plain JSON answer.
			const exchange = this.exchange;
			const related = options?.relatedRequestId;
			if (exchange && !exchange.abandoned && related !== undefined && related === exchange.running && !("id" in message))
				exchange.onNotification?.(message);
			return Promise.resolve();
		}
		this.outstanding -= 1;
		const exchange = this.exchange;
		if (exchange && !exchange.abandoned) {
			let added: Promise<void> = Promise.resolve();
			if (this.dispatching && exchange.classified !== undefined) {
				exchange.answeredBeforeHandler = true;
				exchange.settle();
			} else added = exchange.add(message);
			if (message.id === exchange.running) {
				exchange.running = null;
				// The next call runs once this answer is made: whether the batch is full is known then.
				void added.then(() => this.runNext(exchange));
			}
		}
		if (this.outstanding === 0) this.idle();
		return Promise.resolve();
	}

	override close(): Promise<void> {
		this.exchange?.abandon();
		this.onclose?.();
		return Promise.resolve();
	}

	/**
	 * The client of the running call went away. The server is told as if the client had sent
	 * `notifications/cancelled`, so the call's signal aborts (a call waiting for approval leaves the
	 * approval queue). A cancelled call is never answered, so it no longer counts as outstanding.
	 */
	private cancel(id: RequestId): void {
		this.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "The client went away." } });
		this.outstanding -= 1;
		if (this.outstanding === 0) this.idle();
	}

	/** Runs the exchange's next waiting request, unless one is running; past the budget, answers it without running it. */
	private runNext(exchange: Exchange | null = this.exchange): void {
		if (!exchange || exchange !== this.exchange || exchange.running !== null || exchange.abandoned) return;
		const next = exchange.waiting.shift();
		if (!next) return;
		exchange.running = next.id;
		this.outstanding += 1;
		if (exchange.full) {
			void this.send(leftOut(next.id, exchange.maxBytes));
			return;
		}
		this.dispatching = true;
		try {
			if (this.requestReceiver !== null) this.requestReceiver(next, exchange.classified);
			else this.onmessage?.(next, exchange.classified);
		} finally {
			this.dispatching = false;
		}
	}
}

/** Takes one request, already checked to be a JSON-RPC request, with its classification (2026-07-28) if any. */
export type RequestReceiver = (request: JSONRPCMessage & { id: RequestId; method: string }, extra?: MessageExtraInfo) => void;

/** Told each notification the server sends about the POST's running call (`notifications/progress`). */
export type NotificationListener = (notification: JSONRPCMessage) => void;

/**
 * Told the answers of one POST, in request order, and the body that carries them (one answer alone,
 * else the array), serialised once, in pieces; `texts` are the answers' own, the body's parts.
 */
export type AnswersListener = (answers: Answer[], body: JsonPieces, texts: readonly JsonPieces[]) => void;

/** One POST's requests and answers. */
export class Exchange {
	readonly waiting: Array<JSONRPCMessage & { id: RequestId; method: string }> = [];
	running: RequestId | null = null;
	/** An answer did not fit: the calls still waiting are not run. */
	full = false;
	abandoned = false;
	/**
	 * A classified exchange's answer came while its request was being handed over, so from the
	 * SDK's checks before any handler (an unknown method, an envelope it refuses): nothing ran, and
	 * the answer was withheld.
	 */
	answeredBeforeHandler = false;
	/** Where notifications about the running call go; null: dropped, as a plain JSON answer has no stream. */
	onNotification: NotificationListener | null = null;
	private bytes = 0;
	private readonly answers: Answer[] = [];
	/** Each answer as JSON, kept so the body is not serialised a second time once every answer is in. */
	private readonly texts: JsonPieces[] = [];
	/** Answers are made one after another, so they stay in the order they came. */
	private making: Promise<void> = Promise.resolve();
	settle: () => void = () => undefined;
	/** Resolves once every answer is handed to `onAnswers`, or the exchange is abandoned. */
	readonly finished = new Promise<void>((resolve) => (this.settle = resolve));

	constructor(
		private readonly expectedAnswers: number,
		readonly maxBytes: number,
		private readonly onAnswers: AnswersListener,
		private readonly onCancel: (running: RequestId) => void = () => undefined,
		readonly classified?: MessageExtraInfo,
		private readonly turns: Turns = OWN_TURNS,
	) {}

	/** Makes the answer's JSON (a big one a piece at a time, with turns between); resolves once it is kept, never rejects. */
	add(message: Answer): Promise<void> {
		// Nothing in `make` throws; were it to, the client is let go rather than the rejection left unhandled.
		this.making = this.making.then(() => this.make(message)).catch(() => this.abandon());
		return this.making;
	}

	private async make(message: Answer): Promise<void> {
		let answer = message;
		let text = await jsonInPieces(answer, this.turns).catch(() => null);
		if (this.abandoned) return;
		if (text === null) {
			// Nothing the server answers fails to serialise; should it, the call is answered rather than left waiting.
			answer = {
				jsonrpc: "2.0",
				id: answer.id,
				error: { code: JSON_RPC_INTERNAL_ERROR, message: "Internal error: the answer could not be written as JSON." },
			};
			text = await jsonInPieces(answer);
		}
		// A call past the cap was never run and already says so; any other answer that does not fit came from a call that ran.
		if (this.bytes + text.bytes > this.maxBytes && !notRunAnswers.has(answer)) {
			this.full = true;
			answer = answerLeftOut(answer.id, this.maxBytes);
			text = await jsonInPieces(answer);
		}
		this.bytes += text.bytes;
		this.answers.push(answer);
		this.texts.push(text);
		if (this.answers.length === this.expectedAnswers) {
			this.onAnswers(this.answers, joinedAsArray(this.texts), this.texts);
			this.settle();
		}
	}

	/** The client went away: nothing more is run or answered. */
	abandon(): void {
		this.abandoned = true;
		this.waiting.length = 0;
		const running = this.running;
		this.running = null;
		if (running !== null) this.onCancel(running);
		this.settle();
	}
}

function isAnswer(message: JSONRPCMessage): message is Answer {
	return "id" in message && message.id !== undefined && ("result" in message || "error" in message);
}

/**
 * The answer of a call that ran but did not fit. It must not say "not run": a model told that of a
 * write would send it again and write it twice.
 */
export function answerLeftOut(id: RequestId, maxBytes: number): Answer {
	return {
		jsonrpc: "2.0",
		id,
		error: {
			code: JSON_RPC_SERVER_ERROR,
			message: `This call ran, but its answer would have taken this batch's answers past ${maxBytes} bytes, so it was left out. A write was made: do not send it again. For a read, ask again on its own or for less.`,
		},
	};
}

/** The answers of calls left unrun because the batch's answers were already past the cap. */
const notRunAnswers = new WeakSet<Answer>();

function leftOut(id: RequestId, maxBytes: number): Answer {
	const answer: Answer = {
		jsonrpc: "2.0",
		id,
		error: {
			code: JSON_RPC_SERVER_ERROR,
			message: `The answers to this batch passed ${maxBytes} bytes, so this call was not run. Send it again on its own or in a smaller batch.`,
		},
	};
	notRunAnswers.add(answer);
	return answer;
}
