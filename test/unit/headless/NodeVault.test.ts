import nodeFs from "node:fs";
import { appendFileSync, mkdirSync, promises as fs, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { DiskWriter } from "../../../src/headless/DiskWriter";
import type { OpenEvents } from "../../../src/headless/openEvents";
import { NodeVault, normalizeVaultPath } from "../../../src/headless/NodeVault";
import { NOTE_TEXT_PIECE_CHARS, RENAME_PAIRING_MS, WATCH_QUEUE_COMPACTED_AT } from "../../../src/config/limits";
import type { HostAbstractFile } from "../../../src/host/Host";
import { until } from "../../helpers/dom";
import { makeVault, removeDir } from "../../helpers/vault";

describe("NodeVault", () => {
	let root: string;
	let vault: NodeVault;

	beforeEach(async () => {
		root = await makeVault({ "A.md": "alpha\n", "Folder/B.md": "beta", "Folder/pic.png": "png", ".hidden/C.md": "hidden", ".obsidian/app.json": "{}" });
		vault = await NodeVault.open(root);
	});
	afterEach(async () => {
		await vault.close();
		await removeDir(root);
	});

	test("lists files like Obsidian: dot-folders (the config folder among them) are not part of the vault", () => {
		expect(
			vault
				.getFiles()
				.map((file) => file.path)
				.sort(),
		).toEqual(["A.md", "Folder/B.md", "Folder/pic.png"]);
		expect(
			vault
				.getMarkdownFiles()
				.map((file) => file.path)
				.sort(),
		).toEqual(["A.md", "Folder/B.md"]);
		expect(vault.getFileByPath("Folder/B.md")).toMatchObject({ name: "B.md", basename: "B", extension: "md", stat: { size: 4 } });
		expect(vault.getFileByPath(".obsidian/app.json")).toBeNull();
	});

	test("reads through the adapter, relative to the vault, and never outside it", async () => {
		expect(await vault.adapter.read(".obsidian/app.json")).toBe("{}");
		expect(await vault.adapter.exists("Folder")).toBe(true);
		expect(() => vault.toDiskPath("../outside.md")).toThrow("not part of the vault");
		expect(() => vault.toDiskPath("Folder/../../outside.md")).toThrow("not part of the vault");
	});

	test("a path's names are looked for in their other Unicode spelling one look each, never by listing a folder; a folder named in NFD is found", () => {
		const listings = jest.spyOn(nodeFs, "readdirSync");
		const nfdFolder = nodePath.join(root, "Cafe\u0301");
		mkdirSync(nfdFolder);
		try {
			// Each listed its folder on the base (the vault's root, or Folder), a synchronous look at every name in it.
			for (const path of ["日記/新しい.md", "Folder/📝 idea.md", "Заметки/план.md", "Über/x.md", "Folder/Ärger.md"])
				expect(vault.toDiskPath(path)).toBe(nodePath.join(root, path));
			expect(vault.toDiskPath("Caf\u00e9/x.md")).toBe(nodePath.join(nfdFolder, "x.md"));
			// A name spelt on disk in neither form (é decomposed, Ü composed): found by looking for the mixes, not listing (missed on the base).
			const mixedFolder = nodePath.join(root, "Cafe\u0301 \u00dcber");
			mkdirSync(mixedFolder);
			expect(vault.toDiskPath("Caf\u00e9 \u00dcber/x.md")).toBe(nodePath.join(mixedFolder, "x.md"));
			expect(vault.toDiskPath("Cafe\u0301 U\u0308ber/x.md")).toBe(nodePath.join(mixedFolder, "x.md"));
			expect(listings).not.toHaveBeenCalled();
		} finally {
			listings.mockRestore();
			rmSync(nfdFolder, { recursive: true, force: true });
		}
	});

	test("process changes a note atomically and reports modify; cachedRead sees the new text", async () => {
		const modified: string[] = [];
		vault.on("modify", (file: HostAbstractFile) => modified.push(file.path));
		const file = vault.getFileByPath("A.md");
		if (!file) throw new Error("missing");
		expect(await vault.process(file, (text) => text + "more\n")).toBe("alpha\nmore\n");
		expect(await fs.readFile(nodePath.join(root, "A.md"), "utf8")).toBe("alpha\nmore\n");
		expect(await vault.cachedRead(file)).toBe("alpha\nmore\n");
		expect(modified).toEqual(["A.md"]);
		expect((await fs.readdir(root)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
	});

	test("100 concurrent process calls on one note all land, each once", async () => {
		const file = vault.getFileByPath("A.md");
		if (!file) throw new Error("missing");
		await Promise.all(Array.from({ length: 100 }, (_, index) => vault.process(file, (text) => `${text}line ${index}\n`)));
		const lines = (await fs.readFile(nodePath.join(root, "A.md"), "utf8")).trimEnd().split("\n");
		expect(lines).toHaveLength(101);
		expect(new Set(lines.slice(1)).size).toBe(100);
	});

	test("an append to a note whose bytes are not valid UTF-8 keeps those bytes and adds the new text after them; any other change is refused", async () => {
		const other = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a, 0xed, 0xa0, 0x80, 0x0a]);
		await fs.writeFile(nodePath.join(root, "A.md"), other);
		const file = vault.getFileByPath("A.md");
		if (!file) throw new Error("missing");
		const written = await vault.process(file, (text) => `${text}more\n`);
		expect(written).toBe("Caf\uFFFD\n\uFFFD\uFFFD\uFFFD\nmore\n");
		expect(await fs.readFile(nodePath.join(root, "A.md"))).toEqual(Buffer.concat([other, Buffer.from("more\n")]));
		// The text read back is the file's, decoded as it is now.
		expect(await vault.read(file)).toBe(written);
		await expect(vault.process(file, (text) => `first\n${text}`)).rejects.toMatchObject({ code: "ENOTUTF8" });
		expect(await fs.readFile(nodePath.join(root, "A.md"))).toEqual(Buffer.concat([other, Buffer.from("more\n")]));
	});

	test("process reads the disk, not a stale copy: an edit made by another program a moment before is kept", async () => {
		const file = vault.getFileByPath("A.md");
		if (!file) throw new Error("missing");
		await vault.cachedRead(file);
		await fs.writeFile(nodePath.join(root, "A.md"), "edited elsewhere\n");
		expect(await vault.process(file, (text) => text + "appended\n")).toBe("edited elsewhere\nappended\n");
	});

	test("a throwing process leaves the note byte for byte as it was", async () => {
		const file = vault.getFileByPath("A.md");
		if (!file) throw new Error("missing");
		await expect(
			vault.process(file, () => {
				throw new Error("refused");
			}),
		).rejects.toThrow("refused");
		expect(await fs.readFile(nodePath.join(root, "A.md"), "utf8")).toBe("alpha\n");
	});

	test("create makes folders as needed, refuses an existing file, and reports create", async () => {
		const created: string[] = [];
		vault.on("create", (file: HostAbstractFile) => created.push(file.path));
		const file = await vault.create("New/Deep/Note.md", "hello");
		expect(file.path).toBe("New/Deep/Note.md");
		expect(await fs.readFile(nodePath.join(root, "New/Deep/Note.md"), "utf8")).toBe("hello");
		await expect(vault.create("A.md", "overwrite?")).rejects.toThrow("already exists");
		expect(await fs.readFile(nodePath.join(root, "A.md"), "utf8")).toBe("alpha\n");
		expect(created).toEqual(["New/Deep/Note.md"]);
	});

	test("normalizeVaultPath turns user spellings into vault paths", () => {
		expect(normalizeVaultPath("/Folder//B.md/")).toBe("Folder/B.md");
		expect(normalizeVaultPath("Folder\\B.md")).toBe("Folder/B.md");
		expect(normalizeVaultPath("")).toBe("/");
		expect(normalizeVaultPath("Cafe\u0301.md")).toBe("Café.md");
	});

	test("normalizeVaultPath spells every short mix of slashes, backslashes, dots, spaces and letters one way, the plain ones as they are", () => {
		const alphabet = ["a", "/", "\\", " ", ".", "\u00a0", "e\u0301"];
		const spellings = [""];
		for (let length = 0; length < 4; length++)
			for (const start of spellings.filter((spelling) => [...spelling].length === length)) for (const letter of alphabet) spellings.push(start + letter);
		let plain = 0;
		for (const spelling of spellings) {
			const cleaned = spelling
				.replace(/[\\/]+/g, "/")
				.replace(/^\/+|\/+$/g, "")
				.replace(/[\u00a0\u202f]/g, " ")
				.normalize("NFC");
			expect(normalizeVaultPath(spelling)).toBe(cleaned === "" ? "/" : cleaned);
			if (cleaned === spelling) plain++;
		}
		expect(plain).toBeGreaterThan(100);
	});

	test("trash moves a note to the vault's .trash (a taken name gets a number), reports delete, and never writes through a linked .trash", async () => {
		const deleted: string[] = [];
		vault.on("delete", (file: HostAbstractFile) => deleted.push(file.path));
		await fs.mkdir(nodePath.join(root, ".trash"));
		await fs.writeFile(nodePath.join(root, ".trash", "B.md"), "already in the trash");
		const file = vault.getFileByPath("Folder/B.md");
		if (!file) throw new Error("missing");
		await vault.trash(file);
		expect(vault.getFileByPath("Folder/B.md")).toBeNull();
		expect(deleted).toEqual(["Folder/B.md"]);
		await expect(fs.stat(nodePath.join(root, "Folder/B.md"))).rejects.toMatchObject({ code: "ENOENT" });
		expect(await fs.readFile(nodePath.join(root, ".trash", "B.md"), "utf8")).toBe("already in the trash");
		expect(await fs.readFile(nodePath.join(root, ".trash", "B 1.md"), "utf8")).toBe("beta");

		const outside = await makeVault();
		try {
			await fs.rm(nodePath.join(root, ".trash"), { recursive: true });
			await fs.symlink(outside, nodePath.join(root, ".trash"));
			const note = vault.getFileByPath("A.md");
			if (!note) throw new Error("missing");
			await expect(vault.trash(note)).rejects.toThrow("not part of the vault");
			expect(await fs.readFile(nodePath.join(root, "A.md"), "utf8")).toBe("alpha\n");
			expect(await fs.readdir(outside)).toEqual([".obsidian"]);
		} finally {
			await removeDir(outside);
		}
	});

	test("rename moves a note (folders made), keeps the file object, reports rename, and never replaces or follows anything", async () => {
		const renamed: Array<[string, string]> = [];
		vault.on("rename", (file: HostAbstractFile, oldPath: string) => renamed.push([file.path, oldPath]));
		const file = vault.getFileByPath("Folder/B.md");
		if (!file) throw new Error("missing");
		await vault.rename(file, "New/Deeper/Beta.md");
		expect(renamed).toEqual([["New/Deeper/Beta.md", "Folder/B.md"]]);
		expect(file).toMatchObject({ path: "New/Deeper/Beta.md", name: "Beta.md", basename: "Beta" });
		expect(vault.getFileByPath("New/Deeper/Beta.md")).toBe(file);
		expect(vault.getFileByPath("Folder/B.md")).toBeNull();
		expect(await vault.read(file)).toBe("beta");
		await expect(fs.stat(nodePath.join(root, "Folder/B.md"))).rejects.toMatchObject({ code: "ENOENT" });

		// A name taken on disk by a file the vault does not list yet (another program made it a moment ago) is never replaced.
		await fs.writeFile(nodePath.join(root, "Taken.md"), "someone else's");
		await expect(vault.rename(file, "Taken.md")).rejects.toMatchObject({ code: "EEXIST" });
		expect(await fs.readFile(nodePath.join(root, "Taken.md"), "utf8")).toBe("someone else's");
		expect(await vault.read(file)).toBe("beta");

		const outside = await makeVault();
		try {
			await fs.symlink(outside, nodePath.join(root, "Linked"));
			await expect(vault.rename(file, "Linked/Beta.md")).rejects.toThrow("not part of the vault");
			await fs.symlink(nodePath.join(outside, "target.md"), nodePath.join(root, "Dangling.md"));
			await expect(vault.rename(file, "Dangling.md")).rejects.toThrow("not part of the vault");
			expect(await fs.readdir(outside)).toEqual([".obsidian"]);
			expect(await fs.readFile(nodePath.join(root, "New/Deeper/Beta.md"), "utf8")).toBe("beta");
		} finally {
			await removeDir(outside);
		}
	});

	test("rename that only changes letter case works (one file under both names on a case-insensitive disk)", async () => {
		const file = vault.getFileByPath("A.md");
		if (!file) throw new Error("missing");
		await vault.rename(file, "a.md");
		expect(vault.getFileByPath("a.md")).toBe(file);
		expect(await fs.readdir(root)).toContain("a.md");
		expect(await vault.read(file)).toBe("alpha\n");
	});
});

describe("NodeVault watching the disk", () => {
	let root: string;
	let vault: NodeVault;
	const events: string[] = [];

	beforeAll(async () => {
		root = await makeVault({ "Keep.md": "keep", "Old.md": "old" });
		vault = await NodeVault.open(root, { watch: true });
		vault.on("create", (file: HostAbstractFile) => events.push(`create ${file.path}`));
		vault.on("modify", (file: HostAbstractFile) => events.push(`modify ${file.path}`));
		vault.on("delete", (file: HostAbstractFile) => events.push(`delete ${file.path}`));
		vault.on("rename", (file: HostAbstractFile, oldPath: string) => events.push(`rename ${oldPath} -> ${file.path}`));
	});
	afterAll(async () => {
		await vault.close();
		await removeDir(root);
	});

	async function expectEventWithinASecond(expected: string): Promise<void> {
		const deadline = Date.now() + 1000;
		while (!events.includes(expected) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
		expect(events).toContain(expected);
	}

	test("picks up another program's create, modify, rename and delete within a second", async () => {
		await fs.writeFile(nodePath.join(root, "Fresh.md"), "fresh");
		await expectEventWithinASecond("create Fresh.md");
		expect(vault.getFileByPath("Fresh.md")).not.toBeNull();

		await fs.writeFile(nodePath.join(root, "Keep.md"), "changed");
		await expectEventWithinASecond("modify Keep.md");
		const keep = vault.getFileByPath("Keep.md");
		expect(keep && (await vault.cachedRead(keep))).toBe("changed");

		await fs.rename(nodePath.join(root, "Old.md"), nodePath.join(root, "New.md"));
		await expectEventWithinASecond("rename Old.md -> New.md");
		expect(vault.getFileByPath("Old.md")).toBeNull();
		expect(vault.getFileByPath("New.md")).not.toBeNull();

		await fs.rm(nodePath.join(root, "Fresh.md"));
		await expectEventWithinASecond("delete Fresh.md");
		expect(vault.getFileByPath("Fresh.md")).toBeNull();
	});

	test("its own writes are reported once, not again by the watcher", async () => {
		// Let the last test's writes finish arriving (a plain write can show up as two changes).
		await vault.outsideChangesSeen();
		events.length = 0;
		const keep = vault.getFileByPath("Keep.md");
		if (!keep) throw new Error("missing");
		await vault.process(keep, (text) => text + "!");
		await vault.create("Mine.md", "mine");
		// Once the watcher has looked at what the two writes made it see.
		await vault.outsideChangesSeen();
		expect(events).toEqual(["modify Keep.md", "create Mine.md"]);
	});
	test("a folder another program makes (with notes and a folder inside, made at once), renames and deletes is followed: each note made, moved and deleted", async () => {
		await vault.outsideChangesSeen();
		events.length = 0;
		// Made with its notes before the watcher could be on it: found by listing it once it is seen.
		await fs.mkdir(nodePath.join(root, "Made", "Inner"), { recursive: true });
		await fs.writeFile(nodePath.join(root, "Made", "One.md"), "one");
		await fs.writeFile(nodePath.join(root, "Made", "Inner", "Two.md"), "two");
		await expectEventWithinASecond("create Made/One.md");
		await expectEventWithinASecond("create Made/Inner/Two.md");
		// A note made later inside the new folder's folder: its own watch reports it.
		await fs.writeFile(nodePath.join(root, "Made", "Inner", "Three.md"), "three");
		await expectEventWithinASecond("create Made/Inner/Three.md");

		await fs.rename(nodePath.join(root, "Made"), nodePath.join(root, "Moved"));
		await expectEventWithinASecond("rename Made/One.md -> Moved/One.md");
		await expectEventWithinASecond("rename Made/Inner/Two.md -> Moved/Inner/Two.md");
		expect(vault.getFileByPath("Made/One.md")).toBeNull();
		// The moved folder is followed under its new name only.
		await fs.writeFile(nodePath.join(root, "Moved", "Inner", "Two.md"), "two, changed");
		await expectEventWithinASecond("modify Moved/Inner/Two.md");

		await fs.rm(nodePath.join(root, "Moved"), { recursive: true });
		await expectEventWithinASecond("delete Moved/One.md");
		await expectEventWithinASecond("delete Moved/Inner/Two.md");
		await expectEventWithinASecond("delete Moved/Inner/Three.md");
		expect(vault.getFiles().filter((file) => file.path.startsWith("Moved/") || file.path.startsWith("Made/"))).toEqual([]);
	});
});

describe("NodeVault watching a folder another program moves", () => {
	test("its notes are reported moved, not deleted and made again, when listing the folder under its new name outlasts the rename's pairing wait", async () => {
		const root = await makeVault({ "Made/One.md": "one", "Made/Inner/Two.md": "two", "Keep.md": "keep" });
		const vault = await NodeVault.open(root, { watch: true });
		const events: string[] = [];
		vault.on("create", (file: HostAbstractFile) => events.push(`create ${file.path}`));
		vault.on("delete", (file: HostAbstractFile) => events.push(`delete ${file.path}`));
		vault.on("rename", (file: HostAbstractFile, oldPath: string) => events.push(`rename ${oldPath} -> ${file.path}`));
		// The moved folder's listing is held, as a busy machine (or a folder of thousands of notes) holds it, until the pairing waits have run out.
		let openListing = (): void => undefined;
		const listingHeld = new Promise<void>((resolve) => (openListing = resolve));
		const readdir = fs.readdir.bind(fs);
		jest.spyOn(fs, "readdir").mockImplementation((async (folder: string, options?: unknown) => {
			if (nodePath.basename(String(folder)) === "Moved") await listingHeld;
			return readdir(folder, options as undefined);
		}) as typeof fs.readdir);
		let pairingWaitsOver = 0;
		const realSetTimeout = global.setTimeout;
		jest.spyOn(global, "setTimeout").mockImplementation((callback: () => void, ms?: number) =>
			realSetTimeout(() => {
				callback();
				if (ms === RENAME_PAIRING_MS) pairingWaitsOver++;
			}, ms),
		);
		try {
			await fs.rename(nodePath.join(root, "Made"), nodePath.join(root, "Moved"));
			await until(() => pairingWaitsOver === 2, 10_000);
			// Time for what main did then (a look at the old path, then the notes dropped) to be reported.
			await new Promise((resolve) => realSetTimeout(resolve, RENAME_PAIRING_MS));
			openListing();
			await until(() => events.length >= 2, 10_000);
			await vault.outsideChangesSeen();
			expect(events.sort()).toEqual(["rename Made/Inner/Two.md -> Moved/Inner/Two.md", "rename Made/One.md -> Moved/One.md"]);
			expect(vault.getFileByPath("Moved/Inner/Two.md")).not.toBeNull();
			expect(vault.getFileByPath("Made/One.md")).toBeNull();
		} finally {
			jest.restoreAllMocks();
			await vault.close();
			await removeDir(root);
		}
	});
});

/** The vault's file paths, sorted. */
function pathsOf(vault: NodeVault): string[] {
	return vault
		.getFiles()
		.map((file) => file.path)
		.sort();
}

describe("NodeVault watching a folder another program moves away and back", () => {
	test("its notes are where the disk has them once the folder is back under its name, when the watcher saw it under the other name only", async () => {
		const root = await makeVault({ "Sub/Eps.md": "eps", "Sub/Inner/Two.md": "two", "Keep.md": "keep" });
		const vault = await NodeVault.open(root, { watch: true });
		const events: string[] = [];
		vault.on("create", (file: HostAbstractFile) => events.push(`create ${file.path}`));
		vault.on("delete", (file: HostAbstractFile) => events.push(`delete ${file.path}`));
		vault.on("rename", (file: HostAbstractFile, oldPath: string) => events.push(`rename ${oldPath} -> ${file.path}`));
		// The watcher's look at the folder's old name is held until the folder is back there: it then finds a folder it
		// watches, while its look at the other name has already listed the folder there and moved its notes.
		const sub = nodePath.join(vault.root, "Sub");
		let openLook = (): void => undefined;
		const lookHeld = new Promise<void>((resolve) => (openLook = resolve));
		const lstat = fs.lstat.bind(fs);
		jest.spyOn(fs, "lstat").mockImplementation((async (path: string, options?: unknown) => {
			if (String(path) === sub) await lookHeld;
			return lstat(path, options as undefined);
		}) as typeof fs.lstat);
		try {
			await fs.rename(sub, nodePath.join(vault.root, "Moved"));
			await until(() => events.length >= 2, 10_000);
			expect(events.sort()).toEqual(["rename Sub/Eps.md -> Moved/Eps.md", "rename Sub/Inner/Two.md -> Moved/Inner/Two.md"]);
			events.length = 0;
			await fs.rename(nodePath.join(vault.root, "Moved"), sub);
			openLook();
			await vault.outsideChangesSeen();
			expect(pathsOf(vault)).toEqual(["Keep.md", "Sub/Eps.md", "Sub/Inner/Two.md"]);
			expect(events.sort()).toEqual(["rename Moved/Eps.md -> Sub/Eps.md", "rename Moved/Inner/Two.md -> Sub/Inner/Two.md"]);
			const eps = vault.getFileByPath("Sub/Eps.md");
			expect(eps && (await vault.cachedRead(eps))).toBe("eps");
		} finally {
			jest.restoreAllMocks();
			await vault.close();
			await removeDir(root);
		}
	});
});

describe("NodeVault watching a folder it could not watch (the system's limit of watches reached, or moved away while being watched anew)", () => {
	test("its notes are dropped once another program deletes the folder", async () => {
		const root = await makeVault({ "Sub/Eps.md": "eps", "Sub/Inner/Two.md": "two", "Keep.md": "keep" });
		const vault = await NodeVault.open(root, { watch: true });
		try {
			// Listed, not watched: as a watch inotify refuses past max_user_watches (left unwatched, as chokidar did), or one
			// not put back on a folder moved away and back while its look was under way (review112's seeded check).
			const watcher = (vault as unknown as { watcher: { unwatchUnder(folder: string): boolean } }).watcher;
			expect(watcher.unwatchUnder(nodePath.join(vault.root, "Sub"))).toBe(true);
			expect(pathsOf(vault)).toEqual(["Keep.md", "Sub/Eps.md", "Sub/Inner/Two.md"]);
			await fs.rm(nodePath.join(vault.root, "Sub"), { recursive: true });
			await vault.outsideChangesSeen();
			// On 565b5cdf the folder's notes stayed listed for good: only a watched folder's were unlinked when it went.
			expect(pathsOf(vault)).toEqual(["Keep.md"]);
		} finally {
			await vault.close();
			await removeDir(root);
		}
	});
});

describe("NodeVault watching temporary files another program makes and removes (an editor's atomic saver)", () => {
	test("a gone file that was never a folder is not looked for among the vault's files", async () => {
		const root = await makeVault({ "Sub/Eps.md": "eps", "Sub/Inner/Two.md": "two", "Keep.md": "keep" });
		const vault = await NodeVault.open(root, { watch: true });
		try {
			const files = (vault as unknown as { files: Map<string, unknown> }).files;
			const walks = jest.spyOn(files, "values");
			const temporaries = 20;
			// Made and removed before the watcher looks: each is found gone.
			for (let index = 0; index < temporaries; index++) {
				const at = nodePath.join(vault.root, "Sub", `Eps.md.${index}.tmp`);
				appendFileSync(at, "saved");
				await fs.rm(at);
			}
			await vault.outsideChangesSeen();
			// On lead10 (5079879a) each gone temporary file walked every listed file (330 µs each at 10,000 notes).
			expect(walks.mock.calls.length).toBeLessThan(temporaries);
			expect(pathsOf(vault)).toEqual(["Keep.md", "Sub/Eps.md", "Sub/Inner/Two.md"]);
		} finally {
			await vault.close();
			await removeDir(root);
		}
	});

	test("notes deleted are not looked for among the watched folders; a folder deleted takes its folders' watches with it", async () => {
		const notes = 30;
		const files: Record<string, string> = { "Sub/Inner/Two.md": "two", "Sub/Inner/Deeper/Three.md": "three", "Keep.md": "keep" };
		for (let index = 0; index < notes; index++) files[`Many/N${index}.md`] = "note";
		const root = await makeVault(files);
		const vault = await NodeVault.open(root, { watch: true });
		try {
			const folders = (vault as unknown as { watcher: { folders: Map<string, unknown> } }).watcher.folders;
			expect(folders.size).toBe(5);
			const walks = jest.spyOn(folders, "keys");
			for (let index = 0; index < notes; index++) await fs.rm(nodePath.join(vault.root, "Many", `N${index}.md`));
			await vault.outsideChangesSeen();
			// On 285ac856 each note gone walked every watched folder (a mass delete: the deletes times the folders).
			expect(walks.mock.calls.length).toBeLessThan(notes);
			await fs.rm(nodePath.join(vault.root, "Sub"), { recursive: true });
			await vault.outsideChangesSeen();
			expect({ paths: pathsOf(vault), watched: folders.size }).toEqual({ paths: ["Keep.md"], watched: 2 });
		} finally {
			await vault.close();
			await removeDir(root);
		}
	});
});

describe("NodeVault watching a folder another program moves away and replaces with a new one of the same name", () => {
	test("notes later made in the new folder, and changed in the moved one, are followed where they are", async () => {
		const root = await makeVault({ "Sub/Eps.md": "eps", "Keep.md": "keep" });
		const vault = await NodeVault.open(root, { watch: true });
		try {
			// Both before the watcher looks: it finds a folder at the name it watches, but not the one it watches.
			renameSync(nodePath.join(vault.root, "Sub"), nodePath.join(vault.root, "Moved"));
			mkdirSync(nodePath.join(vault.root, "Sub"));
			await vault.outsideChangesSeen();
			expect(pathsOf(vault)).toEqual(["Keep.md", "Moved/Eps.md"]);
			await fs.writeFile(nodePath.join(vault.root, "Sub", "Later.md"), "later");
			await fs.writeFile(nodePath.join(vault.root, "Moved", "Eps.md"), "eps, changed");
			await vault.outsideChangesSeen();
			expect(pathsOf(vault)).toEqual(["Keep.md", "Moved/Eps.md", "Sub/Later.md"]);
			const eps = vault.getFileByPath("Moved/Eps.md");
			expect(eps && (await vault.cachedRead(eps))).toBe("eps, changed");
		} finally {
			await vault.close();
			await removeDir(root);
		}
	});
});

describe("NodeVault watching beside a folder whose listing never ends (a share that stopped answering)", () => {
	test("the watcher's queue of events stays bounded while 1,500 notes another program makes are reported; the held folder's note once it answers", async () => {
		const root = await makeVault({ "Keep.md": "keep" });
		const vault = await NodeVault.open(root, { watch: true });
		const created = new Set<string>();
		vault.on("create", (file: HostAbstractFile) => created.add(file.path));
		let listingAsked = false;
		let answerListing = (): void => undefined;
		const listingHeld = new Promise<void>((resolve) => (answerListing = resolve));
		const readdir = fs.readdir.bind(fs);
		jest.spyOn(fs, "readdir").mockImplementation((async (folder: string, options?: unknown) => {
			if (nodePath.basename(String(folder)) === "Hung") {
				listingAsked = true;
				await listingHeld;
			}
			return readdir(folder, options as undefined);
		}) as typeof fs.readdir);
		// The watcher's queue of events not yet answered (what a look that never ends kept growing).
		const queue = () => (vault as unknown as { watcher: { openEvents: OpenEvents } }).watcher.openEvents.held.events;
		try {
			// Made in a dot-folder (never watched) and moved in whole: its note is found only by the held listing.
			await fs.mkdir(nodePath.join(root, ".staging", "Hung"), { recursive: true });
			await fs.writeFile(nodePath.join(root, ".staging", "Hung", "Inside.md"), "inside");
			await fs.rename(nodePath.join(root, ".staging", "Hung"), nodePath.join(root, "Hung"));
			await until(() => listingAsked, 10_000);
			const names = Array.from({ length: 1_500 }, (_, at) => `n${at}.md`);
			for (let first = 0; first < names.length; first += 100)
				await Promise.all(names.slice(first, first + 100).map((name) => fs.writeFile(nodePath.join(root, name), name)));
			await until(() => names.every((name) => created.has(name)), 30_000);
			// 1,501 on main, and one more for each look after (the listing's event at the front was never answered, so none was cut out).
			await until(() => queue() <= WATCH_QUEUE_COMPACTED_AT, 10_000);
			expect(created.has("Hung/Inside.md")).toBe(false);
			answerListing();
			await until(() => created.has("Hung/Inside.md"), 10_000);
			await vault.outsideChangesSeen();
			expect(created.size).toBe(1_501);
		} finally {
			answerListing();
			jest.restoreAllMocks();
			await vault.close();
			await removeDir(root);
		}
	});
});

describe("NodeVault watching a note another program keeps appending to", () => {
	test("a note deleted meanwhile is reported deleted after a few looks at the busy note, not once they stop", async () => {
		const root = await makeVault({ "Busy.md": "busy\n", "Gone.md": "gone [[Busy]]\n" });
		const vault = await NodeVault.open(root, { watch: true });
		const events: string[] = [];
		vault.on("delete", (file: HostAbstractFile) => events.push(`delete ${file.path}`));
		// Another program appends to Busy.md during each look the watcher takes at it (a log a program
		// writes to all the time): the look at it never ends while the program runs. It stops after
		// BUSY_LOOKS looks, well past the bound the pairing wait has, so the test ends either way.
		const busy = nodePath.join(vault.root, "Busy.md");
		const BUSY_LOOKS = 400;
		let looksAtBusy = 0;
		const lstat = fs.lstat.bind(fs);
		jest.spyOn(fs, "lstat").mockImplementation((async (path: string, options?: unknown) => {
			if (String(path) === busy && looksAtBusy < BUSY_LOOKS) {
				looksAtBusy++;
				appendFileSync(busy, "line\n");
				// Its event is queued by the write: read by the watch while this look waits.
				await new Promise((resolve) => setTimeout(resolve, 5));
			}
			return lstat(path, options as undefined);
		}) as typeof fs.lstat);
		try {
			appendFileSync(busy, "line\n");
			await until(() => looksAtBusy >= 4, 10_000);
			const looksBefore = looksAtBusy;
			await fs.unlink(nodePath.join(vault.root, "Gone.md"));
			await until(() => events.includes("delete Gone.md") || looksAtBusy >= BUSY_LOOKS, 30_000);
			expect(events).toEqual(["delete Gone.md"]);
			// A look is two lstat calls and WATCH_SETTLE_MS: the delete waits RENAME_PAIRING_MS, then a look or
			// two (10 calls at load 17); waiting until the looks stopped took 202 calls (5 s).
			expect(looksAtBusy - looksBefore).toBeLessThan(40);
			expect(vault.getFileByPath("Gone.md")).toBeNull();
		} finally {
			jest.restoreAllMocks();
			await vault.close();
			await removeDir(root);
		}
	});
});

describe("NodeVault watching a note another program deletes and makes again (an editor saving by delete and create, a checkout)", () => {
	test("made again just after the watcher last found it gone, it is listed with its new text once all is seen, though the look its own event made came first", async () => {
		const root = await makeVault({ "Note.md": "old\n", "Keep.md": "keep" });
		const vault = await NodeVault.open(root, { watch: true });
		const events: string[] = [];
		for (const kind of ["create", "modify", "delete"] as const) vault.on(kind, (file: HostAbstractFile) => events.push(`${kind} ${file.path}`));
		const note = nodePath.join(vault.root, "Note.md");
		// The unlink's pairing wait is over (its timer has run): from then on the watcher decides whether the note is gone.
		let pairingOver = false;
		const realSetTimeout = global.setTimeout;
		jest.spyOn(global, "setTimeout").mockImplementation((callback: () => void, ms?: number) =>
			realSetTimeout(() => {
				if (ms === RENAME_PAIRING_MS) pairingOver = true;
				callback();
			}, ms),
		);
		// Its first look at the path after that finds nothing, and the note is made again at once. Its next look is slow (a
		// loaded thread pool): held until the vault has told anything of the note since, so the look the new file's own event
		// made comes first. On main that next look was the second of two in the drop: the file found, the note dropped all the
		// same, after the new file had been taken in, and it stayed out.
		let made = "not yet";
		let release = (): void => undefined;
		const toldSince = new Promise<void>((resolve) => (release = resolve));
		const lstat = fs.lstat.bind(fs);
		jest.spyOn(fs, "lstat").mockImplementation((async (path: string, options?: unknown) => {
			if (String(path) !== note || !pairingOver || made === "held") return lstat(path, options as undefined);
			if (made === "again") {
				made = "held";
				await toldSince;
				return lstat(path, options as undefined);
			}
			made = "again";
			const found = await lstat(path, options as undefined).then(
				(stats) => ({ stats }),
				(error: unknown) => ({ error }),
			);
			writeFileSync(note, "made again\n");
			events.length = 0;
			vault.on("create", () => release());
			vault.on("modify", () => release());
			vault.on("delete", () => release());
			if ("error" in found) throw found.error;
			return found.stats;
		}) as typeof fs.lstat);
		try {
			await fs.unlink(note);
			await until(() => made !== "not yet", 10_000);
			await until(() => events.length > 0, 10_000);
			await vault.outsideChangesSeen();
			expect(pathsOf(vault)).toEqual(["Keep.md", "Note.md"]);
			const file = vault.getFileByPath("Note.md");
			expect(file && (await vault.cachedRead(file))).toBe("made again\n");
			expect(events.at(-1)).not.toBe("delete Note.md");
		} finally {
			jest.restoreAllMocks();
			await vault.close();
			await removeDir(root);
		}
	});

	test("its folder swapped for a link to an outside folder holding a file of its name: dropped, not kept as the file behind the link", async () => {
		const root = await makeVault({ "Sub/Note.md": "inside\n", "Keep.md": "keep" });
		const outside = await makeVault({ "Note.md": "outside\n" });
		const vault = await NodeVault.open(root, { watch: true });
		try {
			// In one turn: no look of the watcher's comes between the two.
			rmSync(nodePath.join(vault.root, "Sub"), { recursive: true });
			symlinkSync(outside, nodePath.join(vault.root, "Sub"));
			await vault.outsideChangesSeen();
			// On main the unlink's wait ended finding a plain file at Sub/Note.md (through the link): the note stayed listed.
			expect(pathsOf(vault)).toEqual(["Keep.md"]);
		} finally {
			await vault.close();
			await removeDir(root);
			await removeDir(outside);
		}
	});
});

describe("NodeVault writes through a hard link", () => {
	test("an append to a note that is a hard link to a file outside the vault changes the note only, never the outside file", async () => {
		const outside = await makeVault({ "secret.md": "outside text\n" });
		const root = await makeVault({});
		await fs.link(nodePath.join(outside, "secret.md"), nodePath.join(root, "Hard.md"));
		const vault = await NodeVault.open(root);
		try {
			const file = vault.getFileByPath("Hard.md");
			if (!file) throw new Error("the note is not listed");
			await vault.process(file, (text) => `${text}added\n`);
			expect(await fs.readFile(nodePath.join(root, "Hard.md"), "utf8")).toBe("outside text\nadded\n");
			expect(await fs.readFile(nodePath.join(outside, "secret.md"), "utf8")).toBe("outside text\n");
		} finally {
			await vault.close();
			await removeDir(root);
			await removeDir(outside);
		}
	});
});

describe("NodeVault with a megabyte note", () => {
	let root: string;
	let vault: NodeVault;
	// Two- and four-byte characters (a surrogate pair), so pieces are cut inside neither a character nor a pair.
	const big = `---\ntitle: big\n---\n${"- [ ] é task 😀 line\n".repeat(60_000)}`;

	beforeEach(async () => {
		root = await makeVault({ "Big.md": big, "Bad.md": "x" });
		// Not valid UTF-8: a lone continuation byte and a cut-off four-byte sequence.
		await fs.writeFile(
			nodePath.join(root, "Bad.md"),
			Buffer.concat([Buffer.from("a".repeat(100_000)), Buffer.from([0x80, 0x61, 0xf0, 0x9f, 0x98]), Buffer.from("b".repeat(100_000))]),
		);
		vault = await NodeVault.open(root);
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await vault.close();
		await removeDir(root);
	});

	/** The UTF-8 lengths `Buffer.prototype.toString` decoded in each call while `run` ran. */
	async function decodedLengths<T>(run: () => Promise<T>): Promise<{ result: T; lengths: number[] }> {
		const lengths: number[] = [];
		const prototype = Object.getPrototypeOf(Buffer.alloc(0)) as Buffer;
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the buffer as `this`
		const original = prototype.toString as (this: Buffer, encoding?: string, start?: number, end?: number) => string;
		jest.spyOn(prototype, "toString").mockImplementation(function (this: Buffer, encoding?: string, start?: number, end?: number) {
			if (encoding === "utf8" || encoding === "utf-8") lengths.push(Math.min(end ?? this.length, this.length) - (start ?? 0));
			return original.call(this, encoding, start, end);
		});
		const result = await run();
		jest.restoreAllMocks();
		return { result, lengths };
	}

	test("a note read back from disk is decoded a piece at a time, into the same text", async () => {
		const file = vault.getFileByPath("Big.md");
		if (!file) throw new Error("missing");
		expect(Buffer.byteLength(big)).toBeGreaterThan(1_000_000);
		const { result, lengths } = await decodedLengths(() => vault.cachedRead(file));
		expect(result).toBe(big);
		expect(Math.max(...lengths)).toBeLessThanOrEqual(NOTE_TEXT_PIECE_CHARS);
		expect(lengths.length).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(big) / NOTE_TEXT_PIECE_CHARS));
	});

	test("bytes that are not valid UTF-8 are decoded as a whole decoding gives them", async () => {
		const file = vault.getFileByPath("Bad.md");
		if (!file) throw new Error("missing");
		const bytes = await fs.readFile(nodePath.join(root, "Bad.md"));
		expect(await vault.read(file)).toBe(bytes.toString("utf8"));
	});

	test("a note created is made into bytes a piece at a time, and the file holds its text", async () => {
		const lengths: number[] = [];
		const original = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer;
		jest.spyOn(Buffer, "from").mockImplementation(((value: unknown, ...rest: unknown[]) => {
			if (typeof value === "string") lengths.push(value.length);
			return original(value, ...rest);
		}) as typeof Buffer.from);
		await vault.create("Made.md", big);
		jest.restoreAllMocks();
		expect(await fs.readFile(nodePath.join(root, "Made.md"), "utf8")).toBe(big);
		expect(Math.max(...lengths)).toBeLessThanOrEqual(NOTE_TEXT_PIECE_CHARS);
	});
});

describe("NodeVault edits of a note a whole number of pages long", () => {
	const PAGE = 4096;
	/** Two pages of task lines: completing a task keeps the note's length. */
	const line = "- [ ] a task of the person's list, padded to a steady length.\n";
	const text = line.repeat(Math.floor((2 * PAGE) / line.length)).padEnd(2 * PAGE - 1, "y") + "\n";
	let root: string;
	let vault: NodeVault;
	beforeEach(async () => {
		root = await makeVault({ "Tasks.md": text });
		// Written a minute ago, not a moment ago: the first edit need not wait for it.
		const minuteAgo = new Date(Date.now() - 60_000);
		await fs.utimes(nodePath.join(root, "Tasks.md"), minuteAgo, minuteAgo);
		vault = await NodeVault.open(root);
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await vault.close();
		await removeDir(root);
	});

	test("a client's edits one after another are each made at the first attempt; another program's write of it is still waited for", async () => {
		expect(text.length).toBe(2 * PAGE);
		const file = vault.getFileByPath("Tasks.md");
		if (!file) throw new Error("no note");
		const attempts = jest.spyOn(DiskWriter.prototype, "editOnce");
		const flip = (note: string) => (note.startsWith("- [ ]") ? note.replace("- [ ]", "- [x]") : note.replace("- [x]", "- [ ]"));
		for (let edit = 0; edit < 10; edit++) await vault.process(file, flip);
		// Its own last write, still whole: each edit within EMPTY_NOTE_SETTLE_MS of the one before waited it out (93 attempts for 10 edits, 2 s).
		expect(attempts).toHaveBeenCalledTimes(10);
		expect((await fs.readFile(nodePath.join(root, "Tasks.md"), "utf8")).length).toBe(2 * PAGE);
		// Another program writes it in place (its change time moves on): read at a page's end a moment later, the edit waits.
		await new Promise((resolve) => setTimeout(resolve, 20));
		await fs.writeFile(nodePath.join(root, "Tasks.md"), text);
		attempts.mockClear();
		await vault.process(file, flip);
		expect(attempts.mock.calls.length).toBeGreaterThan(1);
	});
});
