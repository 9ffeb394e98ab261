import { realpathSync } from "node:fs";

/**
 * The vault's path as it was opened and as the system resolves it: opened through a linked folder
 * (`/home/ann/Vault` → `/data/Vault`), a folder typed under either path names the same folder of
 * the vault. Without the second, `/data/Vault/Private` named a folder `data/Vault/Private` that is
 * never there, and excluded nothing.
 */
export function vaultRootSpellings(root: string): string[] {
	try {
		const real = realpathSync.native(root);
		return real === root ? [root] : [root, real];
	} catch {
		// A root that cannot be resolved (gone, no permission) is compared as given.
		return [root];
	}
}
