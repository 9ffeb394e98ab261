import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { COMPLETION_MAX_VALUES, COMPLETION_SCAN_LIMIT, MAX_SUBSCRIBED_NOTES_PER_STREAM, MAX_SUBSCRIPTION_STREAMS_PER_TOKEN } from "../../src/config/limits";
import { connectClient, connectModern, mcpHeaders, rawRequest } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const NOTE_TEMPLATE = "vault-mcp://note/{+path}";
const noteUri = (path: string) => `vault-mcp://note/${path.split("/").map(encodeURIComponent).join("/")}`;

/** A prompt note whose `tone` argument offers three values and whose `note` argument offers the vault's notes. */
const REVIEW_PROMPT = [
	"---",
	"arguments:",
	"  - name: tone",
	"    values: [friendly, formal, frank]",
	"  - name: note",
	"    values: notes",
	"---",
	"Review {{note}} in a {{tone}} tone.",
	"",
].join("\n");

/** The notifications of some methods a client receives, in order. */
function recordNotifications(client: ClientV2, methods: readonly string[]): Array<{ method: string; uri?: string }> {
	const seen: Array<{ method: string; uri?: string }> = [];
	for (const method of methods) {
		client.setNotificationHandler(method as "notifications/resources/updated", (notification) => {
			const uri = (notification.params as { uri?: string } | undefined)?.uri;
			seen.push({ method, ...(uri ? { uri } : {}) });
		});
	}
	return seen;
}

async function waitUntil(check: () => boolean, ms = 10_000): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
	return check();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How a subscription ended, or "still open" after `ms` (the timer is cleared either way, so jest exits at once). */
async function endedWithin(closed: Promise<string>, ms: number): Promise<string> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const open = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still open"), ms)));
	try {
		return await Promise.race([closed, open]);
	} finally {
		clearTimeout(timer);
	}
}

describe("completions and subscriptions over HTTP with the real SDK clients", () => {
	let vault: string;
	let running: RunningService;
	const clients: Array<{ close(): Promise<void> }> = [];
	const modern = async (token = running.tokens.read ?? "") => {
		const client = await connectModern(running.url, token);
		clients.push(client);
		return client;
	};

	beforeAll(async () => {
		const files: Record<string, string> = {
			"Projects/Alpha.md": "alpha\n",
			"Projects/Beta.md": "beta\n",
			"Work/Meetings.md": "meetings\n",
			"Private/Project plans.md": "secret\n",
			"Private/Meetings secret.md": "secret\n",
			".hidden/Projects note.md": "hidden\n",
			"Prompts/Review.md": REVIEW_PROMPT,
			"Watched.md": "first\n",
		};
		for (let index = 0; index < 150; index++) files[`Many/Note ${String(index).padStart(3, "0")}.md`] = `note ${index}\n`;
		vault = await makeVault(files);
		running = await startService(vault, {
			host: { watch: true },
			levels: ["read", "write"],
			settings: { excludedFolders: ["Private"], promptsFolder: "Prompts", rateLimitPerMinute: 100_000 },
			rights: { write: { read_note: "deny" } },
		});
	});
	afterAll(async () => {
		for (const client of clients) await client.close().catch(() => undefined);
		await running.stop();
		await removeDir(vault);
	});

	describe("completion/complete", () => {
		test("the note template's path completes to visible notes by path or by name, never an excluded or hidden one", async () => {
			const client = await modern();
			const byPath = await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: "proj" } });
			expect(byPath.completion.values).toEqual(["Projects/Alpha.md", "Projects/Beta.md"]);
			const byName = await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: "Meet" } });
			expect(byName.completion.values).toEqual(["Work/Meetings.md"]);
			for (const typed of ["Private/", "private/p", ".hidden/", "Project plans"]) {
				const hidden = await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: typed } });
				expect({ typed, completion: hidden.completion }).toEqual({ typed, completion: { values: [], hasMore: false } });
			}
		});

		test("an answer holds at most the named number of values and says when there are more", async () => {
			const client = await modern();
			const many = await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: "Many/" } });
			expect(many.completion.values).toHaveLength(COMPLETION_MAX_VALUES);
			expect(many.completion.values[0]).toBe("Many/Note 000.md");
			expect(many.completion.hasMore).toBe(true);
			const few = await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: "Many/Note 14" } });
			expect(few.completion).toEqual({ values: Array.from({ length: 10 }, (_, index) => `Many/Note 14${index}.md`), hasMore: false });
		});

		test("a prompt argument completes to the values its note declares, or to notes; an unknown prompt gets none", async () => {
			const client = await modern();
			const tone = await client.complete({ ref: { type: "ref/prompt", name: "Review" }, argument: { name: "tone", value: "f" } });
			expect(tone.completion.values).toEqual(["friendly", "formal", "frank"]);
			const fr = await client.complete({ ref: { type: "ref/prompt", name: "Review" }, argument: { name: "tone", value: "FR" } });
			expect(fr.completion.values).toEqual(["friendly", "frank"]);
			const note = await client.complete({ ref: { type: "ref/prompt", name: "Review" }, argument: { name: "note", value: "Private" } });
			expect(note.completion.values).toEqual([]);
			const watched = await client.complete({ ref: { type: "ref/prompt", name: "Review" }, argument: { name: "note", value: "wat" } });
			expect(watched.completion.values).toEqual(["Watched.md"]);
			const unknown = await client.complete({ ref: { type: "ref/prompt", name: "No such prompt" }, argument: { name: "tone", value: "" } });
			expect(unknown.completion.values).toEqual([]);
		});

		test("a 2025 client completes too, and a token that may not read notes gets no completions", async () => {
			const legacy = await connectClient(running.url, running.tokens.read ?? "");
			clients.push(legacy);
			expect(legacy.getServerCapabilities()?.completions).toEqual({});
			const answer = await legacy.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: "Projects/B" } });
			expect(answer.completion.values).toEqual(["Projects/Beta.md"]);

			const denied = await connectClient(running.url, running.tokens.write ?? "");
			clients.push(denied);
			expect(denied.getServerCapabilities()?.completions).toBeUndefined();
			const refused = await rawRequest(running.port, {
				headers: mcpHeaders(running.port, running.tokens.write ?? ""),
				body: JSON.stringify({
					jsonrpc: "2.0",
					id: 1,
					method: "completion/complete",
					params: { ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: "Pro" } },
				}),
			});
			expect(JSON.parse(refused.body)).toMatchObject({ id: 1, error: { code: -32601 } });
			expect(refused.body).not.toContain("Projects");
		});
	});

	describe("completion/complete beside a big excluded folder", () => {
		test("more excluded notes than a completion looks at, sorted before the visible ones, change nothing it answers", async () => {
			// Sorted by path and by name, the excluded notes come first ("private/p…", "p0000"…): counted
			// against the look-up's bound, they hid the visible notes after them, and so told how many they are.
			const files: Record<string, string> = { "Projects/Alpha.md": "alpha\n", "Work/Plan.md": "plan\n" };
			for (let index = 0; index <= COMPLETION_SCAN_LIMIT; index++) files[`Private/p${String(index).padStart(4, "0")}.md`] = "secret\n";
			const big = await makeVault(files);
			const server = await startService(big, { host: { watch: true }, settings: { excludedFolders: ["Private"], rateLimitPerMinute: 100_000 } });
			try {
				const client = await connectModern(server.url, server.tokens.read ?? "");
				clients.push(client);
				for (const [typed, values] of [
					["p", ["Projects/Alpha.md", "Work/Plan.md"]],
					["", ["Projects/Alpha.md", "Work/Plan.md"]],
					["pl", ["Work/Plan.md"]],
				] as const) {
					const answer = await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: typed } });
					expect({ typed, completion: answer.completion }).toEqual({ typed, completion: { values, hasMore: false } });
				}
				// Kept up to date as notes come and go, a visible one offered, an excluded one never.
				await fs.writeFile(nodePath.join(big, "Projects/Pear.md"), "pear\n");
				await fs.writeFile(nodePath.join(big, "Private/p9999.md"), "secret\n");
				await fs.rm(nodePath.join(big, "Work/Plan.md"));
				const completes = async () =>
					(await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: "p" } })).completion.values;
				let latest: string[] = [];
				for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) {
					latest = await completes();
					if (latest.includes("Projects/Pear.md") && !latest.includes("Work/Plan.md")) break;
				}
				expect(latest).toEqual(["Projects/Alpha.md", "Projects/Pear.md"]);
			} finally {
				await server.stop();
				await removeDir(big);
			}
		});
		test("a note made while its folder was excluded is offered once the folder is shown again", async () => {
			// The paths kept for a scope were kept up to date by what the *current* settings show: a note
			// made while Private was excluded never joined the list kept for the settings without it.
			const vaultDir = await makeVault({ "Projects/Alpha.md": "alpha\n", "Private/Old.md": "old\n" });
			const server = await startService(vaultDir, { host: { watch: true }, settings: { rateLimitPerMinute: 100_000 } });
			try {
				const client = await connectModern(server.url, server.tokens.read ?? "");
				clients.push(client);
				const completes = async (value: string) =>
					(await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value } })).completion.values;
				expect(await completes("p")).toEqual(["Private/Old.md", "Projects/Alpha.md"]);
				await server.service.apply({ ...server.settings, excludedFolders: ["Private"] });
				expect(await completes("p")).toEqual(["Projects/Alpha.md"]);
				await fs.writeFile(nodePath.join(vaultDir, "Private/Pear.md"), "pear\n");
				expect(await waitUntil(() => server.host.vault.getMarkdownFiles().some((file) => file.path === "Private/Pear.md"))).toBe(true);
				await server.service.apply({ ...server.settings, excludedFolders: [] });
				let latest: string[] = [];
				for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(50)) {
					latest = await completes("p");
					if (latest.includes("Private/Pear.md")) break;
				}
				expect(latest).toEqual(["Private/Old.md", "Private/Pear.md", "Projects/Alpha.md"]);
			} finally {
				await server.stop();
				await removeDir(vaultDir);
			}
		});
	});

	describe("subscriptions/listen at 2026-07-28", () => {
		test("a 2026 client is told lists change and notes update; a 2025 client is not promised it", async () => {
			const client = await modern();
			expect(client.getServerCapabilities()).toMatchObject({ resources: { listChanged: true, subscribe: true }, prompts: { listChanged: true } });
			const legacy = await connectClient(running.url, running.tokens.read ?? "");
			clients.push(legacy);
			expect(legacy.getServerCapabilities()).toMatchObject({ resources: { listChanged: false, subscribe: false }, prompts: { listChanged: false } });
		});

		test("a prompt note added shows up in the same session, announced by prompts/list_changed", async () => {
			const client = await modern();
			const seen = recordNotifications(client, ["notifications/prompts/list_changed", "notifications/resources/list_changed"]);
			const subscription = await client.listen({ promptsListChanged: true, resourcesListChanged: true });
			expect(subscription.honoredFilter).toEqual({ promptsListChanged: true, resourcesListChanged: true });
			expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["Review"]);
			await fs.writeFile(nodePath.join(vault, "Prompts", "Translate.md"), "Translate {{text}}.\n");
			expect(await waitUntil(() => seen.some((note) => note.method === "notifications/prompts/list_changed"))).toBe(true);
			expect(seen.some((note) => note.method === "notifications/resources/list_changed")).toBe(true);
			expect((await client.listPrompts({}, { cacheMode: "refresh" } as never)).prompts.map((prompt) => prompt.name).sort()).toEqual([
				"Review",
				"Translate",
			]);
			await subscription.close();
		});

		test("resources/updated names a watched note when it changes; an excluded or hidden note never causes a notification", async () => {
			const client = await modern();
			const seen = recordNotifications(client, [
				"notifications/resources/updated",
				"notifications/resources/list_changed",
				"notifications/prompts/list_changed",
			]);
			const subscription = await client.listen({
				resourcesListChanged: true,
				promptsListChanged: true,
				resourceSubscriptions: [noteUri("Watched.md"), noteUri("Private/Project plans.md"), noteUri(".hidden/Projects note.md")],
			});
			// Changes only where this token cannot see: nothing at all is sent.
			await fs.writeFile(nodePath.join(vault, "Private", "Project plans.md"), "changed secret\n");
			await fs.writeFile(nodePath.join(vault, "Private", "New secret.md"), "new secret\n");
			await fs.writeFile(nodePath.join(vault, ".hidden", "Projects note.md"), "changed hidden\n");
			await sleep(1500);
			expect(seen).toEqual([]);
			await fs.writeFile(nodePath.join(vault, "Watched.md"), "second\n");
			expect(await waitUntil(() => seen.length > 0)).toBe(true);
			await sleep(500);
			expect(seen).toEqual([{ method: "notifications/resources/updated", uri: noteUri("Watched.md") }]);
			await subscription.close();
		});

		test("a thousand files written at once are a handful of notifications, not a thousand", async () => {
			const client = await modern();
			const seen = recordNotifications(client, ["notifications/resources/list_changed"]);
			const subscription = await client.listen({ resourcesListChanged: true });
			await fs.mkdir(nodePath.join(vault, "Flood"));
			await Promise.all(Array.from({ length: 1000 }, (_, index) => fs.writeFile(nodePath.join(vault, "Flood", `${index}.md`), `${index}\n`)));
			expect(await waitUntil(() => seen.length > 0)).toBe(true);
			await sleep(2000);
			expect(seen.length).toBeGreaterThanOrEqual(1);
			expect(seen.length).toBeLessThanOrEqual(10);
			await subscription.close();
			// The sorted paths completions use follow the vault note by note: the new notes complete
			// (once the watcher has seen them all), a deleted one no longer does.
			const flood99 = ["Flood/99.md", ...Array.from({ length: 10 }, (_, index) => `Flood/99${index}.md`)];
			const completesTo = async (wanted: string[]): Promise<string[]> => {
				let values: string[] = [];
				for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
					values = (await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value: "flood/99" } }))
						.completion.values;
					if (JSON.stringify(values) === JSON.stringify(wanted)) break;
				}
				return values;
			};
			expect(await completesTo(flood99)).toEqual(flood99);
			await fs.rm(nodePath.join(vault, "Flood", "995.md"));
			const withoutDeleted = flood99.filter((path) => path !== "Flood/995.md");
			expect(await completesTo(withoutDeleted)).toEqual(withoutDeleted);
		});

		test("streams are bounded per token, with a clear refusal, and watched notes per stream", async () => {
			const client = await modern();
			const open = [];
			// The earlier tests' streams of this token were closed, but the server may not have seen them go yet.
			for (let index = 0; index < MAX_SUBSCRIPTION_STREAMS_PER_TOKEN; index++)
				open.push(await listenOnceFreed(() => client.listen({ resourcesListChanged: true })));
			await expect(client.listen({ resourcesListChanged: true })).rejects.toThrow(/already has 4 subscription streams open/);
			await open[0]?.close();
			// The server counts the stream closed once it sees the connection go, which under load takes
			// more than one turn: the place is asked for again until it is given (or the test times out).
			const again = await listenOnceFreed(() => client.listen({ resourcesListChanged: true }));
			for (const subscription of [...open.slice(1), again]) await subscription.close();
			const tooMany = Array.from({ length: MAX_SUBSCRIBED_NOTES_PER_STREAM + 1 }, (_, index) => noteUri(`Many/Note ${index}.md`));
			await expect(client.listen({ resourceSubscriptions: tooMany })).rejects.toThrow(/at most 100 notes/);
		});

		test("a token without the read right is honored nothing and told nothing", async () => {
			const client = await modern(running.tokens.write ?? "");
			const seen = recordNotifications(client, ["notifications/resources/updated", "notifications/resources/list_changed"]);
			const subscription = await client.listen({ resourcesListChanged: true, resourceSubscriptions: [noteUri("Watched.md")] });
			expect(subscription.honoredFilter).toEqual({});
			expect(await subscription.closed).toBe("graceful");
			await fs.writeFile(nodePath.join(vault, "Watched.md"), "third\n");
			await sleep(1000);
			expect(seen).toEqual([]);
		});

		test("a revoked token's stream ends within about a second", async () => {
			const client = await modern();
			const subscription = await client.listen({ resourcesListChanged: true });
			const started = Date.now();
			await running.service.apply({ ...running.settings, tokens: running.settings.tokens.filter((token) => token.name !== "read") });
			const how = await endedWithin(subscription.closed, 5000);
			expect(how).toBe("graceful");
			expect(Date.now() - started).toBeLessThan(3000);
			await running.service.apply(running.settings);
		});

		test("stopping the server ends every stream with its closing result", async () => {
			const client = await modern();
			const subscription = await client.listen({ promptsListChanged: true });
			await running.service.stop();
			expect(await endedWithin(subscription.closed, 5000)).toBe("graceful");
		});
	});
});

/** A new stream, asked for again while the server still counts a stream just closed as open (at most 20 s: a safety net on a loaded machine). */
async function listenOnceFreed<T>(listen: () => Promise<T>): Promise<T> {
	const givesUpAt = Date.now() + 20_000;
	for (;;) {
		try {
			return await listen();
		} catch (error) {
			if (Date.now() > givesUpAt || !/already has 4 subscription streams open/.test(String(error))) throw error;
			await sleep(50);
		}
	}
}
