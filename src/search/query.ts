import { tokenize } from "./text";

/** One part of a query: the folded tokens that must stand together (one token for a plain word). */
export interface QueryTerm {
	tokens: string[];
	/** What the person typed, for messages. */
	source: string;
}

export interface ParsedQuery {
	required: QueryTerm[];
	excluded: QueryTerm[];
}

/**
 * Reads a search query: words, `"quoted phrases"`, and `-word` or `-"phrase"` to exclude. A word
 * that the tokenizer splits (an email address, `kebab-case`, `3.14`, a run of Chinese characters)
 * is matched as a phrase of its parts, so a compound never matches notes that share one part. Pure.
 */
export function parseQuery(query: string): ParsedQuery {
	const parsed: ParsedQuery = { required: [], excluded: [] };
	const pattern = /(-?)"([^"]*)"?|(-?)(\S+)/gu;
	for (const match of query.matchAll(pattern)) {
		const negated = (match[1] ?? match[3] ?? "") === "-";
		const source = match[2] ?? match[4] ?? "";
		const tokens = tokenize(source).map((token) => token.value);
		if (tokens.length === 0) continue;
		(negated ? parsed.excluded : parsed.required).push({ tokens, source });
	}
	return parsed;
}
