import { realpathSync, statSync, type Stats } from "node:fs";
import * as nodePath from "node:path";
import type { VaultRootOnDisk } from "../paths/spelling";

/**
 * The vault's path as it was opened and as the system resolves it: opened through a linked folder
 * (`/home/ann/Vault` → `/data/Vault`), a folder typed under either path names the same folder of
 * the vault. Without the second, `/data/Vault/Private` named a folder `data/Vault/Private` that is
 * never there, and excluded nothing. And whether the disk tells names apart by letter case, asked of
 * the disk itself (`isCaseSensitiveAt`): compared case-blind on Linux, `/home/ann/vault/Private`
 * named `Private` of `/home/ann/Vault`, though it is another folder there.
 */
export function vaultRootSpellings(root: string): VaultRootOnDisk {
	let real: string;
	try {
		real = realpathSync.native(root);
	} catch {
		// A root that cannot be resolved (gone, no permission) is compared as given, its disk unknown (as one folding case).
		return { spellings: [root], caseSensitive: false };
	}
	return { spellings: real === root ? [root] : [root, real], caseSensitive: isCaseSensitiveAt(real) };
}

/** The ASCII letters of a name: their case is swapped to ask the disk. */
const ASCII_LETTERS = /[a-z]/gi;
const HAS_ASCII_LETTER = /[a-z]/i;

/**
 * Whether the disk at `folder` (a real path, no link in it) tells names apart by letter case: its last name holding a
 * letter, in the other case, is not this same folder. Only that name: it is looked up on the disk the vault lies on (the
 * one that holds its folder), while the names above it may lie on another. The whole path swapped asked the disk at the
 * top (`/MEDIA/…`), so a vault on a FAT stick mounted under Linux's `/media` read as telling case apart, and its own path
 * typed in another case excluded nothing. A path with no letter is compared the same either way (case-sensitive then).
 */
function isCaseSensitiveAt(folder: string): boolean {
	const names = folder.split(nodePath.sep);
	let last = names.length - 1;
	while (last >= 0 && !HAS_ASCII_LETTER.test(names[last] ?? "")) last--;
	if (last < 0) return true;
	names[last] = (names[last] ?? "").replace(ASCII_LETTERS, (letter) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()));
	const swapped = names.join(nodePath.sep);
	let here: Stats;
	try {
		here = statSync(folder);
	} catch {
		// Not there to ask: its disk unknown, compared as one folding case (as a root that cannot be resolved).
		return false;
	}
	try {
		const there = statSync(swapped);
		return there.ino !== here.ino || there.dev !== here.dev;
	} catch {
		// Nothing (or no folder) at the other case: the disk told the two names apart.
		return true;
	}
}
