import type { CachedMetadata, EventRef } from "obsidian";
import type { HostFile, HostMetadataCache, LinkMap } from "../host/Host";
import type { NodeVault } from "./NodeVault";

const NOT_BUILT = "The headless metadata cache is not built yet (issue #3); only the vault is available headless.";

/** Placeholder until the Obsidian-faithful metadata cache lands: every query says so instead of answering wrongly. */
export class NodeMetadataCache implements HostMetadataCache {
	get resolvedLinks(): LinkMap {
		throw new Error(NOT_BUILT);
	}

	get unresolvedLinks(): LinkMap {
		throw new Error(NOT_BUILT);
	}

	static build(vault: NodeVault): Promise<NodeMetadataCache> {
		void vault;
		return Promise.resolve(new NodeMetadataCache());
	}

	getFileCache(file: HostFile): CachedMetadata | null {
		void file;
		throw new Error(NOT_BUILT);
	}

	getCache(path: string): CachedMetadata | null {
		void path;
		throw new Error(NOT_BUILT);
	}

	getFirstLinkpathDest(linkpath: string, sourcePath: string): HostFile | null {
		void linkpath;
		void sourcePath;
		throw new Error(NOT_BUILT);
	}

	on(name: string, callback: (...args: never[]) => unknown): EventRef {
		void name;
		void callback;
		throw new Error(NOT_BUILT);
	}

	offref(ref: EventRef): void {
		void ref;
	}

	close(): void {}
}
