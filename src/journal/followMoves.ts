import type { HostVault } from "../host/Host";
import type { WriteJournal } from "./entry";

/**
 * Tells the journal of every file the host reports renamed (Obsidian's vault `rename`, headless the
 * watcher's and our own), so undo finds a journalled note where the person moved it, and tells a
 * move into an excluded folder from a deletion. Returns the way to stop.
 */
export function followMoves(vault: Pick<HostVault, "on" | "offref">, journal: WriteJournal): () => void {
	const ref = vault.on("rename", (file, oldPath) => journal.noteMoved?.(oldPath, file.path));
	return () => vault.offref(ref);
}
