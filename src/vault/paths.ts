import { CHECKED_PATHS_REMEMBERED, MAX_NAME_BYTES, MAX_NOTE_NAME_BYTES, MAX_PATH_LENGTH } from "../config/limits";
import { DRIVE_LETTER, DRIVE_PATH, OBSIDIAN_SPACES, pathMatchKey, trimTrailingSlashes, visibleForm } from "../paths/spelling";
import { fail, ok, type Result } from "../result";
import { isExcludedPath, type Scope } from "./scope";

/** Percent-encodings of `.`, `/`, `\` and NUL: a path that carries them is trying to mean something else. */
const ENCODED_SEPARATORS = /%(?:2e|2f|5c|00)/i;
/** Characters Obsidian refuses in file names on every platform (Windows gives most of them meaning). */
const FORBIDDEN_NAME_CHARACTERS = /[*"<>:|?]/;
/** Names Windows gives to devices: a note called this cannot exist there. */
const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;
/**
 * A name of the shape Windows gives a file or folder as its short (8.3) name: up to six characters, `~` and a number, eight
 * at most, then up to three after a dot (`PRIVAT~1`, `OBSIDI~1`, `NOTESA~1.md`). On an NTFS volume that makes short names
 * (the system drive, by default) such a path opens the file or folder of the long name: `PRIVAT~1/x.md` was written into an
 * excluded `Private notes`, `OBSIDI~1/x.md` into `.obsidian`, and a new `NOTESA~1.md` over `Notes about it.md`, no backup.
 * Obsidian lists only long names, so the path policy saw another, visible name. As narrow as Windows' generator
 * (RtlGenerate8dot3Name): the first characters are those 8.3 keeps, `~` among them (`~Private notes` is `~PRIVA~1`, which
 * the shape first missed), and the number counts from 1, so `Draft~0` and `Idea~01` are not refused. Not narrowed to NTFS's
 * own generator (a base of 3 or more with `~1` to `~4`, then two characters, a checksum and a number): Linux's vfat names
 * FAT drives' files `A~1` to `A~9`, then with a checksum, and a drive holding the vault may be either.
 *
 * Letters and digits past ASCII too: by default the generator leaves out every character past ASCII, but with
 * NtfsAllowExtendedCharacterIn8dot3Name set it keeps each one the OEM code page holds, upper-cased, in at most six bytes
 * before the `~` (`Privé notes` is `PRIVÉN~1`). A letter of a double-byte code page (Japanese, Chinese, Korean) takes two of
 * them (SHORT_NAME_WIDE_CHARACTER), so `日記~1` (four bytes) can be made on such a Windows and is refused, and a name of four or
 * more such letters before the `~` (`日記帳メモ~1`) cannot be and is not. Symbols past ASCII (`£`, box drawing) are left out: a
 * code page holds some, but a name of them before `~1` is not one a person is likely to write.
 */
const WINDOWS_SHORT_NAME = /^([!#$%&'()\-@^_`{}~0-9a-z\p{L}\p{N}]{1,6})~([1-9][0-9]{0,5})(?:\.[!#$%&'()\-@^_`{}~0-9a-z\p{L}\p{N}]{0,3})?$/iu;

/** A character a double-byte OEM code page (932, 936, 949, 950) holds in two bytes: CJK, kana, hangul, full-width forms. */
const SHORT_NAME_WIDE_CHARACTER = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

/** The bytes `text` takes in an OEM code page: two for a double-byte code page's letter, one for any other. */
function oemBytes(text: string): number {
	let bytes = 0;
	for (const character of text) bytes += SHORT_NAME_WIDE_CHARACTER.test(character) ? 2 : 1;
	return bytes;
}

/** Whether `part` has the shape of a Windows short name (WINDOWS_SHORT_NAME): six bytes at most before the `~`, eight with the number. */
function hasWindowsShortNameShape(part: string): boolean {
	const match = WINDOWS_SHORT_NAME.exec(part);
	if (match === null) return false;
	const before = oemBytes(match[1] ?? "");
	return before <= 6 && before + 1 + (match[2] ?? "").length <= 8;
}

/**
 * A drive at a path's start as this system reads it. On Windows `a:b` is drive A's folder b, and `C:Private` is resolved
 * inside a vault on C: (its Private, which the exclusions, comparing `C:Private`, never saw): refused. Elsewhere `a:b` is a
 * folder name (Linux and macOS allow it; its notes could not be read), and only an absolute drive path (`C:/x`) is
 * refused as a drive, as settings entries read them (normalizeExcludedFolder).
 */
const DRIVE_AT_START = process.platform === "win32" ? DRIVE_LETTER : DRIVE_PATH;

/** Refusals worded once: every tool says the same thing for the same case. */
export const NOT_ACCESSIBLE = "is in a folder this server does not give access to";

/**
 * The path policy every tool goes through. Accepts vault-relative paths as Obsidian writes them
 * and returns them in their one spelling (`normalizeVaultPath`); refuses, with a reason the model
 * can act on: empty paths, NUL and control characters, backslashes, absolute, drive and UNC paths,
 * `.` and `..` parts, percent-encoded separators, hidden parts (the config folder and `.trash`
 * among them), the config folder under any name, names ending in a dot or space once normalized
 * (Windows drops them, so they alias other files), and over-long names. Pure.
 */
export function checkVaultPath(input: string, scope: Scope): Result<string> {
	// Pure in `input` and the config folder, so a path that passed is remembered: a client names the same notes call after call.
	if (scope.configDir !== acceptedFor) {
		acceptedFor = scope.configDir;
		acceptedLately.clear();
		acceptedBefore.clear();
	}
	const known = acceptedLately.get(input);
	if (known !== undefined) return ok(known);
	const before = acceptedBefore.get(input);
	if (before !== undefined) {
		remember(input, before);
		return ok(before);
	}
	const checked = pathChecked(input, scope.configDir);
	if (checked.ok) remember(input, checked.value);
	return checked;
}

/**
 * The config folder the remembered paths were checked for, and those paths (as given → in their one spelling) in two
 * halves of CHECKED_PATHS_REMEMBERED: those passed or named again lately, and those of the half before. A full half
 * becomes the one before, and that one is forgotten, so the paths a client names again and again stay remembered past a
 * walk of many others (about least recently used out first). Exact least-recently-used order, each hit moving its path
 * to the newest, made a hit 5.7 times the CPU (17 → 107 ns); a mark for a second chance, 5 % more a call.
 */
let acceptedFor: string | null = null;
let acceptedLately = new Map<string, string>();
let acceptedBefore = new Map<string, string>();

function remember(input: string, spelling: string): void {
	if (acceptedLately.size >= CHECKED_PATHS_REMEMBERED / 2) {
		acceptedBefore = acceptedLately;
		acceptedLately = new Map();
	}
	acceptedLately.set(input, spelling);
}

function pathChecked(input: string, configDir: string): Result<string> {
	if (input.trim() === "") return fail("The path is empty.");
	if (input.length > MAX_PATH_LENGTH) return fail(`The path is longer than ${MAX_PATH_LENGTH} characters.`);
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
	if (/[\u0000-\u001f\u007f-\u009f]/.test(input)) return fail("The path contains control characters.");
	if (input.includes("\\")) return fail("Use forward slashes (/) in vault paths.");
	if (input.startsWith("/") || DRIVE_AT_START.test(input)) return fail("Use a path relative to the vault root, without a leading slash or drive.");
	if (ENCODED_SEPARATORS.test(input)) return fail("The path contains percent-encoded separators; write the path plainly.");
	const path = trimTrailingSlashes(input).replace(OBSIDIAN_SPACES, " ").normalize("NFC");
	for (const part of path.split("/")) {
		const key = pathMatchKey(part);
		if (part === "" || key === "" || key === "." || key === "..")
			return fail("The path has an empty, '.' or '..' part; give the path from the vault root.");
		if (part.startsWith(".") || key.startsWith(".")) return fail("Hidden files and folders (names starting with '.') are not part of the vault.");
		if (/[.\s]$/.test(visibleForm(part))) return fail("A file or folder name may not end with a dot or a space (or a character that looks like one).");
		if (Buffer.byteLength(part) > MAX_NAME_BYTES) return fail(`A file or folder name is longer than ${MAX_NAME_BYTES} bytes.`);
	}
	if (isExcludedPath(path, { configDir, excludedFolders: [] })) return fail("The vault's configuration folder is not readable through this server.");
	return ok(path);
}

/**
 * A path a new note may be written at: checkVaultPath's rules, plus names every platform Obsidian runs on can hold. `renamed`:
 * the path of the note being moved there; a new path it keys as (`pathMatchKey`: the note itself, or only its letter case or
 * spacing changed) is that note's own name on the disk, which no short name of another file can be, so its shape is let be.
 * `listedFolder`: whether the folder at a path (as far as a part of that shape) is one the host lists by exactly that name, a
 * long name, which no other folder's short name can be either (`Archive~2/`, made before): its shape is let be too.
 */
export function checkNewNamePath(input: string, scope: Scope, renamed?: string, listedFolder: (folder: string) => boolean = () => false): Result<string> {
	const checked = checkVaultPath(input, scope);
	if (!checked.ok) return checked;
	const ownName = renamed !== undefined && [checked.value, `${checked.value}.md`].some((path) => pathMatchKey(path) === pathMatchKey(renamed));
	const parts = checked.value.split("/");
	for (const [index, part] of parts.entries()) {
		if (FORBIDDEN_NAME_CHARACTERS.test(part))
			return fail('File and folder names may not contain * " < > : | or ? (Obsidian refuses them on every platform).');
		if (WINDOWS_DEVICE_NAME.test(part)) return fail(`"${part}" is a device name on Windows and cannot be a file or folder name.`);
		const listed = index < parts.length - 1 && listedFolder(parts.slice(0, index + 1).join("/"));
		// Not quoted: the name may come from a setting (a daily note's folder), and it may stand for a folder the caller may not see.
		if (!ownName && !listed && hasWindowsShortNameShape(part)) return fail(SHORT_NAME_REFUSAL);
	}
	return checked;
}

/** The refusal of a name of a Windows short name's shape. */
export const SHORT_NAME_REFUSAL =
	"A file or folder name may not have the shape of a Windows short name (NAME~1, up to 8 characters): on Windows it can open another file or folder. Nothing was changed. Choose another name: '-' or a space in place of the '~' will do (Draft-2.md).";

/** The folders of `path` (each as far as that part) whose name has a Windows short name's shape: the ones a host is asked about. */
export function shortNamedFolders(path: string): string[] {
	const parts = path.split("/");
	const folders: string[] = [];
	for (let index = 0; index < parts.length - 1; index++) if (hasWindowsShortNameShape(parts[index] ?? "")) folders.push(parts.slice(0, index + 1).join("/"));
	return folders;
}

/** The limit on a note's own file name, with the reason in the message. */
export function checkNoteNameLength(path: string): Result<string> {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const bytes = Buffer.byteLength(name);
	if (bytes > MAX_NOTE_NAME_BYTES) {
		return fail(
			`A note's file name may be at most ${MAX_NOTE_NAME_BYTES} bytes of UTF-8, .md included (room is kept for a backup's suffix); "${name.slice(0, 40)}…" is ${bytes}. Choose a shorter name.`,
		);
	}
	return ok(path);
}

/** An optional folder argument: undefined when absent or blank, else the checked path or why not. */
export function checkFolderArgument(input: string | undefined, scope: Scope): Result<string | undefined> {
	if (input === undefined || trimTrailingSlashes(input).trim() === "") return ok(undefined);
	return checkVaultPath(input, scope);
}
