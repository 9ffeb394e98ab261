import { McpServer, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult, type ListToolsResult, type ProtocolEra } from "@modelcontextprotocol/server";
import { z } from "zod";
import { errorKind, type ActivityLog, type ActivityOutcome, type Logger } from "../activity";
import { ERROR_CUT_TO_CHARS, MAX_RESPONSE_BYTES, RUNS_WHILE_RENAMED, VAULT_WIDE_SLICE_MS } from "../config/limits";
import { echoed } from "../markdown/echo";
import { answerAtOnce, answerInSlices } from "./answerJson";
import { CUT_TO_FIT_FIELD, cutToFitSchema, cutToFitSteps } from "./cutToFit";
import { filePlacesOf, placesOfBaseCells, type FilePlaces } from "./filePlaces";
import { SliceClock } from "../markdown/steps";
import { yieldToEventLoop } from "../vault/workBudget";
import type { EveryField, ToolContext } from "./context";
import { SERVER_INSTRUCTIONS } from "./instructions";
import { registerCompletions } from "./completions";
import { registerVaultPrompts } from "./prompts";
import { registerNoteResources } from "./resources";
import { fail } from "../result";
import { toCallToolResult, type ToolDescriptor } from "./tool";
import { ALL_TOOLS } from "./tools";
import { effectiveRight, NOTE_TEXT_RIGHT } from "../auth/rights";
import { runWriteCall } from "./writeCall";
import { withProgress, type ProgressRequest } from "./progress";
import { fixableMessageFor } from "./vaultErrors";
import { scopeKey } from "../vault/scope";
import { NOTES_KEPT_MOVING, withMovesOutOfSight } from "../vault/renamesSeen";
import type { TokenRecord } from "../auth/tokens";
import { rememberJsonText } from "../jsonText";
import { IsoTimes } from "../isoTimes";

/** The times of the calls the activity log keeps. */
const CALL_TIMES = new IsoTimes();

/** What createMcpServer needs besides the per-request context. */
export interface McpServerDeps {
	activity: ActivityLog;
	logger: Logger;
}

/**
 * The tools a grant may see: those its token's rights do not deny (write tools only for a write
 * grant with writing on), and the tools of Obsidian's window only inside Obsidian.
 */
function toolsForGrant(ctx: ToolContext, tools: readonly ToolDescriptor[] = ALL_TOOLS): ToolDescriptor[] {
	return tools.filter(
		(tool) => effectiveRight(ctx.grant.token, tool, ctx.grant.canWrite) !== "deny" && (tool.needs !== "workspace" || ctx.host.workspace !== undefined),
	);
}

/** Every write tool takes it: the note's hash as read_note returned it; a different current version writes nothing. */
const expectedHashArgument = {
	expected_hash: z
		.string()
		.regex(/^[0-9a-f]{64}$/)
		.optional()
		.describe("read_note's hash: if the note changed since, nothing is written."),
};

/**
 * A tool's input schema as clients see it (write tools also take expected_hash), as the object
 * schema the SDK takes. Tool files keep plain shapes: this is the one place they become objects.
 */
function inputSchemaOf(tool: ToolDescriptor): z.ZodObject {
	return schemasOf(tool).input;
}

/** Each tool's input and output schemas as objects, and where its answer names files, made once: every pooled server and every direct call shares them. */
const toolSchemas = new WeakMap<ToolDescriptor, { input: z.ZodObject; output: z.ZodObject; filePlaces: FilePlaces | null }>();

function schemasOf(tool: ToolDescriptor): { input: z.ZodObject; output: z.ZodObject; filePlaces: FilePlaces | null } {
	let schemas = toolSchemas.get(tool);
	if (schemas === undefined) {
		schemas = {
			input: z.object(tool.access === "write" ? { ...tool.inputSchema, ...expectedHashArgument } : tool.inputSchema),
			output: z.object({ ...tool.outputSchema, [CUT_TO_FIT_FIELD]: cutToFitSchema }),
			filePlaces: filePlacesOf(tool.outputSchema),
		};
		toolSchemas.set(tool, schemas);
	}
	return schemas;
}

/**
 * An MCP server with exactly the tools this caller may use. A tool it may not use is never
 * registered, so it is absent from tools/list and a call answers "not found".
 */
export function createMcpServer(ctx: ToolContext, deps: McpServerDeps): McpServer {
	const tools = toolsForGrant(ctx);
	return buildServer(
		{ tools, serverVersion: ctx.serverVersion, withResources: readsNoteText(tools), withPrompts: hasPrompts(ctx, tools), notifies: false, modern: false },
		() => ctx,
		deps,
		(work) => work,
	);
}

/** What a lent server answers without the SDK's protocol layer; the endpoint's `DirectAnswers` (http/endpointState.ts), which mcp/ does not import. */
interface DirectAnswers {
	callTool(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> | null;
	listTools(): ListToolsResult;
}

/** The tools one grant may see, and the pool key of the servers that have exactly those (`McpServerPool.toolSetOf`). */
interface ToolSet {
	tools: ToolDescriptor[];
	withPrompts: boolean;
	key: string;
	/** The token record's rights and level it was made from. */
	rights: TokenRecord["rights"];
	level: TokenRecord["level"];
	/** What else decided it: the era, the write switch, a workspace, a prompts folder set, the version. */
	asked: { era: ProtocolEra; canWrite: boolean; withWorkspace: boolean; promptsSet: boolean; serverVersion: string };
}

/** A pooled server and the context of the request it is lent to. */
interface ServerSlot {
	server: McpServer;
	ctx: ToolContext | null;
	/** Tool calls started and not yet settled: the slot is reused only once they are. Counted: a set of their promises hashed each call in and out. */
	running: number;
	/** Who waits for `running` to come to 0. */
	whenIdle: Array<() => void>;
	/** Its read tools' calls and its tool list, answered without the SDK's protocol layer. */
	direct: DirectAnswers;
}

/** Whether the caller may read note text at all (its `read_note` right): without it, no resources and no prompts are offered. */
function readsNoteText(tools: readonly ToolDescriptor[]): boolean {
	return tools.some((tool) => tool.name === NOTE_TEXT_RIGHT.name);
}

/** Whether a prompts folder is set and the caller may read note text: servers with and without the prompts capability are pooled apart. */
function hasPrompts(ctx: ToolContext, tools: readonly ToolDescriptor[]): boolean {
	return Boolean(ctx.promptsFolder?.trim()) && readsNoteText(tools);
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
		/** Whether 2026-07-28 servers offer subscriptions/listen (the service runs a change notifier): their capabilities say list changes are sent. */
		private readonly notifiesAtModern: boolean = false,
	) {}

	/** A server for one request with `ctx`: the tools `ctx` may see; `release` once the request is answered. */
	lend(ctx: ToolContext, era: ProtocolEra = "legacy"): { server: McpServer; release: () => Promise<void>; direct: DirectAnswers } {
		const { tools, withPrompts, key } = this.toolSetOf(ctx, era);
		const slot = this.idle.get(key)?.pop() ?? this.newSlot(tools, ctx.serverVersion, withPrompts, era);
		slot.ctx = ctx;
		return {
			server: slot.server,
			direct: slot.direct,
			// Nearly always nothing is still running: the server goes back at once, without a promise of its own.
			release: () => (slot.running > 0 ? this.releaseWhenSettled(slot, key) : (this.giveBack(slot, key), SETTLED)),
		};
	}

	/** Gives `slot` back once its calls have settled. */
	private async releaseWhenSettled(slot: ServerSlot, key: string): Promise<void> {
		while (slot.running > 0) await new Promise<void>((resolve) => slot.whenIdle.push(resolve));
		this.giveBack(slot, key);
	}

	/** Keeps an idle server for the next request of its tool set, up to `maxIdle`. */
	private giveBack(slot: ServerSlot, key: string): void {
		slot.ctx = null;
		let idle = this.idle.get(key);
		if (idle === undefined) this.idle.set(key, (idle = []));
		if (idle.length < this.maxIdle) idle.push(slot);
	}

	/** The tool sets made for each token record, each with what else decided it (`toolSetOf`): one or two a record. */
	private readonly toolSets = new WeakMap<TokenRecord, ToolSet[]>();

	/**
	 * The tools `ctx` may see and its pool key, made once per token record (every change of a
	 * token's rights or level makes a new record; its rights object and level are checked too) and
	 * per era, write switch, workspace, version and prompts folder set or not.
	 */
	private toolSetOf(ctx: ToolContext, era: ProtocolEra): ToolSet {
		const { token, canWrite } = ctx.grant;
		const promptsSet = Boolean(ctx.promptsFolder?.trim());
		const withWorkspace = ctx.host.workspace !== undefined;
		const { serverVersion } = ctx;
		// Stored only when new: a WeakMap's entry set again on every request costs as much as the lookup.
		let sets = this.toolSets.get(token);
		if (sets === undefined) this.toolSets.set(token, (sets = []));
		// Compared field by field, not by a key string made and hashed for every request.
		const index = sets.findIndex(
			({ asked }) =>
				asked.era === era &&
				asked.canWrite === canWrite &&
				asked.withWorkspace === withWorkspace &&
				asked.promptsSet === promptsSet &&
				asked.serverVersion === serverVersion,
		);
		const known = sets[index];
		if (known !== undefined && known.rights === token.rights && known.level === token.level) return known;
		const tools = toolsForGrant(ctx);
		// Everything a pooled server holds that differs between requests: the protocol era it speaks
		// ("modern" is 2026-07-28; the SDK binds an instance to one era), its tool names, in order, and the version it reports.
		const withPrompts = hasPrompts(ctx, tools);
		const key = `${era}\n${ctx.serverVersion}\n${withPrompts ? "prompts" : ""}\n${tools.map((tool) => tool.name).join(",")}`;
		const set: ToolSet = {
			tools,
			withPrompts,
			key,
			rights: token.rights,
			level: token.level,
			asked: { era, canWrite, withWorkspace, promptsSet, serverVersion },
		};
		// A set made under the same asking replaces the stale one (the record's rights or level changed since).
		if (index === -1) sets.push(set);
		else sets[index] = set;
		return set;
	}

	private newSlot(tools: readonly ToolDescriptor[], serverVersion: string, withPrompts: boolean, era: ProtocolEra): ServerSlot {
		const slot: ServerSlot = { server: null as unknown as McpServer, ctx: null, running: 0, whenIdle: [], direct: null as unknown as DirectAnswers };
		const contextOf = () => {
			if (!slot.ctx) throw new Error("A pooled MCP server was used while not lent to a request.");
			return slot.ctx;
		};
		// One reaction for both outcomes (a `finally` and a `catch` made four promises a call), made once per slot; a rejection is the caller's to handle.
		const settled = () => {
			if (--slot.running > 0) return;
			const waiting = slot.whenIdle;
			slot.whenIdle = [];
			for (const resolve of waiting) resolve();
		};
		const track = <T>(work: Promise<T>): Promise<T> => {
			slot.running++;
			void work.then(settled, settled);
			return work;
		};
		const modern = era === "modern";
		const shape = { tools, serverVersion, withResources: readsNoteText(tools), withPrompts, notifies: modern && this.notifiesAtModern, modern };
		slot.server = buildServer(shape, contextOf, this.deps, track);
		slot.direct = directAnswers(slot.server, tools, contextOf, this.deps, track);
		return slot;
	}
}

/** What a built server offers besides its tools. */
interface ServerShape {
	tools: readonly ToolDescriptor[];
	serverVersion: string;
	/** Notes as resources, and completions of their paths: the caller may read note text. */
	withResources: boolean;
	withPrompts: boolean;
	/** Its capabilities say list changes and note updates are sent (on subscriptions/listen streams, 2026-07-28 only). */
	notifies: boolean;
	/** It serves 2026-07-28 requests. */
	modern: boolean;
}

/**
 * The revisions a 2026-07-28 server lists: the SDK's own list plus 2026-07-28, as the SDK's HTTP
 * handler makes it on the first request it serves. Listed from the start, the server binds to
 * 2026-07-28 when connected to a transport classified so (http/statelessTransport.ts), and stays
 * connected between requests instead of being connected for each.
 */
const MODERN_SERVER_VERSIONS = [...SUPPORTED_PROTOCOL_VERSIONS, "2026-07-28"];

function buildServer(
	shape: ServerShape,
	contextOf: () => ToolContext,
	deps: McpServerDeps,
	track: (work: Promise<CallToolResult>) => Promise<CallToolResult>,
): McpServer {
	const { tools, serverVersion, withResources, withPrompts, notifies, modern } = shape;
	const server = new McpServer(
		{ name: "vault-mcp", title: "Vault MCP", version: serverVersion },
		{
			instructions: SERVER_INSTRUCTIONS,
			capabilities: { tools: {}, ...(withResources ? { resources: {} } : {}) },
			...(modern ? { supportedProtocolVersions: MODERN_SERVER_VERSIONS } : {}),
		},
	);
	// Resources are notes' text: a caller denied read_note is offered none (the methods are unknown to it, as a denied tool is).
	if (withResources) registerNoteResources(server, contextOf);
	if (withPrompts) registerVaultPrompts(server, contextOf);
	if (withResources) registerCompletions(server, contextOf);
	for (const tool of tools) {
		server.registerTool(
			tool.name,
			{
				title: tool.title,
				description: tool.description,
				inputSchema: inputSchemaOf(tool),
				outputSchema: schemasOf(tool).output,
				annotations: tool.annotations,
			},
			(args: unknown, call: { mcpReq: ProgressRequest & { signal: AbortSignal } }) => {
				const ctx = contextOf();
				return track(withProgress(runTool(ctx, deps, tool, args, call.mcpReq.signal), call.mcpReq, tool.name, ctx.callBudget?.progressIntervalMs));
			},
		);
	}
	// tools/list is the same for every request with the same tools; converting the zod schemas to
	// JSON Schema on each request took most of its time, so the answer is computed once per tool set.
	server.server.removeRequestHandler("tools/list");
	server.server.setRequestHandler("tools/list", () => listTools(tools));
	// The SDK offers list-changed notifications once a tool or resource is registered. They are sent
	// only on 2026-07-28 subscriptions/listen streams, for notes and prompts (a tool list changes
	// only with the settings); a 2025 client has no stream here (stateless, no sessions) and is
	// told to ask again instead.
	server.server.registerCapabilities({
		tools: { listChanged: false },
		...(withResources ? { resources: { listChanged: notifies, subscribe: notifies } } : {}),
		...(withPrompts ? { prompts: { listChanged: notifies } } : {}),
	});
	return server;
}

/** What a release that had nothing to wait for gives: one promise, settled already. */
const SETTLED: Promise<void> = Promise.resolve();

/** The signal of a direct read call: a read tool is never told its client went away (its answer is simply not sent). */
const NEVER_ABORTED = new AbortController().signal;

/**
 * What a pooled server answers without the SDK's protocol layer, as its registered `tools/call`
 * handler does: the tool found among its own, the arguments parsed by the same schema, the call
 * run and tracked, its structured content checked against the output schema, the result projected
 * by the server's codec. The SDK's per-request dispatch (an AbortController, the request's and
 * the result's whole-message schema parses, a context object, the transport's round trip) cost
 * more than a small read itself. Read tools only: a write's approval and journal go through the SDK.
 */
function directAnswers(
	server: McpServer,
	tools: readonly ToolDescriptor[],
	contextOf: () => ToolContext,
	deps: McpServerDeps,
	track: (work: Promise<CallToolResult>) => Promise<CallToolResult>,
): DirectAnswers {
	const readTools = new Map(tools.filter((tool) => tool.access === "read").map((tool) => [tool.name, tool]));
	return {
		callTool: (name, args) => {
			const tool = readTools.get(name);
			if (tool === undefined) return null;
			const { input, output } = schemasOf(tool);
			let parsed: ReturnType<typeof input.safeParse>;
			try {
				parsed = input.safeParse(args ?? {});
			} catch {
				// A schema with asynchronous parts: the SDK parses it.
				return null;
			}
			if (!parsed.success) return null;
			return track(
				runTool(contextOf(), deps, tool, parsed.data, NEVER_ABORTED).then((result) => {
					if (result.isError !== true) {
						const checked = output.safeParse(result.structuredContent);
						if (!checked.success) return outputRefused(tool, checked.error);
					}
					return inWireOrder(server.server.projectCallToolResult(result, undefined));
				}),
			);
		},
		listTools: () => listTools(tools),
	};
}

/**
 * The result with its keys in the order the SDK's result schema gives them (it parses every result
 * into a new object): `content`, `structuredContent`, `isError`. A tool's results hold no others.
 */
function inWireOrder(result: CallToolResult): CallToolResult {
	const { content, structuredContent, isError } = result;
	// Set one by one, not spread from objects made for the purpose (every direct call's result passes here).
	const wire: CallToolResult = { content };
	if (structuredContent !== undefined) wire.structuredContent = structuredContent;
	if (isError !== undefined) wire.isError = isError;
	return wire;
}

/** What the SDK answers for a tool whose structured content its output schema refuses (a bug here, never the caller's). */
function outputRefused(tool: ToolDescriptor, error: z.ZodError): CallToolResult {
	const issues = error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join(", ");
	return { content: [{ type: "text", text: `Output validation error: Invalid structured content for tool ${tool.name}: ${issues}` }], isError: true };
}

const toolListCache = new Map<string, ListToolsResult>();

/** The tools/list answer for a set of tools, in the same shape the SDK's own handler gives. */
function listTools(tools: readonly ToolDescriptor[]): ListToolsResult {
	const key = tools.map((tool) => tool.name).join(",");
	let cached = toolListCache.get(key);
	if (!cached) {
		const jsonSchema = (schema: z.ZodObject) =>
			leanJsonSchema(z.toJSONSchema(schema, { target: "draft-7", io: "input" })) as ListToolsResult["tools"][number]["inputSchema"];
		// What a model needs to call a tool, and nothing else (every client reads this list
		// into the model's context on every session, and the budget must hold the tools still to come).
		// No `outputSchema`: it told clients the shape of a result they read anyway, at 40% of the
		// list's bytes; every answer is still checked against the tool's zod output schema before it is
		// sent (the SDK does it on each call), and the registry test checks every example's result.
		// No `annotations.title` (the top-level title says it) and no `execution` (an absent
		// `taskSupport` means "forbidden").
		cached = {
			tools: tools.map((tool) => ({
				name: tool.name,
				title: tool.title,
				description: tool.description,
				inputSchema: jsonSchema(inputSchemaOf(tool)),
				annotations: { ...tool.annotations },
			})),
		};
		// Written as the same text every time, not serialised again per request.
		rememberJsonText(cached, JSON.stringify(cached));
		toolListCache.set(key, cached);
	}
	return cached;
}

/**
 * A JSON Schema without the parts that say nothing: the draft-07 `$schema` (our schemas use only
 * keywords that mean the same in every draft), the ±2^53 bounds zod gives every integer,
 * `propertyNames: {type: "string"}` (JSON keys are strings), and `additionalProperties` (`{}` is the
 * default, and arguments are parsed by zod, which drops unknown keys). The tools/list answer is
 * read into the model's context on every session.
 */
function leanJsonSchema(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(leanJsonSchema);
	if (schema === null || typeof schema !== "object") return schema;
	const lean: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
		if (key === "$schema") continue;
		if ((key === "minimum" && value === Number.MIN_SAFE_INTEGER) || (key === "maximum" && value === Number.MAX_SAFE_INTEGER)) continue;
		if (key === "propertyNames" && isStringType(value)) continue;
		if (key === "additionalProperties" && (value === false || isEmptyObject(value))) continue;
		// Inside `properties`, keys are property names, never keywords.
		lean[key] =
			key === "properties" && isPlainObject(value)
				? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, leanJsonSchema(sub)]))
				: leanJsonSchema(value);
	}
	return lean;
}

function isStringType(value: unknown): boolean {
	return isPlainObject(value) && Object.keys(value).length === 1 && value.type === "string";
}

function isEmptyObject(value: unknown): boolean {
	return isPlainObject(value) && Object.keys(value).length === 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Thrown at a read call's pause when its token was revoked, the tool denied, or the folders it may see changed, while it paused. */
class ReadNoLongerAllowed extends Error {}

function noLongerAllowedMessage(tool: ToolDescriptor): string {
	return `${tool.name} is no longer allowed for this token (its rights or the token changed).`;
}

/**
 * What stops a read call that has begun, or null: its token revoked or the tool denied since, or the
 * folders it may see changed (a folder excluded, the token's folders narrowed). What it gathered
 * before would be answered: the notes of a folder it may no longer see.
 */
function withdrawnSince(ctx: ToolContext, tool: ToolDescriptor, scopeAtStart: string): string | null {
	if (ctx.writes.currentRight(tool) === "deny") return noLongerAllowedMessage(tool);
	if (scopeKey(ctx.scope) !== scopeAtStart) return `The folders this token may see changed while ${tool.name} ran, so it was stopped. Call it again.`;
	return null;
}

/**
 * The context a read call runs with: its vault-wide work stops at the first pause after it is
 * withdrawn (`withdrawnSince`). A long call (list_tasks over a big vault, a search while the index
 * builds) pauses many times, and it went on to answer with the notes of a token revoked meanwhile.
 */
function stoppedWhenWithdrawn(ctx: ToolContext, tool: ToolDescriptor, scopeAtStart: string): ToolContext {
	return ctx.callBudget ? new StoppedWhenWithdrawn(ctx, ctx.callBudget, tool, scopeAtStart) : ctx;
}

/**
 * `stoppedWhenWithdrawn`'s context: the request's own, field by field, with a call budget whose
 * pause throws once the call is withdrawn. A class: an object literal with getters (the scope, read
 * at each use) is made as a slow dictionary object, microseconds each on every read call. Every
 * field is listed (`EveryField` makes each one, optional or not, be named), a spread of the context
 * beside a getter being a slow copy too.
 */
class StoppedWhenWithdrawn implements EveryField<ToolContext> {
	readonly host: ToolContext["host"];
	readonly serverVersion: string;
	readonly grant: ToolContext["grant"];
	readonly search: ToolContext["search"];
	readonly dailyNotesAreOutlines: boolean;
	readonly promptsFolder: ToolContext["promptsFolder"];
	readonly notePaths: ToolContext["notePaths"];
	readonly noteListing: ToolContext["noteListing"];
	readonly tagNotes: ToolContext["tagNotes"];
	readonly notesNotYetRead: ToolContext["notesNotYetRead"];
	readonly notesWithTasks: ToolContext["notesWithTasks"];
	readonly graphStats: ToolContext["graphStats"];
	readonly noteLinks: ToolContext["noteLinks"];
	readonly writes: ToolContext["writes"];
	/** Made at the first use: most small reads never pause. */
	private stoppingBudget: NonNullable<ToolContext["callBudget"]> | null = null;

	constructor(
		private readonly ctx: ToolContext,
		private readonly budget: NonNullable<ToolContext["callBudget"]>,
		private readonly tool: ToolDescriptor,
		private readonly scopeAtStart: string,
	) {
		this.host = ctx.host;
		this.serverVersion = ctx.serverVersion;
		this.grant = ctx.grant;
		this.search = ctx.search;
		this.dailyNotesAreOutlines = ctx.dailyNotesAreOutlines;
		this.promptsFolder = ctx.promptsFolder;
		this.notePaths = ctx.notePaths;
		this.noteListing = ctx.noteListing;
		this.tagNotes = ctx.tagNotes;
		this.notesNotYetRead = ctx.notesNotYetRead;
		this.notesWithTasks = ctx.notesWithTasks;
		this.graphStats = ctx.graphStats;
		this.noteLinks = ctx.noteLinks;
		this.writes = ctx.writes;
	}

	/** The scope is read at each use (a token's folders narrowed meanwhile count), not copied once. */
	get scope(): ToolContext["scope"] {
		return this.ctx.scope;
	}

	get callBudget(): NonNullable<ToolContext["callBudget"]> {
		if (this.stoppingBudget === null) {
			const { ctx, budget, tool, scopeAtStart } = this;
			const pause = async () => {
				await budget.pause();
				const withdrawn = withdrawnSince(ctx, tool, scopeAtStart);
				if (withdrawn !== null) throw new ReadNoLongerAllowed(withdrawn);
			};
			this.stoppingBudget = { ...budget, pause };
		}
		return this.stoppingBudget;
	}
}

/** A tool's answer: read tools run directly; write tools through the rights, approval and journal. */
function answerOf(ctx: ToolContext, tool: ToolDescriptor, args: unknown, clientGone: AbortSignal, scopeAtStart: string): ReturnType<ToolDescriptor["handler"]> {
	if (tool.access === "read") {
		// Rights are read again right before the call runs: a revocation or Deny since the request came (a held batch) wins.
		if (ctx.writes.currentRight(tool) === "deny") return Promise.resolve(fail(noLongerAllowedMessage(tool)));
		return tool.handler(stoppedWhenWithdrawn(ctx, tool, scopeAtStart), args as Parameters<typeof tool.handler>[1]);
	}
	const { expected_hash: expectedHash, ...toolArgs } = args as { expected_hash?: string };
	return runWriteCall(ctx, tool, toolArgs, effectiveRight(ctx.grant.token, tool, ctx.grant.canWrite), expectedHash, clientGone);
}

/**
 * A successful answer as the client gets it, with its size: made at once when small, in slices on
 * `callBudget` when big, its longest strings cut when too big whole.
 */
async function resultOf(
	tool: ToolDescriptor,
	value: Record<string, unknown>,
	callBudget: ToolContext["callBudget"],
	madeAtOnce: { result: CallToolResult; bytes: number } | null,
): Promise<{ result: CallToolResult; bytes: number }> {
	const sliceMs = callBudget?.sliceMs ?? VAULT_WIDE_SLICE_MS;
	const pause = callBudget?.pause ?? yieldToEventLoop;
	let made = madeAtOnce ?? (await answerInSlices(value, sliceMs, pause));
	if (made.bytes > MAX_RESPONSE_BYTES) {
		// Too big whole: its longest strings are cut to fit, and named, rather than the answer refused (a planted string would hide its note); a path only to nothing.
		const cut = await new SliceClock(sliceMs, pause).run(
			cutToFitSteps(value, made.bytes, MAX_RESPONSE_BYTES, schemasOf(tool).filePlaces, placesOfBaseCells),
		);
		if (cut !== null) made = answerAtOnce(cut) ?? (await answerInSlices(cut, sliceMs, pause));
	}
	return made;
}

async function runTool(ctx: ToolContext, deps: McpServerDeps, tool: ToolDescriptor, args: unknown, clientGone: AbortSignal): Promise<CallToolResult> {
	const started = performance.now();
	let outcome: ActivityOutcome = "ok";
	let result: CallToolResult;
	// Known when the answer's text was made in slices (a big answer), so it is not made a second time to be counted.
	let answerBytes: number | null = null;
	const scopeAtStart = scopeKey(ctx.scope);
	try {
		let answer = await answerOf(ctx, tool, args, clientGone, scopeAtStart);
		let made: { result: CallToolResult; bytes: number } | null = null;
		// A big answer is made in slices, after the tool's own check for moves: a note moved out of the caller's sight (into
		// an excluded folder, say) at one of their pauses was named, and counted, at the path it had left. A read is
		// answered again then (review77's rule, as the tools' own work), at most RUNS_WHILE_RENAMED times; a write never.
		for (let run = 1; answer.ok && made === null; run++) {
			const value = answer.value;
			const atOnce = answerAtOnce(value);
			// Made now, in this turn, and small enough (nearly every call): nothing can move between the handler's answer and
			// here, so there is no move to listen for (a listener and two promises a call before).
			if (atOnce !== null && atOnce.bytes <= MAX_RESPONSE_BYTES) {
				made = atOnce;
				break;
			}
			const making = () => resultOf(tool, value, ctx.callBudget, atOnce);
			const ran = tool.access === "read" ? await withMovesOutOfSight(ctx.host, ctx.scope, making) : { value: await making(), movedOut: false };
			if (!ran.movedOut) made = ran.value;
			else if (run >= RUNS_WHILE_RENAMED) answer = fail(NOTES_KEPT_MOVING);
			else answer = await answerOf(ctx, tool, args, clientGone, scopeAtStart);
		}
		if (!answer.ok || made === null) {
			outcome = "fixable";
			result = toCallToolResult(answer.ok ? fail(NOTES_KEPT_MOVING) : answer);
		} else {
			result = made.result;
			answerBytes = made.bytes;
		}
		// Read once more as the answer leaves: a call that worked or waited since its last pause says nothing to a token revoked meanwhile.
		const withdrawn = tool.access === "read" ? withdrawnSince(ctx, tool, scopeAtStart) : null;
		if (withdrawn !== null) throw new ReadNoLongerAllowed(withdrawn);
	} catch (error) {
		// The answer made, if any, is not the one sent.
		answerBytes = null;
		const fixable = error instanceof ReadNoLongerAllowed ? error.message : fixableMessageFor(error);
		if (fixable !== null) {
			outcome = "fixable";
			result = toCallToolResult(fail(fixable));
		} else {
			outcome = "failed";
			// Error messages can quote note text (a parser's excerpt), so only the error's kind is logged.
			deps.logger.error(`tool ${tool.name} failed: ${errorKind(error)}`);
			result = {
				isError: true,
				content: [
					{
						type: "text",
						text: `${tool.name} failed inside the server. Try again; if it keeps failing, the vault's owner can see the error kind in the server log.`,
					},
				],
			};
		}
	}
	let responseBytes = answerBytes ?? Buffer.byteLength(JSON.stringify(result));
	if (responseBytes > MAX_RESPONSE_BYTES && result.isError && result.content.length === 1 && result.content[0]!.type === "text") {
		// An error still says what it is: its start, and how long it was.
		result = { isError: true, content: [{ type: "text", text: echoed(result.content[0]!.text, ERROR_CUT_TO_CHARS) }] };
		responseBytes = Buffer.byteLength(JSON.stringify(result));
	} else if (responseBytes > MAX_RESPONSE_BYTES) {
		outcome = "fixable";
		result = toCallToolResult(
			fail(`The answer would be over ${MAX_RESPONSE_BYTES} bytes. Ask for less: a smaller limit, a folder, or one note at a time.`),
		);
		responseBytes = Buffer.byteLength(JSON.stringify(result));
	}
	deps.activity.add({
		time: CALL_TIMES.of(Date.now()),
		tokenName: ctx.grant.token.name,
		tool: tool.name,
		durationMs: Math.round((performance.now() - started) * 10) / 10,
		responseBytes,
		outcome,
	});
	return result;
}
