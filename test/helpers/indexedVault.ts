import { NodeHost } from "../../src/headless/NodeHost";
import type { Host } from "../../src/host/Host";
import type { ParsedQuery } from "../../src/search/query";
import { IndexedNoteSearch, ScannedNotes, type SearchAnswer, type SearchFilter } from "../../src/vault/search";
import type { Scope } from "../../src/vault/scope";
import { removeDir } from "./vault";

/** A vault folder opened headless with its search index built, and a way to put it all away. */
export interface IndexedVault {
	host: NodeHost;
	index: IndexedNoteSearch;
	/** Stops the index, closes the host and removes the folder. */
	close(): Promise<void>;
}

/** Opens `root` (the watcher on when `watch`), builds the index for `scope`, and waits until it is ready. */
export async function openIndexedVault(root: string, scope: Scope, options: { watch?: boolean } = {}): Promise<IndexedVault> {
	const host = await NodeHost.open(root, options.watch ? { watch: true } : {});
	const index = new IndexedNoteSearch(host, scope, () => new Promise<void>((resolve) => setImmediate(resolve)));
	index.start();
	await index.whenReady();
	return {
		host,
		index,
		close: async () => {
			await index.stop();
			await host.close();
			await removeDir(root);
		},
	};
}

/**
 * A scan's answers for many queries of a vault that does not change meanwhile: each filter's notes
 * are read and indexed once (ScannedNotes), each query answered as `scanSearch` alone answers it.
 * Make a new one after the vault changes.
 */
export function scanAnswers(
	host: Host,
	scope: Scope,
): (query: ParsedQuery, filter: SearchFilter, limit: number, stopWords?: ReadonlySet<string>) => Promise<SearchAnswer> {
	const scannedByFilter = new Map<string, Promise<ScannedNotes>>();
	return async (query, filter, limit, stopWords) => {
		const key = JSON.stringify([filter.folder ?? null, filter.tag ?? null]);
		let scanned = scannedByFilter.get(key);
		if (scanned === undefined) {
			scanned = ScannedNotes.read(host, scope, filter);
			scannedByFilter.set(key, scanned);
		}
		return (await scanned).search(query, limit, stopWords);
	};
}
