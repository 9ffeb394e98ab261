import { promises as fs } from "node:fs";
import { request, type ClientRequest } from "node:http";
import * as nodePath from "node:path";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { MAX_SUBSCRIPTION_STREAMS_PER_TOKEN } from "../../src/config/limits";
import { connectModern, mcpHeaders } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const MODERN = "2026-07-28";
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "closing-test", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

/** A full garbage collection of this process (the server runs in it): a collected `Request` no longer passes its client's close on. */
function collectGarbage(): void {
	v8.setFlagsFromString("--expose-gc");
	(vm.runInNewContext("gc") as () => void)();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where in a stream's life the client goes. */
type ClosePoint = "sent" | "headers" | "ack" | "notification";

/**
 * A client closing a subscription stream at every point of its life: the request just sent (before the ack), the answer's
 * headers in, the ack read, a notification being read. The keep-alive is ten minutes, so only the server seeing the client
 * go frees the token's place (a garbage collection before each close, as the lead's fix of the CI failure found); every round fills all the token's places, so one place kept counted is seen at once: the
 * next round's streams are refused until the test's timeout.
 */
describe("a subscription stream closed by its client at any point gives its place back", () => {
	let vault: string;
	let running: RunningService;
	let client: ClientV2;
	let made = 0;

	beforeAll(async () => {
		vault = await makeVault({ "Watched.md": "first\n" });
		running = await startService(vault, {
			host: { watch: true },
			settings: { rateLimitPerMinute: 100_000 },
			httpDeadlines: { subscriptionKeepAliveMs: 600_000 },
		});
		client = await connectModern(running.url, running.tokens.read ?? "");
	}, 60_000);
	afterAll(async () => {
		await client.close().catch(() => undefined);
		await running.stop();
		await removeDir(vault);
	}, 60_000);

	/** Opens a stream and closes it at `point`; resolves once the client has gone. */
	function openAndClose(point: ClosePoint): Promise<void> {
		return new Promise((resolve) => {
			let req: ClientRequest | null = null;
			const gone = () => {
				collectGarbage();
				req?.destroy();
				resolve();
			};
			req = request(
				{
					host: "127.0.0.1",
					port: running.port,
					method: "POST",
					path: "/mcp",
					setHost: false,
					headers: mcpHeaders(running.port, running.tokens.read ?? "", [
						["MCP-Protocol-Version", MODERN],
						["Mcp-Method", "subscriptions/listen"],
					]).flat(),
				},
				(res) => {
					if (point === "headers") return gone();
					let chunks = 0;
					res.on("data", () => {
						chunks += 1;
						if (point === "ack" || chunks > 1) return gone();
						// The ack is in: a note made now is told of; the client goes while that notification is being read.
						void fs.writeFile(nodePath.join(vault, `Made ${made++}.md`), "made\n");
					});
					res.on("end", gone);
				},
			);
			req.on("error", () => resolve());
			req.end(
				JSON.stringify({
					jsonrpc: "2.0",
					id: 1,
					method: "subscriptions/listen",
					params: { notifications: { resourcesListChanged: true }, _meta: ENVELOPE },
				}),
			);
			if (point === "sent") setImmediate(gone);
		});
	}

	/** Waits until the token may open all its streams at once again (each asked for until granted), then closes them. */
	async function everyPlaceFree(): Promise<void> {
		const open = [];
		while (open.length < MAX_SUBSCRIPTION_STREAMS_PER_TOKEN) {
			const granted = await client.listen({ resourcesListChanged: true }).catch((error: unknown) => {
				if (!/subscription streams open/.test(String(error))) throw error;
				return null;
			});
			if (granted) open.push(granted);
			else await sleep(100);
		}
		for (const subscription of open) await subscription.close();
	}

	test.each<ClosePoint>(["sent", "headers", "ack", "notification"])(
		"closed at %s, three rounds of every place",
		async (point) => {
			for (let round = 0; round < 3; round++) {
				await Promise.all(Array.from({ length: MAX_SUBSCRIPTION_STREAMS_PER_TOKEN }, () => openAndClose(point)));
				await everyPlaceFree();
			}
		},
		120_000,
	);

	test("streams whose clients go while the server stops: the stop ends", async () => {
		const closing = Array.from({ length: MAX_SUBSCRIPTION_STREAMS_PER_TOKEN }, (_, index) => openAndClose(index % 2 === 0 ? "ack" : "notification"));
		await sleep(20);
		await Promise.all([running.service.stop(), ...closing]);
		expect(running.service.status.state).not.toBe("listening");
	}, 120_000);
});
