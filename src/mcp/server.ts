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

/** What createMcpServer needs besides the per-request context. */
export interface McpServerDeps {
	activity: ActivityLog;
	logger: Logger;
}

/** The tools a grant may see: write tools only for a write grant. */
export function toolsForGrant(ctx: ToolContext, tools: readonly ToolDescriptor[] = ALL_TOOLS): ToolDescriptor[] {
	return tools.filter((tool) => tool.access === "read" || ctx.grant.canWrite);
}

/**
 * An MCP server with exactly the tools this caller may use. A tool it may not use is never
 * registered, so it is absent from tools/list and a call answers "not found".
 */
export function createMcpServer(ctx: ToolContext, deps: McpServerDeps): McpServer {
	return buildServer(toolsForGrant(ctx), ctx.serverVersion, () => ctx, deps, (work) => work);
}

/** A pooled server and the context of the request it is lent to. */
interface ServerSlot {
	server: McpServer;
	ctx: ToolContext | null;
	/** Tool calls started and not yet settled: the slot is reused only once they are. */
	running: Set<Promise<unknown>>;
}

/**
 * MCP servers kept for reuse, one set per tool set. Building a server (registering every tool and
 * compiling its schemas) cost more than a small tool call; a stateless request only needs a server
 * with the right tools and the request's own context. So a request borrows an idle server whose
 * tool names are exactly its own, or a new one, and gives it back once its calls have settled.
 * A server stays connected to its transport between requests. At most `maxIdle` idle servers are
 * kept per tool set (the in-flight cap bounds how many are ever lent at once).
 */
export class McpServerPool {
	private readonly idle = new Map<string, ServerSlot[]>();

	constructor(
		private readonly deps: McpServerDeps,
		private readonly maxIdle: number,
	) {}

	/** A server for one request with `ctx`: the tools `ctx` may see; `release` once the request is answered. */
	lend(ctx: ToolContext): { server: McpServer; release: () => Promise<void> } {
		const tools = toolsForGrant(ctx);
		// Everything a pooled server holds that differs between requests: its tool names, in order, and the version it reports.
		const key = `${ctx.serverVersion}\n${tools.map((tool) => tool.name).join(",")}`;
		const slot = this.idle.get(key)?.pop() ?? this.newSlot(tools, ctx.serverVersion);
		slot.ctx = ctx;
		return {
			server: slot.server,
			release: async () => {
				while (slot.running.size > 0) await Promise.allSettled([...slot.running]);
				slot.ctx = null;
				const idle = this.idle.get(key) ?? [];
				if (idle.length < this.maxIdle) idle.push(slot);
				this.idle.set(key, idle);
			},
		};
	}

	private newSlot(tools: readonly ToolDescriptor[], serverVersion: string): ServerSlot {
		const running = new Set<Promise<unknown>>();
		const slot: ServerSlot = { server: null as unknown as McpServer, ctx: null, running };
		const contextOf = () => {
			if (!slot.ctx) throw new Error("A pooled MCP server was used while not lent to a request.");
			return slot.ctx;
		};
		const track = <T>(work: Promise<T>): Promise<T> => {
			running.add(work);
			void work.finally(() => running.delete(work)).catch(() => undefined);
			return work;
		};
		slot.server = buildServer(tools, serverVersion, contextOf, this.deps, track);
		return slot;
	}
}

function buildServer(tools: readonly ToolDescriptor[], serverVersion: string, contextOf: () => ToolContext, deps: McpServerDeps, track: (work: Promise<CallToolResult>) => Promise<CallToolResult>): McpServer {
	const server = new McpServer(
		{ name: "vault-mcp", title: "Vault MCP", version: serverVersion },
		{ instructions: SERVER_INSTRUCTIONS, capabilities: { tools: {}, resources: {} }, jsonSchemaValidator: sharedValidator() },
	);
	registerNoteResources(server, contextOf);
	for (const tool of tools) {
		server.registerTool(
			tool.name,
			{
				title: tool.title,
				description: tool.description,
				inputSchema: tool.inputSchema,
				outputSchema: tool.outputSchema,
				annotations: { title: tool.title, ...tool.annotations },
			},
			(args: unknown) => track(runTool(contextOf(), deps, tool, args)),
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
				inputSchema: jsonSchema(tool.inputSchema, "input"),
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

async function runTool(ctx: ToolContext, deps: McpServerDeps, tool: ToolDescriptor, args: unknown): Promise<CallToolResult> {
	const started = performance.now();
	let outcome: ActivityOutcome = "ok";
	let result: CallToolResult;
	try {
		const answer = await tool.handler(ctx, args as Parameters<typeof tool.handler>[1]);
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

