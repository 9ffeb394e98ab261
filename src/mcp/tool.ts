import type { CallToolResult } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Result } from "../result";
import type { ToolContext } from "./context";

/** Which switch a tool sits behind. */
type ToolAccess = "read" | "write";

/** MCP's four behaviour hints, all required: the SDK's defaults say destructive and open-world. */
interface ToolAnnotations {
	readOnlyHint: boolean;
	destructiveHint: boolean;
	idempotentHint: boolean;
	openWorldHint: boolean;
}

/** A tool's answer: its structured result, or an error the model can fix with the message. */
export type ToolOutcome<Output> = Result<Output>;

/** Everything one tool is: the contract clients see and the handler behind it. */
export interface ToolDescriptor<Input extends z.ZodRawShape = z.ZodRawShape, Output extends z.ZodRawShape = z.ZodRawShape> {
	name: string;
	title: string;
	description: string;
	access: ToolAccess;
	annotations: ToolAnnotations;
	inputSchema: Input;
	outputSchema: Output;
	/** What the host must offer beyond the vault: "workspace" = only inside Obsidian, absent headless. */
	needs?: "workspace";
	/** Arguments that succeed on the demo vault; the registry test calls each. */
	examples: Array<z.infer<z.ZodObject<Input>>>;
	handler(ctx: ToolContext, args: z.infer<z.ZodObject<Input>>): Promise<ToolOutcome<z.infer<z.ZodObject<Output>>>>;
}

/** Keeps a tool's input and output types tied to its schemas. */
export function defineTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(tool: ToolDescriptor<Input, Output>): ToolDescriptor<Input, Output> {
	return tool;
}

/** A result as MCP clients get it: `structuredContent`, and the same as compact JSON text for clients that read text only. */
export function toCallToolResult(outcome: ToolOutcome<Record<string, unknown>>): CallToolResult {
	if (!outcome.ok) {
		return { isError: true, content: [{ type: "text", text: outcome.error }] };
	}
	return { content: [{ type: "text", text: JSON.stringify(outcome.value) }], structuredContent: outcome.value };
}
