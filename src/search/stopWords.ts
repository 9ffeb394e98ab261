/**
 * English words that carry little meaning in a search (issue 16): a query's stop words need not
 * be in a note, but rank it higher when they are, so "how to use templates" finds the Templates
 * note. Short on purpose: a word here can never narrow a search. The `searchStopWords` setting
 * replaces this list.
 */
export const ENGLISH_STOP_WORDS: readonly string[] = [
	"a", "about", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for", "from", "how", "i", "if", "in", "into", "is", "it",
	"me", "my", "of", "on", "or", "should", "so", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "we", "what",
	"when", "where", "which", "who", "why", "will", "with", "you", "your",
];
