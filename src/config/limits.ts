/**
 * Every limit the server enforces, in one place. docs/limits.md is made from this file by
 * `npm run docs` (each constant's comment is its row), and test/unit/docs.test.ts fails until it is remade.
 */

/** Default TCP port on 127.0.0.1. */
export const DEFAULT_PORT = 27150;
/** Lowest port the settings and the CLI accept: 0 asks the system for any free port. */
export const MIN_PORT = 0;
/** Highest TCP port. */
export const MAX_PORT = 65535;
/** Largest whole number a CLI flag (--rate-limit) accepts: a bound against typos, far above any real setting. */
export const MAX_CLI_INTEGER = MAX_PORT * 1000;
/** Lowest fixed port the settings tab offers: ports below it are reserved for system services. */
export const MIN_FIXED_PORT = 1024;
/** Largest request body accepted on POST /mcp, in bytes (413 above it). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/**
 * A request body of at least this many bytes is parsed in an event-loop turn of its own, one such body
 * a turn: four megabyte bodies ending together were parsed back to back (about 14 ms each) while
 * other clients waited. Smaller bodies are parsed at once.
 */
export const BODY_PARSE_OWN_TURN_BYTES = 64 * 1024;
/**
 * Characters of a request body read between two pauses when it is checked to be JSON without being
 * parsed (a body over MAX_REQUEST_NESTING or MAX_REQUEST_OBJECT_KEYS, to tell a parse error from a
 * shape refused): a megabyte was one piece of 6–7 ms, 14–22 ms under load; 64K characters are well under a millisecond.
 */
export const JSON_CHECK_STEP_CHARS = 64 * 1024;
/** Default requests per minute per token (429 above it); a setting. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 240;
/** The window the per-token rate limit counts over. */
export const RATE_LIMIT_WINDOW_MS = 60_000;
/**
 * Tokens the server keeps an entry for (rate and write windows, places, served copies, the lane's
 * claims to go first) before it forgets the entries that hold nothing: a window with no take left in
 * it, a token with no request being answered, an ended claim. The bound then doubles the entries
 * still holding something, and a new token's first request a minute (RATE_LIMIT_WINDOW_MS) after
 * the last sweep sweeps too, so memory follows the tokens in use, not every token ever served (a
 * token revoked, or one of thousands made and revoked, no longer stays until restart). No limit is
 * weakened: only entries that are the same as none are forgotten (EntrySweeps).
 */
export const TOKEN_ENTRIES_BEFORE_SWEEP = 64;
/** Requests being answered at once, over all tokens (503 above it). */
export const MAX_IN_FLIGHT_REQUESTS = 8;
/** Seconds a client is told to wait after a 503. */
export const RETRY_AFTER_BUSY_SECONDS = 1;
/** Time a client has to send all request headers. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Time a client has to send the whole request, headers and body. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How often node checks open connections against the header and request timeouts. */
export const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;
/** Idle keep-alive sockets are closed after this long. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Activity records kept in memory for the settings tab. */
export const ACTIVITY_LOG_SIZE = 50;
/** Random bytes in a token. */
export const TOKEN_BYTES = 32;
/** Longest token name accepted, in characters. */
export const MAX_TOKEN_NAME_LENGTH = 64;
/** Most folders one token may be limited to (each is compared with every path a call sees). */
export const MAX_TOKEN_FOLDERS = 32;
/** Characters of a token's secret kept after its prefix, so a token can be recognised in the list. */
export const TOKEN_DISPLAY_SECRET_CHARS = 4;
/** "Clients seen recently" counts tokens used within this window. */
export const RECENT_CLIENT_WINDOW_MS = 60_000;
/** How often the settings tab's and status bar's "clients in the last minute" count is refreshed. */
export const INDICATOR_REFRESH_MS = 10_000;
/** How often the open settings tab looks for new changes in the write journal, to list them. */
export const ACTIVITY_REFRESH_MS = 2_000;
/** How often, at most, token last-used times are written back to data.json. */
export const TOKEN_LAST_USED_SAVE_INTERVAL_MS = 60_000;
/**
 * Block nesting the Markdown parser follows (a list item inside a list counts two). Deeper content
 * is still read, as text of the deepest block (its links, embeds and tags count, so a rename rewrites
 * them): the bound keeps the parser's recursion off the stack limit.
 */
export const MAX_MARKDOWN_NESTING = 1000;
/**
 * Quotes and list items the Markdown parser in steps follows one inside another (a quote counts one,
 * a list item one); deeper ones are parsed into no blocks, but their text is still read for links,
 * embeds and tags, as past MAX_MARKDOWN_NESTING (a rename left links 640 deep stale). Each is two generators on
 * the stack (about 0.8 KB): 640 use about half of Node's default stack. Quotes were bounded only
 * by MAX_MARKDOWN_NESTING, and a note of one line of 10,000 `> ` overflowed the stack: `serve`,
 * `inspect` and the index build failed on it.
 */
export const MAX_STEPPED_BLOCK_DEPTH = 640;
/** Largest tool response, in bytes of JSON; a larger one has its longest strings cut to fit (CUT_TO_FIT_SHORTEST_BYTES), else is refused with advice to narrow the call. */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/**
 * A tool answer over MAX_RESPONSE_BYTES has its longest strings cut to one length so that it fits
 * (`cut_to_fit`), but never to fewer than this many bytes of the result (a string is sent twice, so
 * about 1 KiB of text): shorter strings are names and dates, which cut would mislead, and an
 * answer that would need them cut is refused with advice to ask for less, as before. A path the
 * answer gives is never cut to a part (a prefix can name another note: MAX_VAULT_PATH_CHARS), only
 * sent empty when the paths alone do not fit. A planted
 * string of megabytes (a link's subpath, a canvas card) had put every answer carrying it over the
 * bound, hiding its note or canvas from the person's AI.
 */
export const CUT_TO_FIT_SHORTEST_BYTES = 2 * 1024;
/**
 * Bytes of the result a key cut short leaves for ` (2)`, ` (3)`… when its cut text is already a key
 * of its object (two keys alike for their first kilobytes): a count of up to 16 digits, twice.
 */
export const CUT_KEY_APART_BYTES = 64;
/** Bytes of the result `cut_to_fit`'s list of the strings cut may take; the strings past it are counted, not named. */
export const CUT_TO_FIT_LISTED_BYTES = 16 * 1024;
/**
 * Vault paths that passed `checkVaultPath` (pure) remembered, each at most MAX_PATH_LENGTH characters: the
 * check of a short path was about 3% of a read_note call's CPU at 8 clients, and clients name the same notes again and again.
 * Kept in two halves (those named lately and those before), so a path named within the last half stays.
 */
export const CHECKED_PATHS_REMEMBERED = 256;
/**
 * read_note (and resources/read, prompts, get_active_note's selection) returns at most this much of
 * a note's text, counted as JSON (and says `truncated`): counted as UTF-8, a note of line breaks or
 * NULs came out two to six times larger, twice in read_note's answer, and was refused as over
 * MAX_RESPONSE_BYTES, so it could never be read.
 */
export const MAX_NOTE_CONTENT_BYTES = 512 * 1024;
/**
 * read_note leaves out a note's properties over this many bytes as JSON (`frontmatter` null,
 * `frontmatter_unparsed` says why; their text is still at the start of `content`): aliases of NULs
 * within the frontmatter's bounds made 527 KiB of JSON, three times that in an answer that holds it
 * twice, so the note answered over MAX_RESPONSE_BYTES and could not be read at all. Real properties are a few KiB.
 */
export const MAX_ANSWERED_FRONTMATTER_BYTES = 256 * 1024;
/**
 * Bytes of a read_note answer not counted when its text is cut to fit MAX_RESPONSE_BYTES: the
 * JSON-RPC envelope and `hidden_content` (at most HIDDEN_CONTENT_MAX_ENTRIES short entries), in both
 * of the answer's forms.
 */
export const READ_NOTE_ANSWER_MARGIN_BYTES = 32 * 1024;
/**
 * read_note and list_tags list tags up to this many characters in all, whole: read_note counts the rest
 * (`tags_left_out`); a list_tags page ends before a tag it has no room left for (the next page starts
 * there) and counts only tags longer than this (`left_out`), which no page can hold. One planted tag of
 * a million characters, sent twice (text and structured), put every read of its note over
 * MAX_RESPONSE_BYTES, so the note could not be read at all.
 */
export const MAX_LISTED_TAG_CHARS = 64 * 1024;
/**
 * Arrays and objects one inside another that a page cursor's text may hold (the server's own nest two deep: the cursor,
 * its key). The text comes from the client and is parsed whole in one turn: a cursor of 400,000 `[` (533 KB, under the
 * request's cap, whose own nesting limit does not look inside a string) held JSON.parse 15-25 ms a call, twice for
 * list_tags, while other clients waited; deeper than this, it is refused unparsed (a scan of 1-2 ms). Such a cursor is now
 * refused by its length first (MAX_CURSOR_CHARS); this still bounds one within it.
 */
export const MAX_CURSOR_NESTING = 4;
/**
 * Characters of a page cursor (every tool's `cursor` argument, refused past it before it is read). A cursor carries the
 * sort key of a page's last item, and some keys are long: a tag of 65,536 characters each written `\u0001` in JSON made
 * a list_tags cursor of 524,288 characters, two paths of 16,383 a query_base one of up to 262,144, and a canvas card's id
 * has no bound of its own. So a cursor was read and decoded up to the request's cap (1 MB: 8 ms of the thread a call).
 * A key too long for this is kept by the server (KEPT_LONG_CURSOR_KEYS) and the cursor names it.
 */
export const MAX_CURSOR_CHARS = 4_096;
/**
 * Keys too long to carry in a cursor (MAX_CURSOR_CHARS) the server keeps, the newest, for the pages after them; a cursor
 * naming one no longer kept (or after a restart) is refused: call again without a cursor. Only names of items nobody
 * keeps short (a tag or path thousands of characters long) are kept.
 */
export const KEPT_LONG_CURSOR_KEYS = 256;
/** Characters of the kept long cursor keys together (KEPT_LONG_CURSOR_KEYS): the oldest go first past it (the newest is always kept). */
export const KEPT_LONG_CURSOR_KEY_CHARS = 4 * 1024 * 1024;
/** read_note lists at most this many stretches of hidden text (comments, invisible characters). */
export const HIDDEN_CONTENT_MAX_ENTRIES = 50;
/** list_notes page size: default and maximum. */
export const LIST_NOTES_DEFAULT_LIMIT = 100;
export const LIST_NOTES_MAX_LIMIT = 1000;
/** search_notes result count: default and maximum. */
export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;
/** Snippets per search result, and characters of context around a match. */
export const SEARCH_SNIPPETS_PER_RESULT = 3;
export const SEARCH_SNIPPET_CONTEXT_CHARS = 60;
/** Longest passage of a snippet before its context (a passage that keeps meeting matches stops here). */
export const SEARCH_SNIPPET_MAX_CHARS = 240;
/** Characters of a result's text tokenized at a time while its snippets are found: it stops once they are. */
export const SNIPPET_TOKENIZE_CHUNK_CHARS = 512;
/**
 * Characters of a result's body looked through for matches to show: a note found by
 * its title alone, or by a word deep in a 4 MB body, cost 200 ms of looking per result. A note
 * whose matches all lie further in shows the start of its body.
 */
export const SNIPPET_SEARCH_MAX_CHARS = 128 * 1024;
/**
 * Results whose snippets a search engine keeps for the next search of the same words, and the
 * characters of note text those keep (the text is what says they still hold: snippets are reused
 * only for the very same text). Making snippets was a fifth of a one-common-word search at 10,000
 * notes, and a page asked again meets the same notes again. A text longer than
 * SNIPPET_SEARCH_MAX_CHARS is not kept: comparing it would cost more than the snippets do.
 * The text is most often the text cache's own string; at most 1 Mi characters (2 MiB) more, and
 * the snippets themselves (three passages of a few hundred characters: about 1 MiB for 1,024 results).
 */
export const SEARCH_SNIPPET_MEMO_RESULTS = 1024;
/** The texts the snippet memo keeps to compare with (see SEARCH_SNIPPET_MEMO_RESULTS), in characters: 2 MiB at most. */
export const SEARCH_SNIPPET_MEMO_TEXT_CHARS = 1024 * 1024;
/**
 * Words whose stems a search engine remembers between searches (forgotten all at once past this).
 * Snippets stem every word of a result that starts like a query word: with a memo that lived for
 * one search only, stemming was a tenth of a one-word search's snippets at 10,000 notes. About
 * 100 bytes a word: 1.6 MB at most.
 */
export const SEARCH_STEM_MEMO_WORDS = 16_384;
/** list_tags entries: default and maximum. */
export const LIST_TAGS_DEFAULT_LIMIT = 200;
export const LIST_TAGS_MAX_LIMIT = 2000;
/** find_notes_by_tag page size: default and maximum. */
export const TAG_NOTES_DEFAULT_LIMIT = 100;
export const TAG_NOTES_MAX_LIMIT = 1000;
/**
 * add_task and complete_task: longest task text, in characters. list_tasks cuts a longer one to it,
 * with its length: one planted task line of 3 MB put every list of the vault's tasks over MAX_RESPONSE_BYTES.
 */
export const MAX_TASK_TEXT_LENGTH = 2000;
/** complete_task: open tasks listed when the task is not on the line given. */
export const COMPLETE_TASK_OPEN_TASKS_LISTED = 20;
/** list_tasks result count: default and maximum. */
export const LIST_TASKS_DEFAULT_LIMIT = 200;
export const LIST_TASKS_MAX_LIMIT = 1000;
/** get_note_links: outgoing links, and unresolved link paths, returned at most (each list says its total). */
export const NOTE_LINKS_MAX_ENTRIES = 1000;
/**
 * get_note_links: notes whose walk over their links is kept between calls (finished ones dropped first,
 * then the one stopped furthest behind), so a call stopped at its budget is gone on with by the next and a finished one is
 * not redone: a planted note of 400,000 link paths took 0.8–1.0 s of CPU a call, every call.
 */
export const KEPT_NOTE_LINK_WALKS = 8;
/**
 * get_note_links: bytes the kept walks hold in all, both kinds, as their `heldBytes` count them (a note's own links:
 * KEPT_LINK_PATH_BYTES a link path, 4 a link; a note's backlinks: KEPT_BACKLINK_BYTES a linking file counted,
 * KEPT_BACKLINK_SOURCE_BYTES a vault file not taken yet); past it walks are dropped as past KEPT_NOTE_LINK_WALKS, the
 * one asked now never (nor, KEPT_WALK_LEAD_ASKS, the one stopped furthest on). Counted in link paths alone, a note of 1,300,000 links to one path held 5 MB more than it was
 * said to; uncounted, eight backlinks walks of a hub linked from 100,000 notes held 74 MB.
 */
export const KEPT_NOTE_LINK_BYTES = 100 * 1024 * 1024;
/**
 * get_note_links: asks of kept walks (two a call, its note's links and its backlinks) within which a stopped walk's client
 * counts as still calling: the stopped walk furthest on of those is kept beside the one asked even past
 * KEPT_NOTE_LINK_BYTES. Dropped there, two stopped walks each over half the bound, called alternately, dropped each
 * other forever; kept however long ago it was asked, a walk its client gave up on would have held the place forever.
 * Clients walking in turn end as long as they are fewer than half of it.
 */
export const KEPT_WALK_LEAD_ASKS = 32;
/**
 * get_note_links: times a backlinks walk counts again, in one call, the linking notes changed at its own pauses before it
 * answers. Each count that changes sorts the linking notes again (200-320 ms in pieces at 100,000); with no bound, a hub
 * whose linking notes a sync tool or another client kept editing was sorted again until the call's budget ran out, call
 * after call, and never answered (and one note edited at every pause, as by a program appending to it every 2 ms, was
 * counted again for ever within a pass). Past it the call answers the counts of its last pass, and the notes changed
 * since are counted at the next call.
 */
export const BACKLINK_RECOUNTS_PER_CALL = 2;
/**
 * get_note_links: the heap one link path of a kept walk holds, measured (with gc, the walk held): 96 bytes a path for
 * 600,000 paths `n0`…, 74 for 30,000 paths of 200 characters (the text is the metadata cache's, shared), so 96.
 */
export const KEPT_LINK_PATH_BYTES = 96;
/**
 * get_note_links: the heap a kept backlinks walk holds for each linking file counted, measured (with gc, eight finished
 * walks held, 100,000 linking notes): 45 bytes (its count in a map, about 36; its place in the sorted order, 8), so 64,
 * for a map just grown (KEPT_BACKLINK_SORTING_BYTES more while the sort is under way). Held by KeptNoteLinks, six walks
 * of 20,000 linking notes: 62 bytes (102 while each walk's turn held its last answer).
 */
export const KEPT_BACKLINK_BYTES = 64;
/**
 * get_note_links: the heap a kept backlinks walk holds for each linking file counted, more, while its sort is under way:
 * an entry (path and count, 40 bytes) in each of the sort's two lists (8 each), and no order yet. Measured (with gc, eight
 * walks stopped in their sort, 100,000 linking notes): 80–93 bytes a linking file in all, against 45 finished.
 */
export const KEPT_BACKLINK_SORTING_BYTES = 48;
/**
 * get_note_links: the heap a kept backlinks walk holds for each vault file it has not taken yet: its list of the linking
 * files when it began, a pointer each (the names are the metadata cache's); let go once the walk has taken them all.
 */
export const KEPT_BACKLINK_SOURCE_BYTES = 8;
/**
 * get_note_links: count changes a backlinks walk keeps, at least (up to twice as many, let go in halves), so a client
 * paging its backlinks while notes are edited gets each linking file once: a later page places a file whose count changed
 * since the first page by its count then. Paged by the key alone, a note edited between two pages came twice or never.
 * Past it (more edits to the hub's linking notes between two of a client's pages) the page says the order changed.
 */
export const KEPT_BACKLINK_COUNT_CHANGES = 4096;
/**
 * get_note_links: kept count changes read (a page after a cursor, each file's count then) between two looks at the call's
 * clock. Read in one piece, up to 8,191 of them took 1.7-10 ms at every such page.
 */
export const BACKLINK_CHANGES_PER_CLOCK_CHECK = 512;
/**
 * get_note_links: the heap one kept count change holds, about: an object of two fields (its path, shared with the counts,
 * and the count before; 40 bytes without pointer compression) and its slot in the list (8).
 */
export const KEPT_BACKLINK_CHANGE_BYTES = 48;
/**
 * get_note_links: counts a backlinks walk moves in its kept order (binary search, a shift of the entries between the two
 * places) before it sorts the order again instead. A move at 100,000 linking files costs up to a shift of the list (90–280
 * µs of CPU, load 9) where the sort cost 200–320 ms: this many moves cost a fraction of one sort, and a vault-wide edit
 * of every linking note sorts once, not 100,000 shifts (8.7 s).
 */
export const BACKLINK_ORDER_MOVES_PER_SORT = 256;
/** list_templates page size: default and maximum (as list_notes', whose listing of a folder it is). */
export const LIST_TEMPLATES_DEFAULT_LIMIT = 100;
export const LIST_TEMPLATES_MAX_LIMIT = 1000;
/** Prompt notes offered in prompts/list at most (each is read to find its arguments). */
export const PROMPTS_LISTED = 200;
/**
 * Bytes of prompt notes (their size on disk) one prompts/list reads to find their arguments; a note
 * that would pass it is offered by its name alone, unread (prompts/get reads it and says what it
 * needs). Each read is a note's whole text: sixty planted notes of 880 KB were 1.9 s of CPU and
 * 5.4 s of wall in one prompts/list (load 4), on every call. Real prompt notes are a few KB; one
 * prompts/list of 200 of 40 KB reads them all.
 */
export const PROMPTS_LIST_READ_BYTES = 8 * 1024 * 1024;
/**
 * Characters of a prompt's or an argument's description (the note's frontmatter) sent in prompts/list
 * and prompts/get; a longer one is cut and its length said. Real descriptions are a sentence: seventy
 * prompt notes of 60 KB descriptions put prompts/list past the transport's body cap, so every prompt
 * of the folder was gone.
 */
export const PROMPT_DESCRIPTION_MAX_CHARS = 1024;
/**
 * Placeholders (`{{name}}`, each use counted) a prompt note may hold to be used: real prompts hold
 * a few dozen. A planted note of 80,000 was read three times in one piece on every prompts/get
 * (0.7 s), and once for each prompts/list. Over it, the prompt is listed without arguments and
 * prompts/get refuses it, naming the bound.
 */
export const MAX_PROMPT_PLACEHOLDERS = 1_000;
/** get_note_links: backlinks in one page (default / max); a note may have thousands. */
export const BACKLINKS_DEFAULT_LIMIT = 100;
export const BACKLINKS_MAX_LIMIT = 1000;
/** get_graph_stats: most-linked notes listed. */
export const GRAPH_TOP_LINKED = 10;
/**
 * Vault-wide answers name up to this many notes whose metadata is not read yet (a note over
 * MAX_STARTUP_PARSE_BYTES just after start; in Obsidian, any note while its cache is built): they are
 * left out of the answer, which is otherwise a silent "none". A few names tell the model to ask again;
 * every one of a vault being indexed would fill the answer.
 */
export const STILL_BEING_READ_LISTED = 10;
/**
 * Notes the kept list of notes with tasks looks at between two pauses as it first looks through the
 * vault (and again after a folder moves): one look is a metadata read, so 4,096 is about a millisecond.
 */
export const NOTES_WITH_TASKS_LOOK_STEP = 4096;
/**
 * Scopes whose get_graph_stats counts are kept note by note (the one asked longest ago is dropped):
 * each holds every visible note's links, about the size of Obsidian's own `resolvedLinks`, so a
 * few tokens' and settings' scopes, not one per call. A token's counts are never another's, since
 * the key is the whole scope (excluded folders and token folders).
 */
export const KEPT_GRAPH_STATS_SCOPES = 8;
/**
 * Most linked-to notes kept in order per kept scope of get_graph_stats: GRAPH_TOP_LINKED are
 * answered, the rest are spares, so the first ten are looked for again among every note linked to
 * (one comparison a note) only after 54 of them lost links or went.
 */
export const GRAPH_TOP_KEPT = 64;
/**
 * Notes changed at once past which the most linked-to notes are looked for again among every
 * note linked to, once, rather than kept in place as each note is set: a few comparisons a note
 * set against one a note linked to, so past a few hundred one look is cheaper (the first count sets every note).
 */
export const GRAPH_TOP_REFILL_CHANGES = 512;
/**
 * Notes with links pointing nowhere compared with the host's record (has it resolved them again?)
 * between two looks at the call's clock: a comparison is a lookup, far cheaper than a look at the
 * clock, and every get_graph_stats call makes one a note of them.
 */
export const ASKERS_COMPARED_PER_LOOK = 1024;
// Completions and subscriptions: a client asks on every keystroke, and a stream stays open for hours.
/**
 * Milliseconds between two `notifications/progress` of a tool call whose request has a
 * `progressToken`: well inside the 60 s an MCP SDK client waits by default, so one that resets its
 * timeout on progress keeps waiting for a long rename, and few enough to cost nothing.
 */
export const PROGRESS_NOTIFICATION_INTERVAL_MS = 2000;
/** Values one completion/complete answer holds at most (MCP's own cap is 100). */
export const COMPLETION_MAX_VALUES = 100;
/**
 * Bytes of JSON one completion's declared values hold at most: what a prompt note's whole frontmatter
 * may be headless (MAX_FRONTMATTER_BYTES), also inside Obsidian, whose parsed frontmatter has no bound.
 */
export const COMPLETION_MAX_BYTES = 64 * 1024;
/** Sorted note paths a completion looks at from the first candidate, at most: a keystroke never walks the whole vault. */
export const COMPLETION_SCAN_LIMIT = 2000;
/** Open subscriptions/listen streams of one token at once; one more is refused (429). */
export const MAX_SUBSCRIPTION_STREAMS_PER_TOKEN = 4;
/** Open subscriptions/listen streams over all tokens at once; one more is refused (429). */
export const MAX_SUBSCRIPTION_STREAMS = 32;
/** Note URIs one subscriptions/listen stream may watch for notifications/resources/updated (400 above it). */
export const MAX_SUBSCRIBED_NOTES_PER_STREAM = 100;
/** Changes in the vault are gathered this long before the streams are told: a 1,000-file change is one message per kind. */
export const SUBSCRIPTION_DEBOUNCE_MS = 300;
/** Changed paths held between two notifications; past it, what each stream is owed is worked out at once and the paths dropped. */
export const MAX_PENDING_CHANGED_PATHS = 10_000;
/** How often open streams are checked against the settings: a revoked token's stream ends within this long. */
export const SUBSCRIPTION_RIGHTS_CHECK_MS = 1000;
/** A comment line is sent on an idle stream this often, so clients and proxies know it is alive. */
export const SUBSCRIPTION_KEEPALIVE_MS = 15_000;
// Bases and canvases: a `.base` file is evaluated over every visible file, so its work is bounded per call.
/** query_base rows returned: default and maximum (a view's own `limit` may lower it). */
export const BASES_DEFAULT_ROWS = 100;
export const BASES_MAX_ROWS = 1000;
/**
 * Largest `.base` or `.canvas` file read, in bytes; larger ones are refused, and a larger canvas's
 * links are not counted either (16 MB of canvas took 0.3 s to parse; canvases Obsidian writes weigh
 * kilobytes: a few hundred bytes a card).
 */
export const BASES_MAX_FILE_BYTES = 256 * 1024;
/**
 * How many times a call that names or counts notes as it read them (query_base over a base whose values
 * name other notes, list_notes, list_templates, find_notes_by_tag, list_tags, get_graph_stats' tags) is made when a note moves out of the caller's
 * sight while it runs. The host renames its file objects in place: a note moved into an excluded folder
 * meanwhile was named, and counted, at the path it had left. After this many runs that each saw such a
 * move, the call answers that notes kept moving. Moves within sight do not count (renamesSeen.ts). Every
 * read call whose answer is made in slices (a big one) is made again the same way when such a move comes
 * at one of those pauses (runTool in server.ts).
 */
export const RUNS_WHILE_RENAMED = 3;
export const CANVAS_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Arrays and objects one inside another a canvas may open before it is parsed or its links read (JSON.parse of deep nesting cannot be paused). */
export const CANVAS_MAX_NESTING = 64;
/**
 * A canvas's JSON is parsed this many characters at a time, its lists cut at their commas: JSON.parse
 * of a 5 MiB canvas was one piece of about 0.1 s on the server's thread.
 */
export const CANVAS_JSON_PIECE_CHARS = 64 * 1024;
/**
 * Characters of a canvas's text cards read for links, all cards together: a card that would take
 * the total past it counts no links (the cards after it still do, within the total). Reading a
 * card's links parses its Markdown, about 0.4 s of CPU a megabyte: a canvas whose one card held
 * 4.3 MB of 540,000 links held a backlinks call 2 s of CPU (7.6 s at load 14) for a token that
 * cannot see one of its targets. Cards Obsidian users write hold a few hundred characters.
 */
export const CANVAS_MAX_LINKED_TEXT_CHARS = 512 * 1024;
/** Longest filter statement or formula, in characters, and deepest nesting of one (or of a filter tree). */
export const BASES_MAX_EXPRESSION_CHARS = 4000;
export const BASES_MAX_EXPRESSION_DEPTH = 64;
/**
 * Lines and flow items (`[a, b]`) a `.base` file's YAML may hold before it is parsed, which is done
 * in one piece: 7,000 filter lines held the server 0.3 s, and 25,000 keys 10 s. A real base has tens
 * (the three in the sample vaults, 10 to 15); 200 formulas and 50 views of a few lines fit.
 */
export const BASES_MAX_YAML_ENTRIES = 2_000;
/** How deep a `.base` file's YAML may nest: filters nested BASES_MAX_EXPRESSION_DEPTH levels take about two each. Brackets 125,000 deep took 1.3 s to refuse. */
export const BASES_MAX_YAML_DEPTH = 4 * BASES_MAX_EXPRESSION_DEPTH;
/** Aliases (`*name`) a `.base` file may use, and the yaml package's bound on what they expand to. */
export const BASES_MAX_YAML_ALIASES = 100;
/**
 * Expressions one inside another while a row is evaluated, formulas referring to formulas
 * included: each formula is bounded alone, but a chain of them nested past the stack's room (about
 * 2,800 levels: 150 formulas each adding twenty terms to the next) failed inside the server.
 */
export const BASES_MAX_EVAL_NESTING = 1000;
/** Formulas and views one base may define. */
export const BASES_MAX_FORMULAS = 200;
export const BASES_MAX_VIEWS = 50;
/** Evaluation steps (one per expression node, list element or compared row) one query may spend before it is refused. */
export const BASES_MAX_EVAL_STEPS = 2_000_000;
/**
 * Longest text and longest list an expression may build (`"x".repeat(n)`, `split`), so one formula
 * cannot fill memory. A list printed as text (`+`, `join()`, a sort comparing lists) is checked
 * before its text is built: 100 lists of 100 references to one megabyte text are 10 GB as text, and
 * building it ended the server for want of memory.
 */
export const BASES_MAX_VALUE_CHARS = 1024 * 1024;
export const BASES_MAX_LIST_ITEMS = 100_000;
/** Longest text a regular expression is run over: a pattern written in a base may backtrack, so its input is bounded. */
export const BASES_MAX_REGEX_INPUT_CHARS = 2_000;
/** Unbounded repeats (`*`, `+`, `{n,}`) a base's regular expression may hold: one keeps a search at most quadratic in its input. */
export const BASES_MAX_REGEX_UNBOUNDED_REPEATS = 1;
/**
 * Ways a base's regular expression's repeats may match together (the product of their counts: `?`
 * is 2, `{2,5}` is 4, the one unbounded repeat 2); a single `{n,m}` of more counts is unbounded.
 * Each way can walk the whole input again: four `a{0,16}` (17⁴ ways) before an `a*` took minutes
 * on 2,000 characters, in one piece that cannot be paused; 16 ways take about 40 ms.
 */
export const BASES_MAX_REGEX_WAYS = 16;
/** Rows with an evaluation error in a filter, listed by path in query_base's answer (all are counted). */
export const BASES_FILTER_ERRORS_LISTED = 20;
/**
 * One file's filters and cells are evaluated in one piece (an expression cannot be paused): a piece
 * that works longer ends the query, so a base whose formulas work on megabyte texts cannot hold
 * other clients (steps alone do not bound it: one step may copy a whole text). Counted in CPU time
 * where the runtime reports it, never wall time: at a load of 19 a piece of a few ms of work passed
 * 100 ms of wall time and the same query on the same vault was refused.
 */
export const BASES_MAX_PIECE_MS = 100;
/**
 * The wall time one piece may hold the thread whatever its work: BASES_MAX_PIECE_MS counts work, so on
 * a core shared ten ways a piece of 100 ms of work would hold the thread (in Obsidian, the app's UI)
 * for a second or more. Ten times the work bound: a piece ends here only on a machine so busy that
 * everything on it is that much slower.
 */
export const BASES_MAX_PIECE_WALL_MS = 10 * BASES_MAX_PIECE_MS;
/**
 * The longest text that methods doing work per character or per piece (`title`, `reverse`,
 * `replace`, `split`, `escapeHTML`) take: on a megabyte text each took a third of a second to
 * seconds in one piece.
 */
export const BASES_MAX_PER_CHARACTER_INPUT_CHARS = 100_000;
/**
 * Longest format a base's `format()` takes: a format costs microseconds per character in one piece
 * (a million `[` took seconds).
 */
export const BASES_MAX_DATE_FORMAT_CHARS = 256;
/** Characters of a text a method works on, or of the texts in a list walked (printed, compared), that count as one evaluation step. */
export const BASES_TEXT_CHARS_PER_STEP = 64;
/** Evaluation work (CPU time where the runtime reports it) one query may spend in all, summed over its pieces (waiting for others not counted). */
export const BASES_MAX_QUERY_WORK_MS = 1_000;
/** list_bases page size: default and maximum. Each base of a page is read for its view names (within LIST_BASES_WORK_MS); the next page is had with next_cursor. */
export const LIST_BASES_DEFAULT_LIMIT = 100;
export const LIST_BASES_MAX_LIMIT = 200;
/** list_bases looks at the call's clock every this many of the vault's files while it looks for bases (a power of two, less one). */
export const BASES_LISTING_CHECK_MASK = 4095;
/**
 * list_bases: CPU it may spend reading bases, all together; the bases left are listed by path,
 * each saying it was not read. Each base is read in steps, but 50 planted bases of 190 formulas
 * were 0.8–1.9 s of CPU in one call (1.7–4.7 s of wall at load 10). A base people write reads in a
 * millisecond or two.
 */
export const LIST_BASES_WORK_MS = 200;
/**
 * read_canvas page size, nodes and edges together (nodes first, then edges): default and maximum.
 * A canvas is read whole (its size is bounded by CANVAS_MAX_FILE_BYTES), and answered a page at a
 * time: one of more than 5,000 nodes was refused, one of thousands of long cards cut to fit, with no
 * way to ask for less.
 */
export const READ_CANVAS_DEFAULT_LIMIT = 1000;
export const READ_CANVAS_MAX_LIMIT = 10_000;
/** resources/list: the most recently modified notes listed. */
export const RESOURCE_LIST_SIZE = 50;
/** Suggestions offered when a note is not found. */
export const NOT_FOUND_SUGGESTIONS = 5;
/** Headings named in an error about a heading that is not in a note (a note may have thousands). */
export const HEADINGS_LISTED = 100;
/**
 * The most characters of a heading read_note echoes as `section` (its text is also the start of
 * content). An 800 KB heading echoed whole left its section no room in the answer: content "".
 */
export const MAX_ANSWERED_SECTION_CHARS = 1024;
/** Headings after the cut that read_note's `read_further` names, to read the rest of a cut section or note. */
export const READ_FURTHER_HEADINGS = 5;
/**
 * Notes whose headings read_note keeps read and keyed after looking into one by heading: enough for
 * a model going back and forth between a few notes; each keeps a text, a key and three numbers a
 * heading (a note of 150,000 headings, about 8 MB).
 */
export const HEADING_PLACES_KEPT_NOTES = 4;
/** Sections or bullets named in an error about a heading or bullet argument that matches several (all are counted). */
export const MATCHES_LISTED = 20;
/**
 * The most characters of one argument or one text of a note an error message quotes back (a heading,
 * a bullet, a template or view name, a tag, a base's value): the rest is counted, not quoted. An
 * append under a missing heading of 480 KB answered with all 480 KB; a note of 100 headings of a
 * megabyte each would make the list of its headings 100 MB.
 */
export const ERROR_ECHO_MAX_CHARS = 200;
/**
 * An error message over MAX_RESPONSE_BYTES is sent cut to this many characters and its length, so
 * it still says what went wrong: it was replaced by the generic "ask for less", wrong for an error
 * (a vault setting of megabytes quoted in it, no argument to narrow).
 */
export const ERROR_CUT_TO_CHARS = 4000;
/** Longest path accepted, in characters; longest single name, in UTF-8 bytes. */
export const MAX_PATH_LENGTH = 1024;
export const MAX_NAME_BYTES = 255;
/**
 * V8 hashes a string longer than this by its length alone (its `String::kMaxHashCalcLength`), so in a
 * `Map`, a `Set` or a plain object every such key of one length shares one hash and each look compares
 * with all of them, in full: 4,000 distinct 17,000-character keys in one Map took 16.7 s of CPU, and
 * 4 planted notes of 480 such links held the headless server 15 s at start. A `SplitStringMap` keeps
 * longer keys apart, by a seeded hash of all their characters; a link path that long is keyed nowhere
 * (MAX_VAULT_PATH_CHARS); a tag that long is kept in SplitStringMaps (search's tag filter, find_notes_by_tag, the tag counts).
 */
export const V8_HASHED_STRING_MAX_CHARS = 16_383;
/**
 * No file's path in a vault is longer than this many characters (Linux's and macOS's PATH_MAX are
 * 4,096 and 1,024 bytes for the whole path; Windows' 32,767 characters only with its long-path
 * prefix, and a path this long there takes 65 folders of the longest names). A link path longer
 * resolves to nothing, unread: a planted link of 4 MB was lowercased whole, in one piece of 50–130
 * ms, each time it was resolved (only a link padded to this length with `./` or leading slashes would
 * resolve in Obsidian; here it is listed as unresolved). No longer than V8_HASHED_STRING_MAX_CHARS, so
 * a path or a link path that reaches a file is a key V8 hashes whole; a longer link path asks for no
 * name and is kept in no record of links by key (it is counted, and get_note_links names it). A string
 * an answer gives as a file's path is never cut to a part to fit (CUT_TO_FIT_SHORTEST_BYTES) unless it
 * is longer: it names no file whole.
 */
export const MAX_VAULT_PATH_CHARS = 16_383;
/** Longest file name of a note written by a tool, in UTF-8 bytes: room is kept for `.NNNNN.bak` and the file system's 255. */
export const MAX_NOTE_NAME_BYTES = 240;
/** How long a request waits in line for an in-flight place (its token's share, or any) before 503. */
export const PLACE_WAIT_MS = 2_000;
/** Requests of one token that may wait in line at once; more get 503 at once. */
export const MAX_WAITING_PER_TOKEN = 16;
/**
 * The longest note, in characters, the write tools change (before and after the change). Each edit
 * reads the note's lines in one piece, several times over: at 4 MB of prose one append held every
 * other client about 0.8 s, at 1 MiB about 0.2 s.
 */
export const MAX_EDITED_NOTE_CHARS = 1024 * 1024;
/**
 * A note longer than this in bytes is over MAX_EDITED_NOTE_CHARS, known without reading it: a UTF-16
 * code unit takes at most 3 bytes of UTF-8 (a byte that is not UTF-8 decodes to one). An edit made
 * again on a note another program grew past it is refused unread: beside a program appending 200 MB/s,
 * the edit's second read took the note's hundreds of megabytes in only to refuse them.
 */
export const MAX_EDITED_NOTE_BYTES = 3 * MAX_EDITED_NOTE_CHARS;
/**
 * The most lines a note the write tools change may have (before and after the change): an edit's
 * cost follows the lines, so 260,000 short lines held other clients 0.4–0.5 s, 100,000 about 0.18 s.
 */
export const MAX_EDITED_NOTE_LINES = 50_000;
/** Times a write is redone on fresh text when another program changed the note while it was being written. */
export const MAX_WRITE_ATTEMPTS = 5;
/**
 * How long the headless vault keeps redoing an edit of a note that another program keeps changing
 * (a log appended every few milliseconds): five quick attempts lost 61 of 100 races to a program
 * appending every 2 ms. Past it, the edit fails and nothing is written.
 */
export const WRITE_RETRY_BUDGET_MS = 3_000;
/** The first pause between two such attempts; each later pause doubles, up to WRITE_RETRY_MAX_PAUSE_MS, with random jitter so the two writers fall out of step. */
export const WRITE_RETRY_FIRST_PAUSE_MS = 1;
/** The longest pause between two attempts of one edit. */
export const WRITE_RETRY_MAX_PAUSE_MS = 64;
/**
 * How long after replacing a note (headless) the file it replaced is looked at once more for lines
 * another program appended to it: a program that opened the note just before the rename may write
 * a moment later, descheduled on a busy machine, to the file no name leads to any more.
 */
export const LATE_APPEND_RECHECK_MS = 50;
/**
 * How many more LATE_APPEND_RECHECK_MS waits (headless) the file a note's edit replaced is given when it
 * is found shorter than what the edit read: a program rewriting the note in place (truncate, then
 * write) truncated it just before the rename and has not written yet, descheduled on a busy machine.
 * Its text, once written, goes to a copy beside the note; 20 waits are a second.
 */
export const RACED_REWRITE_RECHECKS = 20;
/**
 * How long after its last change a note read empty is taken as empty by a headless edit: before that
 * it is most likely another program rewriting it in place (truncated, its new text not yet written,
 * which at a load of 13-15 on 2 cores took tens of milliseconds), and the edit is tried again (within
 * WRITE_RETRY_BUDGET_MS). Made on the empty text, the edit passed its last look (the file still empty)
 * and its rename put the note's whole earlier text, written a moment later, out of the note (636 of
 * 868 lines in one run of 100 set_property calls). A note made empty and never written since waits not.
 * The same holds for a note read a whole number of pages long (4,096 bytes): the other program's
 * write may be half done, and an edit made on that prefix cut the note there (task80).
 */
export const EMPTY_NOTE_SETTLE_MS = 200;
/**
 * How long after its last change a note read empty, whose file still holds blocks on the disk, is
 * taken as still being emptied (headless): a truncation the file system has not finished, which
 * on ext4 waits for the disk to finish writing the pages it drops. Beside a program rewriting its
 * note in place every 2 ms, at a load of 8-15 on 2 cores, the note stayed so for 230+ ms at a
 * time, past EMPTY_NOTE_SETTLE_MS, and every complete_task in that time was planned on the empty
 * text and refused as "not the task" in a few ms (runs of 7-35 calls in a row, task80; of 12, task87).
 * Its blocks were still held in 74,900 of 76,200 looks finding it empty (none once the
 * truncation is done; a new empty file has none). Bounded: a file of 0 bytes
 * that holds blocks for good (space kept for it by fallocate) is edited once this has passed.
 */
export const TRUNCATING_NOTE_SETTLE_MS = 2_000;
/**
 * How long (headless) a write call's plan waits for the text of a note it read empty, or a whole
 * number of pages long, while another program rewrites it in place (see EMPTY_NOTE_SETTLE_MS and
 * TRUNCATING_NOTE_SETTLE_MS), looking at its size every EMPTY_PLAN_READ_POLL_MS and reading it
 * again once it changed. The six reads again at set times it made before (315 ms) found the note
 * empty all seven times in each call refused that way (1-12 complete_task calls of 100 a run, task87).
 */
export const EMPTY_PLAN_READ_WAIT_MS = 1_000;
/** How often that wait looks at the note's size (one lstat: microseconds). */
export const EMPTY_PLAN_READ_POLL_MS = 2;
/**
 * Bytes another program appended to a note's old file, carried to the new file after an edit
 * replaced it (headless), per piece: the event loop is given back between pieces. Read in one piece,
 * a program appending hundreds of megabytes to the old file held the server for the whole read. Also
 * the most whole lines an edit's last look copies after its text: more, and the edit is made again
 * on the fresh text, which holds them.
 */
export const LATE_APPEND_PIECE_BYTES = 64 * 1024;
/**
 * Bytes a headless edit reads past the size its note had when it was opened: bytes another program
 * appends during the read, up to this, are part of the text edited; past it the read stops (at a
 * line end in its last piece when there is one) and the edit's last look handles the rest as it
 * does any late append (whole lines carried, or the edit made again). Read to the end instead, a
 * program appending faster than the server reads (`yes >> note.md`) kept one edit reading for as
 * long as it ran, the note's write lock held and the server's memory growing with the file.
 */
export const NOTE_READ_GROWTH_BYTES = 64 * 1024;
/** How often a running `serve` looks at data.json for token and settings changes made by the CLI or the plugin. */
export const SETTINGS_POLL_INTERVAL_MS = 250;

// The lock every undo of a vault holds while it undoes a call (`withUndoLock`: a folder beside the journal), in Obsidian and in `vault-mcp undo`.
/**
 * Times an undo tries again for the lock another undo of the same vault holds (in Obsidian or `vault-mcp undo`), 200 ms apart
 * (about a minute), before it gives up, nothing changed. Two at once each planned from the vault before the other wrote: the
 * second said a renamed note "had changed since" and saved a copy of it beside the one the first had just moved back.
 */
export const UNDO_LOCK_RETRIES = 300;
/** Wait between two tries for the undo lock. */
export const UNDO_LOCK_RETRY_MS = 200;
/**
 * An undo lock this old is taken over (its holder keeps it fresh every half of this), from another machine (a vault on a
 * shared disk) at once, on this machine only when no process has its holder's id too: one paused (`kill -STOP`) past this
 * kept running when it was resumed, beside the undo that took its lock over; one in another id space of the same host
 * (Obsidian from Flathub) keeps it fresh.
 */
export const UNDO_LOCK_STALE_MS = 10_000;

// The lock every process takes around a read-modify-write of data.json.
/** A settings lock this old is one a crashed process left: it is taken over. It is kept fresh while held, so a slow write never passes it. */
export const SETTINGS_LOCK_STALE_MS = 10_000;
/** Times a settings write tries again for the lock before it gives up with an error (at most about a minute of waiting, for a busy disk). */
export const SETTINGS_LOCK_RETRIES = 300;
/** Shortest wait between two tries for the settings lock. */
export const SETTINGS_LOCK_RETRY_MIN_MS = 5;
/** Longest wait between two tries for the settings lock. */
export const SETTINGS_LOCK_RETRY_MAX_MS = 200;

/** Longest search query accepted, in characters. */
export const MAX_QUERY_LENGTH = 500;
/**
 * Phrases one search takes, wanted and excluded together (`"a b"`, `-"a b"`, and a typed word the
 * tokenizer splits: `kebab-case`, `a.b`); more are refused before any note is looked at. Each phrase
 * is looked for in every note holding its words (their pair sketch, then the body), so the cost
 * follows phrases × notes, not the answer: on 40,000 notes each holding the phrases' words, a word
 * less 45 excluded phrases took 1.2–2.3 s of CPU against VAULT_WIDE_CALL_WORK_MS (2 s), the next
 * calls 0.8–1.3 s (45 phrases' reads are over PHRASE_LEARNT_MEMO_NOTES). At 16 a
 * search's first call took 0.5–0.8 s excluded and 0.5–1.1 s wanted (later calls 0.06–0.6 s); at 24,
 * 0.9–1.6 s and 1.5 s: 16 is the most with about twice the budget to spare (40,000 notes, load 14–16).
 * The held-out query sets hold at most 4 (camelCase names split into words).
 */
export const MAX_QUERY_PHRASES = 16;
/**
 * Notes a search's phrases may be looked for in, summed over its phrases (wanted and excluded): each
 * phrase's candidates, the notes holding all its words (among those a folder or tag accepts), as the
 * postings tell before any note is read. Past it the search is refused at that point, naming the
 * count, this bound and what to send instead: its reads would cost about 1.7–2 µs a note a phrase, so
 * 16 phrases each in every note of 100,000 (1.2–1.6 M) took 1.1–2.8 s of CPU at their first call,
 * over VAULT_WIDE_CALL_WORK_MS (2 s) for wanted phrases, and stopped. MAX_QUERY_PHRASES phrases of
 * 40,000 notes each, as answered before this bound, is 640,000: 1.1–1.3 s (load 4), 0.5–1.1 s at load 14–16.
 */
export const MAX_QUERY_PHRASE_NOTES = MAX_QUERY_PHRASES * 40_000;
/**
 * Shortest query word, in characters, that also matches the longer words it starts: a
 * one-letter prefix stands for thousands of word forms in a real vault and ranks nothing a person
 * wants, so a shorter word matches only itself.
 */
export const MIN_PREFIX_CHARS = 2;
// Search ranking by evidence strength: word forms and the soft AND.
/**
 * Dictionary words looked at to find the forms of one query word (words sharing its stem's
 * start, each stemmed): bounds the work of one word in a vault whose vocabulary is huge.
 */
export const MAX_WORD_FORM_CANDIDATES = 2_000;
/**
 * Query words whose merged postings (the word, its forms, its expansions and the longer words it
 * starts, as one list) the index keeps for the next search of the same word, until a note is added
 * or removed. Merging a common word's forms was a fifth of a one-word search's CPU at 10,000
 * notes, and a person or an agent searches the same words again as they refine a query. Each kept
 * union is 8 bytes a note holding the word: at most 16 × 400 KB at 50,000 notes.
 */
export const WORD_UNION_MEMO_WORDS = 16;
/**
 * Phrases whose candidates (the notes holding every word, each with its bound, and the tables a
 * note's body is checked with) the index keeps for the next search of the same phrase, until a
 * note is added or removed: their words' unions and intersection were a quarter of a common
 * two-word phrase's CPU at 50,000 notes. Fewer than words: a phrase's shift-and masks are 4 bytes a
 * dictionary word for each 32 of its words, and a last word that is a prefix of many words adds a
 * byte a dictionary word (1.2–1.5 MB at 300,000 words; a 500-character query's longest phrase, 9.6 MB).
 * Each distinct word's other ids are a set: as tables by id, a phrase of 165 two-letter words held 50 MB.
 */
export const PHRASE_CANDIDATES_MEMO_PHRASES = 4;
/**
 * Notes (summed over phrases) whose phrase values read from their bodies the index keeps past the
 * phrases' candidates (PHRASE_CANDIDATES_MEMO_PHRASES), 9 bytes each: 9.4 MB at most. A search
 * stopped at its work budget says the same call again gets further, and a query may hold up to
 * MAX_QUERY_PHRASES phrases: with only the last four phrases' reads kept, a search of twenty-six
 * phrases stopped the same way at every call. A search of 16 phrases each held by every note fits
 * whole up to 65,536 notes. Past it, earlier searches' phrases are let go first, never the search's
 * own (PostingsIndex.keepLearnt): a search of more phrases than fit keeps its first ones' reads for
 * its next call.
 */
export const PHRASE_LEARNT_MEMO_NOTES = 1_048_576;

/**
 * Fewest notes an earlier search of a phrase must have found its pair sketch rules out before a
 * search looks up which of its candidates they are, to leave them out of its best-first heap
 * (CandidateFinder.ruledOutSteps): the look-up is a pass over every candidate, and each note left
 * out saves two turns of the heap. At 50,000 common-word notes a phrase whose words stand side by
 * side in most notes (`"garden project"`, a few dozen refined) ran 1–4 ms slower with the pass; one
 * whose words rarely do (`"review market"`, about 11,000 ruled out) about twice as fast.
 */
export const RULED_OUT_MIN_NOTES = 1_024;
/**
 * When fewer notes than a search ranks (the page, or PROXIMITY_CANDIDATES if more) hold every
 * query word, the notes holding at least this share of the words (rounded up; one word fewer for a
 * note whose title or an alias holds one of them) join them. The count is not the page's, so a page
 * of 1 is the first note of a page of 10 or 20, ties included. Where the notes holding every word fill the page, a
 * note named by one of the words (title or alias) and holding that share still competes on its
 * score: a page named for the topic that lacks an everyday word of the question ("work with video
 * and audio files") beats long notes that mention every word in passing. While fewer notes than the
 * page hold that share, the notes holding one word fewer fill it, down to one word: a question in
 * words the vault does not use is never left with no answer while a note holds one of them.
 */
export const SOFT_AND_MIN_WORD_SHARE = 0.5;
/**
 * A search of several words ranks at least this many notes, whatever its page size, and reorders
 * them by how close each keeps the words (a passage holding most of them, PROXIMITY_WINDOW tokens):
 * the page's notes and the next ones, so a note just below it may move up. Only these are read, so
 * the work is bounded. A page up to this size is the first notes of any larger one up to it.
 */
export const PROXIMITY_CANDIDATES = 20;
/** The tokens of a body (about a paragraph) in which a query's words count as said together. */
export const PROXIMITY_WINDOW = 80;
/** The tokens of a note's body read for its words' proximity, at most: 20 notes of a 5 MB vault stay a few milliseconds. */
export const PROXIMITY_MAX_TOKENS = 20_000;
/**
 * Tokens of a body from which its level-1 and level-2 sections are kept for ranking (sections.ts):
 * a note this long is cut for saying a question's words in different sections (SECTION_SHARE). A
 * shorter note's sections are a rule page's `Rule details` and `Options`, one topic: cutting them
 * at 700 tokens cost CodeceptJS 0.011 MRR, at 1,000 no set lost (rank87).
 */
export const SECTION_MIN_TOKENS = 1_000;
/**
 * Characters of a note looked through for where its level-1 and level-2 headings start: the
 * proximity pass reads PROXIMITY_MAX_TOKENS tokens of a body, which real text holds in well under
 * this, and a 5 MB note is not looked through in one piece.
 */
export const SECTION_SCAN_MAX_CHARS = 262_144;
/**
 * When at most this many notes hold every word of a search's quoted phrases, all are read for the
 * phrases: the total is exact. When more do, they are ranked first by what their words' counts
 * allow and read best first, until no unread note could enter the page; the page is the same, and
 * the answer says its total counts only the notes read (`total_is_lower_bound`).
 */
export const PHRASE_READ_ALL_MAX_NOTES = 2_000;
/** The search index is built in slices of at most this long, so Obsidian's interface never stalls. */
export const INDEX_BUILD_SLICE_MS = 40;
/**
 * A long note changed once the index is built is indexed (or taken out) in slices of at most this
 * long: clients are answering meanwhile, and each waits behind one such slice at each step it takes
 * (the build's longer slices cost Obsidian's window timers fewer clamped pauses).
 */
export const INDEX_UPDATE_SLICE_MS = 10;
/**
 * Times a long note's commit plan, stale once in slices (another note was removed or replaced
 * meanwhile, as at start when notes' metadata comes in), is made again in slices before it is
 * installed: after that the last one is made again at once, in the piece that installs it. Each try
 * only sizes lists (the note is not counted again); without a bound, a vault whose notes change
 * without end would keep a note out of the index.
 */
export const INDEX_REPLAN_ATTEMPTS = 3;
/**
 * Times a note's install into the index that failed (a list that could not grow: out of memory) is
 * tried again, in a later slice, before the note is left out of answers until its next change (and
 * named in their notice). A failed install was left out silently, logged nowhere.
 */
export const INDEX_INSTALL_RETRIES = 1;
/** Notes an answer's notice names as left out of the index (their install failed); the rest are counted. */
export const INDEX_FAILED_NOTES_LISTED = 10;

// Vault-wide calls (tasks, tags, graph counts, notes lists, search while the index builds): CPU per call.
/**
 * A call that walks the whole vault gives the event loop back after this much work, so another
 * client's request (or, in Obsidian, the interface) waits at most about this long behind it.
 */
export const VAULT_WIDE_SLICE_MS = 10;
/**
 * Work one vault-wide call may do in all, summed over its slices (time spent waiting for others is
 * not counted): past it the call ends with an error that says how to narrow it.
 */
export const VAULT_WIDE_CALL_WORK_MS = 2_000;
/**
 * A request of a token with nothing else being answered, calling no write tool, goes before other tokens' long work: their
 * next slices wait while it is answered, for at most this long (it may be waiting for something
 * that needs them, such as a note another call is writing). Once it takes a turn of long work
 * itself, or this time is up, it takes turns with the others like any call. Nor does another
 * token's slice wait longer than this behind several such requests one after the other, and once
 * one has, other tokens' slices go freely for as long again.
 */
export const LONE_REQUEST_FIRST_MS = 100;
/**
 * search_notes ranks and writes snippets in slices of at most this long: searches are the calls
 * clients make most often, so a flood of them leaves a shorter wait in front of everyone else.
 */
export const SEARCH_SLICE_MS = 5;
/**
 * Once the search index is ready and while no client asks anything, the server asks itself searches
 * of the kinds people ask (one word, two, phrases, a prefix, an exclusion, a folder and a tag filter,
 * snippets of a made-up note's text: no note is read) on words its notes use, in SEARCH_SLICE_MS
 * slices, their answers thrown away: the code a first search runs for the first
 * time in the process (compiled, its type feedback gathered, then optimized), and the dictionary's
 * sorted view, otherwise cost a person's first searches 3–60 ms of CPU each, where later ones cost
 * 2–3 ms (10,000 notes, over HTTP). This is the most CPU the warm-up may use in all (its 15 searches
 * took 280–370 ms of CPU at 10,000 notes, on a machine at load 13–16); a client's request or a stop ends
 * it at once, and it waits while a request let in before it is being answered. A new scope's index
 * (the excluded folders changed) warms up again, with the same bound.
 */
export const SEARCH_WARM_UP_WORK_MS = 400;
/** Words the warm-up asks about (the most held of those it looks at): enough for its queries' kinds. */
export const SEARCH_WARM_UP_WORDS = 10;
/** Words the warm-up looks at for its queries' words, the first the index met (the most held among them are asked about): a bound on that look, whatever the vault's size. */
export const SEARCH_WARM_UP_WORDS_LOOKED = 2_048;
/** The index's first slots whose notes the warm-up looks at, by their paths and tags only, for a folder and a tag to filter by. */
export const SEARCH_WARM_UP_NOTES_LOOKED = 64;
/**
 * While the search index is still being built, the build gets at least this many milliseconds of
 * work for each millisecond of anything else (searches, other requests): a search first indexes
 * further notes (the build's own work, done sooner) until that holds again, then answers from what
 * is indexed. At 6 the build keeps at least 6/7 of the time, so a client searching from the first
 * second leaves the index ready within 1.2× its idle time.
 */
export const SEARCH_BUILD_WORK_SHARE = 6;
/** A search helps the build at most this long, so no answer waits for the whole build however busy the server is. */
export const SEARCH_BUILD_HELP_MAX_MS = 200;
/**
 * Filters (a folder, a tag, the caller's scope) whose accepted notes the search index keeps, and
 * brings up to date as notes change (ACCEPTED_PATCH_SLOTS), so the same filter again does not look
 * at its notes again: at 50,000 notes, a tag carried by 40,000 of them took 35 ms of each search.
 * One byte a note each.
 */
export const ACCEPTED_FILTERS_KEPT = 4;
/**
 * Note versions changed (added, removed, re-tagged; an edit is three) since a kept filter answer up
 * to which the next search with that filter asks about those alone; past it, the older half is
 * forgotten and a filter kept before that looks at all its notes again. Measured at 50,000 notes:
 * 100 cost about 0.5 ms of CPU, 500 about 1.5 ms; a whole walk of a tag on 40,000 notes 26–39 ms.
 */
export const ACCEPTED_PATCH_SLOTS = 1_024;
/** Paths whose "note in scope?" answer is remembered per scope, and scopes remembered (tokens can see different folders). */
export const IN_SCOPE_MEMO_PATHS = 200_000;
export const IN_SCOPE_MEMO_SCOPES = 16;
/** A request body must arrive within this long after its headers (408 otherwise), so slow senders hold no one up. */
export const BODY_READ_TIMEOUT_MS = 10_000;
/**
 * Open connections the server accepts at once, of every kind; more are dropped, so nothing can exhaust
 * file handles. Connections without a valid token are capped far lower (MAX_UNAUTHENTICATED_CONNECTIONS).
 */
export const MAX_CONNECTIONS = 1024;
/**
 * Largest body of a refused request (405, 401, 404, 429 …) that is read and thrown away so the
 * connection stays open for the client's next request; a larger one is answered with the
 * connection closed, so nobody can make the server read megabytes it will never use.
 */
export const MAX_REFUSED_BODY_DRAIN_BYTES = 64 * 1024;
/** Longest server name a connection snippet gives a client (`vault-` and the vault's name, cut to fit). */
export const MAX_SERVER_NAME_LENGTH = 48;
/** JSON-RPC messages in one batch (400 above it). */
export const MAX_BATCH_ENTRIES = 32;
/**
 * How deep a request body's arrays and objects may nest (400 past it). An MCP message nests six or
 * seven levels with its arguments; the server's walks over a request (the write budget's byte count)
 * recurse, and a set_property value of arrays 5,000 deep overflowed the stack: the caller got
 * "Internal server error." and no reason.
 */
export const MAX_REQUEST_NESTING = 64;
/**
 * Object members (keys) one request body may hold in all, counted over every object in it (400 past it).
 * A message with its arguments holds a few dozen. A megabyte body holds 120,000: the SDK's message
 * schema copied them in one piece of 173–215 ms (keys beside `jsonrpc`, or in `_meta`), a tool's
 * argument schema in one of 67–98 ms (extra arguments). Arrays' items are not counted: they cost
 * the schemas little (a list of 130,000 numbers: a 5 ms piece). Counted in the body's text before it is
 * parsed (its parse alone was 37–68 ms), so a key given twice in one object counts twice.
 */
export const MAX_REQUEST_OBJECT_KEYS = 4096;
/**
 * Arrays and objects one request body may hold in all (400 past it). A message with its arguments
 * holds a few dozen (a batch of 32, a few hundred). A megabyte body of 330,000 empty arrays or
 * objects, within the other bounds, was parsed and walked by the SDK's message schema in pieces of
 * 23–48 ms, then answered. Counted in the text before it is parsed, as MAX_REQUEST_OBJECT_KEYS.
 */
export const MAX_REQUEST_CONTAINERS = 4096;
/**
 * How long stopping the server waits in all: for subscription streams to end with their closing result, for the
 * answers of calls that wrote to be sent, and for calls already running to finish their work. One bound shared by
 * the three waits, one after another: a bound each made a stop's worst case three times this.
 */
export const STOP_TIMEOUT_MS = 10_000;

// Fair service under pressure: what one client, or a process with no token, may take.

/** Requests one token may have being answered at once (503 above it), so one client never holds every place. */
export const MAX_IN_FLIGHT_PER_TOKEN = MAX_IN_FLIGHT_REQUESTS / 2;
/** Time a client has to take a whole answer once it is written; one that does not read is dropped and its place freed. */
export const RESPONSE_WRITE_TIMEOUT_MS = 10_000;
/** Largest answer body for one request, batch included; answers past it become short errors, so a stuck reader holds little memory. */
export const MAX_RESPONSE_BODY_BYTES = 2 * MAX_RESPONSE_BYTES;
/** Default write tool calls a minute per token (429 above it); a setting. */
export const DEFAULT_WRITE_CALLS_PER_MINUTE = 180;
/** Default bytes of write tool arguments a minute per token (429 above it); a setting. */
export const DEFAULT_WRITE_BYTES_PER_MINUTE = 8 * 1024 * 1024;
/** A new connection that has not sent a complete request head within this long is closed. */
export const FIRST_REQUEST_TIMEOUT_MS = 2_000;
/** Connections open at once that have not yet presented a valid token; a new one past it closes the oldest. */
export const MAX_UNAUTHENTICATED_CONNECTIONS = 64;

// Huge notes: parsing is linear in a note's length, and long work is cut into slices.
/**
 * A note larger than this, in UTF-8 bytes, is listed, read and linked like any other, but its body
 * is not searched (its title and headings are): tokenizing 5 MiB takes about a quarter of a
 * second and its tokens about 20 MiB of index, while no real note comes close (the 50,000-note
 * bench vault averages 2 KiB a note). `get_vault_status` names such notes.
 */
export const MAX_SEARCHABLE_NOTE_BYTES = 5 * 1024 * 1024;
/**
 * A note larger than this, in bytes, is not read by the headless server: it is listed and found
 * by its title, but has no text, metadata or links there, and a call that needs its text is refused
 * with this bound named. A note's text is one JavaScript string, and its first use (a slice, a
 * hash, a parse) makes V8 copy it into one flat string in one step that no slicing can split
 * (flat halves joined are copied whole too): about 3 ms a MiB of the server's thread, 69–77 ms per
 * read of a 16 MiB note, 0.2 s at 64 MiB, and nothing bounded a note before. Reads of a note just
 * under this bound took 35–58 ms. Above MAX_SEARCHABLE_NOTE_BYTES, so a note between the two is
 * still read and linked; no real note comes close (the 50,000-note bench vault averages 2 KiB a
 * note). In Obsidian, Obsidian reads notes itself.
 */
export const MAX_READ_NOTE_BYTES = 8 * 1024 * 1024;
/**
 * Notes named in `rename_note`'s `notes_not_read` (over MAX_READ_NOTE_BYTES, so a link there was not
 * rewritten): each is megabytes on disk, so a real vault has a few at most; the bound keeps a planted
 * vault of thousands from making every rename's answer megabytes long.
 */
export const UNREAD_NOTES_LISTED = 20;
/** Notes named in `get_vault_status`'s `unsearched_notes` (the count is always given). */
export const UNSEARCHED_NOTES_LISTED = 20;
/**
 * Frontmatter longer than this, in characters, is not parsed as YAML (the note has no properties,
 * as with broken YAML): neither the YAML lexer nor its parser can be paused, and 256 KiB took
 * 0.25–1 s; real properties are a few KiB.
 */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;

// Hostile frontmatter: bounds checked before the YAML parser runs, since it cannot be paused.
/**
 * Lines and flow-list items (counted by line ends and commas) a frontmatter may hold to be parsed as
 * YAML: the parser cannot be paused and its time follows them (20,000 `key: value` lines took about
 * 1 s), while real properties are tens of lines.
 */
export const MAX_FRONTMATTER_ENTRIES = 2_000;
/**
 * Levels of nesting (flow brackets, indented blocks, `- - -` items) a frontmatter may have to be
 * parsed as YAML; real properties nest two or three deep. The parser's time grows with depth, and
 * 130,000 levels once made it abort the process for want of memory.
 */
export const MAX_FRONTMATTER_DEPTH = 64;
/**
 * set_property gives other clients a turn between its steps (bounds, parse, write out) once a step
 * has run this long: none of them can be paused inside, so a 2,000-property frontmatter is three pieces, not one.
 */
export const PROPERTY_EDIT_SLICE_MS = 10;
/**
 * Longest property name set_property writes, in characters. Real names are a few words; a
 * 200,000-character name was written into the frontmatter, where every later read of the note's
 * properties paid for it.
 */
export const MAX_PROPERTY_NAME_CHARS = 256;
/** Aliases (`*name`) a frontmatter may use. */
export const MAX_FRONTMATTER_ALIASES = 100;
/**
 * The yaml package's count of values built from aliases while a frontmatter's properties are read
 * (its `maxAliasCount`): ten lists of ten aliases of the list before would otherwise build ten
 * billion values from 600 characters.
 */
export const MAX_FRONTMATTER_ALIAS_EXPANSION = 10_000;
/**
 * Values (each scalar, list and map) a frontmatter's properties may hold once its aliases are
 * expanded: twice what a frontmatter without aliases can hold (MAX_FRONTMATTER_ENTRIES), so only
 * aliases reach it. Every reader walks the expanded value (its links, its search text, answers):
 * 99 aliases of one 1,800-item list were 180,000 values, 0.5 s in one piece on each parse.
 */
export const MAX_FRONTMATTER_EXPANDED_VALUES = 2 * MAX_FRONTMATTER_ENTRIES;
/**
 * Characters of text (keys and strings) a frontmatter's properties may hold once its aliases are
 * expanded: twice MAX_FRONTMATTER_BYTES, so only aliases reach it. 99 aliases of one 56 KB text of
 * links were 5.6 MB and 800,000 property links, 1.5–2.4 s in one piece on each parse of the note.
 */
export const MAX_FRONTMATTER_EXPANDED_CHARS = 2 * MAX_FRONTMATTER_BYTES;
/**
 * Characters of note text the headless vault keeps in memory (least recently used dropped first):
 * about 1,000 typical notes, at most 4 MiB of heap (the heap budget).
 */
export const MAX_CACHED_TEXT_CHARS = 2 * 1024 * 1024;
/**
 * Headless, a name missing as spelt, and in its NFC and NFD spellings, is looked for in the mixes of the two (each accented
 * letter composed or decomposed) for names of at most this many accented letters: 2^4 = 16 looks (lstat) at most, instead of
 * listing its folder (14.7 ms of CPU at 20,000 names, on every call naming a missing accented folder).
 */
export const NAME_SPELLINGS_MIXED_LETTERS = 4;
/**
 * Headless, names a folder's listing for `listedFolderNames` (a new note's folder judged by its listed name) reads between two
 * turns of the event loop, a few a system call: a root of 20,000 names read in one piece held every client for all of it.
 */
export const FOLDER_LISTING_PIECE_NAMES = 1024;
/**
 * Headless, entries of one folder a listing reads (`listedFolderNames`, and the folder lookups' check of a name as listed)
 * before it stops and answers that the folder holds too many to look through: read whole, a root of 200,000 folders was
 * 95-120 ms of a create_note's CPU at every call making a folder in it (in pieces, but no end to them). About 50 ms of CPU
 * here, in pieces; a folder of this many entries is one no person lists in Obsidian either.
 */
export const FOLDER_LISTING_MAX_ENTRIES = 100_000;
/** Notes up to this size (bytes) missing from that cache are read synchronously (microseconds; a thread-pool read costs more). */
export const MAX_SYNC_READ_BYTES = 256 * 1024;
/**
 * Files whose stats the headless vault's first listing asks for at once (then it may pause): all of a
 * folder's at once came back from the thread pool in batches of thousands, each handled in one piece.
 */
export const SCAN_BATCH_FILES = 64;
/**
 * Pauses (ms) before the headless metadata cache reads again a note whose read failed for a passing
 * reason (too many open files, a busy or locked file): one try more per entry. A note that failed
 * at start and once after stayed without links, backlinks and headings until it changed.
 */
export const NOTE_READ_RETRY_PAUSES_MS: readonly number[] = [500, 5_000, 30_000];
/**
 * While a note keeps changing, the headless metadata cache waits this many times its last parse's
 * time (from its read to its end) after that parse ends before parsing it again: its changes meanwhile
 * are read by that one parse. The queue then spends at most about a quarter of its time on such a note,
 * and a note changed once after a quiet spell is parsed at once. Another program appending to a 1 MB
 * note every 5 ms had it parsed back to back, 23–26 full parses in 5 s.
 */
export const NOTE_REPARSE_GAP_PARSE_TIMES = 3;
/**
 * The longest that gap (NOTE_REPARSE_GAP_PARSE_TIMES): a note's metadata is behind its last change by
 * no more than this, plus the queue's wait and the parse. A write call's notes and a wait for the
 * cache to settle (a rename's, a CLI command's) are parsed without it.
 */
export const NOTE_REPARSE_GAP_MAX_MS = 1000;
/**
 * Pauses (ms) before the journal tries again to append the `drop` of a change whose write failed,
 * when that append failed too (too many open files, a full disk): the same passing errors as a
 * note's read, so the same pauses. Until it lands (at a retry, with the next record, or as the
 * journal is closed when the process stops), the change is hidden in this process; `vault-mcp
 * history` listed such never-made changes as made.
 */
export const JOURNAL_DROP_RETRY_PAUSES_MS: readonly number[] = [500, 5_000, 30_000];
/**
 * Headings the headless metadata parse keeps of one note (and MAX_NOTE_SECTIONS sections). Past them its lines are
 * still read for links, tags, list items and block ids, and the note is listed, linked and read whole;
 * a heading asked for past the bound is "not read" (`describeHeadingPlaces`). A note of 400,000 `#`
 * lines (800 KB) kept 400,000 of each: 2.7-2.9 s of CPU to take in at start (hold76: 4.9 s at its load),
 * about 150 MB of objects before they were packed, and thirty such notes 63 s and 201 MB of heap.
 */
export const MAX_NOTE_HEADINGS = 100_000;
/** Top-level sections (`CachedMetadata.sections`) the headless metadata parse keeps of one note, as MAX_NOTE_HEADINGS headings: past them its blocks are still read for links, tags, list items and block ids. */
export const MAX_NOTE_SECTIONS = 100_000;
/** Notes larger than this (bytes) are parsed just after the headless server starts, not before it listens. */
export const MAX_STARTUP_PARSE_BYTES = 1024 * 1024;
/**
 * Slices (METADATA_PARSE_SLICE_MS each) a note's parse may take before `serve` listens: a note that
 * needs more is parsed just after, in slices, as one over MAX_STARTUP_PARSE_BYTES (its tasks, tags
 * and links count once parsed; answers name it as still being read). Before, a note of 100,000
 * `- [ ]` lines held serve's start 400–580 ms of CPU, a table of 30,000 rows of links and tags 480
 * ms, and a real 450 KB changelog 300 ms; each is now given up after about 20 ms and parsed after.
 */
export const STARTUP_PARSE_SLICES_PER_NOTE = 2;
/**
 * The headless metadata cache parses a huge note in slices of at most about this long, so requests are
 * still answered: each slice is a turn of the process's lane, and another client's call waits behind
 * one slice at each step it takes. At 40 ms, a flood of megabyte creates held another token's calls
 * at a p99 of 300–460 ms on a busy machine.
 */
export const METADATA_PARSE_SLICE_MS = 10;

// Symbolic links (the jail): what is searched and named.

/** Hidden symbolic links named in the settings tab and on the CLI's stderr; the rest are counted. */
export const HIDDEN_LINKS_NAMED = 20;
/** Folders the link search (inside Obsidian) descends into at most, so a huge tree cannot stall the check. */
export const MAX_FOLDERS_SEARCHED = 50_000;
/** How long after a vault change (inside Obsidian) the list of hidden links is searched again. */
export const LINK_SEARCH_DELAY_MS = 1_000;

/** Tool calls the write journal keeps; the oldest are dropped first. */
export const MAX_JOURNAL_ENTRIES = 1_000;
/** Bytes the write journal file may hold; the oldest calls are dropped first. */
export const MAX_JOURNAL_BYTES = 50 * 1024 * 1024;
/**
 * Bytes of write-journal lines parsed between two pauses when a journal another process replaced
 * (the CLI's trim) or added much to is read in (one line is never cut); also the most a record, a
 * drop or a listing reads in at once: more is left to a catch-up in pieces after it. Read whole,
 * tens of megabytes of note texts were parsed in one piece, inside a note's write or Obsidian's UI.
 */
export const JOURNAL_READ_PIECE_BYTES = 64 * 1024;
/**
 * Bytes added to the journal while a trim wrote the calls it keeps that the trim copies after them
 * (a byte copy, no parse), JOURNAL_READ_PIECE_BYTES at a time through the thread pool, its last,
 * synchronous step at most one such piece: copied in one step, 16 MiB held the server for the copy.
 * More, and the trim is tried again later: a program adding without pause is not chased.
 */
export const JOURNAL_TRIM_TAIL_BYTES = 16 * 1024 * 1024;
/**
 * Bytes one tool call's journal records may take (its notes' text before and after): a larger call
 * is refused before anything is written or asked, so no single call evicts the undo of the calls before it.
 */
export const MAX_JOURNAL_CALL_BYTES = 12 * 1024 * 1024;
/**
 * Characters of a note's text hashed, escaped for a journal line, or read as task lines, per piece:
 * a 1 MiB note's record (two hashes, its JSON, its UTF-8 bytes) held the event loop 0.1–0.3 s in
 * one piece, a 5 MB note's hash in read_note tens of milliseconds, a thousand task lines of 2,000
 * characters 0.1 s; a piece of this size takes a few milliseconds.
 */
export const NOTE_TEXT_PIECE_CHARS = 64 * 1024;
/** Work on a long note's text in pieces gives the event loop back after this long: other clients wait behind one slice at most. */
export const NOTE_TEXT_SLICE_MS = 10;
/**
 * Names tried in the trash folder (each taken, by a note of that name trashed before) between two
 * turns given back to the event loop: a note trashed beside 1,000 of its name held it 61-67 ms of
 * CPU in one piece, 3,000 121-141 ms (each try a few system calls on the loop, the folder held open).
 */
export const TRASH_NAMES_PER_PIECE = 50;
/**
 * The note texts whose SHA-256 read_note remembers, in characters all told (the texts themselves
 * are kept to compare with, most of them the very strings the vault's text cache holds): a note read
 * again unchanged is not hashed again. A text over this is hashed every time.
 */
export const NOTE_HASH_MEMO_CHARS = 8 * 1024 * 1024;
/**
 * The longest 2026-07-28 `_meta` envelope (as JSON text) remembered per connection once the SDK's
 * check took it: the same envelope sent again on that connection is not checked again. A longer
 * one is checked every time. A real client's envelope is a few hundred characters.
 */
export const MODERN_ENVELOPE_REMEMBERED_CHARS = 4096;
/**
 * The deepest 2026-07-28 `_meta` envelope remembered per connection (levels of objects and arrays):
 * a deeper one is checked every time, and never made into text (nested thousands deep, that
 * overflowed the stack).
 */
export const MODERN_ENVELOPE_REMEMBERED_DEPTH = 8;
/**
 * A direct answer (a read tool's result, the tool list) whose JSON text is shorter than this, in
 * characters, is made and written at once, in the turn its call finished: no promise per step
 * between the call and the socket. A longer one is made and written in pieces, taking turns. Under
 * a JSON piece (64 Ki characters), so either way it is written as one piece.
 */
export const ANSWER_AT_ONCE_CHARS = 16 * 1024;
/**
 * A rename's link changes applied as one group: recorded in the journal with one write and one disk
 * flush, then written at once (each its own atomic edit of a different note, compared at its write).
 * The undo of such a rename records its link changes back in groups of this size too, written one after another.
 */
export const RELINKS_APPLIED_AT_ONCE = 64;
/**
 * A rename reads and rewrites every note linking to the renamed one in slices of at most this long:
 * one note may hold tens of thousands of links to it, and in Obsidian the work runs on the interface thread.
 */
export const RENAME_PLAN_SLICE_MS = 10;
/**
 * Characters of a note's text looked through at a time for the renamed note's name, when the cache has
 * not parsed the note yet (left at serve's start, or changed on disk and queued): such a note is relinked
 * from its text when it may name the note. A look of 64 Ki characters lowercased is well under a slice.
 */
export const RENAME_NAME_LOOK_CHARS = 64 * 1024;
/**
 * Bytes of notes the cache has not parsed one rename reads to look for the renamed note's name (by
 * their listed sizes); those past it are named in `notes_not_read`. Such notes are not counted against
 * MAX_JOURNAL_CALL_BYTES (only looked through), so without this a vault at start with a hundred notes
 * of megabytes not yet parsed was read whole by every rename.
 */
export const RENAME_UNPARSED_LOOK_BYTES = 16 * 1024 * 1024;
/**
 * When either journal bound is passed, the oldest calls are dropped until the journal holds at most
 * this share of each bound, so the file is rewritten once every hundred or so calls rather than on every call.
 */
export const JOURNAL_KEEP_AFTER_TRIM = 0.9;
/**
 * A trim never drops the newest calls: the one just recorded and the one before it, so one big
 * call cannot evict the undo of the call before it.
 */
export const JOURNAL_NEWEST_CALLS_KEPT = 2;
/** The journal is trimmed once appends have paused this long (a call records its notes in one burst), off the write path. */
export const JOURNAL_TRIM_QUIET_MS = 1_000;
/** Under steady writing, the journal is trimmed this long after it passed a bound at the latest. */
export const JOURNAL_TRIM_MAX_WAIT_MS = 30_000;
/**
 * A trim's temporary file not written to for this long is one whose trim never ended (the process killed, the computer
 * off before its rename) and is removed by a later trim; a younger one may be another process's trim under way.
 */
export const JOURNAL_STALE_TRIM_FILE_MS = 60 * 60 * 1000;
/**
 * A replace's temporary file (beside its note) not written to for this long was left by an edit a crash cut short
 * (`kill -9` of a serve during a hub rename of 400 linking notes left 1 in 8 kills) and is removed when the server next starts; a
 * younger one may be another process's edit under way (its pieces are written seconds apart at most; one removed under
 * it makes that edit read the note again and be made again).
 */
export const STALE_NOTE_TEMPORARY_MS = 10 * 60 * 1000;

/**
 * The crash's temporary files (STALE_NOTE_TEMPORARY_MS) looked at and removed in one piece as the server starts, before
 * the event loop turns: each is a folder check, an `lstat` and a removal (about 40 µs), and 20,000 in one piece held the
 * loop 789 ms while other clients may already be connected.
 */
export const LEFT_TEMPORARIES_PIECE_FILES = 64;
/** Calls `vault-mcp history` lists unless --limit says otherwise. */
export const HISTORY_DEFAULT_LIMIT = 20;
/** Journalled calls the settings tab's Activity section lists, newest first (the CLI's `history` reaches the rest). */
export const ACTIVITY_CHANGES_SHOWN = 20;
/** How long a tool call set to Ask waits for the person's decision (default; a setting). */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 120;
/** The shortest and longest approval wait a person may set. */
export const MIN_APPROVAL_TIMEOUT_SECONDS = 10;
export const MAX_APPROVAL_TIMEOUT_SECONDS = 3_600;
/**
 * Tool calls of one token that may wait for the person at once (the one shown included); past it a
 * call is refused at once and writes nothing. Questions are served one token at a time in turn, so
 * this bounds how long a flood from one token delays its own calls, not anyone else's.
 */
export const MAX_WAITING_APPROVALS_PER_TOKEN = 20;
/**
 * How long a question stays on screen untouched while another token's call waits: then it goes
 * back in line (keeping the time it has left to be answered) and the other token's question is
 * shown, so a token whose questions nobody answers cannot hold the screen.
 */
export const APPROVAL_TURN_MS = 5_000;
/**
 * After a question gave way to another, or its "always allow" changed under the person (a right it named left Ask: the
 * terminal prints the prompt again, the window redraws its buttons), how long it takes no answer: a key or click meant
 * for what was there must not land on what is there now.
 */
export const APPROVAL_SWAP_GRACE_MS = 1_000;
/** Bytes of input typed ahead of a terminal question that are read and thrown away when it is shown (a bound on the work a long paste costs). */
export const TERMINAL_TYPED_AHEAD_MAX_BYTES = 64 * 1024;

/** Unchanged lines shown around each change in a diff. */
export const DIFF_CONTEXT_LINES = 3;
/** Lines of a change (removed plus added) past which a diff is not worked out line by line: the window says how many lines each side has. */
export const DIFF_MAX_EDIT_LENGTH = 1_000;
/**
 * Work (lines compared, edits tried) the line-by-line match of one change may take; past it the
 * change is shown whole, its new lines then its old ones, like one past DIFF_MAX_EDIT_LENGTH. The
 * match is O(lines × edits) at worst: it bounds how long Approve is held back while a change is
 * worked out (1,024 steps of DIFF_STEP_WORK, a few seconds of slices at worst), and is high enough
 * that an edit spread through a long note is still shown line by line (100,000 lines with every 200th
 * edited: 244 steps; a million with every 2,000th: 1,342), which a bound of 64 steps showed whole.
 */
export const DIFF_MAX_MATCH_WORK = 1_024 * 4_096;
/** Lines of one diff printed at a time in the terminal of an interactive `serve`; the rest are counted and shown a page at a time on request. */
export const TERMINAL_DIFF_LINES = 80;
/** Lines of one diff drawn at a time in the approval and "Show change" windows, one element each; the rest are counted and drawn a page at a time on request ("Show the next 5,000 lines"), so a huge new note cannot stall Obsidian. */
export const WINDOW_DIFF_LINES = 5_000;

// Internal tuning: how work is sliced and cached. No README row; changing one changes no answer.

/**
 * Lines a diff looks at (split, compared, walked) between two points where it may pause: two 1 MiB
 * notes took 0.1–0.3 s in one piece on Obsidian's UI thread; this many lines take well under a
 * millisecond, so a slice (NOTE_TEXT_SLICE_MS) is not overrun by much.
 */
export const DIFF_STEP_WORK = 4_096;
/** Characters of a note's text counted as one line's work when a diff splits it into lines: a note of one line of 50 MiB is looked through in pieces, like one of many lines. */
export const DIFF_LINE_CHARS = 64;
/** Lines of a diff drawn in a window (one element each) between two points where it may pause: up to WINDOW_DIFF_LINES elements are not made in one piece of Obsidian's UI thread. */
export const WINDOW_DIFF_LINES_PER_STEP = 256;
/**
 * An edit of a note that changed since it was planned is made again on the new text: allowed without
 * asking, on any text; approved, if it still removes and adds the lines the person saw. Up to this many
 * characters that is done inside the note's atomic edit; a longer note's (up to MAX_EDITED_NOTE_CHARS,
 * past which the tools refuse at once) is made again, compared and recorded outside it, in slices
 * (inside, a 1 MiB note's two diffs, hashes and journal line were one piece), and the atomic edit tried
 * again on that text.
 */
export const REDO_IN_EDIT_MAX_CHARS = 64 * 1024;
/** Times a long note that keeps changing is edited again outside its atomic edit; then it is done inside, in one piece, rather than not written. */
export const REDO_OUTSIDE_EDIT_ATTEMPTS = 3;

/**
 * Years' worth of days (10,958) a recurrence's next occurrence is searched through, counting only
 * the periods its interval reaches: 30 years of `every hour`, 90 of `every 3 years`; a rule with
 * none in them (`every hour on the 31st in February`) is an error. rrule alone would search to the
 * year 9999, which held the server 9–20 s per call; its work follows the same days (20 ms for 27
 * years of an hourly rule). A weekday on 29 February comes back within 28 years.
 */
export const MAX_RECURRENCE_SEARCH_YEARS = 30;
/**
 * Characters of a recurrence rule read at all: the longest rule Tasks writes (every weekday named,
 * `when done`) is under 100. rrule reads a rule of 160,000 characters (`Monday, ` over and over) in
 * 170–250 ms of one piece, on a hostile task's completion.
 */
export const MAX_RECURRENCE_RULE_CHARS = 256;
/**
 * Days one completion's recurrence search checks in all, over the first search and every step back:
 * four times the MAX_RECURRENCE_SEARCH_YEARS of the first. A rule stepping back 366 times, each
 * step finding an occurrence years away (`every 3 years on the 5th Monday in February`), checked
 * 2.4 million days in 250–450 ms of one piece; real rules step back at most 3 times a few weeks each.
 */
export const MAX_RECURRENCE_DAYS_CHECKED = 4 * Math.ceil(MAX_RECURRENCE_SEARCH_YEARS * 365.25);
/** Days a monthly or yearly recurrence steps back to land in the month or year it names (Tasks needs at most 3); a bound against a rule that never lands. */
export const MAX_RECURRENCE_STEP_BACK_DAYS = 366;
/** Opens of one file in a row that may find it replaced mid-way before the path counts as unstable (headless). */
export const OPEN_ATTEMPTS = 5;
/** How long an unlink waits for the matching add of a rename (headless file watching). */
export const RENAME_PAIRING_MS = 150;
/**
 * How much longer, at most, an unlink waits once RENAME_PAIRING_MS has passed for the watcher to
 * answer the events it had by then (a look at each path they named, a listing of each folder): a
 * folder another program moved is listed a few notes at a time, and a busy machine (or a big folder)
 * outlasted the pairing wait, so its notes were reported deleted and made again instead of moved.
 * The bound: a file that keeps changing keeps its look going.
 */
export const RENAME_PAIRING_LOOKS_MS = 5_000;
/**
 * Entries the file watcher's queues (events not yet answered by a look, unlinks waiting for them)
 * may hold before the answered or ended ones are cut out, when they are most of the queue: a look
 * that never ends (a share that stopped answering) kept every event answered after it, about one a
 * look. A queue holds what is still open (two events a look under way, one a listing; one wait a
 * delete not yet told) and at most as many again or this many answered or ended ones: nothing open is
 * cut, so no delete is told sooner or later (`OpenEvents`).
 */
export const WATCH_QUEUE_COMPACTED_AT = 1024;
/**
 * How long the headless watcher waits after the first event for a path before it looks at it (events
 * meanwhile are one look): a note another program writes shows as made (empty) and then written,
 * a moment apart, and was listed half-written in between.
 */
export const WATCH_SETTLE_MS = 40;
/**
 * How long an approved rename waits, headless, for the notes other programs wrote just before the
 * approval to be parsed (the watcher's WATCH_SETTLE_MS look, then the parse), before it compares the
 * notes linking to the renamed one with those shown. A note written on disk at the moment of approval
 * was otherwise left linking to a path no longer there. Past it (a file that keeps changing, a parse
 * queue behind a huge note), the rename goes on with what the cache knows, as Obsidian's does. Planning
 * waits as long for the cache's parse of a note not parsed yet whose text may name the renamed note;
 * past it, the plan parses that note's links itself.
 */
export const RENAME_CATCH_UP_MS = 1000;
/**
 * How long a write call's answer waits, headless, for the metadata cache to have parsed the notes it
 * wrote (and every change reported before them): a read that follows the answer is then answered
 * from what was written. The parse runs in slices after the write, and `get_note_links` right after
 * appending a link to a note of 50 hostile tag lines named none (2 of 8 runs at a load of 20). Past
 * it (a parse queue behind a huge note), the write answers and its notes' metadata follows.
 */
export const WRITTEN_NOTES_PARSED_WAIT_MS = 1000;
/**
 * Links resolved between two looks at the slice clock (headless metadata cache): 4096 made pieces of
 * 80-130 ms at load 13 when a file created under a name re-resolved a note linking 200,000 names.
 * A note's links count one each plus one for each file a link is compared with (every file of the
 * name it asks for): 512 links to a name 3,000 folders hold were pieces of 250 ms.
 */
export const RESOLVE_CHECK_INTERVAL = 512;
/**
 * Pause points of the Markdown parser's stepped work (markdown/steps.ts): how many units of each
 * loop run between two points where a huge note's parse may pause for the host. Small enough that
 * a step stays well under a slice (METADATA_PARSE_SLICE_MS), large enough that looking at the
 * clock costs nothing next to the work.
 */
/** Lines split into markdown-it's line tables between two pause points. */
export const LINE_SPLIT_PAUSE_LINES = 4096;
/** Line starts found between two pause points when a note's line index is built. */
export const LINE_INDEX_PAUSE_LINES = 16_384;
/** Characters jumped to by the inline scanner (links, embeds, tags) between two pause points. */
export const INLINE_SCAN_PAUSE_STEPS = 4096;
/**
 * Characters of a link reference definition's `data:` destination read to find its host, which
 * decides whether markdown-it takes it as a link (normalizing the whole of a 4 MB one was one piece
 * of 3-5 s; this many cost ~5 ms). The one form read differently: an allowed `data:image/png;`
 * behind a host longer than this that mdurl drops for its length, taken for a refused `data:` link.
 */
export const REFERENCE_DATA_HOST_READ_CHARS = 16 * 1024;
/**
 * Characters the inline scanner reads between two pause points when it matches a note's brackets and
 * parentheses, or decodes a Markdown link's destination: each was one pass over the whole text, so a
 * link of a 4 MB destination (`[t](/xxx…)`) was one piece of ~460 ms.
 */
export const INLINE_PASS_STEP_CHARS = 64 * 1024;
/**
 * Ints in each array the inline scanner's bracket and parenthesis matches are kept in, made when first
 * written (256 KiB; the last only as long as the rest): arrays as long as a note's openers, made and filled whole, were one piece of
 * 180-200 ms for 8 million parentheses.
 */
export const ZEROED_INTS_CHUNK = 64 * 1024;
/** Characters of a wikilink read into its display text (`a#b#c` → `a > b > c`) between two pause points. */
export const DISPLAY_TEXT_STEP_CHARS = 16 * 1024;
/** Block tokens visited between two pause points. */
export const TOKEN_VISIT_PAUSE_TOKENS = 256;
/** Notes waiting behind a big note's install counted for a search's "index: updating" notice between two pause points. */
export const UPDATING_NOTICE_PAUSE_COUNT = 1024;
/** Lines gathered for the inline scan, or its findings stored, between two pause points. */
export const INLINE_ITEMS_PAUSE_COUNT = 1024;
/** Lines of one block read in steps (a paragraph, list, quote, code, HTML, `%%` or `$$` block) before the work may pause. */
export const BLOCK_CHUNK_LINES = 2000;
/** Cells of one table (header cells and filled-in cells count) made, or columns of its first two lines checked, before the work may pause: markdown-it makes three tokens a cell, and a row or header may be cut between two cells. */
export const TABLE_CHUNK_CELLS = 8192;
/**
 * Characters of text tokenized between two looks at the clock, when a huge note is tokenized in
 * steps: a chunk of words one or two characters long (zero-width spaces between letters, CJK) is
 * about 10,000 tokens, each looked up in the dictionary.
 */
export const TOKENIZE_CHUNK_CHARS = 16 * 1024;
/**
 * Longest word search reads: a longer run of letters and digits is read as words of this length
 * (Lucene's StandardTokenizer cuts at the same 255). A word is stemmed, hashed and quoted whole, so
 * one word of a megabyte held the server 3–4 s and put an answer over 2 MiB; no word a person types
 * is this long (a SHA-256 in hex is 64).
 */
export const MAX_WORD_CHARS = 255;
/** Paths whose match keys are remembered; the cache is cleared when it fills. */
export const MATCH_KEY_CACHE_SIZE = 100_000;
/**
 * A note's word-pair sketch (search/pairSketch.ts) is written in one piece as the note enters the
 * index, so only bodies of up to this many words get one (about 30 ms for the longest; a 4 MB note's
 * held the server 0.6 s). A phrase is looked for in a longer body by reading it, as before sketches.
 */
export const MAX_SKETCHED_BODY_WORDS = 32_768;
/** Body text shorter than this is tokenized at once; longer text in slices, so the host keeps answering. */
export const SLICED_TOKENIZE_CHARS = 256 * 1024;
/**
 * Words the search index reads of a note shorter than SLICED_TOKENIZE_CHARS before it goes on in
 * slices, as for a longer note: a 106 KB frontmatter of 9,000 keys is 18,000 new words, taken in one
 * piece of 50–180 ms. It is checked after each step (a TOKENIZE_CHUNK_CHARS chunk, up to 10,000
 * words), and a note of ordinary length (under about 25 KB of prose) stays one piece.
 */
export const ONE_PIECE_INDEX_WORDS = 4096;
/**
 * The longest heading or frontmatter `title` search shows as a note's title (ranked like an alias)
 * when its file name is a code or a slug. A file name has at most 240 bytes; a longer "title" is a
 * paragraph (a million lines over a `===`), whose words took 900 ms to compare in one piece.
 */
export const SHOWN_TITLE_MAX_CHARS = 1024;
/** Notes with at least this many tags in the body have their tag keys collected in slices too. */
export const SLICED_TAGS = 16_384;
/**
 * Parents a nested tag is indexed under for search's tag filter (`a/b/c/d/e` under `a` … `a/b/c/d`):
 * a filter by one of them names the nested tags under it at once; a filter nested deeper looks
 * through the tags under its parent at this depth. Real tags nest a few deep.
 */
export const NESTED_TAG_PARENTS_INDEXED = 4;
/** Tags of one note counted by list_tags between two looks at the call's clock (a planted note may hold 50,000). */
export const SLICED_TAGS_COUNTED = 1024;
/**
 * Parents a nested tag counts for in list_tags and get_graph_stats, at most (the tag itself always
 * counts): a planted `#a/a/a/…` of a megabyte has half a million parents whose texts add up to
 * 250 billion characters, and counting them ran the server out of memory. Real tags nest a few deep.
 */
export const MAX_TAG_PARENTS_COUNTED = 32;
/**
 * Token scopes whose tag counts are kept between calls (until a note changes), the oldest dropped
 * first: each holds a slot per tag of the scope, tens of megabytes for a vault of 800,000 tags.
 */
export const KEPT_TAG_COUNT_SCOPES = 4;
/**
 * Tasks of one note derived between two pause points. The search index keeps the tasks of a note
 * with fewer list items than this as it reads the note; a note with more is left to list_tasks,
 * which derives them in slices (30,000 tasks took 0.4 s in one piece).
 */
export const SLICED_TASKS = 1024;
/**
 * Times list_tasks walks the vault again when a note was renamed or moved out of sight while its call
 * paused: the page was cut at `limit` in the old path order, so tasks the new order puts first could be
 * missing. Each walk is cheap once notes' tasks are known; renames during every walk fall back to
 * renaming the listed tasks in place.
 */
export const RENAMED_WALKS_REDONE = 2;

/**
 * tools/list answer budgets: every client puts the whole list into the model's context
 * on every session. Bytes of the JSON result for a read token, and for a token with every write tool.
 */
export const TOOL_LIST_READ_MAX_BYTES = 8 * 1024;
/**
 * The list with every tool was 11,834 bytes before list_bases, query_base and read_canvas; the three
 * take 1,151 bytes at their shortest useful descriptions (12,985 in all), so this budget was raised
 * from 12 KiB to 13 KiB for them. The read token's list (7,050 bytes with them) keeps its budget.
 */
export const TOOL_LIST_ALL_MAX_BYTES = 13 * 1024;

/**
 * Characters of date and time formats one template may fill (`{{date}}`, `{{time}}`,
 * `{{date:FORMAT}}`; each counts its format's characters and two more); a template over it is
 * refused. Each costs microseconds per character in one piece: 100,000 `{{date}}` held the server
 * 0.8 s, and one format of 60,000 `[` 5 s before dayjs's brackets were made linear.
 */
export const TEMPLATE_MAX_DATE_FORMAT_CHARS = 10_000;

/**
 * Characters of the Daily Notes date format (`daily-notes.json`'s `format`) that is used; a longer one
 * leaves the file unused (Obsidian's defaults apply, and the answer says why). The format names a note
 * path (at most MAX_PATH_LENGTH characters, the same 1,024), and reading a name back by it is quadratic in its length:
 * create_note in the daily folder beside a format of 60,000 `[` held the server 6.7 s in one piece
 * (1.6 s at 30,000; the 256 K characters a settings file may have, over 100 s). At this bound, 2 ms.
 */
export const DAILY_NOTE_MAX_FORMAT_CHARS = 1024;

/**
 * Characters of title one template may fill (each `{{title}}` counts the title's characters and two
 * more); a template over it is refused. A template of 500,000 `{{title}}` (4.5 MB) filled with a
 * 200-character title made 96 MiB of text, with pieces of 100–160 ms and 0.8 s of the server's CPU
 * before the journal's bound refused it; a 900 KB one filled to 10 MB was written.
 */
export const TEMPLATE_MAX_TITLE_CHARS = 100_000;

/**
 * The longest settings file of Obsidian's or its plugins' (app.json, templates.json,
 * daily-notes.json, the Tasks plugin's data.json) that is read; a longer one is taken as missing and
 * each setting has its default. Real ones are a few kilobytes: a planted app.json of 19 MB was
 * parsed on every write and list_templates, in pieces of 280–340 ms.
 */
export const OBSIDIAN_SETTINGS_MAX_CHARS = 256 * 1024;

/**
 * The bytes a settings file may have on disk to be read at all: OBSIDIAN_SETTINGS_MAX_CHARS characters
 * take at most 3 bytes each in UTF-8, so a longer file is over the characters too and is refused by its
 * size, unread. The character bound alone came after the read: a 19 MB app.json was read whole and
 * decoded on every write, and one append_to_note beside a 1.5 GB (sparse) app.json took 4.6 s and 1.56 GB of memory.
 */
export const OBSIDIAN_SETTINGS_MAX_BYTES = 3 * OBSIDIAN_SETTINGS_MAX_CHARS;

/**
 * Keys the first hash table of a `SplitStringMap` (or `SplitStringSet`) holds; later keys go to
 * SPLIT_MAP_PARTS tables. V8 grows a Map or Set by copying every entry into a table twice the
 * size, in one step: a note's 800,000 distinct tags, gathered in one Set, paid that copy at 524,288
 * entries, one piece of 200–430 ms. Split, no table grows past about a SPLIT_MAP_PARTS-th of the entries.
 */
export const SPLIT_MAP_FIRST_KEYS = 8_192;
/**
 * Values in one chunk of a `ChunkedArray`: the most copied at once when a chunk grows. V8 grows an
 * array by copying all it holds; four arrays of a note's 800,000 tag counts grew in one piece of
 * 80–120 ms at 570,000 entries. A chunk of 16,384 grows by copying at most about 11,000.
 */
export const CHUNKED_ARRAY_CHUNK = 16_384;
/**
 * Words the search dictionary's first table holds (its `SplitStringMap`'s `firstKeys`); later words
 * go to the parts. A word in the first table is found with V8's hash alone: split at
 * SPLIT_MAP_FIRST_KEYS, every word of a 39,000-word vocabulary also paid the map's own hash, and
 * indexing's look-ups took 1.36 times as long. V8 grows a Map by copying every entry into a table
 * twice the size, in one step: a note of 550,000 new words grew the dictionary's one Map in a piece
 * of 40–70 ms; here a growth copies at most half the first table (25–50 ms).
 */
export const DICTIONARY_FIRST_WORDS = 262_144;

// Markdown parsing: how long pieces of a note are looked at in steps.
/**
 * markdown-it refuses a destination whose normalized form (mdurl's parse, format and encode) starts
 * with `javascript:`, `vbscript:`, `file:`, or `data:` other than `data:image/(gif|png|jpeg|webp);`.
 * That form starts with the destination's protocol, unchanged, and then, for `data:`, its host part
 * (up to the first `/`, `?` or `#`); the rest is only encoded character by character. So the
 * normalized form of a prefix holding the protocol (a longer one than this is no refused one) and a
 * `data:` host starts as the whole one's does, for the few characters that are tested.
 */
export const DECIDING_DESTINATION_LENGTH = 1024;
/**
 * Past this many places after `from` with none to cut at, the text there holds four `%XX` in a row
 * that continue a character (80 to BF): no UTF-8 character has more than three, so the whole fails
 * to decode, and so does a piece, wherever it is cut. Looking on to the end for a place held the
 * server: 4 MB of `%80` were looked through in one piece of 160-190 ms.
 */
export const DECODE_CUT_SEARCH_CHARS = 12;
/** Headings looked at (keyed, or their levels or offsets compared) between two points where resolving a subpath may pause. */
export const SUBPATH_HEADING_STEP = 2048;
/**
 * A block id (`^id`) read_note looks for in the note's text before its block records, with a regular
 * expression, only up to this long; a longer one is looked up in the records alone. Past about 50,000
 * characters the pattern is too large for one (a SyntaxError: read_note "failed inside the server").
 */
export const BLOCK_ID_PATTERN_MAX_CHARS = 1024;
/**
 * Characters of headings keyed between two points where resolving a subpath may pause (a heading
 * counts at most this much: a longer one is compared, not keyed). Keying is 30–70 ms a megabyte:
 * 7,000 headings of 1 KB were keyed 2,048 at a time, in pieces of 45 ms.
 */
export const SUBPATH_HEADING_STEP_CHARS = 128 * 1024;
/**
 * A heading longer than this (real ones are a line of a few words) is not keyed when a link's
 * heading is looked for, nor is a link's heading this long: the two are compared as far as they
 * agree (`sameHeadingKey`). A planted note of one 7 MB heading was keyed whole, in one piece of
 * 543 ms, by read_note of any of its headings; a read_note path of a megabyte (`a:` over and over) in one of 36–130 ms.
 */
export const HEADING_KEYED_MAX_CHARS = 4096;
/**
 * Characters other than ASCII lowered at once when a heading's print is read (`keyPrintSteps`): a
 * run of them is lowered in pieces this long (ASCII is folded as it is read), so a heading of
 * megabytes of Greek is never lowered whole (7 MB of it in one piece: 42–49 ms).
 */
export const HEADING_PRINT_LOWERED_CHARS = 4096;
/** Lexer tokens read between two steps of yamlShapeSteps: a 256 KiB text is 100,000 of them. */
export const YAML_TOKENS_PER_STEP = 2048;
/**
 * markdown-it's table rule (lib/rules_block/table.mjs) stops a table once the cells it fills in for
 * short rows, counted from the table's first row, pass this many.
 */
export const MAX_AUTOCOMPLETED_CELLS = 0x10000;
/**
 * Characters `normalizeSteps` rewrites between two chances to pause: a regular expression replacing
 * each of a note's 250,000 NULs (or carriage returns) ran in one piece of 1.2-1.8 s, as V8 runs a
 * regular expression's first use in its interpreter.
 */
export const NORMALIZE_STEP_CHARS = 16_384;
/** Line breaks counted between two pause points (a count is much lighter than splitting a line into its marks). */
export const LINE_COUNT_PAUSE_LINES = 8 * LINE_SPLIT_PAUSE_LINES;
/**
 * Inside quotes, a pause after every block resumes through every open quote's step: in a note of
 * quotes 700 deep, 1,400 pauses through hundreds of levels each made the parse 4 times longer. So
 * blocks inside quotes pause once this many of their lines (or quotes) are parsed, per parse.
 */
export const NESTED_PAUSE_LINES = 32;
/**
 * At the top level, blocks pause once NESTED_PAUSE_LINES of their lines or this many characters are
 * parsed (a block read in steps pauses inside it too): a pause after every block made a note of
 * 400,000 one-line paragraphs 400,000 steps, each resumed through the parse's generators.
 */
export const TOP_LEVEL_PAUSE_CHARS = 64 * 1024;

// Bases, the journal and answers: work between pauses, bytes kept.
/** A base's expression steps between two looks at the clock: reading it costs more than a step. */
export const BASE_STEPS_PER_CLOCK_CHECK = 64;
/**
 * The most a long line may hold once its long strings are taken out (its fields, a stand-in for each
 * long string): what is left is parsed in one piece. A record's fields take at most a few hundred
 * strings; more is no record this version writes.
 */
export const JOURNAL_LINE_FIELDS_MAX_BYTES = 256 * 1024;
/**
 * Work (characters measured, plus one for each value and key looked at) between two steps: one
 * string of megabytes, or 20,000 short ones (a base's rows, a canvas's cards), was one piece of
 * 27–440 ms when only a long string's own measuring paused.
 */
export const CUT_TO_FIT_STEP_WORK = 64 * 1024;
/** Work one value or key looked at counts for (a copy, a generator, a property defined): as much as this many characters measured. */
export const CUT_TO_FIT_VALUE_WORK = 32;
/**
 * An answer whose lists hold fewer items in all is made in one piece, without asking for a turn: it
 * takes well under a slice, and a light call (read_note beside a flood) must not queue behind the
 * vault-wide calls' slices for it.
 */
export const ANSWER_ITEMS_MADE_IN_ONE_PIECE = 256;
/** Characters of an answer's JSON text whose bytes are counted between two looks at the clock. */
export const ANSWER_COUNTED_CHARS = 64 * 1024;
/** A page of list_notes being built looks at the call's clock every this many notes (a power of two, less one). */
export const LIST_NOTES_PAGE_CHECK_MASK = 127;

// The headless metadata cache: memory kept, and work between pauses.
/** Most strings the headless metadata cache's string pool keeps: strings of notes since deleted stay in it, so it is bounded. */
export const MAX_POOLED_STRINGS = 50_000;
/**
 * Notes whose read entry lists are kept built: a note read again soon (the note a tool is working
 * on) gets the same arrays back, and a walk over the whole vault holds at most this many notes'
 * objects at a time.
 */
export const MAX_MATERIALIZED_NOTES = 64;
/** Numbers of the scratch a store keeps for unpacking (256 KiB): a typical note has a few hundred. */
export const MAX_KEPT_SCRATCH_NUMBERS = 65_536;
/**
 * Entries packed, or numbers encoded, between two points where compacting may pause: a 1 MiB note
 * of 48,000 list items and tasks was compacted in one piece of about 0.1 s.
 */
export const METADATA_PACK_STEP_ENTRIES = 2048;
/** Entries read between two points where reading a note's link places may pause. */
export const METADATA_READ_STEP_ENTRIES = 2048;
/**
 * Codes decoded (and line starts added up) between two points where a reader of a note's entries
 * may pause: a note of a million headings holds about seven million, a piece of 30–60 ms decoded
 * whole. This many is about a millisecond.
 */
export const METADATA_DECODE_STEP_CODES = 262_144;
/**
 * Strings copied, or entries (an object's keys, an array's items) looked at, in one step of
 * `detachStringsSteps`: a note's 21,000 aliased links and embeds (150,000 strings) were walked and
 * copied in one piece of about 0.1 s, and a list of 40,000 links was walked in one step.
 */
export const DETACH_STEP_STRINGS = 4096;
/** Entries (an object's keys, an array's items) looked at in one step of `detachStringsSteps` (see DETACH_STEP_STRINGS). */
export const DETACH_STEP_ENTRIES = 4096;
/** Notes with at least this many links keep their list of link texts (one pointer a link) between resolutions. */
export const HUGE_NOTE_LINKS = 16_384;

// Search: the index and the ranking, work between pauses.
/**
 * Dictionary words the look for a word's forms passes between pauses (`formsOfSteps`): a search
 * limited to some notes passes over every word of the stem's start they do not hold: 500,000 of them
 * (a 4 MB folder it does not search) were passed over in one piece of a third of a second.
 */
export const FORM_WALK_STEP_WORDS = 4_096;
/**
 * Postings entries the look for a word's forms walks between pauses, asking whether the searched
 * notes hold the words it passes over (`HeldAmong`): a word held by thousands of notes outside
 * them costs a walk of thousands, so 4,096 such words (16 million entries) were one piece of
 * about a second when only words were counted. This many is a few milliseconds.
 */
export const FORM_WALK_STEP_POSTINGS = 262_144;
/**
 * Dictionary words a prefix walk (`withPrefixSteps`) passes between pauses: a hostile author's
 * 500,000 words starting `co` were walked, filtered and taken in one piece of seconds.
 */
export const PREFIX_WALK_STEP_WORDS = 8_192;
/**
 * Words a search word stands for as a prefix, at most: the shortest of them (the nearest completions),
 * when more start with it. 20 planted notes of 50,000 distinct words made "z1" stand for 111,000 words,
 * 0.4–0.5 s of CPU a search word, and 60 such words failed every search at the call's budget. The
 * largest two-letter prefix of the held-out vaults stands for 826 words (obsidian-hub). An exclusion
 * and an excluded phrase's last word still take every word they start (EXCLUDED_SEARCH_MAX_WORDS); a
 * wanted phrase's last word is cut as a word is.
 */
export const PREFIX_MAX_WORDS = 4_096;
/**
 * Words all of one search's words stand for as prefixes, together: each of its prefix words takes
 * an even share, at most PREFIX_MAX_WORDS (so a search of up to four words is not cut further). 60
 * two-letter prefixes of a planted vocabulary took 4,096 words each, 245,000 lists merged in one
 * call. A held-out vault's largest two-letter prefix (826 words) would be cut only in a search of
 * 20 or more such words.
 */
export const PREFIX_SEARCH_MAX_WORDS = 16_384;
/**
 * Words a search's excluded prefixes may start, together, counted among the notes searched: an
 * exclusion must take every word it starts (a note holding one is never an answer), so past this
 * the search is refused rather than cut. `-z0 … -z59` over 20 planted notes of 50,000 words each
 * started 1.55 million words, 1.6 s of CPU; a word is about a microsecond (looked up, its list
 * taken, its notes marked). The held-out vaults' largest two-letter prefix starts 826 words. An
 * excluded phrase's last word counts too (`-"alpha co"`, each phrase its own walk and merge).
 */
export const EXCLUDED_SEARCH_MAX_WORDS = 131_072;
/**
 * New tokens a lookup inserts one by one into the sorted view; more are sorted and merged into it
 * in one pass. An insertion moves half the view on average (about 17 µs at 290,000 tokens), a
 * merge all of it once (about 15 ms): a note of 40,000 new words, inserted one by one, took 0.7 s.
 */
export const TOKENS_INSERTED_IN_PLACE = 512;
/**
 * Tokens sorted or merged between two chances to pause while the sorted view is built or brought
 * up to date: sorting 290,000 tokens in one piece held the server 113–117 ms; a step of this many is
 * 1–3 ms.
 */
export const DICTIONARY_SORT_STEP_TOKENS = 8192;
/**
 * Candidates looked at between two chances to pause (a power of two less one: a mask). A note's
 * phrase check reads its body, so a gathering over tens of thousands of notes is many such steps.
 */
export const GATHER_STEP_MASK = 255;
/**
 * Bytes of packed note bodies a search reads for its quoted phrases between two chances to pause
 * (each phrase a note may hold is a pass over its body): a query of seven long phrases read two
 * 5 MB notes of `a b a b …` in one piece of 1–1.9 s; in steps of this, another client's read
 * waited 37–120 ms of the server's CPU.
 */
export const PHRASE_READ_STEP_BYTES = 1024 * 1024;
/** Postings counted between two chances to pause when most terms are wanted: counting one costs far less than looking at a candidate. */
export const CANDIDATES_COUNT_STEP = 16_384;
/**
 * Most ids a phrase's position may accept for its pair with the position before to bound a note's
 * count: each costs two counters read per candidate note, and a prefix standing for more words
 * (`pro`) bounds too loosely to repay them.
 */
export const PAIR_BOUND_MAX_SECOND_IDS = 16;
/** A phrase's notes whose pair sketches are read between two chances to pause when it is resolved (a sketch read is about a cache miss). */
export const PAIR_BOUND_STEP = 4096;
/** Terms (or notes) `compactSteps` moves between two chances to pause (a power of two less one: a mask). */
export const COMPACT_STEP_MASK = 4095;
/** Slots (two a posting) `compactSteps` copies between two chances to pause, whatever the number of terms they hold. */
export const COMPACT_STEP_SLOTS = 65_536;
/** Notes looked at between two chances to pause while a search checks which notes its filter accepts (a power of two less one: a mask). */
export const ACCEPT_STEP_MASK = 4095;
/**
 * Fewest lists a commit must move or make (lists with no room for the note's posting) for it to
 * put them all in one new buffer, made in steps (`planCommit`): two typed arrays a list, as
 * before, cost about 4.5 µs each with their garbage, and a note of 40,000 new words held the
 * server 120–260 ms. Fewer are grown one by one at once.
 */
export const COMMIT_BLOCK_MIN_LISTS = 256;
/** Lists planned, postings copied into a commit's buffer, or postings an install writes (`installSteps`), between two chances to pause (a commit's step is about a millisecond). */
export const COMMIT_STEP_POSTINGS = 16_384;
/**
 * Lists a search takes (each by its place in the arena, cut to the notes it started with) between
 * two chances to pause: the 500,000 lists of a two-letter prefix a hostile author planted words for
 * were taken in one piece of about a second.
 */
export const LISTS_TAKEN_STEP = 8_192;
/** Headings joined between two pause points of `namesTextInSteps`. */
export const HEADINGS_JOINED_STEP = 4096;
/** Candidates scored between two chances to pause (a mask), as the ranking's loop. */
export const RANKING_SCORE_STEP_MASK = 255;
/** Candidates read between two chances to pause (a mask): reading a body costs as much as scoring dozens of candidates. */
export const RANKING_READ_STEP_MASK = 63;
/** Fewest candidates for which the heap starts with only the best of them by bound (splitByBound): below it, all at once. */
export const RANKING_SPLIT_MIN_CANDIDATES = 4096;
/** Candidates the heap starts with, about (splitByBound): most searches read or refine a few hundred before the page is settled. */
export const RANKING_SPLIT_FIRST = 1024;
/** Candidates whose bounds are sorted to choose where to split (splitByBound). */
export const RANKING_SPLIT_SAMPLE = 256;
/** Words whose template count (`templateOf`) a search engine keeps; more, and it starts again. */
export const TEMPLATE_MEMO_WORDS = 1024;
/**
 * Words of a note's aliases (frontmatter `aliases`, and the title it shows) that search ranks as its
 * names, whole aliases in order while they fit; the rest are neither names nor searched. Each name is looked through
 * once for each word of a query, per candidate, between pauses every SEARCH_PAUSE_CHECK_MASK + 1
 * candidates: 300 planted notes of 1,500 aliases of 6 words (under MAX_FRONTMATTER_BYTES) made a
 * search of 80 words one piece of 1.9 s, and one of 6 words 132 ms (at 256 words: 70–79 ms). The
 * held-out vaults' notes have at most 27 words of aliases.
 */
export const SEARCH_ALIAS_MAX_WORDS = 128;
/** A search pauses only between this many candidates (a power of two less one: a mask), so asking costs nothing. */
export const SEARCH_PAUSE_CHECK_MASK = 255;
/** A search that found the index changed across its pauses this many times runs its last attempt in one piece. */
export const PAUSED_SEARCH_ATTEMPTS = 3;

// Vault-wide lists: work between looks at the clock, answers kept.
/** find_notes_by_tag: answers of one scope and tag kept for calls that ask again while no note's tags changed; the oldest is dropped first. */
export const KEPT_TAG_NOTE_ANSWERS = 16;
/** find_notes_by_tag's loops over notes, keys or paths look at the call's clock every this many items (a power of two, less one). */
export const TAG_NOTES_CHECK_MASK = 1023;
/** Merge passes of a sliced sort look at the clock every this many items. */
export const SORT_CHECK_ITEMS = 1024;
/**
 * list_tags: walks over the tag counts kept, after notes' tags changed, for clients reading pages they began on them (each
 * page after the first keeps the first's order, so a tag whose count changed between pages comes once), the one paged
 * longest ago dropped first. Past it, a page says the order changed and tags may repeat or be missing.
 */
export const KEPT_PAGED_TAG_WALKS = 2;
/**
 * list_tags: tags a walk may count and still be kept for its pages (KEPT_PAGED_TAG_WALKS): each holds a slot per tag (tens
 * of megabytes at 800,000 tags), beside the walks kept per scope. A vault with more pages by the counts now.
 */
export const KEPT_PAGED_TAG_WALK_TAGS = 100_000;
/** list_tags: pages of one walk over the tag counts kept for calls asking the same again. */
export const KEPT_TAG_COUNT_PAGES = 8;
/** Links resolved (a note's own, its backlinks) between two looks at the call's clock. */
export const LINKS_PER_CLOCK_CHECK = 512;
/**
 * Tables a split `SplitStringMap` spreads its entries over, by a seeded hash (a note cannot choose
 * which): get_note_links' map of a planted note's 650,000 link paths grew in one table in pieces of
 * 40–70 ms; split 256 ways, each growth copies a 256th.
 */
export const SPLIT_MAP_PARTS = 256;
/**
 * Characters of a key read to pick its `SplitStringMap` table, half from each end: longer keys that
 * share both ends share a table, and a note under MAX_READ_NOTE_BYTES holds few such keys (8 MiB / 512).
 * At least twice MAX_WORD_CHARS, so each word of the search dictionary (vault-wide, not one note's) is
 * read whole: at 128, words of 129–255 characters alike but in their middle all went to one part, which
 * grew and copied as one Map past DICTIONARY_FIRST_WORDS (20,000 such words: one table of 19,998).
 */
export const SPLIT_MAP_HASHED_CHARS = 512;
/** Notes whose paths the build's listing checks between two looks at the clock (a power of two less one: a mask). */
export const SEARCH_LISTING_CHECK_MASK = 255;
/** Listings of a scope and filter kept for calls that ask again while nothing changed; the oldest is dropped first. */
export const KEPT_NOTE_LISTINGS = 16;
/** A listing being filtered looks at the call's clock every this many notes (a power of two, less one). */
export const NOTE_LISTING_FILTER_CHECK_MASK = 4095;
/** Notes looked at between two pauses of the first look through the vault. */
export const FIRST_LOOK_STEP_NOTES = 4096;
/** Paths are made into sort entries, or filtered, looking at the call's clock every this many (a power of two, less one). */
export const NOTE_PATHS_CHECK_MASK = 4095;
/** Scopes whose visible paths are kept at once (a scope per token's folders and exclusions; the one least recently asked for goes). */
export const SCOPE_VIEWS_KEPT = 8;
/** Tags read between two points where `noteTagsInSteps` may pause: 16,384 were a piece of about 25 ms on a busy machine. */
export const TAG_STEP = 4096;
/**
 * The look for a note's and a folder's twin (create_note, rename_note: `visibleTwins`) looks at the call's clock every this many
 * files (a power of two, less one): it walks every file of the vault, which in one piece was 6-13 ms at 100,000 files and more
 * on a busy machine, on Obsidian's UI thread.
 */
export const NAMESAKE_LOOK_CHECK_MASK = 1023;
/** `firstInOrder`'s walk (the first few notes of a sorted listing: resources/list, prompts/list) looks at the call's clock every this many items (a power of two, less one). */
export const FIRST_IN_ORDER_CHECK_MASK = 4095;
