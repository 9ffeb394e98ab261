import { realpathSync, statSync, type Stats } from "node:fs";
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

/**
 * Whether the disk at `folder` (a real path, no link in it) tells names apart by letter case: the path with the case
 * of its ASCII letters swapped is not this same folder. A path with no such letter is compared the same either way
 * (case-sensitive then). A disk that folds case for some folders of the path only reads as telling case apart: a path
 * typed in another case there is then said to name no folder of the vault, which the person is told.
 */
function isCaseSensitiveAt(folder: string): boolean {
	const swapped = folder.replace(/[a-z]/gi, (letter) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()));
	if (swapped === folder) return true;
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
