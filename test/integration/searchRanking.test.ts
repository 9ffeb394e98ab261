import { JUDGED_QUERIES, scoreJudgedQueries, withJudgedSearch, type JudgedQuery } from "../../bench/judgedQueries";
import { IMPORT_RULES_JUDGED_QUERIES } from "../../bench/importRulesJudgedQueries";
import { FASTIFY_DOCS_JUDGED_QUERIES } from "../../bench/fastifyDocsJudgedQueries";
import { UNDICI_DOCS_JUDGED_QUERIES } from "../../bench/undiciDocsJudgedQueries";
import { MARKDOWNLINT_DOCS_JUDGED_QUERIES } from "../../bench/markdownlintDocsJudgedQueries";
import { TYPESCRIPT_ESLINT_DOCS_JUDGED_QUERIES } from "../../bench/typescriptEslintDocsJudgedQueries";
import { JEST_RULES_JUDGED_QUERIES } from "../../bench/jestRulesJudgedQueries";
import { PINO_DOCS_JUDGED_QUERIES } from "../../bench/pinoDocsJudgedQueries";
import { JSX_A11Y_RULES_JUDGED_QUERIES } from "../../bench/jsxA11yRulesJudgedQueries";
import { CODECEPTJS_DOCS_JUDGED_QUERIES } from "../../bench/codeceptjsDocsJudgedQueries";
import { SERVERLESS_DOCS_JUDGED_QUERIES } from "../../bench/serverlessDocsJudgedQueries";
import { NPM_DOCS_JUDGED_QUERIES } from "../../bench/npmDocsJudgedQueries";
import { OBSIDIAN_HUB_DEV_QUERIES } from "../../bench/obsidianHubDevQueries";
import { OBSIDIAN_HUB_JUDGED_QUERIES } from "../../bench/obsidianHubJudgedQueries";
import { UNSEEN_JUDGED_QUERIES } from "../../bench/unseenJudgedQueries";
import { CARGO_BOOK_JUDGED_QUERIES } from "../../bench/cargoBookJudgedQueries";
import { FOAM_DOCS_JUDGED_QUERIES } from "../../bench/foamDocsJudgedQueries";
import { JEKYLL_DOCS_JUDGED_QUERIES } from "../../bench/jekyllDocsJudgedQueries";
import { NUSHELL_BOOK_JUDGED_QUERIES } from "../../bench/nushellBookJudgedQueries";
import { HOMEBREW_DOCS_JUDGED_QUERIES } from "../../bench/homebrewDocsJudgedQueries";
import {
	fastifyDocsVaultDir,
	importRulesVaultDir,
	npmDocsVaultDir,
	obsidianHelpVaultDir,
	obsidianHubVaultDir,
	undiciDocsVaultDir,
	markdownlintDocsVaultDir,
	typescriptEslintDocsVaultDir,
	jestRulesVaultDir,
	pinoDocsVaultDir,
	jsxA11yRulesVaultDir,
	codeceptjsDocsVaultDir,
	serverlessDocsVaultDir,
	cargoBookVaultDir,
	foamDocsVaultDir,
	jekyllDocsVaultDir,
	nushellBookVaultDir,
	homebrewDocsVaultDir,
} from "../helpers/fixtures";
import { TASKS_DEMO_VAULT, removeDir, copyDemoVault } from "../helpers/vault";

// Every floor is a set's last measured score cut to two decimals (raised where scores had risen on
// 5 December 2026, rank64: bench/README.md), so one question fewer in the first three fails.

/**
 * The 58 judged queries over this project's vaults with ranking by evidence strength: all 58 find
 * an expected note in the first three, MRR 0.983 (whole-title ranking before it: 0.91 / 0.89;
 * the engine before that: 0.78 / 0.75). One miss in the first three fails here.
 */
const JUDGED_SUCCESS_AT_3 = 1;
const JUDGED_MRR = 0.99;

/**
 * The unseen set CI always runs (bench/npmDocsJudgedQueries.ts, over npm's own documentation,
 * installed from the npm registry by scripts/test-tools.mjs), never tuned on. Measured once when
 * it was written: the engine before ranking by evidence strength scored 0.64 / 0.583 on it; with
 * it, 0.78 / 0.673; with soft coverage (the words that tell notes apart outweigh everyday ones,
 * a word's forms counted once for its idf), 0.80 / 0.718; with identifiers' parts, the Snowball
 * English stemmer, a title's bonus weighing the query's rarity it holds and a named note joining a
 * partial answer with one word fewer, 0.82 / 0.738; 0.82 / 0.734 after a title in another form
 * counting as a title, versions' numbers and stop words at half weight; 0.82 / 0.744 after a verb
 * and its particle typed apart matching the word written as one (`log in` → `npm-login`); 0.80 /
 * 0.741 after a note named by some query words competing with the notes holding them all (`make a
 * tarball of my package` lost npm-pack to a note named `package`; the Hub sets gained 0.09 and 0.14);
 * 0.88 / 0.769 after a short frontmatter description counting as a heading (npm-pack's "Create a
 * tarball from a package"); 0.88 / 0.779 once a title that is nothing but query words, each in no other
 * title, counts as holding half the query (`Registry` first for `use a private registry`); 0.88 / 0.792
 * once a frontmatter description of one sentence counts as a heading however long.
 */
const UNSEEN_SUCCESS_AT_3 = 0.9;
const UNSEEN_MRR = 0.79;

/**
 * The held-out set (bench/importRulesJudgedQueries.ts, eslint-plugin-import's rule pages), written
 * before the soft-coverage ranking and never tuned on: 0.822 / 0.663 before it, 0.867 / 0.78 after;
 * 0.889 / 0.799 after identifiers' parts, the Snowball English stemmer, the title bonus weighing
 * the query's rarity and a named note joining a partial answer with one word fewer (used to find
 * kinds of misses since: no longer held out); 0.889 / 0.805 after a title in another form counting
 * as a title, versions' numbers and stop words at half weight; 0.911 / 0.818 once a word meaning the
 * same counts below the word itself (`forbid default exports` finds no-default-export's "Prohibit");
 * 0.933 / 0.843 once a negated word finds the word English negates it with (`nobody uses` →
 * no-unused-modules' `unused`, 5 December 2026).
 */
const HELD_OUT_SUCCESS_AT_3 = 0.93;
const HELD_OUT_MRR = 0.84;

/**
 * The second held-out set (bench/fastifyDocsJudgedQueries.ts, fastify's documentation), written
 * before the ranking changes that followed it and never tuned on: 0.852 / 0.795 when written;
 * 0.852 / 0.784 after identifiers' parts (`onRequest` now also holds `request`), the Snowball
 * English stemmer, the title bonus weighing the query's rarity and a named note joining a partial
 * answer with one word fewer; 0.907 / 0.886 after a title in another form counting as a title
 * (`Hooks` for `hook`), a version's number (`V5` holds `5`) and stop words at half weight; 0.926 / 0.913
 * once a title that is nothing but query words, each in no other title, counts as holding half the
 * query (`Logging` first for `turn on logging` and `hide passwords in the logs`; 3 December 2026);
 * 0.944 / 0.917 once a note saying the words pages apart keeps less of its score (PASSAGE_SHARE
 * 0.6 → 0.8; 4 December 2026).
 */
const FASTIFY_SUCCESS_AT_3 = 0.94;
const FASTIFY_MRR = 0.91;

/**
 * The third held-out set (bench/undiciDocsJudgedQueries.ts, undici's documentation), written
 * before the ranking changes that followed it and never tuned on: 0.938 / 0.823 when written, and
 * the same after identifiers' parts counting as a title's words and a title word that a query
 * word only starts no longer counting as a title (3 December 2026); 0.938 / 0.811 once a slug-named
 * note's one level-1 heading names it like an alias (`best-practices/proxy.md`, "Connecting through a
 * proxy", now names `proxy` and came second for `socks proxy`; markdownlint gained 0.079 MRR); 0.958 / 0.830 once a long page (1,000 tokens or more) saying the question's words in different level-1 or level-2 sections keeps less of its score (SECTION_SHARE, 6 December 2026).
 */
const UNDICI_SUCCESS_AT_3 = 0.95;
const UNDICI_MRR = 0.83;

/**
 * The fourth held-out set (bench/markdownlintDocsJudgedQueries.ts, markdownlint's documentation:
 * rule pages named by code, `md013.md`, and one page repeating every rule), written before the
 * ranking changes that followed it and never tuned on: 0.870 / 0.740 when written (3 December 2026);
 * 0.870 / 0.819 once a slug-named note's one level-1 heading names it like an alias (its misses were
 * read for that change, so it is no longer held out); 0.889 / 0.847 once bold / strong and italic /
 * emphasis, Markdown's two names for each style, and blank / empty find each other (4 December 2026): 0.889 / 0.865;
 * 0.907 / 0.867 once a long page (1,000 tokens or more) saying the question's words in different level-1 or level-2 sections keeps less of its score (SECTION_SHARE, 6 December 2026).
 */
const MARKDOWNLINT_SUCCESS_AT_3 = 0.9;
const MARKDOWNLINT_MRR = 0.86;

/**
 * The fifth held-out set (bench/typescriptEslintDocsJudgedQueries.ts, typescript-eslint's rule pages:
 * named by slug, no heading, a frontmatter description, siblings sharing their opening paragraph),
 * written before the ranking changes that followed it and never tuned on: 0.867 / 0.797 when written
 * (3 December 2026), and the same after a slug-named note's one level-1 heading or frontmatter title
 * naming it like an alias. Its misses were read (rank40, 3 December 2026: no longer held out), and
 * a frontmatter description of one sentence counting as a heading however long (its one-line rule
 * summaries run to 18 words; six was the limit) gave 0.920 / 0.871; 0.933 / 0.886 once a question's
 * "too many" finds a `max-` rule (4 December 2026).
 */
// 0.933 / 0.880 once a query word no note names counts for half its idf in the share a note holds
// (branch rank46-unnamed, 4 December 2026: two questions 1 → 2, `too many parameters`, `passing a
// class method as a callback loses this`), while nine sets gained: the floor was lowered for it.
// 0.947 / 0.891 once a negated word finds the word English negates it with (`never used` →
// no-unused-vars, 5 December 2026).
const TYPESCRIPT_ESLINT_SUCCESS_AT_3 = 0.94;
const TYPESCRIPT_ESLINT_MRR = 0.89;

/**
 * The sixth held-out set (bench/jestRulesJudgedQueries.ts, eslint-plugin-jest's rule pages: named
 * by slug under a `# jest/<slug>` heading, a one-line summary, a `Rule details` heading on nearly
 * every page), written before the ranking changes that followed it: 0.815 / 0.743 when written (3
 * December 2026), and the same after a title that is nothing but query words, each in no other title,
 * counting as holding half the query. Its misses were read and fixed by class the same day (so it is
 * used up as held out): 0.846 / 0.772; 0.846 / 0.778 once a three-letter word meets its forms when
 * the stemmer only respells it (`spy` → `spi`, as `spying`); 0.908 / 0.809 once "too many" finds a
 * `max-` rule, `checking` an assertion, and a one-letter name in typed code (`expect(a > b)`) ranks
 * as a stop word (4 December 2026); 0.908 / 0.819 once the best notes are reordered by how close
 * they keep the question's words (4 December 2026); 0.923 / 0.857 once two adjacent words also find
 * the word they make written closed (`top level` → require-hook's `toplevel`, 5 December 2026).
 */
const JEST_RULES_SUCCESS_AT_3 = 0.92;
const JEST_RULES_MRR = 0.85;

/**
 * The seventh held-out set (bench/pinoDocsJudgedQueries.ts, pino's 14 guide and reference pages:
 * one long API reference with a heading per option, guides, a how-to page of many sections),
 * written before the ranking changes that followed it and never tuned on: 0.917 / 0.862 when
 * written (3 December 2026).
 */
const PINO_DOCS_SUCCESS_AT_3 = 0.95;
const PINO_DOCS_MRR = 0.89;

/**
 * The eighth held-out set (bench/jsxA11yRulesJudgedQueries.ts, eslint-plugin-jsx-a11y's 39 rule pages,
 * asked about in terms of what the code does: an image, a link, a label, a click handler), written
 * before it was scored and never tuned on: 0.894 / 0.821 on main `136f5ff` (3 December 2026);
 * 0.894 / 0.832 once a note saying the words pages apart keeps less of its score (4 December 2026);
 * 0.894 / 0.822 once a negated word finds the word English negates it with (5 December 2026): `an
 * aria attribute the element's role does not support` now has aria-unsupported-elements, which
 * says `unsupported`, first and the expected role-supports-aria-props second; the floor was lowered for it.
 */
const JSX_A11Y_RULES_SUCCESS_AT_3 = 0.89;
const JSX_A11Y_RULES_MRR = 0.82;

/**
 * The ninth set (bench/codeceptjsDocsJudgedQueries.ts, CodeceptJS's 92 guide, helper and plugin
 * pages, titled in their front matter, many overlapping), written before it was scored: 0.741 /
 * 0.715 on main `136f5ff` (3 December 2026), held out until then; its misses were read on 4 December
 * 2026 (a development set since): 0.759 / 0.723 after words meaning the same (own / custom, rerun /
 * retry, several / multiple); 0.810 / 0.750 once a search's best 20 notes are reordered by how close
 * each keeps the question's words (a long helper page holding each word sections apart falls below
 * the page saying them in one passage).
 */
const CODECEPTJS_DOCS_SUCCESS_AT_3 = 0.81;
const CODECEPTJS_DOCS_MRR = 0.76;

/**
 * The tenth held-out set (bench/serverlessDocsJudgedQueries.ts, 79 questions over the Serverless
 * Framework 3.40.0's 111 pages for AWS users: guides, event pages, CLI command pages and the hosted
 * Dashboard's pages, titled in an HTML comment and a heading), written before it was scored and
 * never tuned on: 0.823 / 0.717 on main `a0344a8` (4 December 2026); 0.848 / 0.739 before, and 0.861 / 0.742
 * once a long page (1,000 tokens or more) saying the question's words in different level-1 or level-2 sections keeps less of its score (SECTION_SHARE, 6 December 2026).
 */
const SERVERLESS_DOCS_SUCCESS_AT_3 = 0.86;
const SERVERLESS_DOCS_MRR = 0.74;

/**
 * The sets over vaults fetched from GitHub (`npm run fixtures -- --set obsidian-help`, `--set
 * obsidian-hub`): checked where the vault is there, and reported as skipped where it is not (CI
 * cannot download them). The Obsidian Help set (bench/unseenJudgedQueries.ts): 0.5625 / 0.545 when
 * written, 0.922 / 0.872 on 2 December 2026 (its misses used since), 0.938 / 0.879 once `several`
 * finds `multiple` (4 December 2026). The Obsidian Hub set
 * (bench/obsidianHubJudgedQueries.ts, 6,571 notes, held out: measured, never tuned on): 0.842 /
 * 0.715 when written; 0.842 / 0.724 after an alias holding every query word covering the query
 * like a title; 0.930 / 0.765 after a note named by some query words competing with the notes
 * holding them all. The Hub's development set (bench/obsidianHubDevQueries.ts, other questions
 * over the same vault, written for looking at misses): 0.776 / 0.709 when written, 0.918 / 0.844 after;
 * with 59 more questions 0.917 / 0.873 (108), with 21 more over the category lists 0.876 / 0.822 (129);
 * 0.876 / 0.839 once a link address's repeated words count once and a long title's words weigh
 * less (the held-out set 0.930 / 0.770 then); 0.907 / 0.871 once two words typed apart match the
 * word written as one and a word typed as one a name writing it as two (`side bar` ↔ `Sidebar`), a
 * possessive's `s` is dropped (`hub's`), and a word templates put in most notes counts only beyond
 * the templates (`discord`, `github`, `plugins`). The held-out Hub set 0.947 / 0.788 then; its misses
 * were looked at on 3 December 2026 (no longer held out since), and an alias made only of query
 * words holding most of the query covering it like a title gave 0.947 / 0.806.
 */
const OBSIDIAN_HELP_SUCCESS_AT_3 = 0.93;
const OBSIDIAN_HELP_MRR = 0.87;
const OBSIDIAN_HUB_SUCCESS_AT_3 = 0.94;
const OBSIDIAN_HUB_MRR = 0.8;
const OBSIDIAN_HUB_DEV_SUCCESS_AT_3 = 0.9;
const OBSIDIAN_HUB_DEV_MRR = 0.87;

/**
 * The eleventh held-out set (bench/cargoBookJudgedQueries.ts, 63 questions over The Cargo Book's 99
 * pages: guides, reference pages up to a 449 kB changelog, command pages generated from man pages
 * that repeat the same option sections), fetched from GitHub (`npm run fixtures -- --set
 * cargo-book`), written before it was scored and never tuned on: 0.778 / 0.665 on main `65a69d4`
 * (4 December 2026).
 */
const CARGO_BOOK_SUCCESS_AT_3 = 0.77;
const CARGO_BOOK_MRR = 0.68;

/**
 * The twelfth held-out set (bench/foamDocsJudgedQueries.ts, 68 questions over the 86 pages of Foam's
 * documentation, itself a workspace of `[[wikilinks]]` and link reference definitions: guides, a
 * page per feature, recipes, publishing guides, command-line pages titled `foam daily`…), fetched
 * from GitHub (`npm run fixtures -- --set foam-docs`), written before it was scored and never tuned
 * on: 0.897 / 0.784 on main `001bef1` (4 December 2026).
 */
const FOAM_DOCS_SUCCESS_AT_3 = 0.91;
const FOAM_DOCS_MRR = 0.78;

/**
 * The thirteenth held-out set (bench/jekyllDocsJudgedQueries.ts, 63 questions over the 91 pages of
 * Jekyll's documentation: concept pages, short hub pages listing their sub-pages, a ten-step
 * tutorial titled like the concept pages, one page per system or service, a 300 KB changelog),
 * fetched from GitHub (`npm run fixtures -- --set jekyll-docs`), written before it was scored and
 * never tuned on: 0.841 / 0.727 on main `22fe750` (5 December 2026).
 */
const JEKYLL_DOCS_SUCCESS_AT_3 = 0.84;
const JEKYLL_DOCS_MRR = 0.72;

/**
 * The fourteenth held-out set (bench/homebrewDocsJudgedQueries.ts, 67 questions over the 85 pages
 * of Homebrew's documentation: user guides, a FAQ whose headings are questions, two long
 * cookbooks, a 135 KB manual page, maintainers' and governance pages), fetched from GitHub
 * (`npm run fixtures -- --set homebrew-docs`), written before it was scored and never tuned on:
 * 0.761 / 0.606 on main `c4b0f0f` (5 December 2026); a development set since (rank80); 0.776 / 0.606
 * once a long page (1,000 tokens or more) saying the question's words in different level-1 or level-2 sections keeps less of its score (SECTION_SHARE, 6 December 2026).
 */
const HOMEBREW_DOCS_SUCCESS_AT_3 = 0.77;
const HOMEBREW_DOCS_MRR = 0.6;

/**
 * The fifteenth held-out set (bench/nushellBookJudgedQueries.ts, 57 questions over the 65 pages of
 * The Nushell Book: a tour, concept chapters, pages for people coming from other shells, long
 * configuration and line-editor references, stub pages that only link their sub-pages), fetched
 * from GitHub (`npm run fixtures -- --set nushell-book`), written before it was scored and never
 * tuned on: 0.842 / 0.783 on main `7b31439` (5 December 2026); 0.877 / 0.787 once a long page (1,000 tokens or more) saying the question's words in different level-1 or level-2 sections keeps less of its score (SECTION_SHARE, 6 December 2026) (its total read once, its misses never).
 */
const NUSHELL_BOOK_SUCCESS_AT_3 = 0.87;
const NUSHELL_BOOK_MRR = 0.78;

/** The vault's folder, or null where it was not fetched: the test is then skipped (its name says how to fetch it). */
function fetchedVault(find: () => string): string | null {
	try {
		return find();
	} catch {
		return null;
	}
}

test("the judged queries find the notes a person expects at least as well as the first run", async () => {
	// The demo vault is copied as committed (a person's tries in the working tree never reach the
	// scores); the fixture vault is read in place (see scoresOverVault).
	const demoVault = await copyDemoVault();
	try {
		const scores = await withJudgedSearch({ "tasks-demo": TASKS_DEMO_VAULT, "demo-vault": demoVault }, (search) =>
			scoreJudgedQueries(search, JUDGED_QUERIES),
		);
		expect(scores.queries).toBeGreaterThanOrEqual(58);
		expect(scores.successAt3).toBeGreaterThanOrEqual(JUDGED_SUCCESS_AT_3);
		expect(scores.mrr).toBeGreaterThanOrEqual(JUDGED_MRR);
	} finally {
		await removeDir(demoVault);
	}
}, 60_000);

/**
 * The scores of `queries` over a documentation vault (installed into test/unseen-vaults, or fetched),
 * read where it lies: a judged search writes nothing (NodeHost.open without a watcher lists and reads
 * the notes, the index keeps what it builds in memory), so a copy protected nothing, and copying cost
 * more CPU than the queries (the Obsidian Hub's 6,571 notes: ~5 s of CPU, most of it in the kernel).
 */
async function scoresOverVault(vault: JudgedQuery["vault"], dir: string, queries: readonly JudgedQuery[]) {
	return await withJudgedSearch({ [vault]: dir }, (search) => scoreJudgedQueries(search, queries));
}

/** Each installed documentation vault: its judged questions and the floors recorded for them. */
const INSTALLED_SETS = [
	{
		what: "unseen judged questions over npm's documentation",
		vault: "npm-docs",
		dir: npmDocsVaultDir,
		queries: NPM_DOCS_JUDGED_QUERIES,
		success: UNSEEN_SUCCESS_AT_3,
		mrr: UNSEEN_MRR,
	},
	{
		what: "held-out judged questions over eslint-plugin-import's rule pages",
		vault: "import-rules",
		dir: importRulesVaultDir,
		queries: IMPORT_RULES_JUDGED_QUERIES,
		success: HELD_OUT_SUCCESS_AT_3,
		mrr: HELD_OUT_MRR,
	},
	{
		what: "held-out judged questions over fastify's documentation",
		vault: "fastify-docs",
		dir: fastifyDocsVaultDir,
		queries: FASTIFY_DOCS_JUDGED_QUERIES,
		success: FASTIFY_SUCCESS_AT_3,
		mrr: FASTIFY_MRR,
	},
	{
		what: "held-out judged questions over undici's documentation",
		vault: "undici-docs",
		dir: undiciDocsVaultDir,
		queries: UNDICI_DOCS_JUDGED_QUERIES,
		success: UNDICI_SUCCESS_AT_3,
		mrr: UNDICI_MRR,
	},
	{
		what: "held-out judged questions over markdownlint's documentation",
		vault: "markdownlint-docs",
		dir: markdownlintDocsVaultDir,
		queries: MARKDOWNLINT_DOCS_JUDGED_QUERIES,
		success: MARKDOWNLINT_SUCCESS_AT_3,
		mrr: MARKDOWNLINT_MRR,
	},
	{
		what: "held-out judged questions over typescript-eslint's rule pages",
		vault: "typescript-eslint-docs",
		dir: typescriptEslintDocsVaultDir,
		queries: TYPESCRIPT_ESLINT_DOCS_JUDGED_QUERIES,
		success: TYPESCRIPT_ESLINT_SUCCESS_AT_3,
		mrr: TYPESCRIPT_ESLINT_MRR,
	},
	{
		what: "judged questions over eslint-plugin-jest's rule pages (held out until its misses were read)",
		vault: "jest-rules",
		dir: jestRulesVaultDir,
		queries: JEST_RULES_JUDGED_QUERIES,
		success: JEST_RULES_SUCCESS_AT_3,
		mrr: JEST_RULES_MRR,
	},
	{
		what: "held-out judged questions over pino's guide and reference pages",
		vault: "pino-docs",
		dir: pinoDocsVaultDir,
		queries: PINO_DOCS_JUDGED_QUERIES,
		success: PINO_DOCS_SUCCESS_AT_3,
		mrr: PINO_DOCS_MRR,
	},
	{
		what: "held-out judged questions over eslint-plugin-jsx-a11y's rule pages",
		vault: "jsx-a11y-rules",
		dir: jsxA11yRulesVaultDir,
		queries: JSX_A11Y_RULES_JUDGED_QUERIES,
		success: JSX_A11Y_RULES_SUCCESS_AT_3,
		mrr: JSX_A11Y_RULES_MRR,
	},
	{
		what: "development judged questions over CodeceptJS's guides",
		vault: "codeceptjs-docs",
		dir: codeceptjsDocsVaultDir,
		queries: CODECEPTJS_DOCS_JUDGED_QUERIES,
		success: CODECEPTJS_DOCS_SUCCESS_AT_3,
		mrr: CODECEPTJS_DOCS_MRR,
	},
	{
		what: "held-out judged questions over the Serverless Framework's docs for AWS",
		vault: "serverless-docs",
		dir: serverlessDocsVaultDir,
		queries: SERVERLESS_DOCS_JUDGED_QUERIES,
		success: SERVERLESS_DOCS_SUCCESS_AT_3,
		mrr: SERVERLESS_DOCS_MRR,
	},
] as const satisfies ReadonlyArray<{ what: string; vault: JudgedQuery["vault"]; dir: () => string; queries: JudgedQuery[]; success: number; mrr: number }>;

test.each(INSTALLED_SETS)(
	"the $what find the pages a person expects at least as well as recorded",
	async (set) => {
		const scores = await scoresOverVault(set.vault, set.dir(), set.queries);
		expect(scores.queries).toBeGreaterThanOrEqual(40);
		expect(scores.successAt3).toBeGreaterThanOrEqual(set.success);
		expect(scores.mrr).toBeGreaterThanOrEqual(set.mrr);
	},
	60_000,
);

const OBSIDIAN_HELP_VAULT = fetchedVault(() => obsidianHelpVaultDir());
(OBSIDIAN_HELP_VAULT === null ? test.skip : test)(
	"the judged questions over Obsidian Help find the pages a person expects at least as well as recorded (where npm run fixtures -- --set obsidian-help fetched it)",
	async () => {
		const scores = await scoresOverVault("obsidian-help", OBSIDIAN_HELP_VAULT ?? "", UNSEEN_JUDGED_QUERIES);
		expect(scores.queries).toBeGreaterThanOrEqual(64);
		expect(scores.successAt3).toBeGreaterThanOrEqual(OBSIDIAN_HELP_SUCCESS_AT_3);
		expect(scores.mrr).toBeGreaterThanOrEqual(OBSIDIAN_HELP_MRR);
	},
	60_000,
);

const OBSIDIAN_HUB_VAULT = fetchedVault(() => obsidianHubVaultDir());
(OBSIDIAN_HUB_VAULT === null ? test.skip : test)(
	"the held-out and development judged questions over the Obsidian Hub community vault find the pages a person expects at least as well as recorded (where npm run fixtures -- --set obsidian-hub fetched it)",
	async () => {
		// Read in place, as scoresOverVault says.
		const [heldOut, development] = await withJudgedSearch({ "obsidian-hub": OBSIDIAN_HUB_VAULT ?? "" }, async (search) => [
			await scoreJudgedQueries(search, OBSIDIAN_HUB_JUDGED_QUERIES),
			await scoreJudgedQueries(search, OBSIDIAN_HUB_DEV_QUERIES),
		]);
		expect(heldOut?.queries).toBeGreaterThanOrEqual(40);
		expect(heldOut?.successAt3).toBeGreaterThanOrEqual(OBSIDIAN_HUB_SUCCESS_AT_3);
		expect(heldOut?.mrr).toBeGreaterThanOrEqual(OBSIDIAN_HUB_MRR);
		expect(development?.successAt3).toBeGreaterThanOrEqual(OBSIDIAN_HUB_DEV_SUCCESS_AT_3);
		expect(development?.mrr).toBeGreaterThanOrEqual(OBSIDIAN_HUB_DEV_MRR);
	},
	// 6,571 notes read and indexed on a shared 2-core machine.
	240_000,
);

/** Each documentation vault fetched by `npm run fixtures -- --set <fetch>`: its judged questions and the floors recorded for them. */
const FETCHED_SETS = [
	{
		what: "held-out judged questions over The Cargo Book",
		vault: "cargo-book",
		fetch: "cargo-book",
		dir: cargoBookVaultDir,
		queries: CARGO_BOOK_JUDGED_QUERIES,
		success: CARGO_BOOK_SUCCESS_AT_3,
		mrr: CARGO_BOOK_MRR,
	},
	{
		what: "held-out judged questions over Foam's documentation",
		vault: "foam-docs",
		fetch: "foam-docs",
		dir: foamDocsVaultDir,
		queries: FOAM_DOCS_JUDGED_QUERIES,
		success: FOAM_DOCS_SUCCESS_AT_3,
		mrr: FOAM_DOCS_MRR,
	},
	{
		what: "held-out judged questions over Jekyll's documentation",
		vault: "jekyll-docs",
		fetch: "jekyll-docs",
		dir: jekyllDocsVaultDir,
		queries: JEKYLL_DOCS_JUDGED_QUERIES,
		success: JEKYLL_DOCS_SUCCESS_AT_3,
		mrr: JEKYLL_DOCS_MRR,
	},
	{
		what: "held-out judged questions over The Nushell Book",
		vault: "nushell-book",
		fetch: "nushell-book",
		dir: nushellBookVaultDir,
		queries: NUSHELL_BOOK_JUDGED_QUERIES,
		success: NUSHELL_BOOK_SUCCESS_AT_3,
		mrr: NUSHELL_BOOK_MRR,
	},
] as const satisfies ReadonlyArray<{
	what: string;
	vault: JudgedQuery["vault"];
	fetch: string;
	dir: () => string;
	queries: JudgedQuery[];
	success: number;
	mrr: number;
}>;

for (const set of FETCHED_SETS) {
	const dir = fetchedVault(set.dir);
	(dir === null ? test.skip : test)(
		`the ${set.what} find the pages a person expects at least as well as recorded (where npm run fixtures -- --set ${set.fetch} fetched it)`,
		async () => {
			const scores = await scoresOverVault(set.vault, dir ?? "", set.queries);
			expect(scores.queries).toBeGreaterThanOrEqual(40);
			expect(scores.successAt3).toBeGreaterThanOrEqual(set.success);
			expect(scores.mrr).toBeGreaterThanOrEqual(set.mrr);
		},
		60_000,
	);
}

const HOMEBREW_DOCS_VAULT = fetchedVault(() => homebrewDocsVaultDir());
(HOMEBREW_DOCS_VAULT === null ? test.skip : test)(
	"the held-out judged questions over Homebrew's documentation find the pages a person expects at least as well as recorded (where npm run fixtures -- --set homebrew-docs fetched it)",
	async () => {
		const scores = await scoresOverVault("homebrew-docs", HOMEBREW_DOCS_VAULT ?? "", HOMEBREW_DOCS_JUDGED_QUERIES);
		expect(scores.queries).toBeGreaterThanOrEqual(40);
		expect(scores.successAt3).toBeGreaterThanOrEqual(HOMEBREW_DOCS_SUCCESS_AT_3);
		expect(scores.mrr).toBeGreaterThanOrEqual(HOMEBREW_DOCS_MRR);
	},
	60_000,
);
