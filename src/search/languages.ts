/**
 * The languages whose word forms search can match (the `searchLanguage` setting), apart from the
 * stemmers themselves (stemmers.ts), so settings can name them without loading any.
 */
export const SEARCH_LANGUAGES = [
	"none",
	"arabic",
	"armenian",
	"bulgarian",
	"danish",
	"dutch",
	"english",
	"finnish",
	"french",
	"german",
	"greek",
	"hungarian",
	"indonesian",
	"irish",
	"italian",
	"lithuanian",
	"norwegian",
	"portuguese",
	"romanian",
	"russian",
	"serbian",
	"spanish",
	"swedish",
	"turkish",
	"ukrainian",
] as const;

/** A language, or `none` for words as typed and prefixes only. */
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];

export const DEFAULT_SEARCH_LANGUAGE: SearchLanguage = "english";
