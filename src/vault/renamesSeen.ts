/**
 * Work that names notes at the paths it read them at, made again when a note moved while it ran.
 * The host renames its file objects in place, and a call that pauses between reading a path and
 * answering would name a note moved meanwhile (into an excluded folder, say) at the path it had left.
 */
import type { Host } from "../host/Host";

/** What a call answers when notes were renamed during each of its runs. */
export const NOTES_KEPT_MOVING = "Notes kept being renamed while this call ran. Call it again in a moment.";

/** `work`'s value, and whether a file or folder of the vault was renamed while it ran. */
export async function withRenamesSeen<T>(host: Pick<Host, "vault">, work: () => Promise<T>): Promise<{ value: T; renamed: boolean }> {
	let renamed = false;
	const ref = host.vault.on("rename", () => {
		renamed = true;
	});
	try {
		const value = await work();
		return { value, renamed };
	} finally {
		host.vault.offref(ref);
	}
}

/** `work`'s value from the first of at most `runs` runs that saw no rename; null when every one saw one. */
export async function untilNoRename<T>(host: Pick<Host, "vault">, runs: number, work: () => Promise<T>): Promise<{ value: T } | null> {
	for (let run = 1; run <= runs; run++) {
		const ran = await withRenamesSeen(host, work);
		if (!ran.renamed) return { value: ran.value };
	}
	return null;
}
