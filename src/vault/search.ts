import type { Host, HostFile } from "../host/Host";
import { matchDocument, prepareDocument, rankMatches, type SearchDocument, type SearchHit } from "../search/engine";
import type { ParsedQuery } from "../search/query";
import { visibleNotes } from "./notes";
import { isInFolder, type Scope } from "./scope";
import { notesWithTag } from "./tags";

export interface SearchFilter {
	folder?: string;
	tag?: string;
}

export type SearchAnswer = { total: number; results: SearchHit[] };

/** How search_notes is answered: by scanning, or by the index once it is built. Same results either way. */
export interface NoteSearch {
	search(scope: Scope, query: ParsedQuery, filter: SearchFilter, limit: number): Promise<SearchAnswer>;
	/** `ready` once every note is indexed; a scan is always ready. */
	status(): { state: "ready" | "building"; indexed_notes: number };
}

/** Answers every search by reading the notes: correct always, slow on big vaults. */
export class ScanNoteSearch implements NoteSearch {
	constructor(private readonly host: Host) {}

	search(scope: Scope, query: ParsedQuery, filter: SearchFilter, limit: number): Promise<SearchAnswer> {
		return scanSearch(this.host, scope, query, filter, limit);
	}

	status(): { state: "ready"; indexed_notes: number } {
		return { state: "ready", indexed_notes: 0 };
	}
}

/** The visible notes a search may return, after the folder and tag filters. */
export function searchableNotes(host: Host, scope: Scope, filter: SearchFilter): HostFile[] {
	const tagged = filter.tag === undefined ? null : new Set(notesWithTag(host, scope, filter.tag));
	return visibleNotes(host, scope).filter((file) => (filter.folder === undefined || isInFolder(file.path, filter.folder)) && (tagged === null || tagged.has(file.path)));
}

/** A note as a search document, read through the host's cache. */
export async function documentFor(host: Host, file: HostFile): Promise<SearchDocument> {
	const headings = host.metadataCache.getFileCache(file)?.headings?.map((heading) => heading.heading) ?? [];
	return prepareDocument(file.path, file.basename, file.stat.mtime, await host.vault.cachedRead(file), headings);
}

/** Searches by reading and tokenizing every candidate note: the reference the index must agree with. */
export async function scanSearch(host: Host, scope: Scope, query: ParsedQuery, filter: SearchFilter, limit: number): Promise<SearchAnswer> {
	const docs = await Promise.all(searchableNotes(host, scope, filter).map((file) => documentFor(host, file)));
	return rankDocuments(docs, query, limit);
}

/** Matches and ranks a set of prepared documents; corpus statistics come from the same set. */
export function rankDocuments(docs: readonly SearchDocument[], query: ParsedQuery, limit: number): SearchAnswer {
	const averageLength = docs.reduce((sum, doc) => sum + doc.body.length, 0) / Math.max(1, docs.length);
	const matches = docs.map((doc) => matchDocument(doc, query)).filter((match) => match !== null);
	return rankMatches(matches, docs.length, averageLength, query, limit);
}
