/**
 * English words that carry little meaning in a search: a query's stop words need not
 * be in a note, but rank it higher when they are, so "how to use templates" finds the Templates
 * note. Short on purpose: a word here can never narrow a search. The `searchStopWords` setting
 * replaces this list.
 */
export const ENGLISH_STOP_WORDS: readonly string[] = [
	"a",
	"about",
	"an",
	"and",
	"are",
	"as",
	"at",
	"be",
	"but",
	"by",
	"can",
	"do",
	"does",
	"for",
	"from",
	"how",
	"i",
	"if",
	"in",
	"into",
	"is",
	"it",
	"me",
	"my",
	"of",
	"on",
	"or",
	"should",
	"so",
	"that",
	"the",
	"their",
	"then",
	"there",
	"these",
	"they",
	"this",
	"to",
	"was",
	"we",
	"what",
	"when",
	"where",
	"which",
	"who",
	"why",
	"will",
	"with",
	"you",
	"your",
];

/**
 * English particles that follow a verb in a phrasal verb whose noun is written as one word: a
 * person types `log in`, `back up`, `set up`, `check out` where the notes say `login`, `backup`,
 * `setup`, `checkout`. A query word followed by one of these is joined to it, and the joined word
 * counts beside the two; two other words joined (engine.ts, closedCompounds) count only in a note not
 * holding both, or code's identifiers (`querystring`, `errorCodes`) counted each question thrice.
 */
export const ENGLISH_PARTICLES: ReadonlySet<string> = new Set(["in", "up", "out", "on", "off", "down", "over", "back"]);

/**
 * English words that say the word after them is not so (`never used`, `not defined`, `doesn't
 * support` as the tokenizer leaves it, `doesn`), and the prefixes English negates a word with
 * (`unused`, `undefined`, `unsupported`, `noninteractive`): a person asks for "variables that are
 * never used" where the page is titled `no-unused-vars`. The two query words then also find the
 * word a prefix and the second make, or another form of it (engine.ts, negatedWords). Left out on
 * purpose: an imperative `don't` (`don't use X` asks for a rule against X, not for `unused`),
 * `without` (`without installing` is not `uninstalling`), and the prefix `in`, which makes other
 * words (`no line` → `inline`, `not side` → `inside`).
 */
export const ENGLISH_NEGATIONS: ReadonlySet<string> = new Set(["not", "never", "no", "nobody", "doesn", "isn", "aren", "wasn", "didn", "cannot"]);
export const NEGATING_PREFIXES: readonly string[] = ["un", "non"];
