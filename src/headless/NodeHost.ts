import type { Host, HostFileManager } from "../host/Host";
import { NodeMetadataCache } from "./NodeMetadataCache";
import { NodeVault } from "./NodeVault";
import { renameWithLinks } from "../vault/rename";

/** Options for opening a folder as a vault. */
export interface NodeHostOptions {
	configDir?: string;
	/** Follow changes other programs make on disk (the CLI does; one-shot commands need not). */
	watch?: boolean;
	/** Entries one folder listing reads, when not FOLDER_LISTING_MAX_ENTRIES (tests of the bound, on a folder of a few dozen). */
	folderListingMaxEntries?: number;
	/**
	 * Parse every note into the metadata cache (the default). `undo` needs none of it (it writes the
	 * journal's texts back and moves notes with `vault.rename`), and parsing a big vault first took
	 * most of its time; without it the cache knows no note's metadata and no link.
	 */
	metadata?: boolean;
	/**
	 * Slices of METADATA_PARSE_SLICE_MS a note's parse may take before `open` returns; a note that
	 * needs more is parsed just after, its metadata unknown until then ("still being read"). Serve
	 * sets STARTUP_PARSE_SLICES_PER_NOTE so it listens without waiting for costly notes; by default
	 * every note under MAX_STARTUP_PARSE_BYTES is parsed first.
	 */
	parseSlicesPerNote?: number;
}

/** The headless `Host`: Obsidian's vault and metadata cache, rebuilt over a folder on disk. */
export class NodeHost implements Host {
	private constructor(
		readonly vault: NodeVault,
		readonly metadataCache: NodeMetadataCache,
	) {}

	/** Headless there is no system trash to ask for: a trashed file goes to the vault's `.trash` folder, as Obsidian's "Move to Obsidian trash" does. */
	readonly fileManager: HostFileManager = {
		trashFile: (file, options) => this.vault.trash(file, options),
		// Obsidian rewrites links itself; headless, our rewriting does what it does.
		renameFile: async (file, newPath) => {
			await renameWithLinks(this, file, newPath);
		},
	};

	static async open(root: string, options: NodeHostOptions = {}): Promise<NodeHost> {
		const vault = await NodeVault.open(root, options);
		const metadataCache =
			options.metadata === false
				? NodeMetadataCache.unparsed(vault)
				: await NodeMetadataCache.build(vault, { parseSlicesPerNote: options.parseSlicesPerNote });
		return new NodeHost(vault, metadataCache);
	}

	hiddenLinks(): readonly string[] {
		return this.vault.hiddenLinks();
	}

	async close(): Promise<void> {
		this.metadataCache.close();
		await this.vault.close();
	}
}
