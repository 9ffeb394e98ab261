import { MAX_NAME_BYTES, MAX_PATH_LENGTH } from "../limits";
import { isInFolder, type Scope } from "./scope";

/** A path a tool may use, or why not. */
export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/** Percent-encodings of `.`, `/`, `\` and NUL: a path that carries them is trying to mean something else. */
const ENCODED_SEPARATORS = /%(?:2e|2f|5c|00)/i;
const DRIVE_LETTER = /^[a-z]:/i;

/**
 * The path policy every tool goes through. Accepts vault-relative paths as Obsidian writes them
 * (forward slashes, any Unicode, normalized to NFC) and refuses, with a reason the model can act
 * on: empty paths, NUL and control characters, backslashes, absolute, drive and UNC paths, `.`
 * and `..` parts, percent-encoded separators, hidden parts (the config folder and `.trash` among
 * them), the config folder under any name, names ending in a dot or space (Windows drops them,
 * so they alias other files), and over-long names. Pure.
 */
export function checkVaultPath(input: string, scope: Scope): PathCheck {
	const refuse = (reason: string): PathCheck => ({ ok: false, reason });
	if (input.trim() === "") return refuse("The path is empty.");
	if (input.length > MAX_PATH_LENGTH) return refuse(`The path is longer than ${MAX_PATH_LENGTH} characters.`);
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
	if (/[\u0000-\u001f\u007f]/.test(input)) return refuse("The path contains control characters.");
	if (input.includes("\\")) return refuse("Use forward slashes (/) in vault paths.");
	if (input.startsWith("/") || DRIVE_LETTER.test(input)) return refuse("Use a path relative to the vault root, without a leading slash or drive.");
	if (ENCODED_SEPARATORS.test(input)) return refuse("The path contains percent-encoded separators; write the path plainly.");
	const path = input.normalize("NFC").replace(/\/+$/, "");
	const parts = path.split("/");
	for (const part of parts) {
		if (part === "" || part === "." || part === "..") return refuse("The path has an empty, '.' or '..' part; give the path from the vault root.");
		if (part.startsWith(".")) return refuse("Hidden files and folders (names starting with '.') are not part of the vault.");
		if (/[. ]$/.test(part)) return refuse("A file or folder name may not end with a dot or a space.");
		if (Buffer.byteLength(part) > MAX_NAME_BYTES) return refuse(`A file or folder name is longer than ${MAX_NAME_BYTES} bytes.`);
	}
	if (isInFolder(path, scope.configDir)) return refuse("The vault's configuration folder is not readable through this server.");
	return { ok: true, path };
}


/** An optional folder argument: undefined when absent or blank, else the checked path or why not. */
export function checkFolderArgument(input: string | undefined, scope: Scope): { folder?: string } | { error: string } {
	if (input === undefined || input.replace(/\/+$/, "").trim() === "") return {};
	const checked = checkVaultPath(input, scope);
	return checked.ok ? { folder: checked.path } : { error: checked.reason };
}
