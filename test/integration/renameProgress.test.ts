import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { request } from "node:http";
import { connectClient, mcpHeaders, rawRequest } from "../helpers/http";
import { startRenameApprovedAfter, startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

/** Notes linking to the renamed one: enough for the rename to take well over the client's timeout below, one journal record and atomic replace each. */
const LINKING_NOTES = 300;
/** The client's request timeout, reset at each progress notification; and the server's interval between them. */
const CLIENT_TIMEOUT_MS = 1000;
const PROGRESS_INTERVAL_MS = 50;

describe("a long rename_note over real HTTP with the SDK's client asking for progress", () => {
	let root: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		const notes: Record<string, string> = { "Target.md": "# Target\n" };
		for (let index = 0; index < LINKING_NOTES; index++) notes[`Notes/Linking ${index}.md`] = `Points at [[Target]] from ${index}.\n`;
		root = await makeVault(notes);
		running = await startService(root, { levels: ["write"], settings: { writeEnabled: true }, callBudget: { progressIntervalMs: PROGRESS_INTERVAL_MS } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.write as string);
	});

	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(root);
	});

	test("is told its progress while it runs, so a client resetting its timeout on progress gets the answer; every link followed", async () => {
		const progress: Progress[] = [];
		const started = performance.now();
		const result = await client.callTool({ name: "rename_note", arguments: { path: "Target.md", new_path: "Moved/Goal.md" } }, undefined, {
			timeout: CLIENT_TIMEOUT_MS,
			resetTimeoutOnProgress: true,
			onprogress: (told) => progress.push(told),
		});
		const took = performance.now() - started;
		expect(result.isError).toBeFalsy();
		expect(result.structuredContent).toMatchObject({ path: "Target.md", new_path: "Moved/Goal.md", notes_updated: LINKING_NOTES });
		expect(await fs.readFile(nodePath.join(root, "Notes/Linking 7.md"), "utf8")).toBe("Points at [[Goal]] from 7.\n");
		// Told at least once per interval of the call, each count above the last.
		expect(progress.length).toBeGreaterThanOrEqual(1);
		expect(progress.every((told, index) => index === 0 || told.progress > (progress[index - 1] as Progress).progress)).toBe(true);
		expect(progress[0]?.message).toMatch(/^rename_note still working/);
		// Only meaningful when the call outlived the client's timeout: it did on every run measured (2–6 s).
		if (took > CLIENT_TIMEOUT_MS) expect(progress.length).toBeGreaterThan(1);
	});

	test("a call that asks for no progress is answered as plain JSON, as before", async () => {
		const response = await rawRequest(running.port, {
			headers: mcpHeaders(running.port, running.tokens.write as string),
			body: JSON.stringify({
				jsonrpc: "2.0",
				id: 1,
				method: "tools/call",
				params: { name: "rename_note", arguments: { path: "Moved/Goal.md", new_path: "Target.md" } },
			}),
		});
		expect(response.headers["content-type"]).toMatch(/^application\/json/);
		const answer = JSON.parse(response.body) as { result: { structuredContent: { notes_updated: number } } };
		expect(answer.result.structuredContent.notes_updated).toBe(LINKING_NOTES);
	});

	// Last: it revokes the token.
	test("a token revoked while its call streams progress is sent nothing more: its stream is closed at the next notification", async () => {
		const events: string[] = [];
		let eventsWhenRevoked = -1;
		const closed = new Promise<{ status: number; complete: boolean }>((resolve, reject) => {
			const headers = mcpHeaders(running.port, running.tokens.write as string).flat();
			const req = request({ host: "127.0.0.1", port: running.port, method: "POST", path: "/mcp", headers, setHost: false }, (res) => {
				res.setEncoding("utf8");
				res.on("data", (chunk: string) => {
					events.push(...chunk.split("\n\n").filter((event) => event.startsWith("event: ")));
					if (eventsWhenRevoked >= 0) return;
					eventsWhenRevoked = events.length;
					void running.service.apply({ ...running.settings, tokens: [] });
				});
				res.on("close", () => resolve({ status: res.statusCode ?? 0, complete: res.complete }));
			});
			req.on("error", reject);
			req.end(
				JSON.stringify({
					jsonrpc: "2.0",
					id: 1,
					method: "tools/call",
					params: { name: "rename_note", arguments: { path: "Target.md", new_path: "Moved/Goal.md" }, _meta: { progressToken: "rename" } },
				}),
			);
		});
		const { status, complete } = await closed;
		expect(status).toBe(200);
		expect(eventsWhenRevoked).toBeGreaterThanOrEqual(1);
		// Cut off, not ended: no answer event, and no notification past one that may have been on its way.
		expect(complete).toBe(false);
		expect(events.some((event) => event.includes('"result"'))).toBe(false);
		expect(events.length - eventsWhenRevoked).toBeLessThanOrEqual(1);
	});
});

describe("a call waiting for the person's approval longer than the client's timeout", () => {
	test("is told its progress while it waits, so a client resetting its timeout on progress gets the answer", async () => {
		/** The person answers after three of the client's timeouts: without progress the client gives up first. */
		const PERSON_ANSWERS_AFTER_MS = 3 * CLIENT_TIMEOUT_MS;
		const { root, running: asking } = await startRenameApprovedAfter(PERSON_ANSWERS_AFTER_MS, PROGRESS_INTERVAL_MS);
		const asker = await connectClient(asking.url, asking.tokens.write as string);
		try {
			const progress: Progress[] = [];
			const started = performance.now();
			const result = await asker.callTool({ name: "rename_note", arguments: { path: "Plan.md", new_path: "Done.md" } }, undefined, {
				timeout: CLIENT_TIMEOUT_MS,
				resetTimeoutOnProgress: true,
				onprogress: (told) => progress.push(told),
			});
			expect(performance.now() - started).toBeGreaterThanOrEqual(PERSON_ANSWERS_AFTER_MS);
			expect(result.isError).toBeFalsy();
			expect(await fs.readFile(nodePath.join(root, "Linker.md"), "utf8")).toBe("See [[Done]].\n");
			expect(progress.length).toBeGreaterThan(1);
		} finally {
			await asker.close();
			await asking.stop();
			await removeDir(root);
		}
	});
});
