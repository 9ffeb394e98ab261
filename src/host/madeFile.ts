import { lstatSync, readlinkSync, rmSync, type Stats } from "node:fs";

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
	const found = lstatSync(where, { throwIfNoEntry: false });
	if (found !== undefined && found.dev === made.dev && found.ino === made.ino) rmSync(where, { force: true });
}
