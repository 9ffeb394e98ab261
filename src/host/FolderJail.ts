import { MAX_FOLDERS_SEARCHED } from "../config/limits";
import { promises as fs, type Dirent } from "node:fs";
import * as nodePath from "node:path";

/** Error code of a path the jail refuses; the message never says what, if anything, is behind it. */
export const OUTSIDE_VAULT = "EOUTSIDEVAULT";

/** A refusal: the path leads through a symbolic link, or to something that is not a plain file or folder. */
export function outsideVaultError(): Error {
	return Object.assign(new Error("That path is not part of the vault this server gives access to."), { name: "OutsideVaultError", code: OUTSIDE_VAULT });
}

/**
 * The vault folder's jail, for a host whose own file access follows symbolic links (Obsidian's
 * adapter does): `check` is called right before bytes move and refuses any path with a link in
 * it or leading out of the vault's real root; `findLinks` lists the links so they can be hidden
 * from listings and named to the person. Node's file system only: desktop Obsidian and headless.
 */
export class FolderJail {
	private constructor(private readonly root: string) {}

	/** A jail over the folder at `basePath` (its own real path resolved once). */
	static async open(basePath: string): Promise<FolderJail> {
		return new FolderJail(await fs.realpath(basePath));
	}

	/** Resolves when every part of the vault path that exists is a real folder or plain file where its path says; rejects with an OUTSIDE_VAULT error otherwise. */
	async check(vaultPath: string): Promise<void> {
		const lexical = nodePath.resolve(this.root, vaultPath === "/" ? "." : vaultPath);
		if (lexical !== this.root && !lexical.startsWith(this.root + nodePath.sep)) throw outsideVaultError();
		for (let current = lexical; ; current = nodePath.dirname(current)) {
			let stats;
			try {
				stats = await fs.lstat(current);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ENOENT" && current !== this.root) continue;
				throw outsideVaultError();
			}
			if (!stats.isFile() && !stats.isDirectory()) throw outsideVaultError();
			if ((await fs.realpath(current)) !== current) throw outsideVaultError();
			return;
		}
	}

	/** Vault paths of the symbolic links under the root (not followed), dot-folders skipped. */
	async findLinks(): Promise<string[]> {
		const links: string[] = [];
		const queue: string[] = [""];
		for (let searched = 0; queue.length > 0 && searched < MAX_FOLDERS_SEARCHED; searched++) {
			const folder = queue.shift() ?? "";
			let entries: Dirent[];
			try {
				entries = await fs.readdir(nodePath.join(this.root, folder), { withFileTypes: true });
			} catch {
				continue;
			}
			for (const entry of entries) {
				if (entry.name.startsWith(".")) continue;
				const path = folder === "" ? entry.name.normalize("NFC") : `${folder}/${entry.name.normalize("NFC")}`;
				if (entry.isSymbolicLink()) links.push(path);
				else if (entry.isDirectory()) queue.push(path);
			}
		}
		return links.sort();
	}
}
