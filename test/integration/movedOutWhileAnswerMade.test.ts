import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ANSWER_ITEMS_MADE_IN_ONE_PIECE } from "../../src/config/limits";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A tool's work can end with no note moved out of sight, and its answer (a page of hundreds of
 * notes) then be made in slices, pausing between them. A note moved into an excluded folder at one
 * of those pauses was named, and counted, at the path it had left: a path that holds nothing now,
 * as review77's rule says no answer may (src/vault/renamesSeen.ts).
 */
describe("a note moved into an excluded folder while a big answer is made", () => {
	const NOTES = ANSWER_ITEMS_MADE_IN_ONE_PIECE + 20;
	const name = (index: number) => `Notes/n${String(index).padStart(4, "0")}.md`;
	let root: string;
	let host: NodeHost;
	let service: McpService;
	let client: Client;
	/** Pauses between slices so far, and the move to make at the pause counted `moveAt`. */
	let pauses = 0;
	let moveAt = 0;
	let move: (() => Promise<void>) | null = null;

	beforeAll(async () => {
		const files: Record<string, string> = { "Private/Diary.md": "# Diary\n" };
		for (let index = 0; index < NOTES; index++) files[name(index)] = `# Note ${index}\n`;
		root = await makeVault(files);
		host = await NodeHost.open(root);
		const made = addToken({ ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] }, "reader", "read");
		if ("error" in made) throw new Error(made.error);
		service = new McpService({
			host,
			serverVersion: "test",
			logger: new RecordingLogger(),
			journal: new MemoryJournal(),
			yieldToHost: async () => {
				if (++pauses === moveAt && move) await move();
				await new Promise((resolve) => setImmediate(resolve));
			},
			callBudget: { sliceMs: 0 },
		});
		const status = await service.apply(made.settings);
		if (status.state !== "listening") throw new Error("the server did not start");
		client = await connectClient(status.url, made.token);
		// The index's build and warm-up searches pause on this lane too: one of them at a pause of the counting call
		// made the count one more than the next call's, and the move was never made (1 run in 3 at load 14).
		await service.search?.whenWarmedUp();
	});

	afterAll(async () => {
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(root);
	});

	test("list_notes neither names nor counts it at the path it left", async () => {
		const moving = name(7);
		// Its last pause is one of the answer's making: the listing and its count are done by then. Counted on a call
		// with the listing kept, as the call that moves has it.
		const args = { recursive: true, sort: "path", limit: 1000 };
		await callTool(client, "list_notes", args);
		pauses = 0;
		await callTool(client, "list_notes", args);
		moveAt = pauses;
		pauses = 0;
		let moved = false;
		move = async () => {
			const file = host.vault.getFileByPath(moving);
			if (file) await host.vault.rename(file, moving.replace(/^Notes\//u, "Private/"));
			moved = true;
		};
		const answer = await callTool(client, "list_notes", args);
		expect(moved).toBe(true);
		expect(answer.ok).toBe(true);
		if (!answer.ok) return;
		const paths = (answer.value.notes as Array<{ path: string }>).map((note) => note.path);
		// On lead3: the moved note named at "Notes/n0007.md", and counted (total NOTES).
		expect(paths.includes(moving)).toBe(false);
		expect(paths).toHaveLength(NOTES - 1);
		expect(answer.value.total).toBe(NOTES - 1);
		expect(JSON.stringify(answer.value)).not.toMatch(/Private/u);
	});

	test("query_base names no row's note at the path it left, whichever pause it moved at", async () => {
		await host.vault.create("Notes/All.base", "views:\n  - type: table\n    name: All\n    limit: 20\n");
		const moving = name(3);
		const args = { path: "Notes/All.base" };
		pauses = 0;
		moveAt = 0;
		await callTool(client, "query_base", args);
		const total = pauses;
		// Pauses spread MOVE_PAUSES apart from the first, and the last (857 here: 18 calls; the files are listed until about the
		// 280th, then filtered and made rows; a call a pause would pass the token's rate limit). 40 calls took 1.7 s of CPU and, at
		// loads of 12-20, over jest's 30 s; with the rows' check put back (every row kept, moved or not) the 12 past the listing fail.
		const MOVE_PAUSES = 16;
		const step = Math.max(1, Math.floor(total / MOVE_PAUSES));
		for (let k = 1; k <= total; k = k < total && k + step > total ? total : k + step) {
			pauses = 0;
			moveAt = k;
			let moved = false;
			move = async () => {
				const file = host.vault.getFileByPath(moving);
				if (file) await host.vault.rename(file, moving.replace(/^Notes\//u, "Private/"));
				moved = true;
			};
			const answer = await callTool(client, "query_base", args);
			moveAt = 0;
			const back = host.vault.getFileByPath(moving.replace(/^Notes\//u, "Private/"));
			if (back) await host.vault.rename(back, moving);
			if (!moved) continue;
			expect({ k, total, answer: JSON.stringify(answer) }).toEqual({ k, total, answer: expect.not.stringMatching(/n0003|Private/u) });
		}
	}, 60_000);
});
