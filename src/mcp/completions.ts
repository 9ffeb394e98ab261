import { ProtocolError, ProtocolErrorCode, type CompleteRequest, type CompleteResult, type McpServer } from "@modelcontextprotocol/server";
import { COMPLETION_MAX_BYTES, COMPLETION_MAX_VALUES, COMPLETION_SCAN_LIMIT } from "../config/limits";
import { completeNotePath, sortNotePathsInSlices, type PathCompletion } from "../vault/notePaths";
import { isNoteInScope } from "../vault/scope";
import { CallBudget, withinCallBudget } from "../vault/workBudget";
import type { ToolContext } from "./context";
import { promptArgumentSuggestions, promptNoteNamed } from "./prompts";
import { NOTE_URI_TEMPLATE, requireNoteTextRight } from "./resources";

/** What a completion answers when there is nothing to suggest. */
const NO_SUGGESTIONS: CompleteResult = { completion: { values: [], hasMore: false } };

/**
 * The note paths `typed` completes to for this caller: only notes its scope shows (excluded
 * folders and hidden links never), found in the running server's sorted list of the notes this
 * scope shows when there is one, else in a list made for this call. Only visible notes are
 * looked at: counted against the look-up's bound, hidden ones sorted first hid the visible ones.
 * A list made now (the first completion, or the first after a folder changed) is sorted in slices
 * under the call's budget, as vault-wide tools are: 100,000 notes sorted in one piece held every
 * other client for most of a second.
 */
async function completeNotePathFor(ctx: ToolContext, typed: string): Promise<PathCompletion> {
	// The scope as it is now: ctx.scope follows the settings, and the kept list must stay the one of this scope's key.
	const scope = ctx.scope;
	const visible = (path: string) => isNoteInScope(path, scope);
	const sorted = await withinCallBudget(
		(budget: CallBudget) =>
			ctx.notePaths?.visiblePaths(scope, budget) ??
			sortNotePathsInSlices(
				ctx.host.vault
					.getMarkdownFiles()
					.map((file) => file.path)
					.filter(visible),
				budget,
			),
		// Not shown: a call stopped here answers with its own error.
		{ again: "redoes", narrowing: "" },
		ctx.callBudget,
	);
	if (!sorted.ok)
		throw new ProtocolError(
			ProtocolErrorCode.InternalError,
			"Listing the vault's notes to complete a path needed more work than one call may do, and the same call again would need as much; type the whole path.",
		);
	// A list sorted in slices while another program deleted or renamed a note still names it (the list is
	// used, not kept): only a note that is there now, under that name, is offered.
	const offered = (path: string) => visible(path) && ctx.host.vault.getFileByPath(path) !== null;
	return withinBytes(completeNotePath(sorted.value, typed, offered, COMPLETION_MAX_VALUES, COMPLETION_SCAN_LIMIT), COMPLETION_MAX_BYTES);
}

/** The first values of `completion` that fit in `maxBytes` of JSON; the answer says there is more when any is left out. Pure. */
export function withinBytes(completion: PathCompletion, maxBytes: number): PathCompletion {
	let bytes = 0;
	for (let index = 0; index < completion.values.length; index++) {
		bytes += jsonStringBytes(completion.values[index] as string);
		if (bytes > maxBytes) return { values: completion.values.slice(0, index), hasMore: true };
	}
	return completion;
}

/**
 * The values a typed prefix completes to among a fixed list (a prompt argument's declared values),
 * letter case ignored, at most `max` of them and `maxBytes` of JSON. Pure. Inside Obsidian the list
 * is the frontmatter as Obsidian parsed it, with no bound on its size (headless parses at most
 * MAX_FRONTMATTER_BYTES): 100 values of megabytes each were all sent. A value that does not fit is
 * left out whole (a cut value is not one the prompt declares) and the answer says there is more.
 */
export function completeFromList(values: readonly string[], typed: string, max: number, maxBytes: number = COMPLETION_MAX_BYTES): PathCompletion {
	const prefix = typed.toLowerCase();
	const kept: string[] = [];
	let bytes = 0;
	let hasMore = false;
	for (const value of values) {
		// Longer than the whole answer may be, it is never offered: not lowercased either.
		if (value.length > maxBytes) {
			hasMore ||= value.slice(0, prefix.length).toLowerCase() === prefix;
			continue;
		}
		if (!value.toLowerCase().startsWith(prefix)) continue;
		const valueBytes = jsonStringBytes(value);
		if (kept.length >= max || bytes + valueBytes > maxBytes) {
			hasMore = true;
			if (kept.length >= max) break;
			continue;
		}
		kept.push(value);
		bytes += valueBytes;
	}
	return { values: kept, hasMore };
}

/** A string's bytes in the answer: as JSON, with the comma after it. */
function jsonStringBytes(value: string): number {
	return Buffer.byteLength(JSON.stringify(value)) + 1;
}

/**
 * Answers completion/complete: the note resource template's `path`, and the arguments of prompt
 * notes that declare values. Needs the read right (a completion names notes), checked at the
 * moment of the request. A prompt the caller cannot see, or an argument without declared values,
 * gets no suggestions, the same answer as a prompt that does not exist.
 */
async function completeFor(ctx: ToolContext, params: CompleteRequest["params"]): Promise<CompleteResult> {
	requireNoteTextRight(ctx);
	const { ref, argument } = params;
	if (ref.type === "ref/resource") {
		if (ref.uri !== NOTE_URI_TEMPLATE)
			throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No resource template "${ref.uri}". The one template is ${NOTE_URI_TEMPLATE}.`);
		return argument.name === "path" ? answer(await completeNotePathFor(ctx, argument.value)) : NO_SUGGESTIONS;
	}
	const file = promptNoteNamed(ctx, ref.name);
	if (!file) return NO_SUGGESTIONS;
	const declared = promptArgumentSuggestions(ctx, file, argument.name);
	if (declared === "notes") return answer(await completeNotePathFor(ctx, argument.value));
	return declared === null ? NO_SUGGESTIONS : answer(completeFromList(declared, argument.value, COMPLETION_MAX_VALUES));
}

function answer(completion: PathCompletion): CompleteResult {
	return { completion: { values: completion.values, hasMore: completion.hasMore } };
}

/** Offers completion/complete on a server that offers notes (the caller may read note text). */
export function registerCompletions(server: McpServer, contextOf: () => ToolContext): void {
	server.server.registerCapabilities({ completions: {} });
	server.server.setRequestHandler("completion/complete", (request) => completeFor(contextOf(), request.params));
}
