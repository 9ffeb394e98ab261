import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { LIST_BASES_WORK_MS } from "../../src/config/limits";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** A base of 190 formulas, each adding up the next twenty: tens of milliseconds of CPU to read. */
function wideBase(): string {
	const formulas = Array.from({ length: 190 }, (_, index) => {
		const next = Array.from({ length: 20 }, (_, step) => index + 1 + step).filter((other) => other < 190);
		return `  w${index}: '${next.map((other) => `formula.w${other}`).join(" + ") || "1"}'`;
	});
	return `formulas:\n${formulas.join("\n")}\nviews:\n  - type: table\n    name: Wide\n`;
}

/** A real server over HTTP with one read token, its vault-wide calls' budget as given. */
async function start(
	root: string,
	callBudget?: { sliceMs?: number; callWorkMs?: number },
): Promise<{ service: McpService; host: NodeHost; url: string; token: string }> {
	const host = await NodeHost.open(root);
	const settings: VaultMcpSettings = { ...defaultSettings(), serverEnabled: true, port: 0, rateLimitPerMinute: 100_000 };
	const made = addToken(settings, "reader", "read");
	if ("error" in made) throw new Error(made.error);
	const service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: new MemoryJournal(), callBudget });
	const status = await service.apply(made.settings);
	if (status.state !== "listening") throw new Error("the server did not start");
	return { service, host, url: status.url, token: made.token };
}

type Listed = { bases: Array<{ path: string; views: string[]; error?: string }>; total: number; next_cursor?: string };

describe("list_bases over many bases that take long to read", () => {
	let root: string;
	const BASES = 50;
	beforeAll(async () => {
		const files: Record<string, string> = { "Note.md": "# Note\n" };
		for (let index = 0; index < BASES; index++) files[`Bases/Wide ${String(index).padStart(2, "0")}.base`] = wideBase();
		root = await makeVault(files);
	});
	afterAll(() => removeDir(root));

	test(`stops reading after ${LIST_BASES_WORK_MS} ms of work: the page ends at the base that used it up, named unread with where to read it, and next_cursor names every other base; the server goes on answering`, async () => {
		// A budget used up by the first slice: the bound is reached at once, whatever the machine's speed.
		const running = await start(root, { sliceMs: 0, callWorkMs: 0 });
		let client: Client | undefined;
		try {
			client = await connectClient(running.url, running.token);
			const named: string[] = [];
			let cursor: string | undefined;
			do {
				const listed: Listed = await callOk<Listed>(client, "list_bases", cursor ? { cursor } : {});
				expect(listed.total).toBe(BASES);
				expect(listed.bases).toHaveLength(1);
				for (const base of listed.bases) {
					expect(base.views).toEqual([]);
					expect(base.error).toMatch(
						/^Not read: this call read bases for 0 ms of work, its limit, so other clients are not held up.*query_base reads this base\.$/,
					);
				}
				named.push(...listed.bases.map((base) => base.path));
				cursor = listed.next_cursor;
			} while (cursor !== undefined);
			expect(named).toEqual(Array.from({ length: BASES }, (_, index) => `Bases/Wide ${String(index).padStart(2, "0")}.base`));
			expect(await callOk<{ content: string }>(client, "read_note", { path: "Note" })).toMatchObject({ content: "# Note\n" });
		} finally {
			await client?.close();
			await running.service.stop();
			await running.host.close();
		}
	});

	test("a vault's few bases of a few lines are each read and their views named, as before", async () => {
		const small = await makeVault({
			"Books.base": "filters: 'file.hasTag(\"book\")'\nviews:\n  - type: table\n    name: Reading\n  - type: cards\n    name: Covers\n",
			"Tasks.base": "formulas:\n  late: 'due < today()'\nviews:\n  - type: table\n    name: Open\n",
			"Broken.base": "views: [\n",
		});
		const running = await start(small);
		let client: Client | undefined;
		try {
			client = await connectClient(running.url, running.token);
			const listed = await callOk<Listed>(client, "list_bases", {});
			expect(listed.total).toBe(3);
			expect(listed.bases.map((base) => [base.path, base.views])).toEqual([
				["Books.base", ["Reading", "Covers"]],
				["Broken.base", []],
				["Tasks.base", ["Open"]],
			]);
			expect(listed.bases[1]?.error).not.toMatch(/^Not read/);
		} finally {
			await client?.close();
			await running.service.stop();
			await running.host.close();
			await removeDir(small);
		}
	});
});
