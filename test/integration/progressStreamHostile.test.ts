import { promises as fs } from "node:fs";
import { request, type IncomingMessage } from "node:http";
import * as nodePath from "node:path";
import { revokeToken } from "../../src/auth/tokenList";
import type { HostFile, ProcessOptions } from "../../src/host/Host";
import { mcpHeaders } from "../helpers/http";
import { replaceMethod } from "../helpers/replaceMethod";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

/** Notes linking to the renamed one: the rename then runs long enough (1–6 s here) for many progress intervals. */
const LINKING_NOTES = 300;
/** The server's interval between progress notifications in these tests (but READ_PROGRESS_INTERVAL_MS's). */
const PROGRESS_INTERVAL_MS = 5;
/**
 * The interval for a client that reads every notification. Each echoes a 768 KiB token, about 25 ms
 * of the test process's CPU sent and taken, and they come by the wall clock: at 5 ms (or 50) the
 * call took 2.0-4.8 s of CPU and 9-22 s of wall time at a load of 15 (past jest's 30 s at 20), more
 * notifications the busier the machine; at 250 ms, 1.2-1.3 s of CPU, 7-18 notifications.
 */
const READ_PROGRESS_INTERVAL_MS = 250;
/** A progressToken as big as a request body allows, about: each notification echoes it. */
const HUGE_TOKEN_BYTES = 768 * 1024;
/**
 * How long the reading test holds the rename at one linking note's edit for its client to have two notifications (they come
 * every READ_PROGRESS_INTERVAL_MS): past it the rename goes on, and a server that sends none fails the test then.
 */
const HOLD_FOR_NOTIFICATIONS_MS = 10_000;

const MODERN = "2026-07-28";
/** The `_meta` envelope a 2026-07-28 request carries, and the headers that repeat its body. */
const ENVELOPE = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "hostile", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
};
const MODERN_HEADERS: Array<[string, string]> = [
	["MCP-Protocol-Version", MODERN],
	["Mcp-Method", "tools/call"],
	["Mcp-Name", "rename_note"],
];

/**
 * The same 2026-07-28 call in the forms the spec allows besides the SDK v2 client's: a Content-Type
 * with a charset, Mcp-Name in Base64, and a `_meta` key of the client's own.
 */
const OTHER_FORM_HEADERS: Array<[string, string]> = [
	["MCP-Protocol-Version", MODERN],
	["Mcp-Method", "tools/call"],
	["Mcp-Name", `=?base64?${Buffer.from("rename_note").toString("base64")}?=`],
];
const OWN_META = { "claudecode/toolUseId": "toolu_1" };

/** The revisions whose POST streams a call's progress: a 2025-era one (no envelope) and 2026-07-28, in the SDK client's form and the others. */
const REVISIONS: Array<[string, "2025" | "modern" | "other forms"]> = [
	["2025-06-18", "2025"],
	[MODERN, "modern"],
	[`${MODERN}, charset, Base64 Mcp-Name, own _meta`, "other forms"],
];

describe.each(REVISIONS)("a rename asking for progress over real HTTP (%s), from a hostile client", (_revision, form) => {
	const modern = form !== "2025";
	function renameBody(from: string, to: string, progressToken: string | number): string {
		const _meta = form === "2025" ? { progressToken } : form === "modern" ? { ...ENVELOPE, progressToken } : { ...ENVELOPE, ...OWN_META, progressToken };
		return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "rename_note", arguments: { path: from, new_path: to }, _meta } });
	}

	/** A POST whose answer is read as it comes; `res` once its head arrived. */
	function post(port: number, token: string, body: string): Promise<IncomingMessage> {
		const headers = (
			form === "other forms"
				? mcpHeaders(port, token, OTHER_FORM_HEADERS).map(([name, value]): [string, string] =>
						name === "Content-Type" ? [name, "application/json; charset=utf-8"] : [name, value],
					)
				: mcpHeaders(port, token, modern ? MODERN_HEADERS : [])
		).flat();
		return new Promise((resolve, reject) => {
			const req = request({ host: "127.0.0.1", port, method: "POST", path: "/mcp", headers, setHost: false }, resolve);
			req.on("error", reject);
			req.end(body);
		});
	}

	/** Resolves once every linking note names `name`: the rename wrote them all, so its answer is made. */
	async function linksRewritten(root: string, name: string): Promise<void> {
		for (;;) {
			const last = await fs.readFile(nodePath.join(root, `Notes/Linking ${LINKING_NOTES - 1}.md`), "utf8");
			if (last.includes(`[[${name}]]`)) return;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	let root: string;
	let running: RunningService;

	/** The server over `root` for a write token, its notes parsed, sending progress every `progressIntervalMs`. */
	async function serve(progressIntervalMs: number): Promise<RunningService> {
		const served = await startService(root, {
			levels: ["write"],
			settings: { writeEnabled: true },
			callBudget: { progressIntervalMs },
			httpDeadlines: { responseWriteMs: 500 },
		});
		await served.host.metadataCache.settled();
		return served;
	}

	beforeEach(async () => {
		const notes: Record<string, string> = { "Target.md": "# Target\n" };
		for (let index = 0; index < LINKING_NOTES; index++) notes[`Notes/Linking ${index}.md`] = `Points at [[Target]] from ${index}.\n`;
		root = await makeVault(notes);
		running = await serve(PROGRESS_INTERVAL_MS);
	});

	afterEach(async () => {
		await running.stop();
		await removeDir(root);
	});

	test("whose token is revoked mid-stream is sent no progress after the revocation", async () => {
		const res = await post(running.port, running.tokens.write as string, renameBody("Target.md", "Moved/Goal.md", "p"));
		expect(res.headers["content-type"]).toMatch(/^text\/event-stream/);
		let text = "";
		let atRevocation = -1;
		let revoked: Promise<number> | null = null;
		const received = () => (text.match(/notifications\/progress/g) ?? []).length;
		const closed = new Promise<void>((resolve) => res.on("close", resolve));
		res.setEncoding("utf8");
		res.on("data", (chunk: string) => {
			text += chunk;
			// Revoked in the same process as the server, at once, once the first notification arrived.
			if (atRevocation < 0 && received() >= 1) {
				atRevocation = received();
				const changed = revokeToken(running.settings, "write");
				if ("error" in changed) throw new Error(changed.error);
				// What had arrived once the revocation took effect.
				revoked = running.service.apply(changed.settings).then(received);
			}
		});
		await closed;
		expect(atRevocation).toBeGreaterThanOrEqual(1);
		const atRevoked = await (revoked as Promise<number> | null);
		// At most those already on their way when it was revoked (before: one every 5 ms until the rename ended, 6 to 17 here);
		// the answer itself is not sent.
		expect(received() - (atRevoked ?? 0)).toBeLessThanOrEqual(2);
		expect(text).not.toContain('"result"');
	});

	test("that reads nothing of its stream: the server does not keep a notification for every interval", async () => {
		const hugeToken = "t".repeat(HUGE_TOKEN_BYTES);
		const res = await post(running.port, running.tokens.write as string, renameBody("Target.md", "Moved/Goal.md", hugeToken));
		res.pause();
		await linksRewritten(root, "Goal");
		let bytes = 0;
		let events = 0;
		res.on("data", (chunk: Buffer) => {
			bytes += chunk.length;
			events += chunk.toString("latin1").split("notifications/progress").length - 1;
		});
		res.on("error", () => undefined);
		const closed = new Promise<void>((resolve) => res.on("close", resolve));
		res.resume();
		await closed;
		// What the sockets' buffers hold (a few MB on loopback) and one notification the server had waiting; before, one every 5 ms
		// (tens to hundreds, hundreds of MB) was kept for the client in the server's memory.
		expect(bytes).toBeLessThan(16 * HUGE_TOKEN_BYTES);
		expect(events).toBeLessThan(16);
	});

	// The other forms' streamed answer is checked by renameProgressModern.test.ts (here it cost 3–4 s more).
	if (form !== "other forms") {
		test("that reads its stream as it comes, with the same token, gets its notifications and the answer", async () => {
			await running.stop();
			running = await serve(READ_PROGRESS_INTERVAL_MS);
			// The rename is held at a linking note's edit until two notifications arrived: on a quiet machine it could end
			// (300 notes) before a second interval of 250 ms did, so the count depended on the machine's speed.
			let seen = 0;
			let twoSeen = (): void => undefined;
			const held = new Promise<void>((resolve) => {
				twoSeen = resolve;
				setTimeout(resolve, HOLD_FOR_NOTIFICATIONS_MS).unref();
			});
			let heldEdits = 0;
			const vault = running.host.vault;
			const edit = vault.process.bind(vault);
			const holding = replaceMethod(vault, "process", async (file: HostFile, change: (text: string) => string, options?: ProcessOptions) => {
				if (file.path === `Notes/Linking ${LINKING_NOTES / 2}.md`) {
					heldEdits++;
					await held;
				}
				return edit(file, change, options);
			});
			const hugeToken = "t".repeat(HUGE_TOKEN_BYTES);
			const res = await post(running.port, running.tokens.write as string, renameBody("Target.md", "Moved/Goal.md", hugeToken));
			const chunks: Buffer[] = [];
			// The end of the chunk before, so a method name cut between two chunks is counted once.
			let tail = "";
			const PROGRESS = "notifications/progress";
			res.on("data", (chunk: Buffer) => {
				chunks.push(chunk);
				const text = tail + chunk.toString("latin1");
				seen += text.split(PROGRESS).length - tail.split(PROGRESS).length;
				tail = text.slice(-PROGRESS.length);
				if (seen >= 2) twoSeen();
			});
			// Or its close: a stream cut at the write deadline ends the test with what arrived, not at jest's timeout.
			await new Promise<void>((resolve) => {
				res.on("end", resolve);
				res.on("close", resolve);
			});
			const events = Buffer.concat(chunks)
				.toString("utf8")
				.split("\n\n")
				.filter((event) => event.startsWith("event: message\ndata: "))
				.map((event) => JSON.parse(event.slice("event: message\ndata: ".length)) as { method?: string; result?: { structuredContent?: unknown } });
			holding.restore();
			expect(heldEdits).toBe(1);
			// Each one taken before the next is sent: more than one over a call held until two came (its deadline 500 ms).
			expect(events.filter((event) => event.method === "notifications/progress").length).toBeGreaterThan(1);
			expect(events.at(-1)?.result?.structuredContent).toMatchObject({ path: "Target.md", new_path: "Moved/Goal.md", notes_updated: LINKING_NOTES });
		});
	}
});

describe("a 2026-07-28 rename asking for progress that the SDK's handler serves (a related task in its _meta)", () => {
	test("is answered as plain JSON: no notification, each echoing its 768 KiB token, is held until the answer", async () => {
		const notes: Record<string, string> = { "Target.md": "# Target\n" };
		for (let index = 0; index < LINKING_NOTES; index++) notes[`Notes/Linking ${index}.md`] = `Points at [[Target]] from ${index}.\n`;
		const root = await makeVault(notes);
		const running = await startService(root, {
			levels: ["write"],
			settings: { writeEnabled: true },
			callBudget: { progressIntervalMs: PROGRESS_INTERVAL_MS },
		});
		try {
			await running.host.metadataCache.settled();
			const headers = mcpHeaders(running.port, running.tokens.write as string, MODERN_HEADERS).flat();
			const body = JSON.stringify({
				jsonrpc: "2.0",
				id: 1,
				method: "tools/call",
				params: {
					name: "rename_note",
					arguments: { path: "Target.md", new_path: "Goal.md" },
					_meta: { ...ENVELOPE, "io.modelcontextprotocol/related-task": { taskId: "t" }, progressToken: "t".repeat(HUGE_TOKEN_BYTES) },
				},
			});
			const answer = await new Promise<{ type: string; bytes: number; text: string }>((resolve, reject) => {
				const req = request({ host: "127.0.0.1", port: running.port, method: "POST", path: "/mcp", headers, setHost: false }, (res) => {
					const chunks: Buffer[] = [];
					res.on("data", (chunk: Buffer) => chunks.push(chunk));
					res.on("end", () => {
						const all = Buffer.concat(chunks);
						resolve({ type: String(res.headers["content-type"]), bytes: all.length, text: all.toString("utf8") });
					});
				});
				req.on("error", reject);
				req.end(body);
			});
			// Before: an event stream of every notification (one each 5 ms of a 1–6 s rename, 37 in one run: 28 MB) sent at the end.
			expect(answer.type).toMatch(/^application\/json/);
			expect(answer.bytes).toBeLessThan(HUGE_TOKEN_BYTES);
			expect((JSON.parse(answer.text) as { result: { structuredContent: unknown } }).result.structuredContent).toMatchObject({
				notes_updated: LINKING_NOTES,
			});
		} finally {
			await running.stop();
			await removeDir(root);
		}
	});
});
