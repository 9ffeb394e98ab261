/** The fixed mixed query set the benchmark times and the index tests compare against a scan. */
export interface BenchQuery {
	label: string;
	query: string;
	folder?: string;
	tag?: string;
}

/** Queries for the synthetic vaults (their words come from bench/syntheticVault.ts). */
export const SYNTHETIC_QUERIES: BenchQuery[] = [
	{ label: "one word", query: "garden" },
	{ label: "several words", query: "budget review quarter" },
	{ label: "phrase", query: '"project meeting"' },
	{ label: "prefix", query: "gard" },
	{ label: "exclusion", query: "travel -recipe" },
	{ label: "tag filter", query: "plan", tag: "project" },
	{ label: "folder filter", query: "notes", folder: "Projects" },
	{ label: "diacritics", query: "cafe naive" },
	{ label: "CJK", query: "東京" },
	{ label: "no hits", query: "xylophone" },
	{ label: "stop words", query: "how to plan the garden" },
	{ label: "stop words, tag filter", query: "what is the plan", tag: "project" },
];

/** Queries for tasks-demo. */
export const TASKS_DEMO_QUERIES: BenchQuery[] = [
	{ label: "one word", query: "recurring" },
	{ label: "several words", query: "due date done" },
	{ label: "phrase", query: '"dataview format"' },
	{ label: "prefix", query: "sched" },
	{ label: "exclusion", query: "task -dataview" },
	{ label: "tag filter", query: "task", tag: "task" },
	{ label: "folder filter", query: "query", folder: "Test Data" },
	{ label: "no hits", query: "xylophone" },
	{ label: "whole title", query: "tasks" },
	{ label: "stop words", query: "how to access links" },
	{ label: "stop words, folder filter", query: "how to use the filters", folder: "Filters" },
	{ label: "only stop words", query: "the to" },
];

/**
 * Common-word queries for the common-vocabulary vault (issue 16): each word is a stem in most
 * notes (the bench checks that at least half match), one word and two.
 */
export const COMMON_QUERIES: BenchQuery[] = [
	{ label: "one common word", query: "garden" },
	{ label: "one common word", query: "project" },
	{ label: "one common word", query: "review" },
	{ label: "one common word", query: "market" },
	{ label: "two common words", query: "meeting plan" },
	{ label: "two common words", query: "garden review" },
	{ label: "two common words", query: "project market" },
	{ label: "two common words", query: "plan market" },
];
