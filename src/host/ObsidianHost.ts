import type { App } from "obsidian";
import type { Host } from "./Host";

/**
 * The plugin's `Host`: Obsidian's own vault and metadata cache, unchanged. The `satisfies`-style
 * assignments make the compiler prove that Obsidian's `App` still fits the seam on every upgrade.
 */
export function obsidianHost(app: App): Host {
	const host: Host = { vault: app.vault, metadataCache: app.metadataCache };
	return host;
}
