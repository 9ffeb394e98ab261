import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { normalizeObjectSchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import { ListToolsRequestSchema, type CallToolResult, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { errorKind, type ActivityLog, type ActivityOutcome, type Logger } from "../activity";
import { MAX_NAME_BYTES, MAX_NOTE_NAME_BYTES, MAX_RESPONSE_BYTES } from "../config/limits";
import type { ToolContext } from "./context";
import { SERVER_INSTRUCTIONS } from "./instructions";
import { registerNoteResources } from "./resources";
import { toCallToolResult, type ToolDescriptor } from "./tool";
import { ALL_TOOLS } from "./tools";
import { NoteExistsError } from "../vault/writes";
import { effectiveRight } from "../auth/rights";
import { runWriteCall } from "./writeCall";

/** What createMcpServer needs besides the per-request context. */
export interface McpServerDeps {
	activity: ActivityLog;
	logger: Logger;
}

/** The tools a grant may see: those its token's rights do not deny (write tools only for a write grant with writing on). */
export function toolsForGrant(ctx: ToolContext, tools: readonly ToolDescriptor[] = ALL_TOOLS): ToolDescriptor[] {
	return tools.filter((tool) => effectiveRight(ctx.grant.token, tool, ctx.grant.canWrite) !== "deny");
}

/** Every write tool takes it: the note's hash as read_note returned it; a different current version writes nothing. */
const expectedHashArgument = {
	expected_hash: z
		.string()
		.regex(/^[0-9a-f]{64}$/)
		.optional()
		.describe("The note's hash from read_note: if it has changed since, nothing is written and the error gives the new hash."),
};

/** A tool's input schema as clients see it: write tools also take expected_hash. */
function inputSchemaOf(tool: ToolDescriptor): z.ZodRawShape {
	return tool.access === "write" ? { ...tool.inputSchema, ...expectedHashArgument } : tool.inputSchema;
}

/**
 * A new MCP server for one request, with exactly the tools this caller may use. A tool it may
 * not use is never registered, so it is absent from tools/list and a call answers "not found".
 */
export function createMcpServer(ctx: ToolContext, deps: McpServerDeps): McpServer {
	const server = new McpServer(
		{ name: "vault-mcp", title: "Vault MCP", version: ctx.serverVersion },
		{ instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {}, resources: {} }, jsonSchemaValidator: sharedValidator() },
	);
	registerNoteResources(server, ctx);
	const tools = toolsForGrant(ctx);
	for (const tool of tools) {
		server.registerTool(
			tool.name,
			{
				title: tool.title,
				description: tool.description,
				inputSchema: inputSchemaOf(tool),
				outputSchema: tool.outputSchema,
				annotations: { title: tool.title, ...tool.annotations },
			},
			(args: unknown, extra: { signal: AbortSignal }) => runTool(ctx, deps, tool, args, extra.signal),
		);
	}
	// tools/list is the same for every request with the same tools; converting the zod schemas to
	// JSON Schema on each request took most of its time, so the answer is computed once per tool set.
	server.server.removeRequestHandler("tools/list");
	server.server.setRequestHandler(ListToolsRequestSchema, () => listTools(tools));
	return server;
}

const toolListCache = new Map<string, ListToolsResult>();

let validator: AjvJsonSchemaValidator | null = null;

/**
 * One JSON Schema validator for every per-request server: the SDK would otherwise build a new
 * Ajv instance for each request, which was the largest single cost of a tool call.
 */
function sharedValidator(): AjvJsonSchemaValidator {
	validator ??= new AjvJsonSchemaValidator();
	return validator;
}

/** The tools/list answer for a set of tools, in the same shape the SDK's own handler gives. */
function listTools(tools: readonly ToolDescriptor[]): ListToolsResult {
	const key = tools.map((tool) => tool.name).join(",");
	let cached = toolListCache.get(key);
	if (!cached) {
		const jsonSchema = (shape: z.ZodRawShape, pipeStrategy: "input" | "output") =>
			toJsonSchemaCompat(normalizeObjectSchema(shape) ?? z.object({}), { strictUnions: true, pipeStrategy }) as ListToolsResult["tools"][number]["inputSchema"];
		cached = {
			tools: tools.map((tool) => ({
				name: tool.name,
				title: tool.title,
				description: tool.description,
				inputSchema: jsonSchema(inputSchemaOf(tool), "input"),
				outputSchema: jsonSchema(tool.outputSchema, "output"),
				annotations: { title: tool.title, ...tool.annotations },
				// What the SDK's own handler says of a tool registered without task support.
				execution: { taskSupport: "forbidden" as const },
			})),
		};
		toolListCache.set(key, cached);
	}
	return cached;
}

/** A tool's answer: read tools run directly; write tools through the rights, approval and journal. */
function answerOf(ctx: ToolContext, tool: ToolDescriptor, args: unknown, clientGone: AbortSignal): ReturnType<ToolDescriptor["handler"]> {
	if (tool.access === "read") return tool.handler(ctx, args as Parameters<typeof tool.handler>[1]);
	const { expected_hash: expectedHash, ...toolArgs } = args as { expected_hash?: string };
	return runWriteCall(ctx, tool, toolArgs, effectiveRight(ctx.grant.token, tool, ctx.grant.canWrite), expectedHash, clientGone);
}

async function runTool(ctx: ToolContext, deps: McpServerDeps, tool: ToolDescriptor, args: unknown, clientGone: AbortSignal): Promise<CallToolResult> {
	const started = performance.now();
	let outcome: ActivityOutcome = "ok";
	let result: CallToolResult;
	try {
		const answer = await answerOf(ctx, tool, args, clientGone);
		if ("fixable" in answer) outcome = "fixable";
		result = toCallToolResult(answer);
	} catch (error) {
		const fixable = fixableMessageFor(error);
		if (fixable !== null) {
			outcome = "fixable";
			result = toCallToolResult({ fixable });
		} else {
			outcome = "failed";
			// Error messages can quote note text (a parser's excerpt), so only the error's kind is logged.
			deps.logger.error(`tool ${tool.name} failed: ${errorKind(error)}`);
			result = { isError: true, content: [{ type: "text", text: `${tool.name} failed inside the server. Try again; if it keeps failing, the vault's owner can see the error kind in the server log.` }] };
		}
	}
	let responseBytes = Buffer.byteLength(JSON.stringify(result));
	if (responseBytes > MAX_RESPONSE_BYTES) {
		outcome = "fixable";
		result = toCallToolResult({ fixable: `The answer would be over ${MAX_RESPONSE_BYTES} bytes. Ask for less: a smaller limit, a folder, or one note at a time.` });
		responseBytes = Buffer.byteLength(JSON.stringify(result));
	}
	deps.activity.add({
		time: new Date().toISOString(),
		tokenName: ctx.grant.token.name,
		tool: tool.name,
		durationMs: Math.round((performance.now() - started) * 10) / 10,
		responseBytes,
		outcome,
	});
	return result;
}

/**
 * Errors from the vault that the model can act on, in words that never depend on what lies
 * behind a refused path (a link's target existing or not gives the same answer).
 */
function fixableMessageFor(error: unknown): string | null {
	switch ((error as NodeJS.ErrnoException).code) {
		case "ENOENT":
			// Deleted or moved by another program a moment ago: the model can recover by looking again.
			return "That note is gone (deleted or moved a moment ago). Nothing was written. Call list_notes or search_notes to find it again.";
		case "EOUTSIDEVAULT":
			return "That path is not part of the vault this server gives access to. Nothing was read or written. Call list_notes to see the notes you can use.";
		case "EWRITECONFLICT":
		case "EHASHMISMATCH":
			return (error as Error).message;
		case "EEXIST":
			// Only our own wording: a raw EEXIST message names the absolute path on disk.
			return error instanceof NoteExistsError ? error.message : null;
		case "ENAMETOOLONG":
			// The documented refusal gives the limit; a disk with a lower one (eCryptfs, a long vault path) lands here.
			return `A file or folder name in that path is too long for the file system here (this server allows ${MAX_NAME_BYTES} bytes a name, ${MAX_NOTE_NAME_BYTES} for a note's; this disk or the vault's own path leaves less). Nothing was written. Choose a shorter name or a shallower folder.`;
		default:
			return null;
	}
}

