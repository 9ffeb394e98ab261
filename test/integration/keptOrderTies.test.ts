import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { runCli, startServe, type ServingCli } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Two paths the collator calls equal (`ab.md` and `a­b.md`, with a soft hyphen it ignores) are
 * listed in one order whatever the server saw happen: a server that watched a note lose its task
 * and get one back answers byte for byte as one started afresh on the same vault. Before, the
 * note that got its task back went behind the other (the kept notes' order decided the tie), so
 * `list_tasks` limit 1 named the other note, and a fresh server named this one. The same for
 * get_note_links' backlinks from a note deleted and made again; and for search_notes' ranking and
 * the prompts listed, of two notes alike in all but that hyphen (same text, same time).
 */
const PLAIN = "ab.md";
const SOFT = "a\u00ADb.md";

async function serveWithToken(vault: string, token: string): Promise<{ serving: ServingCli; client: Client }> {
	const serving = await startServe([vault, "--port", "0"]);
	const client = await connectClient(serving.url, token);
	return { serving, client };
}

async function tasksAnswer(client: Client): Promise<string> {
	return JSON.stringify([await callOk(client, "list_tasks", { limit: 1 }), await callOk(client, "list_tasks", { status: "any", limit: 10 })]);
}

/** Asks until the server lists `count` tasks (it has seen the edit), at most 10 s. */
async function waitForTasks(client: Client, count: number): Promise<void> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const { tasks } = await callOk<{ tasks: unknown[] }>(client, "list_tasks", { status: "any", limit: 10 });
		if (tasks.length === count) return;
		if (Date.now() > deadline) throw new Error(`the server did not see the edit: ${JSON.stringify(tasks)}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

describe("paths the collator calls equal, after edits", () => {
	let vault = "";
	afterEach(async () => {
		await removeDir(vault);
	});

	test("list_tasks answers as a freshly started server does, whichever of the two lost and got back its task", async () => {
		for (const edited of [PLAIN, SOFT]) {
			vault = await makeVault({ [PLAIN]: "- [ ] plain\n", [SOFT]: "- [ ] soft\n" });
			const made = await runCli(["token", "new", vault, "--name", "r", "--json"]);
			const { token } = JSON.parse(made.stdout) as { token: string };
			const live = await serveWithToken(vault, token);
			try {
				await tasksAnswer(live.client);
				await fs.writeFile(nodePath.join(vault, edited), "no task now\n");
				await waitForTasks(live.client, 1);
				await fs.writeFile(nodePath.join(vault, edited), "- [ ] back\n");
				await waitForTasks(live.client, 2);
				const watched = await tasksAnswer(live.client);
				await live.client.close();
				await live.serving.stop();
				const fresh = await serveWithToken(vault, token);
				try {
					expect(watched).toBe(await tasksAnswer(fresh.client));
				} finally {
					await fresh.client.close();
					await fresh.serving.stop();
				}
			} finally {
				if (live.serving.child.exitCode === null) await live.serving.stop();
			}
			await removeDir(vault);
		}
	}, 60_000);

	test("get_note_links lists backlinks as a freshly started server does, after one of the two linking notes was deleted and made again", async () => {
		for (const remade of [PLAIN, SOFT]) {
			vault = await makeVault({ "Target.md": "target\n", [PLAIN]: "[[Target]]\n", [SOFT]: "[[Target]]\n" });
			const made = await runCli(["token", "new", vault, "--name", "r", "--json"]);
			const { token } = JSON.parse(made.stdout) as { token: string };
			const backlinks = async (client: Client) => JSON.stringify(await callOk(client, "get_note_links", { path: "Target.md" }));
			const live = await serveWithToken(vault, token);
			try {
				await fs.rm(nodePath.join(vault, remade));
				await waitForBacklinks(live.client, 1);
				await fs.writeFile(nodePath.join(vault, remade), "[[Target]]\n");
				await waitForBacklinks(live.client, 2);
				const watched = await backlinks(live.client);
				await live.client.close();
				await live.serving.stop();
				const fresh = await serveWithToken(vault, token);
				try {
					expect(watched).toBe(await backlinks(fresh.client));
				} finally {
					await fresh.client.close();
					await fresh.serving.stop();
				}
			} finally {
				if (live.serving.child.exitCode === null) await live.serving.stop();
			}
			await removeDir(vault);
		}
	}, 60_000);
});

/** Asks until the server lists `count` backlinks of Target.md, at most 10 s. */
async function waitForBacklinks(client: Client, count: number): Promise<void> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const { backlinks } = await callOk<{ backlinks: unknown[] }>(client, "get_note_links", { path: "Target.md" });
		if (backlinks.length === count) return;
		if (Date.now() > deadline) throw new Error(`the server did not see the change: ${JSON.stringify(backlinks)}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

describe("notes alike in all but a hyphen the collator ignores, after one was made again", () => {
	let vault = "";
	afterEach(async () => {
		await removeDir(vault);
	});

	test("search_notes ranks them, and prompts/list lists them, as a freshly started server does", async () => {
		const when = new Date("2026-01-02T03:04:05Z");
		const put = async (path: string) => {
			await fs.writeFile(nodePath.join(vault, path), "say zebra\n");
			await fs.utimes(nodePath.join(vault, path), when, when);
		};
		for (const remade of [PLAIN, SOFT]) {
			vault = await makeVault();
			await fs.mkdir(nodePath.join(vault, "Prompts"));
			for (const path of [PLAIN, SOFT]) await put(`Prompts/${path}`);
			const made = await runCli(["token", "new", vault, "--name", "r", "--json"]);
			const { token } = JSON.parse(made.stdout) as { token: string };
			const answers = async (client: Client) =>
				JSON.stringify([
					await callOk(client, "search_notes", { query: "zebra", limit: 1 }),
					await callOk(client, "search_notes", { query: "zebra" }),
					(await client.listPrompts()).prompts.map((prompt) => prompt.name),
				]);
			const live = await serveWithToken(vault, token);
			try {
				await waitForHits(live.client, 2);
				await fs.rm(nodePath.join(vault, "Prompts", remade));
				await waitForHits(live.client, 1);
				await put(`Prompts/${remade}`);
				await waitForHits(live.client, 2);
				const watched = await answers(live.client);
				await live.client.close();
				await live.serving.stop();
				const fresh = await serveWithToken(vault, token);
				try {
					await waitForHits(fresh.client, 2);
					expect(watched).toBe(await answers(fresh.client));
				} finally {
					await fresh.client.close();
					await fresh.serving.stop();
				}
			} finally {
				if (live.serving.child.exitCode === null) await live.serving.stop();
			}
			await removeDir(vault);
		}
	}, 90_000);
});

/** Asks until a search finds `count` notes with the index built, at most 10 s. */
async function waitForHits(client: Client, count: number): Promise<void> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const { results, index } = await callOk<{ results: unknown[]; index?: { state: string } }>(client, "search_notes", { query: "zebra" });
		if (results.length === count && index?.state !== "building") return;
		if (Date.now() > deadline) throw new Error(`the server did not see the change: ${JSON.stringify(results)}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

describe("tags in notes whose paths the collator calls equal, after one was made again", () => {
	let vault = "";
	afterEach(async () => {
		await removeDir(vault);
	});

	test("list_tags spells and orders them as a freshly started server does", async () => {
		const texts: Record<string, string> = { [PLAIN]: "#Tag #x\u00ADy\n", [SOFT]: "#TAG #xy\n" };
		for (const remade of [PLAIN, SOFT]) {
			vault = await makeVault(texts);
			const made = await runCli(["token", "new", vault, "--name", "r", "--json"]);
			const { token } = JSON.parse(made.stdout) as { token: string };
			const tags = async (client: Client) => JSON.stringify([await callOk(client, "list_tags", {}), await callOk(client, "list_tags", { limit: 1 })]);
			const live = await serveWithToken(vault, token);
			try {
				await tags(live.client);
				await fs.rm(nodePath.join(vault, remade));
				await waitForTags(live.client, 2);
				await fs.writeFile(nodePath.join(vault, remade), texts[remade] ?? "");
				await waitForTags(live.client, 3);
				const watched = await tags(live.client);
				await live.client.close();
				await live.serving.stop();
				const fresh = await serveWithToken(vault, token);
				try {
					expect(watched).toBe(await tags(fresh.client));
				} finally {
					await fresh.client.close();
					await fresh.serving.stop();
				}
			} finally {
				if (live.serving.child.exitCode === null) await live.serving.stop();
			}
			await removeDir(vault);
		}
	}, 60_000);
});

/** Asks until the server lists `count` tags, and #Tag as used twice once all three are back, at most 10 s. */
async function waitForTags(client: Client, count: number): Promise<void> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const { tags } = await callOk<{ tags: Array<{ count: number }> }>(client, "list_tags", {});
		if (tags.length === count && (count < 3 || tags[0]?.count === 2)) return;
		if (Date.now() > deadline) throw new Error(`the server did not see the change: ${JSON.stringify(tags)}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
