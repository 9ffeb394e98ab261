import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { z } from "zod";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { removeDir, copyDemoVault } from "../helpers/vault";

describe("the tool registry", () => {
	let vault: string;
	let running: RunningService;
	let readClient: Client;
	let writeClient: Client;

	beforeAll(async () => {
		vault = await copyDemoVault();
		running = await startService(vault, { levels: ["read", "write"], settings: { writeEnabled: true } });
		readClient = await connectClient(running.url, running.tokens.read ?? "");
		writeClient = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterAll(async () => {
		await readClient.close();
		await writeClient.close();
		await running.stop();
		await removeDir(vault);
	});

	test("names are unique snake_case", () => {
		const names = ALL_TOOLS.map((tool) => tool.name);
		expect(new Set(names).size).toBe(names.length);
		for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
	});

	test("tools of Obsidian's window are absent headless, and calling one answers like an unknown tool", async () => {
		const windowTools = ALL_TOOLS.filter((tool) => tool.needs === "workspace").map((tool) => tool.name);
		expect(windowTools).toEqual(["get_active_note", "open_note"]);
		const listed = (await writeClient.listTools()).tools.map((tool) => tool.name);
		for (const name of windowTools) {
			expect(listed).not.toContain(name);
			const unknown = await writeClient.callTool({ name, arguments: {} }).catch((error: Error) => error);
			expect(String(unknown instanceof Error ? unknown.message : JSON.stringify(unknown))).toMatch(/not found/i);
		}
	});

	describe.each(ALL_TOOLS.map((tool) => [tool.name, tool] as const))("%s", (_name, tool) => {
		test("has a title, a complete description, and all four annotations set honestly", () => {
			expect(tool.title.length).toBeGreaterThan(3);
			expect(tool.title[0]).toBe(tool.title[0]?.toUpperCase());
			expect(tool.description.length).toBeGreaterThanOrEqual(60);
			const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
			for (const hint of [readOnlyHint, destructiveHint, idempotentHint, openWorldHint]) expect(typeof hint).toBe("boolean");
			expect(openWorldHint).toBe(false);
			if (tool.access === "read")
				expect({ readOnlyHint, destructiveHint, idempotentHint }).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
			else expect(readOnlyHint).toBe(false);
		});
	});

	// Tools of Obsidian's window are listed and called through the plugin (test/integration/workspaceTools.test.ts).
	describe.each(ALL_TOOLS.filter((tool) => tool.needs !== "workspace").map((tool) => [tool.name, tool] as const))("%s headless", (_name, tool) => {
		test("is listed with its input schema and annotations to the tokens that may use it", async () => {
			const { tools } = await (tool.access === "read" ? readClient : writeClient).listTools();
			const listed = tools.find((entry) => entry.name === tool.name);
			expect(listed?.inputSchema.type).toBe("object");
			// Listed without its output schema (the tools/list budget); each answer is checked against it below.
			expect(listed?.outputSchema).toBeUndefined();
			expect(listed?.title).toBe(tool.title);
			expect(listed?.annotations).toEqual(tool.annotations);
		});

		test("every example call succeeds against the demo vault, with a result its output schema accepts", async () => {
			expect(tool.examples.length).toBeGreaterThan(0);
			for (const example of tool.examples) {
				const outcome = await callTool(tool.access === "read" ? readClient : writeClient, tool.name, example);
				expect(outcome).toMatchObject({ ok: true });
				if (outcome.ok) expect(z.object(tool.outputSchema).strict().safeParse(outcome.value).error).toBeUndefined();
			}
		});
	});

	test("tools/list is kept as a snapshot, so a schema change is deliberate", async () => {
		expect((await readClient.listTools()).tools).toMatchSnapshot("read token");
		expect((await writeClient.listTools()).tools).toMatchSnapshot("read+write token");
	});
});
