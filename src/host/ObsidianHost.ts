import { LINK_SEARCH_DELAY_MS } from "../config/limits";
import type { App, Component, DataAdapter, TFile } from "obsidian";
import { FolderJail } from "./FolderJail";
import { FileOverBytesError } from "./FileOverBytesError";
import { readSettingsFile } from "./settingsFile";
import type { Host, HostFile, HostFileManager, HostVault } from "./Host";
import { fileMissingError } from "./fileErrors";

/** The vault's folder on disk; throws when the vault is not on the local file system. */
export function vaultBasePath(app: App): string {
	const basePath = (app.vault.adapter as DataAdapter & { getBasePath?: () => string }).getBasePath?.();
	if (basePath === undefined) throw new Error("Vault MCP needs a vault on the local file system (desktop Obsidian).");
	return basePath;
}

/**
 * The plugin's `Host`: Obsidian's own vault and metadata cache, behind the jail. Obsidian's adapter
 * follows symbolic links, so every read and write first asks the FolderJail whether the path is
 * really inside the vault folder, and links found in the folder are reported as hidden, so
 * listings, links, tags and search leave them out like an excluded folder. The assignments make
 * the compiler prove that Obsidian's `App` still fits the seam on every upgrade.
 */
export async function obsidianHost(app: App, owner: Pick<Component, "registerEvent" | "register">): Promise<Host> {
	const basePath = vaultBasePath(app);
	const jail = await FolderJail.open(basePath);
	let links: string[] = await jail.findLinks();
	let timer: number | null = null;
	const searchAgain = () => {
		if (timer !== null) return;
		timer = window.setTimeout(() => {
			timer = null;
			void jail.findLinks().then((found) => (links = found));
		}, LINK_SEARCH_DELAY_MS);
	};
	owner.registerEvent(app.vault.on("create", searchAgain));
	owner.registerEvent(app.vault.on("delete", searchAgain));
	owner.registerEvent(app.vault.on("rename", searchAgain));
	owner.register(() => {
		if (timer !== null) window.clearTimeout(timer);
	});

	const vault = app.vault;
	/** Obsidian's own TFile at a path, or a missing file's error. */
	const obsidianFile = (path: string): TFile => {
		const found = vault.getFileByPath(path);
		if (!found) throw fileMissingError(path);
		return found;
	};
	const checked = <T>(path: string, work: () => Promise<T>): Promise<T> => jail.check(path).then(work);
	/**
	 * `work` on the file Obsidian tracks at `file`'s path as it was when the call came, once the jail has
	 * checked that path. Obsidian renames a TFile in place: read again after the check's await, `file.path`
	 * could be a path the jail never saw (a folder linked outside the vault); renamed meanwhile, the file
	 * is missing at the checked path and the call fails as for a missing file.
	 */
	const checkedFile = <T>(file: HostFile, work: (found: TFile) => Promise<T>): Promise<T> => {
		const path = file.path;
		return checked(path, () => work(obsidianFile(path)));
	};
	/**
	 * Obsidian's atomic edit, saving only a changed text: Obsidian saves whatever the callback returns
	 * ("the text value of the note that was written"), its own text included, so an edit that changes
	 * nothing (a round that leaves a long note's edit to be made again outside, a move's own edit)
	 * saved the note for nothing: a modify event, a new mtime, a sync upload. Such a callback throws
	 * instead, so Obsidian has no text to save, and the text read is the answer.
	 */
	const processChanging = async (file: TFile, fn: (data: string) => string, beforeWrite?: () => void): Promise<string> => {
		let unchanged: string | null = null;
		try {
			return await vault.process(file, (data) => {
				const next = fn(data);
				if (next === data) {
					unchanged = data;
					throw new UnchangedText();
				}
				beforeWrite?.();
				return next;
			});
		} catch (error) {
			if (error instanceof UnchangedText && unchanged !== null) return unchanged;
			throw error;
		}
	};
	const jailedVault: HostVault = {
		get configDir() {
			return vault.configDir;
		},
		adapter: {
			// Not Obsidian's adapter, which reads a file whole (a settings file, Host's adapter): the vault is on disk (desktop only, `vaultBasePath`).
			read: (path) => readSettingsFile(jail, jail.diskPath(path)),
			exists: (path) =>
				jail.check(path).then(
					() => vault.adapter.exists(path),
					() => false,
				),
			copy: (from, to) => checked(from, () => checked(to, () => vault.adapter.copy(from, to))),
			// The jail's own removal, not the adapter's (a check by path, then a removal by path): never recursive, so
			// nothing in the folder can be lost, and never through a folder above it swapped for a link after the check.
			rmdir: (path) => jail.removeEmptyFolder(jail.diskPath(path)),
		},
		getName: () => vault.getName(),
		getMarkdownFiles: () => vault.getMarkdownFiles(),
		getFiles: () => vault.getFiles(),
		getFileByPath: (path) => vault.getFileByPath(path),
		getFolderByPath: (path) => vault.getFolderByPath(path),
		// Obsidian's tree, in memory: a folder is a child with children of its own.
		listedFolderNames: (path) => {
			const folder = path === "" || path === "/" ? vault.getRoot() : vault.getFolderByPath(path);
			return Promise.resolve(folder === null ? null : folder.children.filter((child) => "children" in child).map((child) => child.name));
		},
		cachedRead: (file) => checkedFile(file, (found) => vault.cachedRead(found)),
		read: (file) => checkedFile(file, (found) => vault.read(found)),
		// Obsidian's own size of the file (kept by its watcher): a file over the bound is not read in.
		process: (file, fn, options) =>
			checkedFile(file, (found) =>
				options?.refuseOverBytes !== undefined && found.stat.size > options.refuseOverBytes
					? Promise.reject(new FileOverBytesError(found.stat.size))
					: processChanging(found, fn, options?.beforeWrite),
			),
		create: (path, data, options) =>
			checked(path, () => {
				options?.beforeWrite?.();
				return vault.create(path, data);
			}),
		createFolder: (path) => checked(path, () => vault.createFolder(path)),
		rename: (file, newPath) => checkedFile(file, (found) => checked(newPath, () => vault.rename(found, newPath))),
		on: vault.on.bind(vault) as HostVault["on"],
		offref: (ref) => vault.offref(ref),
	};
	const fileManager: HostFileManager = {
		trashFile: (file) => checkedFile(file, (found) => app.fileManager.trashFile(found)),
		renameFile: (file, newPath) => checkedFile(file, (found) => checked(newPath, () => app.fileManager.renameFile(found, newPath))),
	};
	return { vault: jailedVault, metadataCache: app.metadataCache, workspace: app.workspace, fileManager, hiddenLinks: () => links };
}

/** Thrown from Obsidian's `process` callback to end an edit that changes nothing without a save. */
class UnchangedText extends Error {}
