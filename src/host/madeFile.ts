import { lstatSync, readlinkSync, rmSync, type Stats } from "node:fs";

/**
 * Removes the file open as `fd` (`made`: just made with O_CREAT|O_EXCL, so ours) where it was made.
 * For a file made through the thread pool beside a note or in the plugin's folder, whose name there
 * does not lead to it: its folder was swapped for a link out of the vault while the open waited for a
 * thread, and swapped back before the answer was read, so it was made (and would be written) outside.
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
