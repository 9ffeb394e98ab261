import { z } from "zod";
import { fail, ok } from "../../../src/result";
import { defineTool, toCallToolResult } from "../../../src/mcp/tool";

describe("a tool's answer as MCP clients get it", () => {
	test("a result is structuredContent and the same as compact JSON text", () => {
		const value = { path: "Plan.md", words: 3, tags: ["#a"] };
		const answer = toCallToolResult(ok(value));
		expect(answer.structuredContent).toEqual(value);
		expect(answer.content).toEqual([{ type: "text", text: JSON.stringify(value) }]);
		expect(answer.isError).toBeUndefined();
	});

	test("an error the model can fix is an isError result with the sentence, and no structured content", () => {
		expect(toCallToolResult(fail('No note "Plan".'))).toEqual({ isError: true, content: [{ type: "text", text: 'No note "Plan".' }] });
	});

	test("defineTool gives the descriptor back as written", async () => {
		const tool = defineTool({
			name: "echo",
			title: "Echo",
			description: "Says it back.",
			access: "read",
			annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
			inputSchema: { text: z.string() },
			outputSchema: { text: z.string() },
			examples: [{ text: "hi" }],
			handler: (_ctx, args) => Promise.resolve(ok({ text: args.text })),
		});
		expect(tool.name).toBe("echo");
		expect(await tool.handler({} as never, { text: "hi" })).toEqual(ok({ text: "hi" }));
	});
});
