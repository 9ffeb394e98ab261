import type { CachedMetadata } from "obsidian";
import * as nodeTimers from "node:timers";
import type { EventRef } from "obsidian";
import type { Host, HostAbstractFile, HostFile } from "../host/Host";
import { NoteTooLargeError } from "../host/NoteTooLargeError";
import {
	INDEX_BUILD_SLICE_MS,
	INDEX_FAILED_NOTES_LISTED,
	INDEX_INSTALL_RETRIES,
	INDEX_REPLAN_ATTEMPTS,
	INDEX_UPDATE_SLICE_MS,
	MAX_READ_NOTE_BYTES,
	MAX_SEARCHABLE_NOTE_BYTES,
	PHRASE_LEARNT_MEMO_NOTES,
	PHRASE_READ_ALL_MAX_NOTES,
	SEARCH_BUILD_HELP_MAX_MS,
	SEARCH_BUILD_WORK_SHARE,
	SLICED_TAGS,
	SHOWN_TITLE_MAX_CHARS,
	SLICED_TOKENIZE_CHARS,
	ONE_PIECE_INDEX_WORDS,
	SEARCH_LISTING_CHECK_MASK,
	UPDATING_NOTICE_PAUSE_COUNT,
	SEARCH_DEFAULT_LIMIT,
	SEARCH_SLICE_MS,
	SEARCH_WARM_UP_NOTES_LOOKED,
	SEARCH_WARM_UP_WORDS_LOOKED,
	SEARCH_WARM_UP_WORK_MS,
} from "../config/limits";
import { runSteps, runStepsInSlicesWhile, runStepsWhile, type Steps } from "../markdown/steps";
import { noticeWithout, SearchEngine, TooManyPhraseNotes, type CommitPlan, type NoteFilter, type SearchAnswer, type SearchPause } from "../search/engine";
import { CallBudget, CallOverBudget, workClockMs } from "./workBudget";
import { errorKind, type Logger } from "../activity";
import { parseQuery, stopWordSet, withStopWords, type ParsedQuery } from "../search/query";
import { warmUpSearches, warmUpText, warmUpWords, type WarmUpSearch } from "../search/warmUp";
import { ENGLISH_STOP_WORDS } from "../search/stopWords";
import { utf8Length } from "../search/text";
import { noteVisibility, visibleNotes } from "./notes";
import { isInFolder, isNoteInScope, scopeKey, type Scope } from "./scope";
import { frontmatterAliases } from "../markdown/frontmatter";
import { DEFAULT_SEARCH_LANGUAGE, stemmerFor, type SearchLanguage } from "../search/stemmers";
import { notesWithTag, noteTagsInSteps, rememberTags, tagKey, type NoteTags } from "./tags";
import { headingTextChunksInSteps, soleLevelOneHeadingInSteps, tagTextReaderOf } from "../headless/compactMetadata";
import { sharedNoteMemo } from "./noteMemo";
import { NotesByTag } from "./notesByTag";
import { rememberTasks } from "./tasks";
import { isFileAt, rememberLinksSteps } from "./links";

export type { SearchAnswer };

export interface SearchFilter {
	folder?: string;
	tag?: string;
}

export interface SearchStatus {
	state: "ready" | "building";
	indexed_notes: number;
	total_notes: number;
}

/** A search answer; while the index is still being built, it says how much of the vault it covers. */
export interface NoteSearchAnswer extends SearchAnswer {
	/** Present while the index is building: the answer covers only `indexed_notes` of `total_notes`. */
	index?: SearchStatus;
	/** The same in words, for clients that read only text: `index: building, N of M notes; …`, then the search's own notice. */
	notice?: string;
}

/** How search_notes is answered. */
export interface NoteSearch {
	/**
	 * The query's stop words (the searchStopWords setting) need not match; the rest must. With a
	 * `budget`, the search works in its slices and ends with `CallOverBudget` past its work limit.
	 */
	search(scope: Scope, query: ParsedQuery, filter: SearchFilter, limit: number, budget?: CallBudget): Promise<NoteSearchAnswer>;
	/** How far the index is built; with a scope, counted among the notes that scope shows. */
	status(scope?: Scope): SearchStatus;
	/**
	 * How many of `notes` (the notes the scope showed) the scope still shows, and `status(scope)` counted among them, in
	 * slices on `budget`: counted in one piece, a vault of 100,000 notes held every other client 40-90 ms at each
	 * get_vault_status. One deleted or moved out of view while the count paused is not counted: a ready index seemed to miss it.
	 */
	statusOnBudget(
		scope: Scope,
		notes: readonly HostFile[],
		budget: Pick<CallBudget, "due" | "checkpoint">,
	): Promise<{ noteCount: number; status: SearchStatus }>;
	/** Notes whose body is too large to search (their titles and headings still are), by path. */
	unsearched(): string[];
}

/** True if a note's body is small enough to search (MAX_SEARCHABLE_NOTE_BYTES of UTF-8). */
export function isSearchableText(text: string): boolean {
	// A UTF-16 unit is 1 to 3 bytes of UTF-8: most texts are decided without counting.
	if (text.length > MAX_SEARCHABLE_NOTE_BYTES) return false;
	if (text.length * 3 <= MAX_SEARCHABLE_NOTE_BYTES) return true;
	return utf8Length(text) <= MAX_SEARCHABLE_NOTE_BYTES;
}

/**
 * A predicate for the notes a search may return: in scope (unless the caller knows they all are),
 * in the folder, carrying the tag (`tagged`: the notes with the filter's tag).
 */
function searchFilter(
	scope: Scope,
	filter: SearchFilter,
	options: { scopeChecked?: boolean; tagged?: ReadonlySet<string>; leaving?: ReadonlyMap<string, number> } = {},
): (path: string) => boolean {
	const tagged = filter.tag === undefined ? null : (options.tagged ?? new Set<string>());
	const inScope = options.scopeChecked ? () => true : (path: string) => isNoteInScope(path, scope);
	const leaving = options.leaving;
	return (path) =>
		!(leaving?.has(path) ?? false) &&
		inScope(path) &&
		(filter.folder === undefined || isInFolder(path, filter.folder)) &&
		(tagged === null || tagged.has(path));
}

/**
 * Words up to which a note's frontmatter `description` of one sentence is a heading of the note
 * (isHeadingDescription); longer, even one sentence is prose.
 */
const DESCRIPTION_HEADING_WORDS = 25;

/**
 * Whether a frontmatter `description` is a heading of its note: one sentence of at most
 * DESCRIPTION_HEADING_WORDS words. A documentation site's pages carry one line saying what the
 * page is for (npm's `npm-pack`: "Create a tarball from a package"; typescript-eslint's
 * `max-params`: "Enforce a maximum number of parameters in function definitions."): the words a
 * person asks with, which the page's own text may say only in passing. Several sentences are an
 * introduction, prose ("Formulas allow you to create calculated properties… You can perform
 * calculations…"), no more telling than the body. (Counting words instead, up to six, left out
 * most one-line summaries: half of typescript-eslint's are 7 to 18 words long.) One of more than
 * SENTENCE_HEADING_WORDS words passes here but is then indexed as a sentence, its words the body's
 * (`isSentenceHeading`, where headings are indexed): measured so, typescript-eslint's MRR 0.891 → 0.897.
 */
export function isHeadingDescription(description: string): boolean {
	const text = description.trim();
	return text !== "" && !/[.!?]\s+\S/.test(text) && text.split(/\s+/).length <= DESCRIPTION_HEADING_WORDS;
}

/** A note's headings, which search weighs above its body: the metadata cache's, and a short frontmatter description (DESCRIPTION_HEADING_WORDS). */
function headingsOf(host: Host, file: HostFile): Iterable<string> {
	return runSteps(headingsInSteps(host.metadataCache.getFileCache(file)));
}

/**
 * `headingsOf` a note's metadata, in pausable steps, read from chunks: a note can hold a million
 * headings, and one list of them all was made in one piece.
 */
function* headingsInSteps(cache: CachedMetadata | null): Steps<Iterable<string>> {
	const chunks = cache ? yield* headingTextChunksInSteps(cache) : [];
	const description: unknown = cache?.frontmatter?.["description"];
	if (typeof description === "string" && isHeadingDescription(description)) chunks.push([description]);
	return {
		*[Symbol.iterator]() {
			for (const chunk of chunks) yield* chunk;
		},
	};
}

/** A name's words, lower-cased: `npm-shrinkwrap.json` and `npm-shrinkwrap-json` are one name; `Chris Gurney` and `chrisgurney` are two. */
function nameKey(name: string): string {
	return name
		.toLowerCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter((word) => word !== "")
		.join(" ");
}

/**
 * The title a note shows when its file name is a code or a slug (no spaces: `md013`, `no-cycle`,
 * `chrisgurney`): its frontmatter `title` (a documentation site's `title: Overview` on `README.md`),
 * else its one level-1 heading when that is its first heading (`` # `MD013` - Line length `` on
 * `md013.md`, a person's name on a note named by their handle). A note with several level-1
 * headings uses them as sections. A file name with spaces is already written as a title: a heading
 * that differs from it is the page's first section, not its name. Null when there is none, or when
 * it is the file name again: a second name that says the same adds nothing, or when it is longer than
 * SHOWN_TITLE_MAX_CHARS.
 */
function* shownTitleInSteps(cache: CachedMetadata | null, file: HostFile): Steps<string | null> {
	if (/\s/.test(file.basename)) return null;
	const title: unknown = cache?.frontmatter?.["title"];
	const shown = typeof title === "string" && title.trim() !== "" ? title.trim() : cache ? yield* soleLevelOneHeadingInSteps(cache) : null;
	// A heading of megabytes (a paragraph of a million lines over a `===`) is no title, and its words took 900 ms to compare in one piece.
	if (shown === null || shown.length > SHOWN_TITLE_MAX_CHARS) return null;
	return nameKey(shown) === nameKey(file.basename) ? null : shown;
}

/** A note's aliases, which search ranks like its title, and the title it shows when its file name is another (shownTitleInSteps). */
function aliasesOf(host: Host, file: HostFile): string[] {
	return runSteps(aliasesInSteps(host.metadataCache.getFileCache(file), file));
}

/**
 * `aliasesOf` the note's metadata `cache`, in pausable steps. The title it shows comes first: the
 * index names a note by its aliases only while their words fit SEARCH_ALIAS_MAX_WORDS, and a shown
 * title after aliases filling that was cut off.
 */
function* aliasesInSteps(cache: CachedMetadata | null, file: HostFile): Steps<string[]> {
	const aliases = frontmatterAliases(cache?.frontmatter);
	const shown = yield* shownTitleInSteps(cache, file);
	return shown === null ? aliases : [shown, ...aliases];
}

/**
 * A hit's text for its snippets; null when the note is gone (the host no longer has it, or its file
 * vanished before the host noticed), or moved while it was read (into an excluded folder, say: the
 * same file object, renamed), as if deleted then: its hit was answered with what it held there.
 */
function readerFor(host: Host): (path: string) => Promise<string | null> {
	return async (path) => {
		const file = host.vault.getFileByPath(path);
		if (!file) return null;
		const text = await readUnlessGone(host, file);
		return file.path === path ? text : null;
	};
}

async function readUnlessGone(host: Host, file: HostFile): Promise<string | null> {
	try {
		return await textForSearch(host, file);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

/**
 * The answer without the hits no longer at their paths (the path, hence its visibility, unchanged for those kept), its total
 * less them, and its phrase notice's counts (it said found in one more than the total: a note of an excluded folder counted).
 */
function hitsAsNow(host: Host, answer: SearchAnswer): SearchAnswer {
	const results = answer.results.filter((hit) => isFileAt(host, hit.path));
	const gone = answer.results.length - results.length;
	if (gone === 0) return answer;
	const notice = noticeWithout(answer, gone);
	return { ...answer, results, total: answer.total - gone, ...(notice === undefined ? {} : { notice }) };
}

/** A note's text as search sees it: none for a note the host does not read (over MAX_READ_NOTE_BYTES), which is still found by its title. */
async function textForSearch(host: Host, file: HostFile): Promise<string> {
	try {
		return await host.vault.cachedRead(file);
	} catch (error) {
		if (error instanceof NoteTooLargeError) return "";
		throw error;
	}
}

const DEFAULT_STOP_WORDS = stopWordSet(ENGLISH_STOP_WORDS);

/** The engine's pause for a call's budget: a checkpoint once the slice is used up. */
function pauseOn(budget: CallBudget | undefined): SearchPause | null {
	return budget ? () => (budget.due() ? budget.checkpoint() : null) : null;
}

/** Searches by reading every candidate note now: always correct, slow on big vaults. The index answers the same. */
export async function scanSearch(
	host: Host,
	scope: Scope,
	query: ParsedQuery,
	filter: SearchFilter,
	limit: number,
	stopWords: ReadonlySet<string> = DEFAULT_STOP_WORDS,
	language: SearchLanguage = DEFAULT_SEARCH_LANGUAGE,
): Promise<SearchAnswer> {
	return (await ScannedNotes.read(host, scope, filter, language)).search(query, limit, stopWords);
}

/**
 * The notes a scan reads for one filter, read and indexed once, then asked several queries, each
 * answered as `scanSearch` answers it alone: nothing one search keeps serves the next
 * (`SearchEngine.forgetKept`, as after the server's warm-up). What the index is compared with when
 * many queries are asked of a vault that does not change meanwhile: reading and indexing every note
 * is nearly all of a scan's work (about 0.7 ms of CPU a note on a 2.1 GHz core), a search a few ms.
 */
export class ScannedNotes {
	private constructor(
		private readonly host: Host,
		private readonly engine: SearchEngine,
	) {}

	/** Reads and indexes the notes of `scope` that `filter` accepts, as they are now. */
	static async read(host: Host, scope: Scope, filter: SearchFilter, language: SearchLanguage = DEFAULT_SEARCH_LANGUAGE): Promise<ScannedNotes> {
		const tagged = filter.tag === undefined ? undefined : new Set(await notesWithTag(host, scope, filter.tag));
		const include = searchFilter(scope, filter, { tagged });
		const engine = new SearchEngine(stemmerFor(language));
		for (const file of visibleNotes(host, scope)) {
			if (!include(file.path)) continue;
			const text = await readUnlessGone(host, file);
			if (text === null) continue;
			engine.index.add(file.path, file.basename, file.stat.mtime, isSearchableText(text) ? text : "", headingsOf(host, file), aliasesOf(host, file));
		}
		return new ScannedNotes(host, engine);
	}

	/** The notes read that match `query`, as a scan of them answers it, served by nothing an earlier search kept. */
	async search(query: ParsedQuery, limit: number, stopWords: ReadonlySet<string> = DEFAULT_STOP_WORDS): Promise<SearchAnswer> {
		this.engine.forgetKept();
		return this.engine.search(withStopWords(query, stopWords), null, limit, readerFor(this.host));
	}
}

function sameScope(a: Scope, b: Scope): boolean {
	return scopeKey(a) === scopeKey(b);
}

/** Ends the server's warm-up searches at their next pause (`IndexedNoteSearch.warmUp`): a client asked something, or the index stopped or was replaced. */
class WarmUpEnded extends Error {
	constructor() {
		super("The search warm-up ended");
		this.name = "WarmUpEnded";
	}
}

/**
 * One indexing of a note counted, once, among the paths behind an install in slices (`count`) until it
 * ends (`done`): a search meanwhile answers without its new version, and says so.
 */
class Behind {
	private counted = false;

	constructor(
		private readonly paths: Map<string, number>,
		private readonly path: string,
	) {}

	count(): void {
		if (this.counted) return;
		this.counted = true;
		this.paths.set(this.path, (this.paths.get(this.path) ?? 0) + 1);
	}

	done(): void {
		if (!this.counted) return;
		this.counted = false;
		const left = (this.paths.get(this.path) ?? 1) - 1;
		if (left > 0) this.paths.set(this.path, left);
		else this.paths.delete(this.path);
	}
}

/** Runs `steps`, ending `behind`'s count at the first step after which `installed()` holds. */
function* uncountedOnceIn<T>(steps: Steps<T>, installed: () => boolean, behind: Behind): Steps<T> {
	for (;;) {
		const next = steps.next();
		if (next.done) return next.value;
		if (installed()) behind.done();
		yield;
	}
}

/** One build of the index: its notes, taken in order by the build and by searches that help it. */
interface IndexBuild {
	readonly notes: readonly HostFile[];
	next: number;
	readonly engine: SearchEngine;
	/** Notes taken but not yet indexed (their text is being read): the build is complete only when none are. */
	inFlight: number;
	finished: boolean;
	/** Called once every note is indexed: `build()` (and so `whenReady`) resolves only then. */
	readonly finish: () => void;
}

/**
 * The search index of the visible notes: built in short slices after start, kept current from
 * the metadata cache's `changed`/`deleted` events and the vault's `rename`. Until it is complete,
 * a search first indexes the build's own next notes for a bounded time (see `helpBuild`), so
 * searching never slows the build down, then answers from what is indexed and says how much
 * that is. Excluded notes never enter it.
 */
export class IndexedNoteSearch implements NoteSearch {
	private engine: SearchEngine;
	private ready = false;
	private stopped = false;
	private totalNotes = 0;
	/** Bumped on every event for a path, so a slow build read never overwrites a newer event. */
	private readonly versions = new Map<string, number>();
	/** The indexed notes by tag (their tags the tags memo's own when the note is remembered), so a tag filter needs no pass over the metadata cache, nor over every note. */
	private readonly tagged = new NotesByTag();
	/** Indexed notes whose body is over MAX_SEARCHABLE_NOTE_BYTES: only their title and headings are in the index. */
	private readonly unsearchedPaths = new Set<string>();
	/**
	 * Paths being taken out of the index in steps (a long note renamed or deleted), with how many
	 * such removals of each are under way. The index holds the note until the last step; a search
	 * meanwhile leaves it out, or a note moved into an excluded folder would still be found by its words.
	 */
	private readonly leaving = new Map<string, number>();
	/** The latest `resolve` of each note whose links are being kept (see `keepLinks`): an older one still under way ends early. */
	private readonly linksResolving = new Map<string, number>();
	/** Paths whose indexing waits behind a big note's install in slices, or is one (see `Behind`), with how many such indexings of each are under way. */
	private readonly behindInstall = new Map<string, number>();
	/** Notes whose install failed again when tried once more (INDEX_INSTALL_RETRIES): out of the index until their next event, and named in answers' notices. */
	private readonly failedInstalls = new Set<string>();
	/**
	 * The metadata the last event of each path (a `changed`) told, while the note's indexing of that text is under way
	 * or done, and the modified time of the last `changed` telling it: any other event drops it (`touch`). The metadata
	 * cache tells the same object again only for the same text (it keeps one a text, as Obsidian keeps one a hash), so
	 * that `changed` is not tokenized again. A program that touched a 1 MB note, or wrote its same text, cost a whole
	 * re-index each time, and one doing so faster than the index's slices restarted it before it ended, for good.
	 */
	private readonly toldIndexed = new Map<string, { engine: SearchEngine; cache: CachedMetadata; modified: number }>();
	private readonly metadataRefs: EventRef[] = [];
	private readonly vaultRefs: EventRef[] = [];
	private building: Promise<void> = Promise.resolve();
	/** The notes a build will index, while it lists them in slices: a search then waits for the list, and helps the build as it did when the list was made at once. */
	private listing: Promise<unknown> | null = null;
	private currentBuild: IndexBuild | null = null;
	/** Work (CPU time, see `workClockMs`) spent indexing notes for the build, by the build or by searches helping it, summed. */
	private buildWorkMs = 0;
	/** When searches last settled the build's share, and `buildWorkMs` then. */
	private settledAt = 0;
	private settledBuildWorkMs = 0;
	/** Build work the build is still owed for the other work done since it started (SEARCH_BUILD_WORK_SHARE): what the next search repays. */
	private buildWorkOwedMs = 0;
	/** Searches between their help and their answer, each settled when it has answered: the build's slices wait for them (see `afterAnswers`). */
	private readonly answering = new Set<Promise<unknown>>();
	/** When the help of each search waiting for it is due (performance.now()): the build's slices end then. */
	private readonly helpsDue = new Set<number>();
	private stopWords = DEFAULT_STOP_WORDS;
	private language: SearchLanguage = DEFAULT_SEARCH_LANGUAGE;
	/** The warm-up searches after the last build (see `warmUp`), settled once they have ended. */
	private warmingUp: Promise<void> = Promise.resolve();
	/**
	 * Where the warm-up is (see `warmUp`): "waiting" for a build to end, "running", or "over"
	 * (ended, or never to run: an index made alone, as tools and tests make it). A request or a search
	 * while it runs ends it at its next pause; one before it starts does not stop it from starting.
	 */
	private warmUpState: "waiting" | "running" | "over";

	constructor(
		private readonly host: Host,
		private scope: Scope,
		private readonly yieldToHost: () => Promise<void>,
		/** Told of a note the index could not take in: by the error's kind, never its text, nor the note's path or text. */
		private readonly logger?: Pick<Logger, "warn">,
		/**
		 * `warmUp`: once a build is over, run the search code before a person's first search (see `warmUp`); the server does.
		 * `whenIdle`: null when no request is being answered, else settled once none is: the warm-up waits for it at each turn.
		 * `phraseNotesMax`: notes a search's phrases may be looked for in (MAX_QUERY_PHRASE_NOTES when absent; tests make it small).
		 */
		private readonly options: { warmUp?: boolean; whenIdle?: () => Promise<void> | null; phraseNotesMax?: number } = {},
	) {
		this.warmUpState = options.warmUp === true ? "waiting" : "over";
		this.engine = this.newEngine();
	}

	/** An empty engine for the index's language. */
	private newEngine(): SearchEngine {
		return new SearchEngine(stemmerFor(this.language), PHRASE_READ_ALL_MAX_NOTES, false, PHRASE_LEARNT_MEMO_NOTES, this.options.phraseNotesMax);
	}

	/** Follows changes and starts building. */
	start(): void {
		const { metadataCache, vault } = this.host;
		this.metadataRefs.push(
			metadataCache.on("changed", (file, data, cache) => this.upsert(file, data, cache)),
			metadataCache.on("resolve", (file) => void this.keepLinks(file)),
			metadataCache.on("deleted", (file) => void this.drop(file.path)),
		);
		this.vaultRefs.push(vault.on("rename", (file: HostAbstractFile, oldPath: string) => void this.onRename(file, oldPath)));
		this.building = this.build();
		this.warmUpAfterBuild();
	}

	/**
	 * Once the index is ready and compacted (the first build, or a new scope's), its search code is
	 * run before a person's first search (see `warmUp`): a new scope's index has its own sorted
	 * dictionary to make, and a warm-up ended early had not run all of the code.
	 */
	private warmUpAfterBuild(): void {
		if (!this.options.warmUp) return;
		this.warmUpState = "waiting";
		const build = this.building;
		// Begun as the build ends (a search in the same turn ends it), unless a scope changed again meanwhile: the next build's warms up.
		const warming = build.then(
			() => (build === this.building ? this.warmUp() : undefined),
			() => undefined,
		);
		this.warmingUp = Promise.all([this.warmingUp, warming]).then(() => undefined);
	}

	/** Stops following changes and any build in progress, and frees the index. */
	async stop(): Promise<void> {
		this.stopped = true;
		this.endWarmUp();
		for (const ref of this.metadataRefs.splice(0)) this.host.metadataCache.offref(ref);
		for (const ref of this.vaultRefs.splice(0)) this.host.vault.offref(ref);
		await this.building;
		await this.warmingUp;
		this.engine = this.newEngine();
		this.tagged.clear();
		this.unsearchedPaths.clear();
		this.failedInstalls.clear();
		this.toldIndexed.clear();
	}

	/** Resolves when the current build has finished. */
	whenReady(): Promise<void> {
		return this.building;
	}

	/** Resolves once the warm-up searches after the last build asked for so far have ended (run to their end, or ended early: see `warmUp`). */
	whenWarmedUp(): Promise<void> {
		return this.warmingUp;
	}

	/** New excluded folders: rebuild, so notes now excluded leave the index and notes now included enter it. */
	setScope(scope: Scope): void {
		const same = sameScope(scope, this.scope);
		this.scope = scope;
		if (same) return;
		this.endWarmUp();
		this.engine = this.newEngine();
		this.tagged.clear();
		this.unsearchedPaths.clear();
		this.failedInstalls.clear();
		this.ready = false;
		this.building = this.building.then(() => this.build());
		if (!this.stopped) this.warmUpAfterBuild();
	}

	/** The searchLanguage setting (which word forms match); the index itself does not change. */
	setLanguage(language: SearchLanguage): void {
		this.language = language;
		this.engine.index.setStemmer(stemmerFor(language));
	}

	/** The searchStopWords setting; the index itself does not change. */
	setStopWords(words: readonly string[]): void {
		this.stopWords = stopWordSet(words);
	}

	status(scope?: Scope): SearchStatus {
		// Once ready, counted among the notes the caller sees now: the build's count stayed, telling how many had since gone (into an excluded folder too).
		if (scope !== undefined && (this.ready || !sameScope(scope, this.scope))) return this.statusWithin(scope);
		return { state: this.ready ? "ready" : "building", indexed_notes: this.engine.index.size, total_notes: this.totalNotes };
	}

	/** The build's progress counted among the notes `scope` shows: a caller limited to some folders learns nothing of the others, not even how many there are. */
	private statusWithin(scope: Scope): SearchStatus {
		const notes = visibleNotes(this.host, scope);
		const indexed = notes.reduce((count, file) => count + (this.engine.index.has(file.path) ? 1 : 0), 0);
		return { state: this.ready ? "ready" : "building", indexed_notes: indexed, total_notes: notes.length };
	}

	async statusOnBudget(
		scope: Scope,
		notes: readonly HostFile[],
		budget: Pick<CallBudget, "due" | "checkpoint">,
	): Promise<{ noteCount: number; status: SearchStatus }> {
		const visible = noteVisibility(scope);
		let shown = 0;
		let indexed = 0;
		for (const file of notes) {
			if (budget.due()) await budget.checkpoint();
			// Deleted, or moved out of view, while the call paused: counted, it was a note the ready index did not hold.
			if (this.host.vault.getFileByPath(file.path) !== file || !visible(file.path)) continue;
			shown++;
			if (this.engine.index.has(file.path)) indexed++;
		}
		// While the index builds for this scope, its progress as the build counts it.
		const status: SearchStatus =
			!this.ready && sameScope(scope, this.scope)
				? this.status()
				: { state: this.ready ? "ready" : "building", indexed_notes: indexed, total_notes: shown };
		return { noteCount: shown, status };
	}

	unsearched(): string[] {
		return [...this.unsearchedPaths].sort();
	}

	async search(scope: Scope, query: ParsedQuery, filter: SearchFilter, limit: number, budget?: CallBudget): Promise<NoteSearchAnswer> {
		// A person's search: the warm-up, if not over, ends now, and what its searches kept goes before this one is answered.
		this.endWarmUp();
		return this.answer(scope, query, filter, limit, budget, readerFor(this.host));
	}

	/** `search`'s answer, the hits' text read by `read`. */
	private async answer(
		scope: Scope,
		query: ParsedQuery,
		filter: SearchFilter,
		limit: number,
		budget: CallBudget | undefined,
		read: (path: string) => Promise<string | null>,
	): Promise<NoteSearchAnswer> {
		if (!this.ready) {
			if (this.listing) await this.listing;
			await this.helpBuild();
			budget?.beginSlice();
		}
		// The index holds only notes in its scope: with that scope, only the filters need checking.
		const scopeChecked = sameScope(scope, this.scope);
		const unfiltered = filter.folder === undefined && filter.tag === undefined && scopeChecked && this.leaving.size === 0;
		const answering = this.engine.search(
			withStopWords(query, this.stopWords),
			unfiltered ? null : this.filterOf(scope, filter, scopeChecked),
			limit,
			read,
			pauseOn(budget),
		);
		const settled: Promise<void> = answering.then(
			() => void this.answering.delete(settled),
			() => void this.answering.delete(settled),
		);
		this.answering.add(settled);
		const found = await answering;
		const updating = await this.updatingNotice(scope, budget);
		// After the answer's last pause (before a later hit's text was read, or in the notice's count): a hit moved out of
		// sight (the same file object renamed) or deleted meanwhile is not named, with its snippets, at the path it left.
		const answer = hitsAsNow(this.host, found);
		if (this.ready) return updating === null ? answer : { ...answer, notice: answer.notice ? `${updating} ${answer.notice}` : updating };
		const index = this.status(scope);
		const building = `index: building, ${index.indexed_notes} of ${index.total_notes} notes. Notes not yet indexed are not in this answer; search again shortly for a complete one.`;
		const notice = [building, updating, answer.notice].filter((part) => part !== null && part !== undefined).join(" ");
		return { ...answer, index, notice };
	}

	/**
	 * Ends the warm-up (see `warmUp`) if it is running, letting go what its searches kept: the server
	 * calls it at every client's request, so the warm-up uses only time nobody asks for.
	 */
	endWarmUp(): void {
		if (this.warmUpState !== "running") return;
		this.warmUpState = "over";
		this.engine.forgetKept();
		this.wakeWarmUp?.();
	}

	/**
	 * The warm-up's wait at a turn while a request is being answered (options.whenIdle): the request
	 * goes first. Null while it does not wait; called, it ends the wait (the warm-up ended).
	 */
	private wakeWarmUp: (() => void) | null = null;

	/** Waits while a request is being answered (one let in before the warm-up began: one that comes now ends it), or until the warm-up ends. */
	private async untilIdle(): Promise<void> {
		const idle = this.options.whenIdle?.();
		if (!idle) return;
		const woken = new Promise<void>((resolve) => (this.wakeWarmUp = resolve));
		await Promise.race([idle, woken]);
		this.wakeWarmUp = null;
	}

	/**
	 * Once a build is over (the first, or a new scope's), searches of the kinds people ask (warmUpSearches) on words the
	 * notes use, answered as a person's are (in SEARCH_SLICE_MS slices, taking turns with other work)
	 * and thrown away, their snippets made of a made-up note's text (warmUpText: no note is read):
	 * the code a search runs, and the dictionary's sorted view, were otherwise made by a person's
	 * first searches, 3–60 ms of CPU each where later ones took 2–3 ms. At most
	 * SEARCH_WARM_UP_WORK_MS of work in all; a client's request, a search, a new scope or a stop ends
	 * it at its next pause, and while a request let in before it began is being answered, it waits
	 * (`untilIdle`: the request had shared its turns with the warm-up). Then everything its searches kept for the next is let go, so no answer is
	 * served from it. Its words are never logged.
	 */
	private async warmUp(): Promise<void> {
		// Not after a stop, nor over a new scope's index still building.
		if (this.warmUpState !== "waiting" || this.stopped || !this.ready) {
			this.warmUpState = "over";
			return;
		}
		this.warmUpState = "running";
		const engine = this.engine;
		const ended = () => this.warmUpState !== "running" || this.stopped || engine !== this.engine;
		const budget = new CallBudget(
			async () => {
				await this.yieldToHost();
				if (!ended()) await this.untilIdle();
				if (ended()) throw new WarmUpEnded();
			},
			SEARCH_SLICE_MS,
			SEARCH_WARM_UP_WORK_MS,
		);
		try {
			await budget.nextTurn();
			const { searches, text } = this.warmUpSearchesOf(engine);
			// Choosing the words is a piece of its own: 5.3-5.6 ms of CPU the first time at 10⁵ words.
			await budget.nextTurn();
			// After the read's await a request may have come: no snippets made then, as for a note read.
			const read = async (): Promise<string> => {
				await Promise.resolve();
				if (ended()) throw new WarmUpEnded();
				return text;
			};
			for (const search of searches) {
				// Refused as a person's would be (its commonest words stand together in more than MAX_QUERY_PHRASE_NOTES notes: a
				// vault of 640,000+ notes): the warm-up goes on to its other kinds; it ended there, unwarmed, with a warning logged.
				await this.answer(this.scope, parseQuery(search.query), { folder: search.folder, tag: search.tag }, SEARCH_DEFAULT_LIMIT, budget, read).catch(
					(error: unknown) => {
						if (!(error instanceof TooManyPhraseNotes)) throw error;
					},
				);
				await budget.nextTurn();
			}
		} catch (error) {
			// Ended (a request, a stop, a new scope) or its work used up: the warm-up is over either way.
			if (!(error instanceof WarmUpEnded) && !(error instanceof CallOverBudget)) this.logger?.warn(`search warm-up ended early (${errorKind(error)})`);
		} finally {
			// Ended by a request or a search, it has let go already: what that search keeps now is its own.
			if (this.warmUpState === "running") {
				this.warmUpState = "over";
				engine.forgetKept();
			}
		}
	}

	/**
	 * The warm-up's searches, on the words that the most notes hold among the first
	 * SEARCH_WARM_UP_WORDS_LOOKED the index met, in the folder of the first note in a folder among
	 * the index's first SEARCH_WARM_UP_NOTES_LOOKED slots and with the first tag one of them carries; and
	 * the made-up text of their hits (warmUpText). Bounded work, in one piece.
	 */
	private warmUpSearchesOf(engine: SearchEngine): { searches: WarmUpSearch[]; text: string } {
		const index = engine.index;
		const words = warmUpWords(
			index.dictionary.firstTokens(SEARCH_WARM_UP_WORDS_LOOKED),
			(word) => index.notesHolding(word),
			(word) => this.stopWords.has(word),
		);
		let folder: string | undefined;
		let tag: string | undefined;
		for (let slot = 0; slot < Math.min(index.nextSlot, SEARCH_WARM_UP_NOTES_LOOKED); slot++) {
			const path = index.documents[slot]?.path;
			if (path === undefined) continue;
			const slash = path.lastIndexOf("/");
			if (folder === undefined && slash > 0) folder = path.slice(0, slash);
			tag ??= this.tagged.firstTagOf(path);
		}
		return { searches: warmUpSearches(words, folder, tag), text: warmUpText(words) };
	}

	/**
	 * What an answer says of the notes `scope` shows whose indexing waits behind a big note's install
	 * in slices, or is one (`behindInstall`), and of those whose install failed (`failedInstalls`,
	 * named): null when none. A short note created or edited was in the index before its event ended;
	 * behind such an install it waits for seconds, and answers said nothing of it.
	 */
	private async updatingNotice(scope: Scope, budget: CallBudget | undefined): Promise<string | null> {
		let sincePause = 0;
		// Walked as they stand now, the walk pausing: every note changed during a big install waits behind it (thousands from a
		// sync), and the walk ran in one piece. Walked live, a note whose wait ended and began again during a pause was met twice.
		const behind = [...this.behindInstall.keys()];
		const failedNotes = [...this.failedInstalls];
		const pauseNow = async (): Promise<void> => {
			if (budget !== undefined && ++sincePause >= UPDATING_NOTICE_PAUSE_COUNT) {
				sincePause = 0;
				await budget.checkpoint();
			}
		};
		const behindSeen: string[] = [];
		for (const path of behind) {
			if (isNoteInScope(path, scope)) behindSeen.push(path);
			await pauseNow();
		}
		const failedSeen: string[] = [];
		for (const path of failedNotes) {
			await pauseNow();
			if (isNoteInScope(path, scope)) failedSeen.push(path);
		}
		// Those still waiting or failed after the walk's last pause: a note moved meanwhile (into an excluded folder, say)
		// left them then, and was counted, or named, at the path it had left.
		const count = behindSeen.filter((path) => this.behindInstall.has(path)).length;
		const failedNow = failedSeen.filter((path) => this.failedInstalls.has(path));
		const failedCount = failedNow.length;
		const failed = failedNow.slice(0, INDEX_FAILED_NOTES_LISTED);
		const parts: string[] = [];
		if (count > 0) {
			const notes = count === 1 ? "1 note" : `${count} notes`;
			parts.push(
				`index: updating, ${notes} created or changed lately not yet indexed: this answer may leave ${count === 1 ? "it" : "them"} out or show ${count === 1 ? "it" : "them"} as before; search again shortly for a complete one.`,
			);
		}
		if (failedCount > 0) {
			const more = failedCount > failed.length ? ` and ${failedCount - failed.length} more` : "";
			const notes = failedCount === 1 ? "1 note" : `${failedCount} notes`;
			parts.push(
				`index: ${notes} could not be indexed (the server may be short of memory), left out of answers until changed: ${failed
					.sort()
					.map((path) => JSON.stringify(path))
					.join(", ")}${more}.`,
			);
		}
		return parts.length > 0 ? parts.join(" ") : null;
	}

	/**
	 * A search's filter over the index. With a tag, it names the notes carrying the tag, so only
	 * those are asked about (scope, folder, leaving), not every indexed note.
	 */
	private filterOf(scope: Scope, filter: SearchFilter, scopeChecked: boolean): NoteFilter {
		const tag = filter.tag;
		// Every note it is asked about carries the tag: the predicate checks the rest.
		const include = searchFilter(scope, { folder: filter.folder }, { scopeChecked, leaving: this.leaving });
		// Notes being taken out are not in the key: while any are, the accepted notes are worked out each time.
		// A kept answer is brought up to date note by note (the index logs each note changed, `recheck` each re-tagged).
		const key = this.leaving.size === 0 ? JSON.stringify([scopeKey(scope), filter.folder ?? null, tag === undefined ? null : tagKey(tag)]) : undefined;
		if (tag === undefined) return key === undefined ? include : { include, key };
		const among = () => this.tagged.carrying(tag);
		const accepts = (path: string) => include(path) && this.tagged.carries(path, tag);
		return key === undefined ? { among, include } : { among, include, accepts, key };
	}

	/**
	 * Indexes the build's next notes until the build has had SEARCH_BUILD_WORK_SHARE times the
	 * other work done since it started (searches, other requests): the work the build would do
	 * anyway, done now, so searching while the index builds leaves the build at nearly its idle
	 * pace. Measured, not estimated: all of this process's work that was not indexing since the last
	 * search counts, whoever did it. Work is CPU time: on a busy machine the time other programs
	 * had the core is nobody's work here, and counted as the build's it left the build short. The
	 * search waits for the help SEARCH_BUILD_HELP_MAX_MS at most; the rest goes on after it answers.
	 */
	private async helpBuild(): Promise<void> {
		const build = this.currentBuild;
		if (!build) return;
		const now = workClockMs();
		const buildWork = this.buildWorkMs - this.settledBuildWorkMs;
		const otherWork = Math.max(0, now - this.settledAt - buildWork);
		this.buildWorkOwedMs = Math.max(0, this.buildWorkOwedMs + SEARCH_BUILD_WORK_SHARE * otherWork - buildWork);
		this.settledAt = now;
		this.settledBuildWorkMs = this.buildWorkMs;
		const helpMs = Math.min(SEARCH_BUILD_HELP_MAX_MS, this.buildWorkOwedMs);
		if (helpMs <= 0) return;
		const started = workClockMs();
		const dueAt = performance.now() + helpMs;
		this.helpsDue.add(dueAt);
		const helping = (async () => {
			// Reads from the text cache do not wait for I/O: without a turn given back, the help would be one piece of helpMs.
			let sliceStart = performance.now();
			while (workClockMs() - started < helpMs && (await this.indexNextNote(build)) && !this.isAbandoned(build)) {
				if (!this.sliceOver(sliceStart)) continue;
				await this.yieldToHost();
				await this.afterAnswers();
				sliceStart = performance.now();
			}
		})();
		helping.catch(() => undefined);
		// A note whose read or tokenizing takes long goes on being indexed; the search does not wait for it.
		let timer: ReturnType<typeof nodeTimers.setTimeout> | undefined;
		const deadline = new Promise<void>((resolve) => (timer = nodeTimers.setTimeout(resolve, helpMs)));
		await Promise.race([helping, deadline]);
		nodeTimers.clearTimeout(timer);
		this.helpsDue.delete(dueAt);
	}

	/**
	 * True when an index slice that started at `sliceStart` should give the turn back: it ran
	 * INDEX_BUILD_SLICE_MS, or a search's help is due (the search answers only once the slice
	 * running then has ended: up to a whole slice late, 40–130 ms on a busy machine).
	 */
	private sliceOver(sliceStart: number): boolean {
		const now = performance.now();
		if (now - sliceStart >= INDEX_BUILD_SLICE_MS) return true;
		for (const dueAt of this.helpsDue) if (now >= dueAt) return true;
		return false;
	}

	private async build(): Promise<void> {
		let finish = (): void => undefined;
		const finished = new Promise<void>((resolve) => (finish = resolve));
		const engine = this.engine;
		const listing = this.visibleNotesInSlices();
		this.listing = listing;
		const notes = await listing;
		if (this.listing === listing) this.listing = null;
		const build: IndexBuild = { notes, next: 0, engine, inFlight: 0, finished: false, finish };
		this.currentBuild = build;
		this.totalNotes = build.notes.length;
		this.settledAt = workClockMs();
		this.settledBuildWorkMs = this.buildWorkMs;
		this.buildWorkOwedMs = 0;
		let sliceStart = performance.now();
		// Not once stopped or replaced: a pause then only held up the stop (or the next build) for a turn, or for as long as the host kept the turn.
		while ((await this.indexNextNote(build)) && !this.isAbandoned(build)) {
			if (this.sliceOver(sliceStart)) {
				await this.yieldToHost();
				await this.afterAnswers();
				sliceStart = performance.now();
			}
		}
		this.finishIfComplete(build);
		await finished;
	}

	/**
	 * The notes the build indexes, the vault's notes filtered by the scope in slices of
	 * INDEX_BUILD_SLICE_MS: in one piece, 20,000 notes' paths were checked in one piece of 50–90 ms
	 * as the server started (and, in Obsidian, as the plugin loaded).
	 */
	private async visibleNotesInSlices(): Promise<HostFile[]> {
		const visible = noteVisibility(this.scope);
		const files = this.host.vault.getMarkdownFiles();
		const notes: HostFile[] = [];
		let sliceStart = performance.now();
		for (let index = 0; index < files.length; index++) {
			const file = files[index] as HostFile;
			if (visible(file.path)) notes.push(file);
			if ((index & SEARCH_LISTING_CHECK_MASK) === SEARCH_LISTING_CHECK_MASK && performance.now() - sliceStart >= INDEX_BUILD_SLICE_MS) {
				await this.yieldToHost();
				sliceStart = performance.now();
			}
		}
		return notes;
	}

	/**
	 * Once every note of the build is indexed (by the build or by searches helping it), the index is
	 * ready; a stopped or replaced build ends once its notes in flight are done.
	 */
	private finishIfComplete(build: IndexBuild): void {
		const abandoned = this.isAbandoned(build);
		if (build.finished || build.inFlight > 0 || (build.next < build.notes.length && !abandoned)) return;
		build.finished = true;
		if (this.currentBuild === build) this.currentBuild = null;
		// Stopped, or a new scope replaced the engine (its own build follows): this build is not the index.
		if (abandoned) {
			build.finish();
			return;
		}
		this.ready = true;
		// The build is over once its index is compacted: `whenReady` waits for it, searches need not.
		void this.compactInSlices(build.engine).then(
			() => build.finish(),
			() => build.finish(),
		);
	}

	/** Compacts the index in slices of INDEX_BUILD_SLICE_MS, unless the service stops or the engine is replaced meanwhile. */
	private async compactInSlices(engine: SearchEngine): Promise<void> {
		const steps = engine.index.compactSteps();
		let sliceStart = performance.now();
		while (!this.stopped && engine === this.engine && !steps.next().done) {
			if (performance.now() - sliceStart < INDEX_BUILD_SLICE_MS) continue;
			await this.yieldToHost();
			await this.afterAnswers();
			sliceStart = performance.now();
		}
	}

	/**
	 * Resolves once the searches answering now have answered (not those that start meanwhile, so
	 * searches back to back from many clients never stop the build; each is bounded by its call's
	 * budget). Searches pause in their call's slices: without this, each pause let a slice of the
	 * build, or of the index's compaction, run first. Then one more turn, so the answer just made
	 * goes out before the next slice.
	 */
	private async afterAnswers(): Promise<void> {
		if (this.answering.size === 0) return;
		await Promise.all(this.answering);
		await this.yieldToHost();
	}

	/** Whether `build`'s work can no longer be used: the service stopped, or a new scope replaced its engine. */
	private isAbandoned(build: IndexBuild): boolean {
		return this.stopped || build.engine !== this.engine;
	}

	/** Takes the build's next note and indexes it; false when none is left, or the build was stopped or replaced. */
	private async indexNextNote(build: IndexBuild): Promise<boolean> {
		if (this.isAbandoned(build)) return false;
		const file = build.notes[build.next];
		if (!file) return false;
		build.next += 1;
		build.inFlight += 1;
		// A note's read and tokenizing finish within one turn (long notes aside), so the build's and a helping search's times do not overlap.
		const started = workClockMs();
		try {
			if (build.engine.index.has(file.path)) return true;
			const version = this.versions.get(file.path) ?? 0;
			let text: string;
			try {
				text = await textForSearch(this.host, file);
			} catch {
				return true;
			}
			// Changed meanwhile: indexed as read all the same if it is not in the index yet (see `stillDue`).
			if (build.engine === this.engine && this.host.vault.getFileByPath(file.path)) await this.addToIndex(file, text, version);
			return true;
		} finally {
			build.inFlight -= 1;
			this.buildWorkMs += workClockMs() - started;
			this.finishIfComplete(build);
		}
	}

	private touch(path: string): void {
		this.versions.set(path, (this.versions.get(path) ?? 0) + 1);
		// Its next change (or its removal) indexes it again, or takes it out for good.
		this.failedInstalls.delete(path);
		this.toldIndexed.delete(path);
	}

	private upsert(file: HostFile, text: string, told: CachedMetadata): void {
		const path = file.path;
		const inScope = isNoteInScope(path, this.scope);
		// The same text as the indexing under way or done (`toldIndexed`): only its time is new. Not touched, so that indexing goes on.
		const same = this.toldIndexed.get(path);
		if (inScope && same?.cache === told && same.engine === this.engine && !this.failedInstalls.has(path)) {
			same.modified = file.stat.mtime;
			this.engine.index.setModified(path, same.modified);
			return;
		}
		this.touch(path);
		if (!inScope) return void this.drop(path);
		// Only when the metadata indexed with (read by `addToIndex`) is the one told, so of the text told.
		if (this.host.metadataCache.getFileCache(file) === told) this.toldIndexed.set(path, { engine: this.engine, cache: told, modified: file.stat.mtime });
		// Its links are kept at their `resolve`, which follows: here they are still the ones from before the change.
		void this.addToIndex(file, text, undefined, false);
	}

	/**
	 * Keeps what a note's links add to the graph counts, once they are resolved again (after its
	 * change, as Obsidian reports `changed` first, or after a file they name came, went or moved), in
	 * the index's slices; ended early by a newer `resolve` of the note, a stop or a new scope.
	 */
	private async keepLinks(file: HostFile): Promise<void> {
		const path = file.path;
		if (this.stopped || !isNoteInScope(path, this.scope)) return;
		const engine = this.engine;
		const resolve = (this.linksResolving.get(path) ?? 0) + 1;
		this.linksResolving.set(path, resolve);
		try {
			await runStepsInSlicesWhile(
				rememberLinksSteps(this.host, this.scope, path),
				INDEX_UPDATE_SLICE_MS,
				this.yieldToHost,
				() => !this.stopped && engine === this.engine && this.linksResolving.get(path) === resolve && file.path === path,
			);
		} finally {
			if (this.linksResolving.get(path) === resolve) this.linksResolving.delete(path);
		}
	}

	/** Takes a deleted or renamed note out of the index: a long one in slices (see `removeSteps`). */
	private async drop(path: string): Promise<void> {
		this.touch(path);
		this.setTags(path, []);
		this.unsearchedPaths.delete(path);
		await this.takeOut(path);
	}

	/** Takes a note's version out of the index in slices (see `removeSteps`), searches leaving it out meanwhile (`leaving`). */
	private async takeOut(path: string): Promise<void> {
		this.leaving.set(path, (this.leaving.get(path) ?? 0) + 1);
		const engine = this.engine;
		try {
			// Not for an engine let go (stopped, or a new scope): a big note's install it helps along (see `removeSteps`) only held up the stop.
			await runStepsInSlicesWhile(engine.index.removeSteps(path), INDEX_UPDATE_SLICE_MS, this.yieldToHost, () => !this.stopped && engine === this.engine);
		} finally {
			const left = (this.leaving.get(path) ?? 1) - 1;
			if (left > 0) this.leaving.set(path, left);
			else this.leaving.delete(path);
		}
	}

	/**
	 * Whether an indexing of `file`'s text as of `version` (of its path's events) goes on, and into the
	 * index: not after a stop or a rebuild, and not once a newer event came for the path, unless the
	 * index holds no version of the note and the host still has the file there. Then that event is a
	 * change (a removal takes the file from the host) whose own indexing is under way, for seconds in
	 * slices for a long note: until it ends, the note is found by the text read before, not missing.
	 * A huge note's metadata is parsed after start, and its `changed` came while the build indexed it:
	 * the build's work was thrown away, and the index said it was ready without the note.
	 */
	private stillDue(engine: SearchEngine, file: HostFile, path: string, version: number): boolean {
		if (this.stopped || engine !== this.engine) return false;
		if ((this.versions.get(path) ?? 0) === version) return true;
		return !engine.index.has(path) && this.host.vault.getFileByPath(path) === file;
	}

	/**
	 * Indexes a note's text as of `version` of its path: at once when its text is short (done before this returns), in slices of
	 * INDEX_UPDATE_SLICE_MS when it is long (other requests are answered between slices), and dropped once
	 * no longer due (`stillDue`). A body over MAX_SEARCHABLE_NOTE_BYTES is not indexed. With `keepLinks`,
	 * what its links add to the graph counts is kept last (a change's are kept at their `resolve`).
	 */
	private async addToIndex(file: HostFile, text: string, version = this.versions.get(file.path) ?? 0, keepLinks = true): Promise<void> {
		// A note over MAX_READ_NOTE_BYTES comes with no text: it is named as unsearched too.
		const searchable = isSearchableText(text) && file.stat.size <= MAX_READ_NOTE_BYTES;
		const body = searchable ? text : "";
		const engine = this.engine;
		const path = file.path;
		if (!this.stillDue(engine, file, path, version)) return;
		const cache = this.host.metadataCache.getFileCache(file);
		const steps = (function* (): Steps<{ plan: CommitPlan; tags: NoteTags }> {
			const headings = yield* headingsInSteps(cache);
			const prepared = yield* engine.index.prepare(path, file.basename, file.stat.mtime, body, headings, yield* aliasesInSteps(cache, file));
			const tags = yield* noteTagsInSteps(cache, sharedNoteMemo.strings);
			// The index's own work for the note (its postings, room for lists that must grow) in steps too; `installSteps` after.
			return { plan: yield* engine.index.planCommit(prepared), tags };
		})();
		let work: { plan: CommitPlan; tags: NoteTags };
		// The whole text, not the body indexed: a note over MAX_SEARCHABLE_NOTE_BYTES still has its headings
		// indexed, and a million of them were tokenized in one piece of about 0.9 s. A short text of many
		// words (a frontmatter of 9,000 keys) goes on in slices once it has read ONE_PIECE_INDEX_WORDS.
		const wordsBefore = engine.index.wordsRead;
		const atOnce =
			text.length < SLICED_TOKENIZE_CHARS && (cache ? tagTextReaderOf(cache).count : 0) < SLICED_TAGS
				? runStepsWhile(steps, () => engine.index.wordsRead - wordsBefore < ONE_PIECE_INDEX_WORDS)
				: undefined;
		if (atOnce?.done) {
			work = atOnce.value;
		} else {
			// Its first slice in a turn of its own too: the metadata cache reports a note from the last slice of its parse.
			await this.yieldToHost();
			if (!this.stillDue(engine, file, path, version)) return;
			// Asked again after each slice: a 4 MB note went on indexing for seconds after a stop, a rebuild or a newer change.
			const sliced = await runStepsInSlicesWhile(steps, INDEX_UPDATE_SLICE_MS, this.yieldToHost, () => this.stillDue(engine, file, path, version));
			// And once more after the last: the await of its end lets an event in.
			if (!sliced.done || !this.stillDue(engine, file, path, version)) return;
			work = sliced.value;
		}
		// Stale after its slices (a note was removed or replaced meanwhile): made again in slices too, not at once by `install`.
		let plan = work.plan;
		let attempts = 0;
		const behind = new Behind(this.behindInstall, path);
		try {
			for (let retries = 0; ; retries++) {
				while (!engine.index.isCurrent(plan) || engine.index.installing) {
					// Behind a big note's install in slices, the note is missing from answers (or shown as it was): they say so.
					if (engine.index.installing) behind.count();
					// In a turn of its own: the last slice of the plan ran up to the end of its time.
					await this.yieldToHost();
					// Another note's install in slices ends first: installed now, this one would finish it at once. Not
					// for an engine let go (stopped, or a new scope): its install is left unfinished (see below).
					while (engine.index.installing && this.stillDue(engine, file, path, version)) await this.yieldToHost();
					if (!this.stillDue(engine, file, path, version)) return;
					if (engine.index.isCurrent(plan) || attempts++ >= INDEX_REPLAN_ATTEMPTS) break;
					const replanned = await runStepsInSlicesWhile(engine.index.replanSteps(plan), INDEX_UPDATE_SLICE_MS, this.yieldToHost, () =>
						this.stillDue(engine, file, path, version),
					);
					if (!replanned.done || !this.stillDue(engine, file, path, version)) return;
					plan = replanned.value;
				}
				// Moved since it was listed or read (the same file object, renamed: into an excluded folder, say): the rename's own event indexes it where it is now, if it may be.
				if (file.path !== path || !isNoteInScope(path, this.scope)) return;
				// A new note of many words in slices too, searches meanwhile answering without it; once begun it
				// ends, whatever happens to the note meanwhile (a removal of the note helps it to its end first, see
				// `removeSteps`), unless the engine is let go: its slices then only held up the stop (or the new scope's build).
				const installed = await this.installInSlices(engine, plan, behind);
				if (installed === true) break;
				if (this.stopped || engine !== this.engine) return;
				// Failed (a list that could not grow: out of memory): the index is as it was, the note out of it.
				const again = retries < INDEX_INSTALL_RETRIES;
				this.logger?.warn(
					`search index: a note could not be indexed (${errorKind(installed.error)}); ${again ? "trying it once more" : "it is left out of search answers until it changes"}`,
				);
				if (!again) {
					// Unless a newer event came meanwhile: that event's own indexing says how it went.
					if (!this.stillDue(engine, file, path, version)) return;
					this.failedInstalls.add(path);
					// A new version installed in steps left the old one whole (installSteps): out of answers too, as the notice says.
					if (engine.index.has(path)) await this.takeOut(path);
					return;
				}
				// In a later slice, counted as not yet indexed meanwhile (the memory may be back by then).
				behind.count();
				await this.yieldToHost();
				if (!this.stillDue(engine, file, path, version)) return;
			}
			// Its tasks, tags and links below are for the note as read: a newer event does that work itself.
			if (file.path !== path || !this.stillDue(engine, file, path, version)) return;
			// Touched while it was indexed (a `changed` of the same text): the time of the last touch, not of the text read.
			const told = this.toldIndexed.get(path);
			if (told?.engine === engine) engine.index.setModified(path, told.modified);
		} finally {
			behind.done();
		}
		// The text is in hand: keep the note's tasks, tags and link counts for the vault-wide tools, so their first call reads nothing.
		let tags = work.tags;
		// Not a text older than the note's last event: its tasks and links would be kept for the note's newer metadata.
		const remember = cache !== null && text.length < SLICED_TOKENIZE_CHARS && (this.versions.get(path) ?? 0) === version;
		if (cache && remember) {
			rememberTasks(cache, text);
			tags = rememberTags(cache, sharedNoteMemo, tags);
		}
		if (searchable) this.unsearchedPaths.delete(file.path);
		else this.unsearchedPaths.add(file.path);
		this.setTags(file.path, tags);
		// Last, in the index's slices: each link target is checked against every excluded folder, and a note of 100,000
		// links was one piece of 50-230 ms (3 to 30 folders). A newer event for the note, or a stop, ends it early.
		if (remember && keepLinks)
			await runStepsInSlicesWhile(rememberLinksSteps(this.host, this.scope, file.path), INDEX_UPDATE_SLICE_MS, this.yieldToHost, () =>
				this.stillDue(engine, file, path, version),
			);
	}

	/**
	 * Installs a plan (`installSteps`): its first step at once (a short note is in the index before this
	 * returns), the rest in slices of INDEX_UPDATE_SLICE_MS, counted in `behind` meanwhile. True when
	 * the note went in; else what kept it out: the engine was let go (no error), or a step failed (a
	 * list that could not grow, out of memory; its error, whichever change ran that step).
	 * The index is then as it was; thrown here, the failure ended the build, and every note after it
	 * was left out.
	 */
	private async installInSlices(engine: SearchEngine, plan: CommitPlan, behind: Behind): Promise<true | { error: unknown }> {
		const installing = engine.index.installSteps(plan);
		try {
			const first = installing.next();
			if (first.done) return first.value || { error: undefined };
			behind.count();
			await this.yieldToHost();
			// Counted until its new version answers: while the old one's postings are taken out after, answers said it was missing.
			const rest = await runStepsInSlicesWhile(
				uncountedOnceIn(installing, () => engine.index.isInstalled(plan), behind),
				INDEX_UPDATE_SLICE_MS,
				this.yieldToHost,
				() => !this.stopped && engine === this.engine,
			);
			return (rest.done && rest.value) || { error: undefined };
		} catch (error) {
			return { error };
		}
	}

	/** A note's tags in the tag filter's map, and the index told that its filter answers may have changed. */
	private setTags(path: string, tags: NoteTags): void {
		this.tagged.set(path, tags);
		this.engine.index.recheck(path);
	}

	private async onRename(renamed: HostAbstractFile, oldPath: string): Promise<void> {
		const dropped = this.drop(oldPath);
		this.touch(renamed.path);
		const file = this.host.vault.getFileByPath(renamed.path);
		if (!file || !isNoteInScope(file.path, this.scope)) return;
		const path = file.path;
		const version = this.versions.get(path) ?? 0;
		// The old path's last slice and the new path's first are two pieces, with the host's turn between.
		await dropped;
		await this.yieldToHost();
		let text: string;
		try {
			text = await textForSearch(this.host, file);
		} catch {
			// Gone meanwhile: its removal's event took it out.
			return;
		}
		// Changed meanwhile: indexed as read all the same while it is not in the index (see `stillDue`), or it was left out
		// until the change's own indexing ended. Moved again meanwhile: that rename's own event indexes it.
		if (file.path === path) await this.addToIndex(file, text, version);
	}
}
