import { NodeHost } from "../../src/headless/NodeHost";
import { IndexedNoteSearch } from "../../src/vault/search";
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
