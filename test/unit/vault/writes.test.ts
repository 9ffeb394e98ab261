import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { fail, ok } from "../../../src/result";
import { sha256Hex } from "../../../src/sha256";
import type { HostFile } from "../../../src/host/Host";
import { MAX_EDITED_NOTE_CHARS, MAX_EDITED_NOTE_LINES, NAMESAKE_LOOK_CHECK_MASK } from "../../../src/config/limits";
import {
	backupPath,
	checkNewNotePath,
	checkNewNotePathOnHost,
	createNoteFile,
	editNote,
	ensureParentFolder,
	hashText,
	NoteExistsError,
	overEditedSize,
	overwriteWithBackup,
	visibleTwins,
} from "../../../src/vault/writes";
import type { Host } from "../../../src/host/Host";
import { SliceClock } from "../../../src/markdown/steps";
import { SHORT_NAME_REFUSAL } from "../../../src/vault/paths";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { makeVault, removeDir } from "../../helpers/vault";

describe("checkNewNotePath: where a new note may be written", () => {
	const scope = { configDir: ".obsidian", excludedFolders: ["Private"] };

	test(".md is added when missing; a path with .md is kept", () => {
		expect(checkNewNotePath("Projects/Plan", scope)).toEqual(ok("Projects/Plan.md"));
		expect(checkNewNotePath("Projects/Plan.md", scope)).toEqual(ok("Projects/Plan.md"));
	});

	test("another extension (Obsidian sees only lower-case .md as a note) is refused", () => {
		expect(checkNewNotePath("Plan.MD", scope)).toEqual(fail('Only Markdown notes (.md) can be written; "Plan.MD" is not one.'));
		expect(checkNewNotePath("data.json", scope).ok).toBe(false);
	});

	test("a short name's shape is let be only for the renamed note's own name, in its own or another letter case", () => {
		// An existing `Draft~1.md` (made before, or outside) is its own name on the disk: renamed to itself or in other case it
		// was refused as a short name; moved elsewhere, or as a new note, it is still refused.
		expect(checkNewNotePath("draft~1.md", scope, "Draft~1.md")).toEqual(ok("draft~1.md"));
		expect(checkNewNotePath("Notes/DRAFT~1", scope, "Notes/Draft~1.md")).toEqual(ok("Notes/DRAFT~1.md"));
		for (const [path, renamed] of [
			["Archive/Draft~1.md", "Draft~1.md"],
			["Draft~1.md", undefined],
			["Draft~2.md", "Draft~1.md"],
		] as const)
			expect(checkNewNotePath(path, scope, renamed)).toEqual({ ok: false, error: expect.stringContaining("Windows short name") });
	});

	test("an excluded, hidden or outside path is refused", () => {
		for (const path of ["Private/Note", ".obsidian/x", "../outside", "/etc/passwd"]) expect(checkNewNotePath(path, scope).ok).toBe(false);
	});
});

describe("the looks for a note's or a folder's twin go in pieces", () => {
	// Each walked every file of the vault in one piece (6-13 ms at 100,000 files): now they pause on the clock they are given.
	const scope = { configDir: ".obsidian", excludedFolders: [] };
	const FILES = 10_000;
	const pieces = Math.floor(FILES / (NAMESAKE_LOOK_CHECK_MASK + 1));
	/** A host of these files, whose folders are those the files are in. */
	const hostOf = (paths: string[]) =>
		({
			vault: {
				getFiles: () => paths.map((path) => ({ path })),
				getFolderByPath: () => null,
				listedFolderNames: (folder: string) =>
					Promise.resolve([
						...new Set(
							paths
								.filter((path) => folder === "" || path.startsWith(`${folder}/`))
								.map((path) => path.slice(folder === "" ? 0 : folder.length + 1).split("/"))
								.filter((parts) => parts.length > 1)
								.map((parts) => parts[0] ?? ""),
						),
					]),
			},
		}) as unknown as Host;
	const paths = Array.from({ length: FILES - 1 }, (_, index) => `Notes/n${index}.md`);

	test("the look pauses every NAMESAKE_LOOK_CHECK_MASK + 1 files and still finds a twin note last of all", async () => {
		let pauses = 0;
		const clock = new SliceClock(0, async () => void pauses++);
		const found = await visibleTwins(hostOf([...paths, "TWIN.md"]), scope, "twin.md", undefined, clock);
		expect(found.note?.path).toBe("TWIN.md");
		expect(pauses).toBe(pieces);
	});

	test("one walk of the files finds a note's twin and its folder's: the pauses of one walk, not two", async () => {
		// On the base each twin had its own walk (visibleNamesake, then visibleFolderNamesake): twice the files looked at.
		let pauses = 0;
		const clock = new SliceClock(0, async () => void pauses++);
		const found = await visibleTwins(hostOf([...paths, "OTHER/z.md", "OTHER/X.md"]), scope, "other/x.md", undefined, clock);
		expect(found).toEqual({ note: { path: "OTHER/X.md" }, folder: "OTHER" });
		expect(pauses).toBe(Math.floor((FILES + 1) / (NAMESAKE_LOOK_CHECK_MASK + 1)));
	});

	test("a folder's listing is looked through in pieces too: thousands of empty folders, a twin listed last, or a short-shaped name", async () => {
		// On lead20 the listing was held against the name and then keyed in one piece each (a root of 200,000 accented folder
		// names: 225-255 ms of a create_note's CPU between two turns of the event loop): no pause at all, as no file is there.
		const folders = [...Array.from({ length: FILES - 1 }, (_, index) => `Café ${index}`), "NEWDIR"];
		const emptyFolders = {
			vault: { getFiles: () => [], getFolderByPath: () => null, listedFolderNames: () => Promise.resolve(folders) },
		} as unknown as Host;
		let pauses = 0;
		const clock = new SliceClock(0, async () => void pauses++);
		expect(await visibleTwins(emptyFolders, scope, "newdir/x.md", undefined, clock)).toEqual({ folder: "NEWDIR" });
		expect(pauses).toBe(pieces);
		pauses = 0;
		expect(await checkNewNotePathOnHost(emptyFolders, "OLD~1/x.md", scope, undefined, clock)).toEqual({ ok: false, error: SHORT_NAME_REFUSAL });
		expect(pauses).toBe(pieces);
	});
});

describe("writing notes through a host", () => {
	const WHOLE_VAULT = { configDir: ".obsidian", excludedFolders: [] };
	let vault: OpenVault;
	const file = (path: string) => vault.host.vault.getFileByPath(path) as HostFile;
	const onDisk = (path: string) => fs.readFile(nodePath.join(vault.root, path), "utf8");
	beforeEach(async () => {
		vault = await openVault({ "Note.md": "old text\n", "Kept.md.bak": "an earlier backup\n" });
	});
	afterEach(() => vault.close());

	test("hashText is the SHA-256 of the text, the version a write reports", () => {
		expect(hashText("old text\n")).toBe(sha256Hex("old text\n"));
	});

	test("editNote writes what the edit returns, and leaves the note byte for byte when the edit refuses", async () => {
		const done = await editNote(vault.host, file("Note.md"), (text) => ok({ text: `${text}added\n`, line: 1 }));
		expect(done).toEqual(ok({ text: "old text\nadded\n", line: 1 }));
		const refused = await editNote(vault.host, file("Note.md"), () => fail('No heading "X".'));
		expect(refused).toEqual(fail('No heading "X".'));
		expect(await onDisk("Note.md")).toBe("old text\nadded\n");
	});

	test("overwriteWithBackup keeps the replaced text beside the note, under the first free backup name", async () => {
		const first = await overwriteWithBackup(vault.host, WHOLE_VAULT, file("Note.md"), "new\n");
		expect(first).toEqual({ backup: "Note.md.bak", text: "new\n" });
		const second = await overwriteWithBackup(vault.host, WHOLE_VAULT, file("Note.md"), "newer\n");
		expect(second.backup).toBe("Note.md.2.bak");
		expect([await onDisk("Note.md"), await onDisk("Note.md.bak"), await onDisk("Note.md.2.bak")]).toEqual(["newer\n", "old text\n", "new\n"]);
		expect(backupPath(vault.host, WHOLE_VAULT, "Kept.md")).toBe("Kept.md.2.bak");
		// A name the caller may not see is passed over like a taken one, however its excluded folder is spelt.
		expect(backupPath(vault.host, { configDir: ".obsidian", excludedFolders: ["kept.md.2.BAK", "Kept.md.3.bak"] }, "Kept.md")).toBe("Kept.md.4.bak");
	});

	test("a token limited to the note itself sees no backup name: overwriteWithBackup refuses before the note is replaced, after a bounded look", async () => {
		const limitedToNote = { configDir: ".obsidian", excludedFolders: [], tokenFolders: ["Note.md"] };
		// Names looked up: a search without end (it held the server) is stopped here and fails the test instead.
		const lookUp = vault.host.vault.getFileByPath.bind(vault.host.vault);
		let looked = 0;
		vault.host.vault.getFileByPath = (path: string) => {
			if (++looked > 1_000) throw new Error("looked for a backup name without end");
			return lookUp(path);
		};
		expect(backupPath(vault.host, limitedToNote, "Note.md")).toBeUndefined();
		await expect(overwriteWithBackup(vault.host, limitedToNote, file("Note.md"), "new\n")).rejects.toThrow(/No backup of "Note.md".*Nothing was written/);
		expect(await onDisk("Note.md")).toBe("old text\n");
		// Limited to the note and to a folder of the second name: that one is shown, and taken.
		expect(backupPath(vault.host, { ...limitedToNote, tokenFolders: ["Note.md", "Note.md.2.bak"] }, "Note.md")).toBe("Note.md.2.bak");
	});

	test("a backup name taken on disk by something the vault does not list moves the backup on, never blocks the overwrite", async () => {
		await fs.mkdir(nodePath.join(vault.root, "Note.md.bak"));
		const done = await overwriteWithBackup(vault.host, WHOLE_VAULT, file("Note.md"), "new\n");
		expect(done.backup).toBe("Note.md.2.bak");
		expect(await onDisk("Note.md.2.bak")).toBe("old text\n");
	});

	test("createNoteFile makes the folders; a path taken a moment ago is NoteExistsError in words, naming no disk path", async () => {
		await createNoteFile(vault.host, "A/B/New.md", "hi\n");
		expect(await onDisk("A/B/New.md")).toBe("hi\n");
		const error = await createNoteFile(vault.host, "Note.md", "again\n").catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NoteExistsError);
		expect((error as Error).message).toMatch(/^A note already exists at "Note.md".*pass overwrite: true\.$/);
		expect((error as Error).message).not.toContain(vault.root);
	});
});

describe("overEditedSize: the longest note the write tools change", () => {
	test("a note at both bounds is edited; one character or one line more is not, and the reason names which bound", () => {
		expect(overEditedSize("x".repeat(MAX_EDITED_NOTE_CHARS))).toBeNull();
		expect(overEditedSize("x".repeat(MAX_EDITED_NOTE_CHARS + 1))).toMatch(new RegExp(`^over ${MAX_EDITED_NOTE_CHARS} characters`));
		const atLines = "a\n".repeat(MAX_EDITED_NOTE_LINES - 1);
		expect(overEditedSize(atLines)).toBeNull();
		expect(overEditedSize(`${atLines}\n`)).toMatch(new RegExp(`^over ${MAX_EDITED_NOTE_LINES} lines`));
		expect(overEditedSize("")).toBeNull();
	});
});

describe("createNoteFile: the folder check before a new note", () => {
	let vault: OpenVault;
	beforeEach(async () => (vault = await openVault({ "Made/Old.md": "old\n" })));
	afterEach(() => vault.close());

	test("a folder swapped for a link after it was found real, before the note is written, is refused: nothing lands behind the link", async () => {
		const outside = await makeVault();
		try {
			const { host, root } = vault;
			const ask = host.vault.getFolderByPathAsync?.bind(host.vault);
			if (!ask) throw new Error("the headless vault answers folder checks asynchronously");
			const syncAsk = jest.spyOn(host.vault, "getFolderByPath");
			// The swap lands between the folder check (which saw a real folder) and the write.
			jest.spyOn(host.vault, "getFolderByPathAsync").mockImplementation(async (path) => {
				const answer = await ask(path);
				await fs.rename(nodePath.join(root, "Made"), nodePath.join(root, "Moved"));
				await fs.symlink(outside, nodePath.join(root, "Made"));
				return answer;
			});
			await expect(createNoteFile(host, "Made/New.md", "secret plan\n")).rejects.toThrow("not part of the vault");
			expect(await fs.readdir(outside)).toEqual([".obsidian"]);
			// The check did not hold the event loop: it never asked the disk synchronously.
			expect(syncAsk).not.toHaveBeenCalled();
		} finally {
			await removeDir(outside);
		}
	});

	test("the asynchronous check answers as the synchronous one: a real folder, not a link to one, a file or a missing path", async () => {
		const outside = await makeVault();
		try {
			const { host, root } = vault;
			await fs.symlink(outside, nodePath.join(root, "Linked"));
			for (const path of ["Made", "Linked", "Made/Old.md", "Missing", "Made/Missing", "/"])
				expect(await host.vault.getFolderByPathAsync?.(path)).toEqual(host.vault.getFolderByPath(path));
			expect(await host.vault.getFolderByPathAsync?.("Made")).toEqual({ path: "Made", name: "Made" });
			expect(await host.vault.getFolderByPathAsync?.("Linked")).toBeNull();
		} finally {
			await removeDir(outside);
		}
	});
});

describe("ensureParentFolder when the folder comes in the moment after it was looked for", () => {
	let vault: OpenVault;
	afterEach(() => vault.close());

	test("Obsidian's createFolder refuses it as already there, and the note's folder is there: no error", async () => {
		vault = await openVault({ "Note.md": "x" });
		const { host } = vault;
		let looks = 0;
		const racedVault = new Proxy(host.vault, {
			get(target, key) {
				// The first look finds nothing; another call (or program) makes the folder right after it.
				if (key === "getFolderByPathAsync")
					return async (path: string) => {
						if (looks++ > 0) return target.getFolderByPathAsync(path);
						await fs.mkdir(nodePath.join(vault.root, path));
						return null;
					};
				// As Obsidian's: a path taken is refused.
				if (key === "createFolder")
					return async (path: string) => {
						if (await target.getFolderByPathAsync(path)) throw new Error("Folder already exists.");
						return target.createFolder(path);
					};
				const value: unknown = Reflect.get(target, key, target);
				return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
			},
		});
		await expect(ensureParentFolder({ ...host, vault: racedVault, hiddenLinks: () => [] }, "Projects/Plan.md")).resolves.toBeUndefined();
		expect((await fs.stat(nodePath.join(vault.root, "Projects"))).isDirectory()).toBe(true);
	});
});

describe("ensureParentFolder beside another call making the same new folder", () => {
	test("a folder made by exactly its name between the lookup and the disk's look is used, not refused as taken", async () => {
		// The other call's createFolder("New") lands right after this call's second lookup (the disk's look's) found nothing.
		const made = new Set<string>();
		let lookups = 0;
		const folder = (path: string) => (made.has(path) ? ({ path, name: path } as never) : null);
		const host = {
			vault: {
				getFolderByPath: folder,
				getFolderByPathAsync: (path: string) => {
					const answer = folder(path);
					if (++lookups === 2) made.add("New");
					return Promise.resolve(answer);
				},
				adapter: { exists: (path: string) => Promise.resolve(made.has(path)) },
				createFolder: (path: string) => (made.has(path) ? Promise.reject(new Error("Folder already exists.")) : Promise.resolve(made.add(path))),
			},
		} as unknown as Host;
		await expect(ensureParentFolder(host, "New/b.md")).resolves.toBeUndefined();
		expect([...made]).toEqual(["New"]);
	});
});
