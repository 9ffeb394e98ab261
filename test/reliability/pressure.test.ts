import { promises as fs } from "node:fs";
import type { Socket } from "node:net";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InFlightPlaces } from "../../src/http/tokenBudgets";
import { connectClient, mcpHeaders, rawRequest } from "../helpers/http";
import { settingsWithWriteTokens, startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { openSocket, requestHead, sleep, toolCall } from "../helpers/sockets";
import { makeVault, removeDir } from "../helpers/vault";

/** A service with two write tokens and one client per token. */
async function twoWriters(
	files: Record<string, string>,
): Promise<{ vault: string; running: RunningService; clients: [Client, Client]; stop: () => Promise<void> }> {
	const vault = await makeVault(files);
	const { settings, tokens } = settingsWithWriteTokens(["first", "second"]);
	const running = await startService(vault, { levels: [], settings });
	const clients: [Client, Client] = [await connectClient(running.url, tokens[0] ?? ""), await connectClient(running.url, tokens[1] ?? "")];
	return {
		vault,
		running,
		clients,
		stop: async () => {
			await Promise.all(clients.map((client) => client.close()));
			await running.stop();
			await removeDir(vault);
		},
	};
}

describe("write races, other variants", () => {
	let setup: Awaited<ReturnType<typeof twoWriters>>;
	afterEach(async () => setup.stop());

	test("two tokens create the same new note at once: exactly one wins, the other is told it already exists, the file is whole", async () => {
		setup = await twoWriters({ "Other.md": "x\n" });
		for (let round = 0; round < 10; round++) {
			const path = `New/Same ${round}.md`;
			const outcomes = await Promise.all(
				setup.clients.map((client, index) => callTool(client, "create_note", { path, content: `from ${index} ${"y".repeat(20_000)}` })),
			);
			const won = outcomes.filter((outcome) => outcome.ok);
			expect(won).toHaveLength(1);
			const lost = outcomes.find((outcome) => !outcome.ok);
			expect(lost && !lost.ok ? lost.error : "").toMatch(/already exists/);
			const text = await fs.readFile(nodePath.join(setup.vault, path), "utf8");
			expect(text).toMatch(/^from [01] y{20000}\n$/);
		}
	});

	test("two tokens add the first task of a new daily note at once: both tasks land in the one note", async () => {
		setup = await twoWriters({});
		const outcomes = await Promise.all(setup.clients.map((client, index) => callTool(client, "add_task", { text: `task ${index}` })));
		expect(outcomes.map((outcome) => (outcome.ok ? "ok" : outcome.error))).toEqual(["ok", "ok"]);
		const first = outcomes[0];
		const path = first?.ok ? String(first.value.path) : "";
		const text = await fs.readFile(nodePath.join(setup.vault, path), "utf8");
		expect(text).toContain("task 0");
		expect(text).toContain("task 1");
	});

	test("overwrite raced with insert_under_bullet and add_task: every acknowledged edit is in the note or a backup", async () => {
		setup = await twoWriters({ "Plan.md": "- Parent\n\t- child\n" });
		const acknowledged: string[] = [];
		const base = "- Parent\n\t- child\n";
		await Promise.all(
			Array.from({ length: 30 }, async (_, index) => {
				const client = setup.clients[index % 2] as Client;
				await new Promise((resolve) => setTimeout(resolve, index * 3));
				if (index % 6 === 0) {
					const outcome = await callTool(client, "create_note", { path: "Plan.md", content: `${base}- overwrite ${index}\n`, overwrite: true });
					expect(outcome.ok ? "ok" : outcome.error).toBe("ok");
					return;
				}
				const marker = `m${index}x`;
				const outcome =
					index % 2 === 0
						? await callTool(client, "insert_under_bullet", { path: "Plan.md", bullet: "Parent", content: marker })
						: await callTool(client, "add_task", { path: "Plan.md", text: marker });
				if (outcome.ok) acknowledged.push(marker);
				else expect(outcome.error).toMatch(/busy|being answered|kept changing/);
			}),
		);
		expect(acknowledged.length).toBeGreaterThan(10);
		const names = (await fs.readdir(setup.vault)).filter((name) => name.startsWith("Plan.md"));
		const everything = (await Promise.all(names.map((name) => fs.readFile(nodePath.join(setup.vault, name), "utf8")))).join("\n");
		expect(acknowledged.filter((marker) => !everything.includes(marker))).toEqual([]);
	});

	test("overwrite when the .bak name is a folder or a link: the backup goes to the next name, the note is replaced", async () => {
		setup = await twoWriters({ "A.md": "old A\n", "B.md": "old B\n", "A.md.bak/keep.txt": "folder content\n" });
		await fs.symlink(nodePath.join(setup.vault, "Other target.md"), nodePath.join(setup.vault, "B.md.bak"));
		for (const name of ["A", "B"]) {
			const outcome = await callTool(setup.clients[0], "create_note", { path: `${name}.md`, content: `new ${name}`, overwrite: true });
			expect(outcome.ok ? outcome.value.backup : outcome.error).toBe(`${name}.md.2.bak`);
			expect(await fs.readFile(nodePath.join(setup.vault, `${name}.md`), "utf8")).toBe(`new ${name}\n`);
			expect(await fs.readFile(nodePath.join(setup.vault, `${name}.md.2.bak`), "utf8")).toBe(`old ${name}\n`);
		}
		// The link still leads nowhere: nothing was written through it.
		await expect(fs.stat(nodePath.join(setup.vault, "Other target.md"))).rejects.toThrow();
		expect(await fs.readFile(nodePath.join(setup.vault, "A.md.bak/keep.txt"), "utf8")).toBe("folder content\n");
	});
});

/** Everything the server sends on `socket` until it closes it (or `timeoutMs`), and when that was. */
function collect(socket: Socket, timeoutMs: number): Promise<{ text: string; closedAt: number }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		const done = () => {
			clearTimeout(timer);
			resolve({ text: Buffer.concat(chunks).toString("utf8"), closedAt: performance.now() });
		};
		const timer = setTimeout(done, timeoutMs);
		socket.on("data", (chunk: Buffer) => chunks.push(chunk));
		socket.once("close", done);
	});
}

describe("slow senders", () => {
	let vault: string;
	let running: RunningService;
	beforeAll(async () => {
		vault = await makeVault({ "a.md": "alpha" });
		running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 }, httpDeadlines: { bodyReadMs: 800, firstRequestMs: 600 } });
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test("a body sent one byte every 100 ms gets 408 at the deadline counted from the headers, not reset by each byte", async () => {
		const body = JSON.stringify(toolCall(1, "get_vault_status", {}));
		const socket = await openSocket(running.port, requestHead(running.port, running.tokens.read ?? "", body.length));
		const started = performance.now();
		let sent = 0;
		const drip = setInterval(() => {
			if (!socket.destroyed && sent < body.length) socket.write(body[sent++] ?? "");
		}, 100);
		try {
			const { text, closedAt } = await collect(socket, 5_000);
			expect(text).toMatch(/^HTTP\/1.1 408/);
			expect(closedAt - started).toBeGreaterThanOrEqual(700);
			expect(closedAt - started).toBeLessThan(2_000);
			// Far from all of it had arrived: the deadline did not wait for the slow sender.
			expect(sent).toBeLessThan(body.length);
		} finally {
			clearInterval(drip);
			socket.destroy();
		}
	});

	test("request head lines sent one every 100 ms: the connection is closed at the first-request deadline", async () => {
		const lines = requestHead(running.port, running.tokens.read ?? "", 2).split("\r\n");
		const socket = await openSocket(running.port);
		const started = performance.now();
		let sent = 0;
		const drip = setInterval(() => {
			if (!socket.destroyed && sent < lines.length) socket.write(`${lines[sent++] ?? ""}\r\n`);
		}, 100);
		try {
			const { closedAt } = await collect(socket, 5_000);
			expect(closedAt - started).toBeGreaterThanOrEqual(500);
			expect(closedAt - started).toBeLessThan(2_000);
		} finally {
			clearInterval(drip);
			socket.destroy();
		}
	});
});

describe("a client with a token sending a request head slowly on a kept-alive connection", () => {
	/**
	 * The header deadline, shorter than the server's 10 s (HEADERS_TIMEOUT_MS) so it is watched in
	 * seconds, not waited out: node's own check came every 30 s, far past it either way.
	 */
	const HEADER_DEADLINE_MS = 2_000;

	test("is cut off near the header deadline, not left holding the socket for node's 30 s check interval", async () => {
		const vault = await makeVault({ "a.md": "alpha" });
		const running = await startService(vault, { settings: { rateLimitPerMinute: 100_000 }, httpDeadlines: { headersMs: HEADER_DEADLINE_MS } });
		const socket = await openSocket(running.port);
		let drip: NodeJS.Timeout | undefined;
		try {
			// A whole request with a valid token first: the connection counts as a client's, past the first-request deadline.
			const body = JSON.stringify(toolCall(1, "get_vault_status", {}));
			const answered = new Promise<void>((resolve) => socket.once("data", () => resolve()));
			socket.write(requestHead(running.port, running.tokens.read ?? "", Buffer.byteLength(body)) + body);
			await answered;
			// Then the next request's head, one byte every 200 ms, for far longer than the header deadline.
			const head = requestHead(running.port, running.tokens.read ?? "", 2);
			const started = performance.now();
			let sent = 0;
			drip = setInterval(() => {
				if (!socket.destroyed && sent < head.length) socket.write(head[sent++] ?? "");
			}, 200);
			const { closedAt } = await collect(socket, 30_000);
			expect(closedAt - started).toBeGreaterThanOrEqual(HEADER_DEADLINE_MS - 500);
			expect(closedAt - started).toBeLessThan(HEADER_DEADLINE_MS + 5_000);
		} finally {
			if (drip) clearInterval(drip);
			socket.destroy();
			await running.stop();
			await removeDir(vault);
		}
	}, 40_000);
});

describe("batches and the limits", () => {
	let vault: string;
	beforeAll(async () => {
		vault = await makeVault({ "Calls.md": "# Calls\n" });
	});
	afterAll(async () => removeDir(vault));

	test("notifications in a batch count against the rate limit like calls, tools/list included", async () => {
		const running = await startService(vault, { settings: { rateLimitPerMinute: 10 } });
		try {
			const post = (body: unknown) =>
				rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.read ?? ""), body: JSON.stringify(body) });
			const notifications = Array.from({ length: 6 }, () => ({ jsonrpc: "2.0", method: "notifications/initialized" }));
			const lists = Array.from({ length: 4 }, (_, index) => ({ jsonrpc: "2.0", id: index + 1, method: "tools/list" }));
			const first = await post([...notifications, ...lists]);
			expect(first.status).toBe(200);
			expect(JSON.parse(first.body)).toHaveLength(4);
			const second = await post({ jsonrpc: "2.0", id: 9, method: "tools/list" });
			expect(second.status).toBe(429);
			expect(Number(second.headers["retry-after"])).toBeGreaterThanOrEqual(1);
		} finally {
			await running.stop();
		}
	});

	test("a batch whose write calls only partly fit the write budget is refused whole: nothing of it is written", async () => {
		const running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000, writeCallsPerMinute: 4 },
		});
		try {
			const post = (body: unknown) =>
				rawRequest(running.port, { headers: mcpHeaders(running.port, running.tokens.write ?? ""), body: JSON.stringify(body) });
			const first = await post([
				toolCall(1, "append_to_note", { path: "Calls.md", content: "one" }),
				toolCall(2, "append_to_note", { path: "Calls.md", content: "two" }),
				{ jsonrpc: "2.0", id: 3, method: "tools/list" },
			]);
			expect(first.status).toBe(200);
			const second = await post([
				toolCall(1, "append_to_note", { path: "Calls.md", content: "three" }),
				toolCall(2, "get_vault_status", {}),
				toolCall(3, "append_to_note", { path: "Calls.md", content: "four" }),
				toolCall(4, "append_to_note", { path: "Calls.md", content: "five" }),
			]);
			expect(second.status).toBe(429);
			expect(second.body).toContain("Nothing was written");
			const text = await fs.readFile(nodePath.join(vault, "Calls.md"), "utf8");
			expect(text).toContain("two");
			expect(text).not.toMatch(/three|four|five/);
		} finally {
			await running.stop();
		}
	});
});

describe("the waiting line under many tokens", () => {
	test("four tokens under their share fill every place; the line is served first come first served, bounded per token, and every place comes back", async () => {
		const places = new InFlightPlaces(8, 4);
		const held = ["a", "b", "c", "d"].flatMap((key) => [places.tryEnter(key), places.tryEnter(key)]);
		expect(held.every((place) => !("refused" in place))).toBe(true);
		expect(places.current).toBe(8);
		// 16 of token e wait, the 17th is refused at once; f waits behind them.
		const order: string[] = [];
		const waiting = Array.from({ length: 17 }, (_, index) => places.enter("e", 300, 16).then((place) => (order.push(`e${index}`), place)));
		const late = places.enter("f", 300, 16).then((place) => (order.push("f"), place));
		expect("refused" in (await waiting[16]!)).toBe(true);
		// Two places free: the first two of e in line get them, in order.
		for (const place of held.slice(0, 2)) if (!("refused" in place)) place.leave();
		await sleep(0);
		expect(order.slice(1)).toEqual(["e0", "e1"]);
		// The rest time out (503) without taking anything; every place held is handed back.
		const outcomes = await Promise.all([...waiting.slice(0, 16), late]);
		expect(outcomes.filter((place) => !("refused" in place))).toHaveLength(2);
		for (const place of [...held.slice(2), ...outcomes]) if (!("refused" in place)) place.leave();
		expect(places.current).toBe(0);
		// And all 8 can be taken again.
		expect(Array.from({ length: 8 }, (_, index) => places.tryEnter(String(index % 4))).every((place) => !("refused" in place))).toBe(true);
	});
});
