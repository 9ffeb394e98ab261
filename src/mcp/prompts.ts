import {
	ProtocolError,
	ProtocolErrorCode,
	type GetPromptResult,
	type ListPromptsResult,
	type McpServer,
	type PromptArgument,
} from "@modelcontextprotocol/server";
import {
	MAX_NOTE_CONTENT_BYTES,
	MAX_PROMPT_PLACEHOLDERS,
	MAX_RESPONSE_BYTES,
	PROMPT_DESCRIPTION_MAX_CHARS,
	PROMPTS_LIST_READ_BYTES,
	PROMPTS_LISTED,
} from "../config/limits";
import { echoed } from "../markdown/echo";
import { splitFrontmatter } from "../markdown/frontmatter";
import type { HostFile } from "../host/Host";
import { checkFolderArgument } from "../vault/paths";
import { comparePathsStrictly, noteVisibility, truncateAsJson } from "../vault/notes";
import { firstInOrder } from "../vault/firstInOrder";
import { jsonStringBytes } from "../jsonText";
import { withinCallBudget } from "../vault/workBudget";
import { isInFolder, isNoteInScope } from "../vault/scope";
import type { ToolContext } from "./context";
import { requireNoteTextRight } from "./resources";
import { readNoteForAnswer } from "./vaultErrors";

/** `{{name}}` in a prompt note: a letter or underscore first, then letters, digits, `_` or `-`. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

/**
 * The placeholders of a prompt's text, each once, in the order they first appear; null when the
 * text uses more than MAX_PROMPT_PLACEHOLDERS (the scan stops there).
 */
export function promptPlaceholders(text: string): string[] | null {
	const names = new Set<string>();
	let uses = 0;
	for (const match of text.matchAll(PLACEHOLDER)) {
		if (++uses > MAX_PROMPT_PLACEHOLDERS) return null;
		names.add(match[1] ?? "");
	}
	return [...names];
}

/**
 * How many bytes `text` would take once filled with `args` and written as a JSON string (the form it
 * is sent in), counted without building it: a client chooses the arguments, and a note that repeats
 * a placeholder multiplies them. Counted as UTF-8, an argument of control characters (six bytes each
 * as JSON) filled three times answered 2.7 MB, over MAX_RESPONSE_BYTES. Pure.
 */
export function filledPlaceholderBytes(text: string, args: Record<string, string>): number {
	const argumentBytes = new Map<string, number>();
	let bytes = jsonStringBytes(text) - 2;
	for (const match of text.matchAll(PLACEHOLDER)) {
		const name = match[1] ?? "";
		let filled = argumentBytes.get(name);
		if (filled === undefined) {
			filled = Object.hasOwn(args, name) ? jsonStringBytes(args[name] ?? "") - 2 : 0;
			argumentBytes.set(name, filled);
		}
		bytes += filled - (jsonStringBytes(match[0]) - 2);
	}
	return bytes;
}

/**
 * The prompt's text with every placeholder replaced by its argument, in one pass (an argument's
 * own `{{…}}` is left as written); a placeholder without an argument becomes empty.
 */
export function fillPlaceholders(text: string, args: Record<string, string>): string {
	return text.replace(PLACEHOLDER, (_whole, name: string) => (Object.hasOwn(args, name) ? (args[name] ?? "") : ""));
}

/**
 * What a prompt note's `arguments` property says of an argument: either a map of name →
 * description, or a list of `{name, description, required}`. Anything else says nothing.
 */
export function describedArguments(property: unknown): Map<string, { description?: string; required?: boolean }> {
	const described = new Map<string, { description?: string; required?: boolean }>();
	if (Array.isArray(property)) {
		for (const entry of property) {
			if (entry === null || typeof entry !== "object") continue;
			const { name, description, required } = entry as Record<string, unknown>;
			if (typeof name !== "string") continue;
			described.set(name, { ...(typeof description === "string" ? { description } : {}), ...(typeof required === "boolean" ? { required } : {}) });
		}
	} else if (property !== null && typeof property === "object") {
		for (const [name, description] of Object.entries(property as Record<string, unknown>))
			if (typeof description === "string") described.set(name, { description });
	}
	return described;
}

/**
 * The prompt notes this caller may see, by prompt name (the path inside the prompts folder, without
 * .md): the first PROMPTS_LISTED by path, picked in one walk of the vault that pauses (sorting every
 * note of the folder, after checking every note of the vault, was one piece of each prompts/list and
 * prompts/get that grew with the vault: 40–70 ms at 30,000–60,000 notes).
 */
async function promptNotes(ctx: ToolContext): Promise<Map<string, HostFile>> {
	const prompts = new Map<string, HostFile>();
	// The same path policy and scope as every folder argument: a folder outside the vault, hidden or excluded offers nothing.
	const folder = promptsFolderFor(ctx);
	if (folder === null) return prompts;
	const visible = noteVisibility(ctx.scope);
	const notes = await withinCallBudget(
		(budget) =>
			firstInOrder(
				ctx.host.vault.getMarkdownFiles(),
				(file) => isInFolder(file.path, folder) && visible(file.path),
				// Strictly: the vault lists its notes in the order they were made, so two paths the collator calls equal were listed in that order.
				(a, b) => comparePathsStrictly(a.path, b.path),
				PROMPTS_LISTED,
				budget,
			),
		// Not shown: a call stopped here answers with its own error.
		{ again: "redoes", narrowing: "" },
		ctx.callBudget,
	);
	if (!notes.ok)
		throw new ProtocolError(
			ProtocolErrorCode.InternalError,
			"Listing the prompt notes needed more work than one call may do, and the same call again would need as much; ask the vault's owner to exclude folders it need not share.",
		);
	// Named after the walk's last pause: a note the person moved out of the folder meanwhile (into an excluded one) is left out.
	const visibleNow = noteVisibility(ctx.scope);
	for (const file of notes.value)
		if (isInFolder(file.path, folder) && visibleNow(file.path)) prompts.set(file.path.slice(folder.length + 1).replace(/\.md$/i, ""), file);
	return prompts;
}

/** The folder prompt notes live in, as this caller may see it; null when none is set or it is out of scope. */
export function promptsFolderFor(ctx: ToolContext): string | null {
	const configured = ctx.promptsFolder?.trim() ?? "";
	if (configured === "") return null;
	const checked = checkFolderArgument(configured, ctx.scope);
	return checked.ok && checked.value !== undefined ? checked.value : null;
}

/**
 * The prompt note with this name, if this caller may see it: one lookup by path, never a walk of
 * the folder (a completion asks on every keystroke).
 */
export function promptNoteNamed(ctx: ToolContext, name: string): HostFile | null {
	const folder = promptsFolderFor(ctx);
	if (folder === null || name.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
	const path = `${folder}/${name}.md`;
	const file = ctx.host.vault.getFileByPath(path);
	return file !== null && file.path === path && isInFolder(file.path, folder) && isNoteInScope(file.path, ctx.scope) ? file : null;
}

/**
 * What a prompt note's `arguments` property offers as completions for one argument: its list of
 * `values` (strings; other entries are ignored), `"notes"` when it says `values: notes` (the
 * caller's visible note paths), or null when it offers none. Only the list form can say it.
 */
export function promptArgumentSuggestions(ctx: ToolContext, file: HostFile, argument: string): readonly string[] | "notes" | null {
	const property: unknown = ctx.host.metadataCache.getFileCache(file)?.frontmatter?.arguments;
	if (!Array.isArray(property)) return null;
	for (const entry of property) {
		if (entry === null || typeof entry !== "object" || (entry as Record<string, unknown>).name !== argument) continue;
		const values = (entry as Record<string, unknown>).values;
		if (values === "notes") return "notes";
		return Array.isArray(values) ? values.filter((value): value is string => typeof value === "string") : null;
	}
	return null;
}

/** Ends a prompt cut at MAX_NOTE_CONTENT_BYTES: without it the model took the first part for the whole prompt. */
const PROMPT_CUT_NOTICE = `\n\n[Vault MCP: this prompt's note is cut here, at ${MAX_NOTE_CONTENT_BYTES / 1024} KiB as JSON.]`;

async function promptBody(ctx: ToolContext, file: HostFile): Promise<string> {
	const whole = await readNoteForAnswer(ctx, file);
	const text = truncateAsJson(whole, MAX_NOTE_CONTENT_BYTES);
	const body = (splitFrontmatter(text)?.body ?? text).replace(/^\s*\n/, "");
	return text.length < whole.length ? body + PROMPT_CUT_NOTICE : body;
}

/** The prompt's description and its arguments' as sent: each cut to PROMPT_DESCRIPTION_MAX_CHARS. */
function promptDescription(ctx: ToolContext, file: HostFile): { description?: string; arguments: Map<string, { description?: string; required?: boolean }> } {
	const frontmatter = ctx.host.metadataCache.getFileCache(file)?.frontmatter;
	const description: unknown = frontmatter?.description;
	const described = describedArguments(frontmatter?.arguments);
	for (const said of described.values()) if (said.description !== undefined) said.description = echoed(said.description, PROMPT_DESCRIPTION_MAX_CHARS);
	return {
		...(typeof description === "string" && description.trim() !== "" ? { description: echoed(description.trim(), PROMPT_DESCRIPTION_MAX_CHARS) } : {}),
		arguments: described,
	};
}

/** Bytes of `{"prompts":[]}`, the list's frame. */
const PROMPT_LIST_FRAME_BYTES = Buffer.byteLength(JSON.stringify({ prompts: [] }));

async function listPrompts(ctx: ToolContext): Promise<ListPromptsResult> {
	requireNoteTextRight(ctx);
	const offered: Array<{ name: string; file: HostFile; prompt: ListPromptsResult["prompts"][number] }> = [];
	// The list as sent, counted as JSON: once a prompt would pass MAX_RESPONSE_BYTES it is offered by its name alone (prompts/get says what it needs).
	let bytes = PROMPT_LIST_FRAME_BYTES;
	let bytesRead = 0;
	for (const [name, file] of await promptNotes(ctx)) {
		// Past PROMPTS_LIST_READ_BYTES of notes read, a prompt is offered unread: its name and its description (the
		// frontmatter the host keeps, no read), not the arguments only its body's placeholders name.
		const unread = bytesRead + file.stat.size > PROMPTS_LIST_READ_BYTES;
		if (!unread) bytesRead += file.stat.size;
		const whole = unread ? unreadPrompt(ctx, name, file) : await listedPrompt(ctx, name, file);
		if (whole === null) continue;
		const wholeBytes = listedBytes(whole);
		const nameBytes = listedBytes({ name });
		const prompt = bytes + wholeBytes <= MAX_RESPONSE_BYTES ? whole : bytes + nameBytes <= MAX_RESPONSE_BYTES ? { name } : null;
		if (prompt === null) continue;
		bytes += prompt === whole ? wholeBytes : nameBytes;
		offered.push({ name, file, prompt });
	}
	// As the list leaves: a note moved away while a later body was read is not offered either.
	return { prompts: offered.filter(({ name, file }) => promptNoteNamed(ctx, name) === file).map(({ prompt }) => prompt) };
}

/** A prompt as prompts/list offers it: its name, description and the arguments its body's placeholders name; null when it moved while read. */
async function listedPrompt(ctx: ToolContext, name: string, file: HostFile): Promise<ListPromptsResult["prompts"][number] | null> {
	const body = await bodyIfStillNamed(ctx, name, file);
	if (body === null) return null;
	const { description, arguments: described } = promptDescription(ctx, file);
	// A note over the placeholder bound is listed without arguments; prompts/get says why it cannot be used.
	const args: PromptArgument[] = (promptPlaceholders(body) ?? []).map((argument) => {
		const said = described.get(argument);
		return { name: argument, ...(said?.description ? { description: said.description } : {}), required: said?.required ?? true };
	});
	return { name, ...(description ? { description } : {}), ...(args.length ? { arguments: args } : {}) };
}

/** A prompt offered unread: its name, and its description when its frontmatter has one. */
function unreadPrompt(ctx: ToolContext, name: string, file: HostFile): ListPromptsResult["prompts"][number] {
	const { description } = promptDescription(ctx, file);
	return { name, ...(description ? { description } : {}) };
}

/** A prompt's bytes in the list: its JSON and the comma before the next. */
function listedBytes(prompt: ListPromptsResult["prompts"][number]): number {
	return Buffer.byteLength(JSON.stringify(prompt)) + 1;
}

/**
 * A prompt note's body for prompts/list, or null when the note was moved, renamed or deleted while
 * it (or a prompt before it) was read: the list offers the others, each under the name it has now.
 * One note moved out of sight failed the whole list ("the folders this token may see changed").
 * A revoked right still fails the whole call.
 */
async function bodyIfStillNamed(ctx: ToolContext, name: string, file: HostFile): Promise<string | null> {
	let body: string;
	try {
		body = await promptBody(ctx, file);
	} catch (error) {
		if (error instanceof ProtocolError && error.code === (ProtocolErrorCode.InvalidParams as number)) return null;
		throw error;
	}
	return promptNoteNamed(ctx, name) === file ? body : null;
}

async function getPrompt(ctx: ToolContext, name: string, args: Record<string, string>): Promise<GetPromptResult> {
	requireNoteTextRight(ctx);
	const file = (await promptNotes(ctx)).get(name);
	if (!file) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No prompt "${name}". Call prompts/list to see the prompts.`);
	const body = await promptBody(ctx, file);
	const { description, arguments: described } = promptDescription(ctx, file);
	const placeholders = promptPlaceholders(body);
	if (placeholders === null)
		throw new ProtocolError(
			ProtocolErrorCode.InvalidParams,
			`The prompt "${name}" uses more than ${MAX_PROMPT_PLACEHOLDERS} placeholders, the most a prompt note may hold. Ask the vault's owner to shorten it.`,
		);
	const missing = placeholders.filter((argument) => (described.get(argument)?.required ?? true) && !Object.hasOwn(args, argument));
	if (missing.length)
		throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The prompt "${name}" needs ${missing.map((argument) => `"${argument}"`).join(", ")}.`);
	const answer = (text: string): GetPromptResult => ({
		...(description ? { description } : {}),
		messages: [{ role: "user", content: { type: "text", text } }],
	});
	// The answer as sent: the filled text, and around it the description and the frame.
	if (filledPlaceholderBytes(body, args) + Buffer.byteLength(JSON.stringify(answer(""))) > MAX_RESPONSE_BYTES)
		throw new ProtocolError(
			ProtocolErrorCode.InvalidParams,
			`The prompt "${name}" filled with these arguments would be over ${MAX_RESPONSE_BYTES} bytes. Pass shorter arguments.`,
		);
	return answer(fillPlaceholders(body, args));
}

/**
 * Notes in the prompts folder as MCP prompts, offered only to a caller whose `read_note` right is
 * not Deny (a prompt is a note's text), checked again at each request. Servers are pooled but keep no state between
 * requests, so every prompts/list reads the folder afresh: a prompt added or edited in the vault is there on the
 * next call. List changes are announced only on 2026-07-28 subscriptions/listen streams (buildServer
 * sets `listChanged` by revision); a 2025 client has no stream here and asks again.
 */
export function registerVaultPrompts(server: McpServer, contextOf: () => ToolContext): void {
	server.server.registerCapabilities({ prompts: { listChanged: false } });
	server.server.setRequestHandler("prompts/list", () => listPrompts(contextOf()));
	server.server.setRequestHandler("prompts/get", (request) => getPrompt(contextOf(), request.params.name, request.params.arguments ?? {}));
}
