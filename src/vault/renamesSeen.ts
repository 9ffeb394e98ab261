/**
 * Work that names notes at the paths it read them at, made again when a note moved out of the
 * caller's sight while it ran. The host renames its file objects in place, and a call that pauses
 * between reading a path and answering would name a note moved meanwhile (into an excluded folder,
 * say) at the path it had left.
 */
import type { Host } from "../host/Host";
import { isPathVisible, type Scope } from "./scope";

/** What a call answers when notes were moved out of the caller's sight during each of its runs. */
export const NOTES_KEPT_MOVING = "Notes kept being renamed while this call ran. Call it again in a moment.";

/**
 * `work`'s value, and whether a file or folder of the vault went from a path `scope` sees to one it
 * does not while it ran. Only such a move can make the answer name or count what the caller may not
 * see: a move between visible folders leaves a path the caller saw, so a busy vault (a folder of
 * thousands of notes reorganised, another client renaming in a loop) does not make the work run again.
 */
export async function withMovesOutOfSight<T>(host: Pick<Host, "vault">, scope: Scope, work: () => Promise<T>): Promise<{ value: T; movedOut: boolean }> {
	let movedOut = false;
	const ref = host.vault.on("rename", (file, oldPath) => {
		if (!movedOut && isPathVisible(oldPath, scope) && !isPathVisible(file.path, scope)) movedOut = true;
	});
	try {
		const value = await work();
		return { value, movedOut };
	} finally {
		host.vault.offref(ref);
	}
}

/** `work`'s value from the first of at most `runs` runs during which nothing moved out of `scope`'s sight; null when something did in every one. */
export async function untilNoneMovedOutOfSight<T>(host: Pick<Host, "vault">, scope: Scope, runs: number, work: () => Promise<T>): Promise<{ value: T } | null> {
	for (let run = 1; run <= runs; run++) {
		const ran = await withMovesOutOfSight(host, scope, work);
		if (!ran.movedOut) return { value: ran.value };
	}
	return null;
}
