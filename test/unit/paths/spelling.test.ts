import fc from "fast-check";
import * as nodePath from "node:path";
import {
	entriesNamingNoFolder,
	normalizeExcludedFolder,
	normalizeFolderList,
	normalizeVaultPath,
	pathMatchKey,
	visibleForm,
} from "../../../src/paths/spelling";

/**
 * Expectations follow Obsidian's `normalizePath` as its API documents it: backslashes become
 * forward slashes, repeated slashes one, leading and trailing slashes go, U+00A0 and U+202F become
 * plain spaces, and the result is in Unicode NFC (an empty path is the vault root, `/`).
 */
describe("normalizeVaultPath spells a path as Obsidian's normalizePath does", () => {
	test.each([
		["Folder/Note.md", "Folder/Note.md"],
		["Folder\\Sub\\Note.md", "Folder/Sub/Note.md"],
		["Folder//Sub///Note.md", "Folder/Sub/Note.md"],
		["Folder\\/\\Note.md", "Folder/Note.md"],
		["/Folder/Note.md/", "Folder/Note.md"],
		["///", "/"],
		["", "/"],
		["My\u00a0Note.md", "My Note.md"],
		["10\u202fam.md", "10 am.md"],
		["Cafe\u0301.md", "Caf\u00e9.md"],
		["\u1100\u1161.md", "\uac00.md"],
		// Other spaces are not Obsidian's to change: a thin space stays a thin space.
		["a\u2009b.md", "a\u2009b.md"],
		// Case is kept: Obsidian's paths are case-sensitive strings.
		["FOLDER/note.MD", "FOLDER/note.MD"],
	])("%j is spelled %j", (input, expected) => {
		expect(normalizeVaultPath(input)).toBe(expected);
	});

	test("spelling a path twice changes nothing more", () => {
		fc.assert(
			fc.property(fc.string({ unit: "binary" }), (path) => {
				const once = normalizeVaultPath(path);
				expect(normalizeVaultPath(once)).toBe(once);
			}),
		);
	});

	test("the spelling has no backslash, no doubled, leading or trailing slash, no U+00A0/U+202F, and is NFC", () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom("a", "\u00e9", "e\u0301", "/", "\\", "\u00a0", "\u202f", " ", "\u4e2d"), { maxLength: 20 }), (pieces) => {
				const spelled = normalizeVaultPath(pieces.join(""));
				if (spelled === "/") return;
				expect(spelled).not.toMatch(/\\|\/\/|^\/|\/$|[\u00a0\u202f]/);
				expect(spelled).toBe(spelled.normalize("NFC"));
			}),
		);
	});
});

describe("pathMatchKey: paths a person reads as the same share one key", () => {
	test.each([
		["Notes/Meeting.md", "notes/meeting.md"],
		["Caf\u00e9.md", "Cafe\u0301.md"],
		["My\u00a0Note.md", "My Note.md"],
		["My\u2003Note.md", "My Note.md"],
		["My  Note.md", "My Note.md"],
		["Zero\u200bWidth.md", "ZeroWidth.md"],
		["Soft\u00adHyphen.md", "SoftHyphen.md"],
		["\ufeffBom.md", "Bom.md"],
		["\uff26\uff55\uff4c\uff4c.md", "Full.md"],
		["Folder /Note.md", "Folder/Note.md"],
		["Secret\u2024md", "Secret.md"],
		// Final sigma: macOS and Windows fold `ς` and `σ` alike (both `Σ`), so these are one folder there.
		["\u0399\u03b4\u03b9\u03c9\u03c4\u03b9\u03ba\u03cc\u03c3/x.md", "\u0399\u03b4\u03b9\u03c9\u03c4\u03b9\u03ba\u03cc\u03c2/x.md"],
	])("%j and %j", (a, b) => {
		expect(pathMatchKey(a)).toBe(pathMatchKey(b));
	});

	test.each([
		["Notes/a.md", "Notes/b.md"],
		["Notes/a.md", "Notesa.md"],
		["Résumé.md", "Resume.md"],
		["a b.md", "ab.md"],
	])("%j and %j stay apart", (a, b) => {
		expect(pathMatchKey(a)).not.toBe(pathMatchKey(b));
	});

	test("any path and its look-alike spellings (case, NFD, invisible characters, odd spaces) share the key", () => {
		const word = fc.string({ unit: fc.constantFrom("a", "B", "\u00e9", "\u00c5", "\u4e2d", "1", "-"), minLength: 1, maxLength: 8 });
		fc.assert(
			fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.constantFrom("\u00a0", "\u2003", "\u3000", "\u202f"), (parts, space) => {
				const path = parts.join(" ");
				const lookAlike = path.toUpperCase().normalize("NFD").replace(/ /g, `${space}\u200b`);
				expect(pathMatchKey(lookAlike)).toBe(pathMatchKey(path));
			}),
		);
	});

	test("every letter keys as its capital does, where the capital is one letter (a disk folding case reads them as one)", () => {
		// Lower case alone kept final sigma, the dotless i, U+0345 and U+1C80–U+1C88 apart from their capitals' lower case.
		const apart: string[] = [];
		for (let code = 0x80; code <= 0x10ffff; code++) {
			if (code >= 0xd800 && code <= 0xdfff) continue;
			const letter = String.fromCodePoint(code);
			const capital = letter.toUpperCase();
			if (capital !== letter && [...capital].length === 1 && pathMatchKey(`a${letter}`) !== pathMatchKey(`a${capital}`)) apart.push(code.toString(16));
		}
		expect(apart).toEqual([]);
	});

	test("every default-ignorable code point is left out of the key, as the zero-width space is", () => {
		// U+1BCA0–U+1BCA3, U+1D173–U+1D17A, U+FFF0–U+FFF8 and U+E0400–U+E0FFF were kept: `Pri\u{1D173}vate` was another folder than `Private`.
		const kept: string[] = [];
		for (let code = 0x80; code <= 0x10ffff; code++) {
			if (code >= 0xd800 && code <= 0xdfff) continue;
			const mark = String.fromCodePoint(code);
			if (/\p{Default_Ignorable_Code_Point}/u.test(mark) && pathMatchKey(`Pri${mark}vate`) !== "private") kept.push(code.toString(16));
		}
		expect(kept).toEqual([]);
	});

	test("every other format character is left out of the key too, but the Arabic signs drawn over the digits after them", () => {
		// U+FFF9-U+FFFB, U+110BD, U+110CD and U+13430-U+1343F were kept: create_note made `Pri\u{FFF9}v/x.md` beside an excluded `Priv`.
		const drawnAsSigns = ["600", "601", "602", "603", "604", "605", "6dd", "70f", "890", "891", "8e2"];
		const kept: string[] = [];
		for (let code = 0x80; code <= 0x10ffff; code++) {
			if (code >= 0xd800 && code <= 0xdfff) continue;
			const mark = String.fromCodePoint(code);
			if (/\p{Cf}/u.test(mark) && pathMatchKey(`Pri${mark}vate`) !== "private") kept.push(code.toString(16));
		}
		expect(kept).toEqual(drawnAsSigns);
	});

	test("a plain ASCII path keys the same as the same path with an invisible character in it", () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom("a", "Z", " ", "/", ".", "-") }), (path) => {
				expect(pathMatchKey(path)).toBe(pathMatchKey(`${path}\u200b`));
			}),
		);
	});

	test("the key is a fixed point: keying a key changes nothing", () => {
		fc.assert(
			fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (path) => {
				const key = pathMatchKey(path);
				expect(pathMatchKey(key)).toBe(key);
			}),
		);
	});
});

describe("visibleForm", () => {
	test.each([
		["a\u200bb", "ab"],
		["\u2060x\ufeff", "x"],
		["\uff21", "A"],
		["plain", "plain"],
	])("%j is seen as %j", (input, expected) => {
		expect(visibleForm(input)).toBe(expected);
	});
});

describe("normalizeExcludedFolder reads an excluded folder as a person may type it", () => {
	const root = "/home/ann/Vault";
	const linked = { spellings: ["/home/ann/Vault", "/data/Vault"], caseSensitive: false };
	/** The vault on a disk that tells letter case apart (Linux's), as vaultRootSpellings finds it. */
	const onLinux = { spellings: [root], caseSensitive: true };
	test.each([
		["Private", undefined, "Private"],
		["./Private", undefined, "Private"],
		["Private/", undefined, "Private"],
		["\\Private\\Old", undefined, "Private/Old"],
		["  Private  ", undefined, "Private"],
		["/Private", undefined, "Private"],
		["Cafe\u0301", undefined, "Caf\u00e9"],
		["Private/./Old", undefined, "Private/Old"],
		// A `..` takes away the name before it: these name Private (they were dropped, leaving Private visible).
		["Notes/../Private", undefined, "Private"],
		["./Notes/../Private/", undefined, "Private"],
		["Private/Old/..", undefined, "Private"],
		["Notes\\..\\Private\\Old", undefined, "Private/Old"],
		["/home/ann/Vault/Notes/../Private", root, "Private"],
		["/home/ann/Vault/Private", root, "Private"],
		["/HOME/ann/vault/Private", root, "Private"],
		["/home/ann/Other/Private", root, "home/ann/Other/Private"],
		// An absolute path that leaves the vault and comes back names the folder the system reaches (it named home/ann/Vault/Private, never there).
		["/home/ann/Other/../Vault/Private", root, "Private"],
		["/home/ann/Vault/../Vault/Private", root, "Private"],
		["C:\\Vault\\..\\Vault\\Private", "C:\\Vault", "Private"],
		// A Win32 long-path prefix is not part of the path (it named a folder `?/C:/Vault/Private`).
		["\\\\?\\C:\\Vault\\Private", "C:\\Vault", "Private"],
		// Its long form of a network path (`\\?\UNC\server\share`) is the path `\\server\share`: it named a folder `UNC/server/share/Vault/Private`.
		["\\\\?\\UNC\\server\\share\\Vault\\Private", "\\\\server\\share\\Vault", "Private"],
		["\\\\.\\unc\\server\\share\\Vault\\Notes\\..\\Private", "\\\\server\\share\\Vault", "Private"],
		["\\\\server\\share\\Vault\\Private\\Old", "\\\\?\\UNC\\server\\share\\Vault", "Private/Old"],
		// The vault opened through a linked folder: a path under either spelling of it names the vault's folder.
		["/data/Vault/Private", linked, "Private"],
		["/home/ann/Vault/Private", linked, "Private"],
		["/data/Other/../Vault/Notes/../Private", linked, "Private"],
		// The vault's own path in another Unicode form than the one typed.
		["/Users/me/Caf\u00e9/Private", "/Users/me/Cafe\u0301", "Private"],
		["/Users/me/Cafe\u0301/Private/Old", "/Users/me/Caf\u00e9", "Private/Old"],
		// A vault at the top of a drive (a USB stick opened as a vault) or of the disk: its path ends with its slash.
		["E:\\Private", "E:\\", "Private"],
		["E:\\Notes\\..\\Private\\Old", "E:\\", "Private/Old"],
		["/Private/Old", "/", "Private/Old"],
		// Where the disk tells case apart, the vault's path as the disk spells it; the folder inside in its own Unicode form.
		["/home/ann/Vault/Private", onLinux, "Private"],
		["/home/ann/Cafe\u0301/Work", { spellings: ["/home/ann/Cafe\u0301"], caseSensitive: true }, "Work"],
		["/home/ann/Vault/../Vault/Cafe\u0301", onLinux, "Caf\u00e9"],
		["/home/ann/Other/../Vault/Private", onLinux, "Private"],
		// A colon is a name's on Linux and macOS (a folder `a:b` was read as drive A and could not be excluded).
		["a:b", undefined, "a:b"],
		["a:b/Old", root, "a:b/Old"],
		// Beside a vault known to have no drives, `C:/x` is a folder `C:`'s, as `./C:/x` (saved so) is: read as drive C:, the
		// saved entry was dropped at the next load. Spelt as Windows spells it (`C:\\x`), still a drive (below).
		["C:/Private", root, "C:/Private"],
		["./C:/x", onLinux, "C:/x"],
		["C:/x", onLinux, "C:/x"],
		["/home/ann/Vault/a:b", onLinux, "a:b"],
		["./C:/Private", root, "C:/Private"],
	])("%j (vault %j) is %j", (input, vaultRoot, expected) => {
		expect(normalizeExcludedFolder(input, vaultRoot)).toBe(expected);
	});

	test.each([
		["", undefined],
		["   ", undefined],
		["/", undefined],
		[".", undefined],
		["../Outside", undefined],
		["Private/../../Outside", undefined],
		["Private/..", undefined],
		["Notes/../..", undefined],
		["C:\\Users\\ann", undefined],
		["/home/ann/Vault", root],
		["/home/ann/Vault/", root],
		["/home/ann/Vault/..", root],
		["/home/ann/Vault/Notes/../../Other", root],
		["../Vault/Private", root],
		["\\\\?\\C:\\Vault\\Private", root],
		// A network path climbing out of the vault, or a path with a doubled slash: they named `server/share/Other`,
		// `server/share` and `home/ann/Other` inside the vault (never there), with no warning.
		["\\\\server\\share\\Vault\\..\\Other", "\\\\server\\share\\Vault"],
		["\\\\?\\UNC\\server\\share\\Vault\\..", "\\\\server\\share\\Vault"],
		["/home/ann//Vault/../Other", root],
		["/data/Vault", linked],
		["/data/Vault/..", linked],
		["E:\\", "E:\\"],
		["E:\\..", "E:\\"],
		["F:\\Private", "E:\\"],
		["/home/ann/Vault/..", onLinux],
		// Another folder on a disk that tells names apart: the vault's path in another letter case or Unicode form. It named
		// the vault's Private (main), then a folder `home/ann/vault/Private` inside, never there, untold (lead11); in NFD,
		// the vault's Work (a token limited to it saw that folder).
		["/home/ann/vault/Private", onLinux],
		["/HOME/ann/Vault/Private", onLinux],
		["/home/ann/VAULT/../Other", onLinux],
		["/home/ann/Cafe\u0301/Work", { spellings: ["/home/ann/Caf\u00e9"], caseSensitive: true }],
		["/home/ann/Caf\u00e9/Work", { spellings: ["/home/ann/Cafe\u0301"], caseSensitive: true }],
		["/home/ann/\u212aeys/Work", { spellings: ["/home/ann/Keys"], caseSensitive: true }],
		// Beside a vault on a drive, a drive (`a:b` is drive A's folder b), as Windows reads it.
		["a:b", "C:\\Vault"],
		["C:", undefined],
		["C:/x", undefined],
		["C:\\Private", onLinux],
		// `..` or `.` with spaces around it is a name to the system (a folder ` ..`, which the vault hides), never the folder above.
		["Notes/ ../Private", undefined],
		["Notes/.. /Private", root],
		["Private/ ./Old", undefined],
		["/home/ann/Vault/Notes/ ../Private", onLinux],
		["/home/ann/Vault/ ../Vault/Private", root],
	])("%j (vault %j) names no folder inside the vault", (input, vaultRoot) => {
		expect(normalizeExcludedFolder(input, vaultRoot)).toBeNull();
	});

	test("the entries that name no folder inside the vault are those a list drops, blanks aside, trimmed", () => {
		const typed = ["Private", "  ../Outside ", "", "   ", "/home/ann/Vault", "/home/ann/Vault/Notes", "Notes/../..", "Archive"];
		expect(entriesNamingNoFolder(typed, root)).toEqual(["../Outside", "/home/ann/Vault", "Notes/../.."]);
		expect(normalizeFolderList(typed, root)).toEqual(["Private", "Notes", "Archive"]);
	});

	test("a list loses blanks, entries outside the vault and repeated spellings, keeping order", () => {
		expect(normalizeFolderList(["Private", "./Private/", "", "../x", "Archive", "Cafe\u0301", "Caf\u00e9"])).toEqual(["Private", "Archive", "Caf\u00e9"]);
	});

	test("with the vault's path, an absolute path names the folder the system reaches inside the vault, or none when it reaches the vault itself", () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom("home", "ann", "Vault", "Other", "Private", "..", "."), { maxLength: 9 }), (pieces) => {
				const typed = `/${pieces.join("/")}`;
				const reached = nodePath.posix.resolve(typed);
				const folder = normalizeExcludedFolder(typed, root);
				if (reached === root) expect(folder).toBeNull();
				if (reached.startsWith(`${root}/`)) expect(folder).toBe(nodePath.posix.relative(root, reached));
			}),
		);
	});

	test("no entry ever comes back with '..', '.', an empty part or a slash at either end", () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom("a", "..", ".", "/", "\\", " ", "b c", "C:"), { maxLength: 10 }), (pieces) => {
				const folder = normalizeExcludedFolder(pieces.join(""));
				if (folder === null) return;
				expect(folder.split("/")).not.toContain("..");
				expect(folder.split("/")).not.toContain(".");
				expect(folder.split("/")).not.toContain("");
			}),
		);
	});
});
