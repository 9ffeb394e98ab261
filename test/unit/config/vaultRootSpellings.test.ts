/**
 * The vault's path as the disk reads it, over real temp folders: a folder typed under the vault's path in another
 * letter case names the vault's folder only where the disk reads the two spellings as one folder. Compared case-blind
 * on a disk that tells them apart (Linux's), `…/vault/Private` excluded and granted `Private` of `…/Vault`.
 */
import { mkdirSync, promises as fs, symlinkSync, type StatSyncOptions } from "node:fs";
import * as nodePath from "node:path";
import { generateToken } from "../../../src/auth/tokens";
import { FileSettingsStore } from "../../../src/config/FileSettingsStore";
import { vaultRootSpellings } from "../../../src/config/vaultRootSpellings";
import { normalizeExcludedFolder } from "../../../src/paths/spelling";
import { makeTempDir, removeDir } from "../../helpers/vault";

/** Whether the disk at `parent` keeps `Vault` and `vault` apart: made as two folders, or the second refused as the first. */
function tellsCaseApart(parent: string): boolean {
	mkdirSync(nodePath.join(parent, "Vault"));
	try {
		mkdirSync(nodePath.join(parent, "vault"));
		return true;
	} catch {
		return false;
	}
}

describe("vaultRootSpellings over a real disk", () => {
	let parent: string;
	let root: string;
	let caseApart: boolean;

	beforeEach(async () => {
		parent = await makeTempDir();
		caseApart = tellsCaseApart(parent);
		root = nodePath.join(parent, "Vault");
	});
	afterEach(async () => {
		await removeDir(parent);
	});

	test("says whether the disk tells the vault's path apart from the same in another case, and names the real path of a linked one", () => {
		expect(vaultRootSpellings(root)).toEqual({ spellings: [root], caseSensitive: caseApart });
		const linked = nodePath.join(parent, "Linked");
		symlinkSync(root, linked);
		expect(vaultRootSpellings(linked)).toEqual({ spellings: [linked, root], caseSensitive: caseApart });
	});

	test("data.json's folders under the vault's path in another case name the vault's folders only where the disk reads them as one", async () => {
		const other = nodePath.join(parent, "vault");
		const { record } = generateToken("scoped", "read", {}, new Date(), ["Work"]);
		await fs.mkdir(nodePath.join(root, ".obsidian/plugins/vault-mcp"), { recursive: true });
		await fs.writeFile(
			nodePath.join(root, ".obsidian/plugins/vault-mcp/data.json"),
			JSON.stringify({ excludedFolders: [`${other}/Private`, `${root}/Archive`], tokens: [{ ...record, folders: [`${other}/Work`] }] }),
		);
		const { settings, warnings } = await new FileSettingsStore(root, ".obsidian").read();
		// Under the vault's own spelling, always the vault's folder.
		expect(settings.excludedFolders).toContain("Archive");
		if (caseApart) {
			// Another folder, outside the vault: no folder of it, told (285ac856 read it as a folder `…/vault/Private` inside, untold).
			expect(settings.excludedFolders).toEqual(["Archive"]);
			expect(settings.tokens).toEqual([]);
			expect(warnings).toContain("settings: 1 excluded folder entry names no folder inside the vault; ignored");
		} else {
			expect(settings.excludedFolders).toContain("Private");
			expect(settings.tokens[0]?.folders).toEqual(["Work"]);
		}
	});
});

/**
 * The vault's path in another Unicode form (`Cafe\u0301` for a vault `Café`): another folder where the disk tells the forms
 * apart (Linux's), as it tells case apart. Compared in NFC, data.json's token limited to `…/Cafe\u0301/Work` saw the
 * vault's Work (285ac856). Now such an entry names no folder of the vault: the token is dropped and the exclusion ignored,
 * each told; where the disk reads both forms as one folder (macOS), both are the vault's folders.
 */
test("data.json's folders under the vault's path in another Unicode form give a token nothing where the disk tells the forms apart", async () => {
	const parent = await makeTempDir();
	try {
		const root = nodePath.join(parent, "Caf\u00e9");
		mkdirSync(root);
		let formsApart = true;
		try {
			mkdirSync(nodePath.join(parent, "Cafe\u0301"));
		} catch {
			formsApart = false;
		}
		const other = nodePath.join(parent, "Cafe\u0301");
		const { record } = generateToken("scoped", "read", {}, new Date(), ["Work"]);
		await fs.mkdir(nodePath.join(root, ".obsidian/plugins/vault-mcp"), { recursive: true });
		await fs.writeFile(
			nodePath.join(root, ".obsidian/plugins/vault-mcp/data.json"),
			JSON.stringify({ excludedFolders: [`${other}/Private`], tokens: [{ ...record, folders: [`${other}/Work`] }] }),
		);
		const { settings, warnings } = await new FileSettingsStore(root, ".obsidian").read();
		if (formsApart) {
			expect(settings.tokens).toEqual([]);
			expect(settings.excludedFolders).toEqual([]);
			expect(warnings).toEqual(
				expect.arrayContaining([
					"settings: token record 0's folders are not valid and the token was dropped",
					"settings: 1 excluded folder entry names no folder inside the vault; ignored",
				]),
			);
		} else if (!vaultRootSpellings(root).caseSensitive) {
			expect(settings.tokens[0]?.folders).toEqual(["Work"]);
			expect(settings.excludedFolders).toEqual(["Private"]);
		}
	} finally {
		await removeDir(parent);
	}
});

/**
 * A disk that folds case mounted under one that does not (a FAT or exFAT USB stick at /media/ann/USB on Linux, a vault on
 * it): no such disk can be mounted here, so `statSync` is hooked to read names under the mount as that disk would, in
 * any case. The vault's folder is looked up on the folded disk, so a path typed in another case there is the vault.
 */
describe("vaultRootSpellings for a vault on a case-folding disk mounted under a case-sensitive one", () => {
	let parent: string;
	let root: string;

	beforeEach(async () => {
		parent = await makeTempDir();
		mkdirSync(nodePath.join(parent, "USB", "Vault"), { recursive: true });
		root = nodePath.join(parent, "USB", "Vault");
		const mount = `${nodePath.join(parent, "USB")}/`;
		const nodeFs = jest.requireActual<typeof import("node:fs")>("node:fs");
		const statSync = nodeFs.statSync;
		jest.spyOn(nodeFs, "statSync").mockImplementation(((path: string, options?: StatSyncOptions) =>
			// Under the mount every spelling of the vault's name is the vault (above it, names are looked up as they are).
			path.startsWith(mount) && path.toLowerCase() === root.toLowerCase() ? statSync(root, options) : statSync(path, options)) as typeof statSync);
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await removeDir(parent);
	});

	test("reads the disk as folding case, so an excluded folder typed under the vault's name in another case is excluded", () => {
		const onDisk = vaultRootSpellings(root);
		expect(onDisk.caseSensitive).toBe(false);
		expect(normalizeExcludedFolder(`${nodePath.join(parent, "USB", "vault")}/Private`, onDisk)).toBe("Private");
	});
});
