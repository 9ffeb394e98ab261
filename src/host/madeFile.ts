import { lstatSync, readlinkSync, rmSync, type Stats } from "node:fs";

/** Whether `found` (an lstat, or null) is the plain file `ours` describes: the same inode on the same device. */
export function sameFile(found: Stats | null | undefined, ours: Pick<Stats, "ino" | "dev">): boolean {
	return found !== null && found !== undefined && found.isFile() && found.ino === ours.ino && found.dev === ours.dev;
}

/**
 * Removes the file open as `fd` (`made`: just made with O_CREAT|O_EXCL, so ours) where it was made.
 * For a file made beside a note, or through the thread pool in the plugin's folder, whose name there
 * does not lead to it: its folder was swapped for a link out of the vault between the folder's check
 * and the open, and swapped back before the file was looked at, so it was made (and would be written) outside.
 * Its place is asked of Linux (`/proc/self/fd`), and it is removed only if that name still leads to
 * it; elsewhere it is left (empty: nothing is written to a file refused).
 */
export function removeWhereMade(fd: number, made: Stats): void {
	let where: string;
	try {
		where = readlinkSync(`/proc/self/fd/${fd}`);
	} catch {
		return;
	}
	if (sameFile(lstatSync(where, { throwIfNoEntry: false }), made)) rmSync(where, { force: true });
}
