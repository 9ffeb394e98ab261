import { z } from "zod";
import {
	INDEX_BUILD_SLICE_MS,
	MAX_QUERY_LENGTH,
	MAX_QUERY_PHRASES,
	RUNS_WHILE_RENAMED,
	SEARCH_DEFAULT_LIMIT,
	SEARCH_MAX_LIMIT,
	SEARCH_SLICE_MS,
} from "../../config/limits";
import { TooManyPhraseNotes } from "../../search/engine";
import { TooManyWordsExcluded } from "../../search/postings";
import { parseQuery, phraseCount } from "../../search/query";
import { checkFolderArgument } from "../../vault/paths";
import { NOTES_KEPT_MOVING, untilNoneMovedOutOfSight } from "../../vault/renamesSeen";
import { withinCallBudget } from "../../vault/workBudget";
import { defineTool } from "../tool";
import { fail, ok } from "../../result";

export const searchNotesTool = defineTool({
	name: "search_notes",
	title: "Search notes",
	description:
		'Full-text search, ranked. Words match as typed, in another form (renamed: renaming), abbreviated or in full (params) and, from 2 letters, as the start of longer words, in that order; title and alias matches first. Notes holding all words (or named by one) rank; if too few, those holding most follow (matched_words). Stop words (the, how, to…) only rank; "quoted phrase"; -word excludes; case, accents ignored. Snippets mark matches «so».',
	access: "read",
	annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
	inputSchema: {
		query: z.string().max(MAX_QUERY_LENGTH),
		folder: z.string().optional(),
		tag: z.string().optional(),
		limit: z.number().int().min(1).max(SEARCH_MAX_LIMIT).default(SEARCH_DEFAULT_LIMIT),
	},
	outputSchema: {
		total: z.number().int(),
		total_is_lower_bound: z.literal(true).optional(),
		results: z.array(z.object({ path: z.string(), score: z.number(), matched_words: z.array(z.string()), snippets: z.array(z.string()) })),
		index: z.object({ state: z.enum(["ready", "building"]), indexed_notes: z.number().int(), total_notes: z.number().int() }).optional(),
		notice: z.string().optional(),
	},
	examples: [{ query: "garden", limit: 5 }],
	handler: async (ctx, args) => {
		const query = parseQuery(args.query);
		if (query.required.length === 0) return fail("The query has no words to look for (only exclusions or punctuation). Add at least one word or phrase.");
		// Refused before any note is looked at: each phrase costs a look in every note holding its words, whatever the answer.
		const phrases = phraseCount(query);
		if (phrases > MAX_QUERY_PHRASES)
			return fail(
				`The query has ${phrases} phrases (quoted words, wanted or excluded, or words joined like kebab-case); a search takes at most ${MAX_QUERY_PHRASES}, as each is looked for in every note holding its words. Nothing was searched. Send at most ${MAX_QUERY_PHRASES}: leave out the quotes where the words need not stand together, or split the search.`,
			);
		const folderArgument = checkFolderArgument(args.folder, ctx.scope);
		if (!folderArgument.ok) return fail(folderArgument.error);
		const folder = folderArgument.value;
		const tag = args.tag?.trim() ? args.tag.trim() : undefined;
		// While the index builds, others wait behind its slices anyway: a search's slices are as long, so it is not queued behind the build many times over.
		const building = ctx.search.status().state === "building";
		const searchBudget = ctx.callBudget && {
			...ctx.callBudget,
			sliceMs: building ? Math.max(ctx.callBudget.sliceMs, INDEX_BUILD_SLICE_MS) : Math.min(ctx.callBudget.sliceMs, SEARCH_SLICE_MS),
		};
		// Ranking and snippets run in the call's slices, so a flood of searches never holds other clients. A note renamed
		// meanwhile (into an excluded folder, say) off the page was counted in the total at the path it had left: searched again then.
		const answered = await withinCallBudget(
			(budget) =>
				untilNoneMovedOutOfSight(ctx.host, ctx.scope, RUNS_WHILE_RENAMED, () =>
					ctx.search.search(ctx.scope, query, { folder, tag }, args.limit, budget),
				),
			{ again: "resumes", narrowing: "Add words, a folder or a tag to narrow the search, or ask for fewer results." },
			searchBudget,
		).catch((error: unknown) => {
			if (error instanceof TooManyWordsExcluded || error instanceof TooManyPhraseNotes) return fail(error.message);
			throw error;
		});
		if (!answered.ok) return answered;
		return answered.value === null ? fail(NOTES_KEPT_MOVING) : ok(answered.value.value);
	},
});
