import { NodeHost } from "../../../src/headless/NodeHost";
import { ALL_TOOLS } from "../../../src/mcp/tools";
import { IndexedNoteSearch } from "../../../src/vault/search";
import { connectInMemory, type InMemoryConnection } from "../../helpers/inMemoryClient";
import { callTool } from "../../helpers/tools";
import { copyDemoVault } from "../../helpers/vault";
import { openIndexedVault, type IndexedVault } from "../../helpers/indexedVault";

/**
 * The MCP layer alone, without HTTP: createMcpServer linked to the SDK's real Client through an
 * in-memory transport, over the demo vault. Fast protocol checks for every tool; the HTTP suites
 * keep what needs HTTP (refusals, limits, real clients).
 */
describe("createMcpServer over an in-memory transport", () => {
	let root: string;
	let host: NodeHost;
	let search: IndexedNoteSearch;
	const scope = { configDir: ".obsidian", excludedFolders: ["Projects"] };

	let vault: IndexedVault;

	beforeAll(async () => {
		root = await copyDemoVault();
		vault = await openIndexedVault(root, scope);
		({ host, index: search } = vault);
	});
	afterAll(async () => {
		await vault.close();
	});

	async function connect(canWrite: boolean): Promise<InMemoryConnection> {
		return connectInMemory(host, { canWrite, scope, search });
	}

	test("a read grant lists exactly the read tools, and a write tool answers like an unknown one", async () => {
		const { client, close } = await connect(false);
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name)).toEqual(
				ALL_TOOLS.filter((tool) => tool.access === "read" && tool.needs !== "workspace").map((tool) => tool.name),
			);
			const unknown = await client.callTool({ name: "append_to_note", arguments: { path: "Welcome", content: "x" } }).catch((error: Error) => error);
			expect(String(unknown instanceof Error ? unknown.message : JSON.stringify(unknown))).toMatch(/not found/i);
		} finally {
			await close();
		}
	});

	test.each(ALL_TOOLS.filter((tool) => tool.access === "read" && tool.needs !== "workspace").map((tool) => [tool.name, tool] as const))(
		"%s: every example answers with structured content, and the call is in the activity log without its text",
		async (_name, tool) => {
			const { client, activity, close } = await connect(false);
			try {
				for (const example of tool.examples) {
					const outcome = await callTool(client, tool.name, example);
					expect(outcome).toMatchObject({ ok: true });
				}
				const records = activity.list();
				expect(records.map((record) => record.tool)).toEqual(tool.examples.map(() => tool.name));
				// Records keep tool, token name, sizes and outcome: never a note's text or a call's arguments.
				expect(Object.keys(records[0] ?? {}).sort()).toEqual(["durationMs", "outcome", "responseBytes", "time", "tokenName", "tool"]);
			} finally {
				await close();
			}
		},
	);

	test("an excluded folder is invisible through every listing tool", async () => {
		const { client, close } = await connect(false);
		try {
			for (const [name, args] of [
				["list_notes", {}],
				["search_notes", { query: "project" }],
				["list_tasks", {}],
				["get_graph_stats", {}],
				["list_tags", {}],
			] as const) {
				const outcome = await callTool(client, name, args);
				expect(JSON.stringify(outcome)).not.toContain("Projects/");
			}
			expect(await callTool(client, "read_note", { path: "Projects/Garden" })).toMatchObject({ ok: false, error: expect.stringContaining("No note") });
		} finally {
			await close();
		}
	});

	test("a small read's answer, made in the turn its work ended, listens for no move (a big one does while it is made: movedOutWhileAnswerMade)", async () => {
		const { client, activity, close } = await connect(false);
		const on = jest.spyOn(host.vault, "on");
		try {
			expect(await callTool(client, "read_note", { path: "Welcome" })).toMatchObject({ ok: true });
			expect(on.mock.calls.filter(([name]) => name === "rename")).toHaveLength(0);
			// Its size is still counted for the log.
			expect(activity.list().at(-1)?.responseBytes).toBeGreaterThan(0);
		} finally {
			on.mockRestore();
			await close();
		}
	});
});
