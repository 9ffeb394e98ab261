/**
 * The one spelling of a vault path, and the form two spellings share when a person would read them
 * as the same path. Pure and free of the vault layer, so the settings model (excluded folders) and
 * the vault's path policy use the same rules without config/ depending on vault/.
 */
import { MATCH_KEY_CACHE_SIZE } from "../config/limits";

/** A Windows drive at the start of a path (`C:`). */
export const DRIVE_LETTER = /^[a-z]:/i;
/** A Windows drive starting an absolute path (`C:\Users` once its backslashes are slashes, or `C:` alone): `a:b` is not one. */
export const DRIVE_PATH = /^[a-z]:(?:\/|$)/i;
/** Beside a vault on a system without drives (Linux, macOS): no path starts with one. */
const NO_DRIVE = /(?!)/;
/** Obsidian replaces these two with a plain space in every path (its `normalizePath`). */
export const OBSIDIAN_SPACES = /[\u00a0\u202f]/g;

/**
 * The text without the slashes at its end. A loop, not `/\/+$/`: a regular expression tries that at
 * every slash of a long run, quadratic in its length.
 */
export function trimTrailingSlashes(text: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === "/") end--;
	return text.slice(0, end);
}

/** The text without the slashes at either end (see trimTrailingSlashes). */
export function trimSlashes(text: string): string {
	let start = 0;
	while (start < text.length && text[start] === "/") start++;
	return trimTrailingSlashes(text.slice(start));
}

/** Printable ASCII without a backslash, a slash at either end or (tested apart) two slashes in a row: a vault path in its one spelling. */
const PLAIN_ASCII_PATH = /^[\x20-\x2e\x30-\x5b\x5d-\x7e](?:[\x20-\x5b\x5d-\x7e]*[\x20-\x2e\x30-\x5b\x5d-\x7e])?$/;

/**
 * The one spelling of a vault path, as Obsidian's `normalizePath` makes it: forward slashes, no
 * repeated, leading or trailing slash, U+00A0 and U+202F as plain spaces, Unicode NFC. The policy,
 * the exclusions and the file operation all use this same string.
 */
export function normalizeVaultPath(path: string): string {
	// Nearly every path looked up is already spelt so (NFC leaves printable ASCII as it is): two replaces and a normalize were 1% of a small read's CPU.
	if (PLAIN_ASCII_PATH.test(path) && !path.includes("//")) return path;
	const cleaned = trimSlashes(path.replace(/[\\/]+/g, "/"))
		.replace(OBSIDIAN_SPACES, " ")
		.normalize("NFC");
	return cleaned === "" ? "/" : cleaned;
}

/**
 * Zero-width and other invisible format characters: a name that differs only by them looks the same. Exactly Unicode's
 * Default_Ignorable_Code_Point (drawn as nothing by a renderer that does not know them, assigned or not), listed rather
 * than matched by the property so the key does not move with the Unicode version of the Node or Electron it runs on.
 * The astral ones as surrogate pairs: the shorthand format controls U+1BCA0–U+1BCA3, the musical beams and ties
 * U+1D173–U+1D17A and the tags and variation selectors U+E0000–U+E0FFF (without the first two runs create_note made
 * `Pri\u{1D173}vate/x.md` beside an excluded `Private`, and a twin of a note).
 * Also the format characters outside that set drawn as nothing or as a mark on the letters beside it (the interlinear
 * annotation marks U+FFF9–U+FFFB, the Kaithi number signs U+110BD and U+110CD, the Egyptian format controls
 * U+13430–U+1343F): create_note made `Pri\u{FFF9}v/x.md` beside an excluded `Priv`. Only the Arabic signs spanning the
 * digits after them (U+0600–U+0605, U+06DD, U+070F, U+0890–U+0891, U+08E2), drawn as signs, keep a name apart.
 */
const INVISIBLE =
	// eslint-disable-next-line no-misleading-character-class -- each listed code point is removed on its own
	/[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|\ud804[\udcbd\udccd]|\ud80d[\udc30-\udc3f]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]|[\udb40-\udb43][\udc00-\udfff]/g;
/** Every kind of space: NFKC maps most look-alikes to U+0020, this catches the rest. */
const ANY_SPACE = /[\s\u2800]+/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Spaces the key collapses or trims: a space at either end of a part, or two in a row. */
const LOOSE_SPACES = /^ | $| \/|\/ | {2}/;
const matchKeyCache = new Map<string, string>();
/**
 * Lower-case letters (after NFKC) that a disk folding case reads as another lower-case letter, their capital's: final
 * sigma `ς` (U+03C2) is `σ` to macOS's and Windows' folding (both are `Σ`), so beside an excluded `Ιδιωτικός` the key
 * let create_note make `Ιδιωτικόσ/x.md`, which such a disk writes into the excluded folder; likewise the old Cyrillic
 * forms U+1C80–U+1C88, the iota below U+0345, and the dotless `ı` (read as `i`, as the Private/Prıvate look-alikes are).
 * Every code point whose one-letter capital has another key than it is listed (the spelling test checks them all).
 */
const LOWER_CASE_APART = /\u0345|[\u0131\u03c2\u1c80-\u1c88]/g;

/** The text as a person sees it: compatibility-normalized (look-alike spaces and dots as plain ones), invisible characters removed. */
export function visibleForm(text: string): string {
	return text.normalize("NFKC").replace(INVISIBLE, "");
}

/**
 * The form two paths share when a person would read them as the same path: compatibility
 * normalization (NFKC: look-alike spaces, dots and letters), invisible characters removed,
 * runs of spaces as one, each part trimmed, lower case. Used only to compare, never to open a file.
 */
export function pathMatchKey(path: string): string {
	// Most paths are plain ASCII with single spaces inside their parts: for them the key is only lower case.
	if (PRINTABLE_ASCII.test(path) && !LOOSE_SPACES.test(path)) return path.toLowerCase();
	const cached = matchKeyCache.get(path);
	if (cached !== undefined) return cached;
	const key = visibleForm(path)
		.replace(ANY_SPACE, " ")
		.split("/")
		.map((part) => part.trim())
		.join("/")
		.toLowerCase()
		.normalize("NFKC")
		.replace(LOWER_CASE_APART, (letter) => letter.toUpperCase().toLowerCase());
	if (matchKeyCache.size >= MATCH_KEY_CACHE_SIZE) matchKeyCache.clear();
	matchKeyCache.set(path, key);
	return key;
}

/** A Win32 long-path or device prefix (`\\?\`, `\\.\`) once backslashes are slashes: the path after it is the path meant. */
const WIN32_PATH_PREFIX = /^\/\/[?.]\//;

/** The long form of a network path (`\\?\UNC\server\share`, `\\.\UNC\…`) once backslashes are slashes: `\\server\share` meant. */
const WIN32_UNC_PREFIX = /^\/\/[?.]\/unc\//i;

/**
 * Backslashes as slashes, without a Win32 long-path prefix (`\\?\C:\Vault` is `C:/Vault`, `\\?\UNC\server\share\Vault`
 * is `//server/share/Vault`: it named a folder `UNC/server/share/Vault/Private`, never there, and Private stayed visible).
 */
function withSlashes(path: string): string {
	const slashed = path.replace(/\\/g, "/");
	return WIN32_UNC_PREFIX.test(slashed) ? `//${slashed.slice("//?/UNC/".length)}` : slashed.replace(WIN32_PATH_PREFIX, "");
}

/** Two or more slashes in a row: resolvedAbsolute spells the vault's roots with none (`\\server\share` is `/server/share`). */
const REPEATED_SLASHES = /\/{2,}/g;

/**
 * An absolute path with its `.` and `..` parts resolved as the system reads them: `/a/../b` is `/b`, and `..` at the top
 * stays there. ` ..` (spaces around it) is a name to the system, kept as it is (see normalizeExcludedFolder).
 */
function resolvedAbsolute(path: string): string {
	const drive = DRIVE_LETTER.exec(path)?.[0] ?? "";
	const parts: string[] = [];
	for (const part of path.slice(drive.length).split("/")) {
		if (part.trim() === "" || part === ".") continue;
		if (part === "..") parts.pop();
		else parts.push(part);
	}
	return `${drive}/${parts.join("/")}`;
}

/** The number of names in a path (`/home/ann/Vault`: 3, `C:/Vault`: 2). */
function partCount(path: string): number {
	return path.split("/").filter(Boolean).length;
}

/**
 * The vault's absolute path as the disk there reads it (vaultRootSpellings probes it): its spellings (as opened, and
 * as the system resolves it through a linked folder), a folder typed under any of them naming the same folder of the
 * vault; and whether that disk tells names apart by letter case (Linux's do: `/home/ann/vault` is another folder than
 * `/home/ann/Vault`, while macOS's and Windows' read both as one).
 */
export interface VaultRootOnDisk {
	readonly spellings: readonly string[];
	readonly caseSensitive: boolean;
}

/**
 * The vault's absolute path, or its spellings and disk (VaultRootOnDisk). A path alone says nothing of the disk: a
 * folder typed under it is compared as a disk that folds case and Unicode forms would read it (`pathMatchKey`).
 */
export type VaultRoot = string | VaultRootOnDisk;

/**
 * The form the vault's path and a typed absolute path are compared in: where the disk tells letter case apart, the
 * path itself, as the disk spells it; elsewhere, as a person would read it (`pathMatchKey`). Such a disk (Linux's) tells
 * Unicode forms apart too: compared in NFC, `/home/ann/Cafe\u0301/Work` (another folder there) named the vault
 * `/home/ann/Café`'s Work, and a token limited to it saw that folder.
 */
function rootKeyFor(caseSensitive: boolean): (path: string) => string {
	return caseSensitive ? (path) => path : pathMatchKey;
}

/** Whether `path` is one of `roots` or below one, each compared in the form `key` gives. */
function startsInRoot(path: string, roots: readonly string[], key: (path: string) => string): boolean {
	const typed = key(path);
	return roots.some((root) => {
		const rootKey = key(root);
		// A vault at a drive's or the disk's top (`E:/`, `/`) ends with its slash already.
		return typed === rootKey || typed.startsWith(rootKey.endsWith("/") ? rootKey : `${rootKey}/`);
	});
}

/**
 * An excluded folder as a person may type it — `./Private`, `Private/`, `\Private`, an absolute
 * path inside the vault, any Unicode normalization, stray spaces — in the vault's one spelling.
 * `vaultRoot` (the vault's absolute path or paths, when known) lets an absolute path inside the vault count; any
 * other leading slash is read as the vault root (excluding a folder that is not there only hides more).
 * Returns null for an entry that names no folder inside the vault.
 */
export function normalizeExcludedFolder(input: string, vaultRoot?: VaultRoot): string | null {
	let folder = withSlashes(input.trim());
	const onDisk = typeof vaultRoot === "string" ? { spellings: [vaultRoot], caseSensitive: false } : vaultRoot;
	const roots = (onDisk?.spellings ?? []).map((root) => resolvedAbsolute(withSlashes(root)));
	// `a:b` is drive A's folder b only where the vault's system has drives (its path starts with one); elsewhere it is a
	// name, as Linux and macOS read it (a folder `a:b` could not be excluded). An absolute drive path is a drive where the
	// vault's system is unknown, or spelt as Windows spells it (`C:\Users`, `\\?\C:\Users`); beside a vault known to have
	// no drives, `C:/x` is a folder of that name, as `./C:/x` is: that entry is saved as `C:/x`, and read back as a drive
	// it was dropped at the next load (the folder `C:/x` shown again, a token limited to it dropped). Told of at load
	// (entriesSpeltAsElsewhere).
	const drive = roots.some((root) => DRIVE_LETTER.test(root)) ? DRIVE_LETTER : roots.length > 0 && !input.includes("\\") ? NO_DRIVE : DRIVE_PATH;
	const startsWithDrive = (path: string) => drive.test(path);
	if (roots.length > 0) {
		const rootKey = rootKeyFor(onDisk?.caseSensitive === true);
		// Resolved first, so a path that leaves the vault and comes back (`/home/ann/Other/../Vault/Private`) names its folder too.
		const resolved = folder.startsWith("/") || startsWithDrive(folder) ? resolvedAbsolute(folder) : folder;
		if (roots.some((root) => rootKey(root) === rootKey(resolved))) return null;
		const within = roots.findIndex((root) => startsInRoot(resolved, [root], rootKey));
		// Cut by parts, not characters: on a disk that folds Unicode forms the typed path and the vault's may differ in them.
		if (within >= 0)
			folder = resolved
				.split("/")
				.filter(Boolean)
				.slice(partCount(roots[within] ?? ""))
				.join("/");
		// No folder inside the vault: a path that starts inside it and climbs out (`/home/ann/Vault/..`), compared with its
		// slashes single as the roots are (a network path `\\server\share\Vault\..\Other` kept its `//` and was read as a
		// folder `server/share/Other` inside the vault, never there, with no warning); and, where the disk tells names apart,
		// the vault's path as a person would read it but spelt otherwise (`/home/ann/vault/…`, another Unicode form): another
		// folder there, outside the vault. Read as a folder `home/ann/vault/…` inside it, it excluded nothing, untold.
		else if (startsInRoot(resolved, roots, pathMatchKey) || startsInRoot(folder.replace(REPEATED_SLASHES, "/"), roots, pathMatchKey)) return null;
	}
	// Anything else with a leading slash means the vault's root, as Obsidian's own paths do; a drive path outside the vault names nothing here.
	if (startsWithDrive(folder)) return null;
	// A `..` takes away the name before it, as the system would read the path: `Notes/../Private` names
	// `Private`. Dropped, such an entry left the folder it names visible, silently. With spaces around it (`Notes/ ../Private`)
	// it is a name to the system, a folder ` ..`, not the folder above: read as `..`, the entry named `Private`, and a token
	// limited to it saw Private. The vault never shows such a folder (its name reads as a dot-name, hidden as `.trash` is),
	// so the entry names no folder of the vault and the person is told, rather than either reading taken for what was meant.
	const parts: string[] = [];
	for (const part of normalizeVaultPath(folder).split("/")) {
		const name = part.trim();
		if (name !== part && (name === "." || name === "..")) return null;
		if (name === "" || name === ".") continue;
		if (name !== "..") parts.push(name);
		else if (parts.pop() === undefined) return null;
	}
	if (parts.length === 0) return null;
	return parts.join("/");
}

/** The entries, trimmed, that are not blank yet name no folder inside the vault (`../Elsewhere`): the person is told of them, never silently. */
export function entriesNamingNoFolder(folders: readonly string[], vaultRoot?: VaultRoot): string[] {
	return folders.map((folder) => folder.trim()).filter((folder) => folder !== "" && normalizeExcludedFolder(folder, vaultRoot) === null);
}

/**
 * Spellings of a place a person may paste for one of the vault's folders that no vault path is spelt as: a shell's home
 * (`~/Vault/Private`), a URL (`file:///home/ann/Vault/Private`), a Win32 device path other than a drive's or a network
 * share's (`\\?\GLOBALROOT\Device\HarddiskVolume2\Vault\Private`). Each is read as a folder of that name inside the
 * vault (a folder `~` is a name everywhere, and `./~/x` its usual spelling): narrower, never wider, and never there.
 */
const SPELT_AS_ELSEWHERE = /^(?:~(?:\/|$)|file:\/|\/\/[?.]\/(?![a-z]:(?:\/|$)|unc(?:\/|$)))/i;

/**
 * The entries, trimmed, that name a folder inside the vault but are spelt as a place elsewhere (SPELT_AS_ELSEWHERE): the
 * person is told, as the settings tab tells them the folder is not there. data.json's `~/Vault/Private` excluded nothing, untold.
 */
export function entriesSpeltAsElsewhere(folders: readonly string[], vaultRoot?: VaultRoot): string[] {
	return folders
		.map((folder) => folder.trim())
		.filter((folder) => {
			const named = normalizeExcludedFolder(folder, vaultRoot);
			// `C:/…` beside a vault without drives (a Windows path pasted with slashes on Linux) names a folder `C:` inside it.
			return named !== null && (SPELT_AS_ELSEWHERE.test(folder.replace(/\\/g, "/")) || DRIVE_PATH.test(named));
		});
}

/** Excluded folders in their one spelling, without blanks or repeats; entries outside the vault are dropped. */
export function normalizeFolderList(folders: readonly string[], vaultRoot?: VaultRoot): string[] {
	const cleaned = folders.map((folder) => normalizeExcludedFolder(folder, vaultRoot)).filter((folder): folder is string => folder !== null);
	return [...new Set(cleaned)];
}
