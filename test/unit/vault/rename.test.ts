import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { linkingSources, pathAfter, planKeptLinks, planRename, relinkText, renameNote, renameWithLinks, unparsedNotesNaming } from "../../../src/vault/rename";
import { NodeHost } from "../../../src/headless/NodeHost";
import { planningHost } from "../../../src/journal/recordingHost";
import type { LinkMap } from "../../../src/host/Host";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import type { Scope } from "../../../src/vault/scope";
import { INLINE_ITEMS_PAUSE_COUNT, MAX_STARTUP_PARSE_BYTES, MAX_VAULT_PATH_CHARS } from "../../../src/config/limits";
import { LineIndex } from "../../../src/markdown/lines";
import { parseMetadata } from "../../../src/markdown/metadata";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { onLowerCase } from "../../helpers/replaceMethod";

/** Obsidian's "New link format" setting, as `app.json` holds it. */
/** What a token sees: everything but the config folder. */
const SCOPE = { configDir: ".obsidian", excludedFolders: [] };

const linkFormat = (format: "shortest" | "relative" | "absolute") => ({ ".obsidian/app.json": JSON.stringify({ newLinkFormat: format }) });

/**
 * Renames as Obsidian makes them with "Automatically update internal links" on: every link to the
 * note gets the path the vault's link format gives for the new place, keeping its kind (wikilink,
 * embed, Markdown link), its heading or block, and its alias (unless it showed the old name, as
 * Obsidian's rename has it); nothing else in the note changes.
 */
describe("rename plans", () => {
	let vault: OpenVault;
	afterEach(() => vault.close());
	const onDisk = (path: string) => fs.readFile(nodePath.join(vault.root, path), "utf8");
	const file = (path: string) => {
		const found = vault.host.vault.getFileByPath(path);
		if (!found) throw new Error(`no ${path} in the test vault`);
		return found;
	};

	test.each<[string, Record<string, string>, string, string, string]>([
		[
			"a wikilink, shortest format",
			{},
			"New.md",
			"[[Old]] and [[Old|its alias]] and [[Old#Plans]] and [[Old#^b1]]",
			"[[New]] and [[New|its alias]] and [[New#Plans]] and [[New#^b1]]",
		],
		["an embed", {}, "New.md", "![[Old]]", "![[New]]"],
		[
			"a Markdown link, with its heading and a space written %20",
			{},
			"New name.md",
			"[see](Old.md#Plans) and [x](Old.md)",
			"[see](New%20name.md#Plans) and [x](New%20name.md)",
		],
		["a link written with .md keeps it", {}, "New.md", "[[Old.md]]", "[[New.md]]"],
		["link case as typed still reaches it", {}, "New.md", "[[old]]", "[[New]]"],
		["a link in the properties", {}, "New.md", '---\nup: "[[Old]]"\n---\nbody', '---\nup: "[[New]]"\n---\nbody'],
		["into a folder, shortest format, the name unique: the name alone", {}, "Folder/New.md", "[[Old]]", "[[New]]"],
		["into a folder, absolute format: the full path", linkFormat("absolute"), "Folder/New.md", "[[Old]]", "[[Folder/New]]"],
		["into a folder, relative format: the path from the linking note", linkFormat("relative"), "Folder/New.md", "[[Old]]", "[[Folder/New]]"],
	])("%s", async (_name, config, to, linking, expected) => {
		vault = await openVault({ ...config, "Old.md": "# Plans\ntext ^b1\n", "Home.md": linking });
		const plan = await planRename(vault.host, SCOPE, file("Old.md"), to);
		expect(plan.notes.map((note) => [note.path, note.after])).toEqual([["Home.md", expected]]);
		// Planning writes nothing.
		expect(await onDisk("Home.md")).toBe(linking);
		expect(await onDisk("Old.md")).toBe("# Plans\ntext ^b1\n");
	});

	test("a name another note shares: the full path, so the link cannot reach the other one", async () => {
		vault = await openVault({ "Old.md": "x", "Archive/Note.md": "other", "Home.md": "[[Old]]" });
		const plan = await planRename(vault.host, SCOPE, file("Old.md"), "Projects/Note.md");
		expect(plan.notes.map((note) => note.after)).toEqual(["[[Projects/Note]]"]);
	});

	test("a link that showed the old name shows the new one, as Obsidian's rename writes it; other shown text stays", async () => {
		const linking = "[[Archive/Old|Old]], [[Archive/Old|the old plan]], [Old](Archive/Old.md), [notes](Archive/Old.md)";
		vault = await openVault({ ...linkFormat("absolute"), "Archive/Old.md": "x", "Home.md": linking });
		const plan = await planRename(vault.host, SCOPE, file("Archive/Old.md"), "Projects/New.md");
		expect(plan.notes.map((note) => note.after)).toEqual([
			"[[Projects/New|New]], [[Projects/New|the old plan]], [New](Projects/New.md), [notes](Projects/New.md)",
		]);
	});

	test("a new name holding a bracket, backslash, backtick or angle bracket: a Markdown link keeps its shown text and still leads to the note", async () => {
		for (const [index, name] of ["Be]ans", "Be[ans", "Be\\ans", "Be`ans", "<Beans>"].entries()) {
			if (index > 0) await vault.close();
			vault = await openVault({ ...linkFormat("absolute"), "Archive/Old.md": "x", "Home.md": "[Old](Archive/Old.md) then `code`\n" });
			const plan = await planRename(vault.host, SCOPE, file("Archive/Old.md"), `Projects/${name}.md`);
			const after = plan.notes[0]?.after ?? "";
			// Before: "[Be]ans](Projects/Be%5Dans.md)" is no link (nor "[Be`ans](…) then `code`", a code span), "[<Beans>](…)" shows an HTML tag.
			expect(parseMetadata(after).links?.map((link) => [link.link, link.displayText])).toEqual([[`Projects/${name}.md`, "Old"]]);
		}
	});

	test("relative format from a note in another folder", async () => {
		vault = await openVault({ ...linkFormat("relative"), "A/Old.md": "x", "B/Home.md": "[[A/Old]]" });
		const plan = await planRename(vault.host, SCOPE, file("A/Old.md"), "C/New.md");
		expect(plan.notes.map((note) => note.after)).toEqual(["[[../C/New]]"]);
	});

	test("links to other notes, a link to a missing note and a link inside the note itself stay as written", async () => {
		vault = await openVault({ "Old.md": "# H\n[[#H]] [[Missing]] [[Other]]", "Other.md": "[[Other]] [[Missing]]", "Home.md": "[[Other]] [[Old]]" });
		const plan = await planRename(vault.host, SCOPE, file("Old.md"), "New.md");
		expect(plan.notes.map((note) => [note.path, note.after])).toEqual([["Home.md", "[[Other]] [[New]]"]]);
		expect(plan.movedText).toBe("# H\n[[#H]] [[Missing]] [[Other]]");
	});

	test("the moved note's own link that would reach another note from its new folder is pointed back at the note it reached", async () => {
		vault = await openVault({ "Notes/Plan.md": "see [[Ideas]]", "Notes/Ideas.md": "mine", "Archive/Ideas.md": "old" });
		const plan = await planRename(vault.host, SCOPE, file("Notes/Plan.md"), "Archive/Plan.md");
		expect(plan.notes.map((note) => [note.path, note.after])).toEqual([["Notes/Plan.md", "see [[Notes/Ideas]]"]]);
	});

	test("a link the whole vault sends to a hidden note of the same name, but which reaches the renamed note for this token, is rewritten as over a vault without the hidden note", async () => {
		const files = { "Projects/Sub/Plan.md": "# Plan\n", "Projects/Linker.md": "see [[Plan]]\n" };
		const planned = async (scope: Scope) => {
			const plan = await planRename(vault.host, scope, file("Projects/Sub/Plan.md"), "Projects/Sub/Roadmap.md");
			return plan.notes.map((note) => [note.path, note.after]);
		};
		vault = await openVault(files);
		const withoutHidden = await planned(SCOPE);
		await vault.close();
		// Shorter, so the whole vault's resolution sends `[[Plan]]` there.
		vault = await openVault({ ...files, "Secret/Plan.md": "# Secret\n" });
		expect(withoutHidden).toEqual([["Projects/Linker.md", "see [[Roadmap]]\n"]]);
		expect(await planned({ ...SCOPE, excludedFolders: ["Secret"] })).toEqual(withoutHidden);
	});

	test("a link the whole vault sends to a hidden file named as the renamed file plus .md is rewritten as over a vault without it", async () => {
		const files = { "Projects/Sub/Plan.md": "# Plan\n", "Projects/Sub/pic.png": "png", "Projects/Linker.md": "see [[Plan.md]] and ![[pic.png]]\n" };
		const planned = async (scope: Scope, path: string, to: string) => {
			const plan = await planRename(vault.host, scope, file(path), to);
			return plan.notes.map((note) => [note.path, note.after]);
		};
		const plans = (scope: Scope) =>
			Promise.all([planned(scope, "Projects/Sub/Plan.md", "Projects/Sub/Roadmap.md"), planned(scope, "Projects/Sub/pic.png", "Projects/Sub/photo.png")]);
		vault = await openVault(files);
		const withoutHidden = await plans(SCOPE);
		await vault.close();
		// Shorter, so the whole vault's resolution sends `[[Plan.md]]` and `![[pic.png]]` there (a link to `x` also reaches `x.md`).
		vault = await openVault({ ...files, "S/Plan.md.md": "# Secret\n", "S/pic.png.md": "# Secret\n" });
		expect(withoutHidden).toEqual([
			[["Projects/Linker.md", "see [[Roadmap.md]] and ![[pic.png]]\n"]],
			[["Projects/Linker.md", "see [[Plan.md]] and ![[photo.png]]\n"]],
		]);
		expect(await plans({ ...SCOPE, excludedFolders: ["S"] })).toEqual(withoutHidden);
	});

	test("a canvas: its file card and the links in its text cards", async () => {
		const canvas = JSON.stringify(
			{
				nodes: [
					{ id: "a", type: "file", file: "Old.md", x: 0, y: 0, width: 1, height: 1 },
					{ id: "b", type: "text", text: "see [[Old]]", x: 0, y: 0, width: 1, height: 1 },
				],
				edges: [],
			},
			null,
			"\t",
		);
		vault = await openVault({ "Old.md": "x", "Board.canvas": canvas });
		const plan = await planRename(vault.host, SCOPE, file("Old.md"), "Folder/New.md");
		const after = JSON.parse(plan.notes.find((note) => note.path === "Board.canvas")?.after ?? "{}") as { nodes: Array<{ file?: string; text?: string }> };
		expect(after.nodes.map((node) => node.file ?? node.text)).toEqual(["Folder/New.md", "see [[New]]"]);
	});
});

describe("relinkText and pathAfter", () => {
	let vault: OpenVault;
	afterEach(() => vault.close());

	test("a note edited after the plan was made gets the same link change, and keeps the edit", async () => {
		vault = await openVault({ "Old.md": "x", "Home.md": "top [[Old]]\n" });
		const plan = await planRename(vault.host, SCOPE, vault.host.vault.getFileByPath("Old.md") ?? missing(), "New.md");
		const note = plan.notes[0] ?? missing();
		expect(relinkText(plan, note, note.before)).toBe("top [[New]]\n");
		expect(relinkText(plan, note, "a line written since\ntop [[Old]]\nand [[Old|again]]\n")).toBe("a line written since\ntop [[New]]\nand [[New|again]]\n");
		expect(relinkText(plan, note, "the link was deleted\n")).toBe("the link was deleted\n");
	});

	test("the moved note is found under its new path, every other note under its own", () => {
		const plan = { from: "Old.md", to: "Folder/New.md", movedText: "", notes: [] };
		expect(pathAfter(plan, "Old.md")).toBe("Folder/New.md");
		expect(pathAfter(plan, "Home.md")).toBe("Home.md");
	});
});

describe("renaming", () => {
	let vault: OpenVault;
	afterEach(() => vault.close());
	const onDisk = (path: string) => fs.readFile(nodePath.join(vault.root, path), "utf8");

	test("renameWithLinks moves the note and rewrites each linking note, every other byte kept", async () => {
		vault = await openVault({ "Old.md": "# Old\n[[Home]]\n", "Home.md": "intro\r\n[[Old]] — ![[Old#Old]]\r\n", "Untouched.md": "[[Home]]\n" });
		const plan = await renameWithLinks(vault.host, vault.host.vault.getFileByPath("Old.md") ?? missing(), "Folder/New.md");
		expect(plan.notes.map((note) => note.path)).toEqual(["Home.md"]);
		expect(await onDisk("Folder/New.md")).toBe("# Old\n[[Home]]\n");
		await expect(onDisk("Old.md")).rejects.toThrow();
		expect(await onDisk("Home.md")).toBe("intro\r\n[[New]] — ![[New#Old]]\r\n");
		expect(await onDisk("Untouched.md")).toBe("[[Home]]\n");
	});

	test("planKeptLinks: a link the new name would take over is written as the full path of the note it reaches now", async () => {
		vault = await openVault({
			"Draft.md": "draft",
			"Archive/Notes.md": "the notes",
			"Projects/Plan.md": "see [[Notes]] and [[Notes#Intro|intro]]",
			"Home.md": "[[Notes]]",
		});
		const draft = vault.host.vault.getFileByPath("Draft.md") ?? missing();
		const kept = await planKeptLinks(vault.host, SCOPE, draft, "Projects/Notes.md");
		// From Projects/, [[Notes]] would reach the renamed note (same folder first); from the vault root it still reaches Archive/Notes.md.
		expect(kept.map((note) => [note.path, note.after])).toEqual([["Projects/Plan.md", "see [[Archive/Notes]] and [[Archive/Notes#Intro|intro]]"]]);
	});

	test("planKeptLinks reads the link texts of the vault's notes without building their link entries (a 100,000-link note's took 0.3 s in one piece)", async () => {
		// More notes than the headless cache keeps built lists for: building every note's links would drop Watched.md's.
		const others = Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`Other ${index}.md`, `[[Home]] [[Notes]] [[Other ${index + 1}]]`]));
		vault = await openVault({ ...others, "Draft.md": "draft", "Archive/Notes.md": "the notes", "Watched.md": "[[Home]]", "Home.md": "[[Notes]]" });
		const watched = vault.host.metadataCache.getFileCache(vault.host.vault.getFileByPath("Watched.md") ?? missing()) ?? missing();
		const links = watched.links;
		const kept = await planKeptLinks(vault.host, SCOPE, vault.host.vault.getFileByPath("Draft.md") ?? missing(), "Projects/Notes.md");
		expect(kept).toEqual([]);
		expect(watched.links).toBe(links);
	});

	test("planKeptLinks keeps a link to a note of the new name created just before the rename, before the cache resolved the links to it", async () => {
		vault = await openVault({ "Draft.md": "draft", "Projects/Plan.md": "see [[Notes]] and [the notes](Notes%20Two.md)", "Home.md": "x" });
		await vault.host.vault.create("Archive/Notes.md", "the notes");
		const draft = vault.host.vault.getFileByPath("Draft.md") ?? missing();
		const kept = await planKeptLinks(vault.host, SCOPE, draft, "Projects/Notes.md");
		// [[Notes]] from Projects/ would reach the renamed note: written as the note it reaches now.
		expect(kept.map((note) => [note.path, note.after])).toEqual([["Projects/Plan.md", "see [[Archive/Notes]] and [the notes](Notes%20Two.md)"]]);
		await vault.host.vault.create("Archive/Notes Two.md", "more notes");
		const keptTwo = await planKeptLinks(vault.host, SCOPE, draft, "Projects/Notes Two.md");
		expect(keptTwo.map((note) => [note.path, note.after])).toEqual([["Projects/Plan.md", "see [[Notes]] and [the notes](Archive/Notes%20Two.md)"]]);
	});

	test("planKeptLinks reads no link of a note whose links reach no file of the new name (a planted note's 100,000 links were read on every rename)", async () => {
		const planted = Array.from({ length: 20_000 }, (_, index) => `[[Home]] [[Missing ${index}]]`).join("\n");
		vault = await openVault({
			"Draft.md": "draft",
			"Archive/Notes.md": "the notes",
			"Home.md": "[[Notes]]",
			"Planted.md": planted,
			"Projects/Plan.md": "[[Notes]]",
		});
		const cache = vault.host.metadataCache;
		const getFileCache = cache.getFileCache.bind(cache);
		const read: string[] = [];
		cache.getFileCache = (file) => (read.push(file.path), getFileCache(file));
		const kept = await planKeptLinks(vault.host, SCOPE, vault.host.vault.getFileByPath("Draft.md") ?? missing(), "Projects/Notes.md");
		cache.getFileCache = getFileCache;
		expect(kept.map((note) => [note.path, note.after])).toEqual([["Projects/Plan.md", "[[Archive/Notes]]"]]);
		expect(read).not.toContain("Planted.md");
		expect(read.sort()).toEqual(["Home.md", "Projects/Plan.md"]);
	});

	test("planKeptLinks looks through a planted note's 20,000 unresolved link targets in pieces where no index says which notes ask for the name (Obsidian); headless, not at all", async () => {
		const planted = Array.from({ length: 20_000 }, (_, index) => `[[Missing ${index}]]`).join("\n");
		vault = await openVault({ "Draft.md": "draft", "Archive/Notes.md": "the notes", "Planted.md": planted, "Projects/Plan.md": "[[Notes]]" });
		// Names read (each target's name is lower-cased once) between two pauses.
		const plan = async () => {
			const pieces = countWorkPerPiece();
			const lowered = onLowerCase(() => pieces.count());
			try {
				const kept = await planKeptLinks(vault.host, SCOPE, vault.host.vault.getFileByPath("Draft.md") ?? missing(), "Projects/Notes.md");
				expect(kept.map((note) => [note.path, note.after])).toEqual([["Projects/Plan.md", "[[Archive/Notes]]"]]);
				return pieces.perPiece;
			} finally {
				lowered.restore();
				pieces.restore();
			}
		};
		// Headless: the index of asked names answers for each note; the planted record is not looked through.
		expect((await plan()).reduce((sum, count) => sum + count, 0)).toBeLessThan(1_000);
		// As in Obsidian, with no such index: looked through, in pieces.
		Object.defineProperty(vault.host.metadataCache, "mayAskForName", { value: undefined });
		const perPiece = await plan();
		expect(perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(20_000);
		// Before: the 20,000 in one piece.
		expect(Math.max(...perPiece)).toBeLessThan(2 * INLINE_ITEMS_PAUSE_COUNT);
	});

	test("planKeptLinks does not lowercase a planted link path longer than any file's path (megabytes in one piece, on every rename)", async () => {
		const LONG = 1024 * 1024;
		// Links of a megabyte each, one reaching no file and one whose name, read case-blind, is the new name's: neither reaches a file.
		const planted = `[[Notes]] [[${"a".repeat(LONG)}1]] [[${"b".repeat(LONG)}/Notes]]\n`;
		// A note reaching no file: its unresolved targets alone are read, one of a megabyte.
		const unresolvedOnly = `[[Notes Two]] [[${"c".repeat(LONG)}]]\n`;
		vault = await openVault({ "Draft.md": "draft", "Archive/Notes.md": "the notes", "Planted.md": planted, "Unresolved.md": unresolvedOnly });
		await vault.host.metadataCache.settled();
		// Longer than any path: counted, kept in no record by their text.
		expect(vault.host.metadataCache.unresolvedLinkTotal?.("Planted.md")).toBe(2);
		const pieces = countWorkPerPiece();
		// Characters lowercased between two pauses.
		const lowered = onLowerCase((text) => pieces.count(text.length));
		let kept: Awaited<ReturnType<typeof planKeptLinks>>;
		try {
			kept = await planKeptLinks(vault.host, SCOPE, vault.host.vault.getFileByPath("Draft.md") ?? missing(), "Notes.md");
		} finally {
			lowered.restore();
			pieces.restore();
		}
		// From the vault root, [[Notes]] would reach the renamed note: kept on Archive/Notes.md; the megabyte links left as they are.
		expect(kept.map((note) => [note.path, note.after])).toEqual([["Planted.md", planted.replace("[[Notes]]", "[[Archive/Notes]]")]]);
		// Before: each megabyte link path lowercased whole, the three in one piece.
		expect(Math.max(...pieces.perPiece)).toBeLessThan(MAX_VAULT_PATH_CHARS);
	});

	/** Plans renaming `from` to `to`, counting the characters of every text the plan parses. */
	async function planCountingParses(from: string, to: string): Promise<{ plan: Awaited<ReturnType<typeof planRename>>; parsed: number[] }> {
		const parsed: number[] = [];
		const inSteps = LineIndex.inSteps.bind(LineIndex);
		const spy = jest.spyOn(LineIndex, "inSteps").mockImplementation((text: string) => (parsed.push(text.length), inSteps(text)));
		try {
			return { plan: await planRename(vault.host, SCOPE, vault.host.vault.getFileByPath(from) ?? missing(), to), parsed };
		} finally {
			spy.mockRestore();
		}
	}

	test("a rename plan parses neither a planted note of 20,000 links it renames in place nor a huge linking note the cache holds as parsed (each megabyte was parsed again)", async () => {
		const planted = Array.from({ length: 20_000 }, (_, index) => `[[Missing ${index}]]`).join(" ");
		// Over the size the headless cache keeps as parsed, and nested lists whose items the plan never reads.
		const lines = Array.from({ length: 24_000 }, (_, index) => `${"  ".repeat(index % 30)}- [[Big]] and [[Big#Part|part]] line ${index}`);
		const linker = lines.join("\n");
		expect(linker.length).toBeGreaterThan(MAX_STARTUP_PARSE_BYTES);
		vault = await openVault({ "Big.md": planted, "Linker.md": linker, "Home.md": "[[Big]]" });
		await vault.host.metadataCache.settled();
		const { plan, parsed } = await planCountingParses("Big.md", "Big2.md");
		const expected = lines.map((line) => line.replace("[[Big]] and [[Big#Part|part]]", "[[Big2]] and [[Big2#Part|part]]")).join("\n");
		expect(plan.notes.map((note) => [note.path, note.links])).toEqual([
			["Home.md", 1],
			["Linker.md", 48_000],
		]);
		expect(plan.notes[1]?.after).toBe(expected);
		expect(plan.movedText).toBe(planted);
		// Before: Big.md and Linker.md were parsed, about 1.5 MB.
		expect(parsed.reduce((sum, length) => sum + length, 0)).toBeLessThan(100);
		// The same plan when the cache's parse is not at hand (the cache's text differs, or Obsidian's cache).
		const cache = vault.host.metadataCache;
		const spied = jest.spyOn(cache, "parsedFrom").mockResolvedValue(null);
		try {
			const fresh = await planRename(vault.host, SCOPE, vault.host.vault.getFileByPath("Big.md") ?? missing(), "Big2.md");
			expect(fresh.notes.map((note) => [note.path, note.after])).toEqual(plan.notes.map((note) => [note.path, note.after]));
		} finally {
			spied.mockRestore();
		}
	});

	test("a rename plan does not parse again a packed note of 20,000 links to the renamed note (parsed by the plan, then by the cache once written)", async () => {
		const linker = `---\nup: "[[Big]]"\n---\n${Array.from({ length: 6_000 }, (_, index) => `[[Big]] ![[Big#Part ${index}|${index}]] [x](Big.md) - [[Other ${index}]]`).join("\n")}`;
		expect(linker.length).toBeLessThan(MAX_STARTUP_PARSE_BYTES);
		vault = await openVault({ "Big.md": "big", "Linker.md": linker });
		await vault.host.metadataCache.settled();
		const { plan, parsed } = await planCountingParses("Big.md", "Sub/Big2.md");
		expect(plan.notes.map((note) => [note.path, note.links])).toEqual([["Linker.md", 18_001]]);
		// Before: the note's 0.4 MB were parsed.
		expect(parsed.reduce((sum, length) => sum + length, 0)).toBeLessThan(100);
		const cache = vault.host.metadataCache;
		const spied = jest.spyOn(cache, "parsedFrom").mockResolvedValue(null);
		try {
			const fresh = await planRename(vault.host, SCOPE, vault.host.vault.getFileByPath("Big.md") ?? missing(), "Sub/Big2.md");
			expect(fresh.notes.map((note) => [note.path, note.after])).toEqual(plan.notes.map((note) => [note.path, note.after]));
		} finally {
			spied.mockRestore();
		}
		expect(await cache.parsedFrom("Linker.md", `${linker} `)).toBeNull();
	});

	test("a rename plan parses none of the linking notes of a few links whose text the cache parsed (each was parsed for the plan, then again once written)", async () => {
		const linker = (index: number) =>
			`---\nup: "[[Big]]"\n---\n# Note ${index}\n${Array.from({ length: 10 }, (_, line) => `See [[Big#Part ${line}|part]], ![[Big]] and [md](Big.md).`).join("\n")}\n`;
		const files: Record<string, string> = { "Big.md": "big" };
		for (let index = 0; index < 40; index++) files[`Linking/N${index}.md`] = linker(index);
		vault = await openVault(files);
		await vault.host.metadataCache.settled();
		const { plan, parsed } = await planCountingParses("Big.md", "Sub/Big2.md");
		expect(plan.notes.map((note) => note.links)).toEqual(Array.from({ length: 40 }, () => 31));
		// Before: all 40 notes, 26,000 characters.
		expect(parsed.reduce((sum, length) => sum + length, 0)).toBeLessThan(100);
		const spied = jest.spyOn(vault.host.metadataCache, "parsedFrom").mockResolvedValue(null);
		try {
			const fresh = await planRename(vault.host, SCOPE, vault.host.vault.getFileByPath("Big.md") ?? missing(), "Sub/Big2.md");
			expect(fresh.notes.map((note) => [note.path, note.after])).toEqual(plan.notes.map((note) => [note.path, note.after]));
		} finally {
			spied.mockRestore();
		}
	});

	test("the cache's parse of a note is used only for exactly the text it was parsed from", async () => {
		const linker = Array.from({ length: 24_000 }, (_, index) => `- [[Big]] line ${index}`).join("\n") + "\n".repeat(MAX_STARTUP_PARSE_BYTES);
		vault = await openVault({ "Big.md": "big", "Linker.md": linker });
		await vault.host.metadataCache.settled();
		const cache = vault.host.metadataCache;
		expect(await cache.parsedFrom("Linker.md", linker)).toBe(cache.getCache("Linker.md"));
		expect(await cache.parsedFrom("Linker.md", `${linker} `)).toBeNull();
		// A packed note's links, read from its packed form.
		expect(await cache.parsedFrom("Big.md", "big")).toMatchObject({ links: [], embeds: [] });
		expect(await cache.parsedFrom("Big.md", "bigger")).toBeNull();
	});

	test("renameNote keeps those links on their notes, then renames: every link reaches what it reached before", async () => {
		vault = await openVault({ "Draft.md": "draft", "Archive/Notes.md": "the notes", "Projects/Plan.md": "see [[Notes]] and [[Draft]]" });
		const outcome = await renameNote(vault.host, SCOPE, vault.host.vault.getFileByPath("Draft.md") ?? missing(), "Projects/Notes.md");
		expect(outcome.kept.map((note) => note.path)).toEqual(["Projects/Plan.md"]);
		expect(await onDisk("Projects/Plan.md")).toBe("see [[Archive/Notes]] and [[Projects/Notes]]");
		const cache = vault.host.metadataCache;
		expect(cache.getFirstLinkpathDest("Archive/Notes", "Projects/Plan.md")?.path).toBe("Archive/Notes.md");
		expect(cache.getFirstLinkpathDest("Projects/Notes", "Projects/Plan.md")?.path).toBe("Projects/Notes.md");
	});
});

function missing(): never {
	throw new Error("missing from the test vault");
}

/** Each link as the whole vault resolves it, the renamed note's path put back to `from`: equal before and after a rename when every link still reaches what it reached. */
function reachedAsBefore(links: LinkMap, from: string, to: string): Record<string, Record<string, number>> {
	const back = (path: string) => (path === to ? from : path);
	const out: Record<string, Record<string, number>> = {};
	for (const [source, targets] of Object.entries(links).sort(([a], [b]) => a.localeCompare(b))) {
		const record: Record<string, number> = {};
		for (const [target, count] of Object.entries(targets).sort(([a], [b]) => a.localeCompare(b)))
			record[back(target)] = (record[back(target)] ?? 0) + count;
		out[back(source)] = record;
	}
	return out;
}

describe("a rename leaves no link reaching another file", () => {
	test.each<[string, Record<string, string>, string, string, string, string]>([
		[
			"a link with .md that the new name plus .md answers ([[Delta.md]], renamed to Delta.md.md)",
			{ "a/Alpha.md": "see [[Delta.md]]", "C/Delta.md": "delta" },
			"a/Alpha.md",
			"A/Delta.md.md",
			"A/Delta.md.md",
			"see [[C/Delta.md]]",
		],
		[
			"a kept link whose full path without .md a file in a folder spelled in other case answers (A/Beta and a/Beta)",
			{ "A/Beta.md": "see [[Beta]]", "a/Beta": "x", "A/B/Alpha.md": "alpha" },
			"A/B/Alpha.md",
			"Beta.md",
			"A/Beta.md",
			"see [[A/Beta.md]]",
		],
		[
			"the moved note's own link, written again, that the moved note itself would answer (![[pic.png]] in pic.png.md)",
			{ "Notes/Sub/Draft.md": "see ![[../pic.png]]", "Notes/pic.png": "png" },
			"Notes/Sub/Draft.md",
			"Other/pic.png.md",
			"Other/pic.png.md",
			"see ![[Notes/pic.png]]",
		],
		[
			"a link to the note whose new text a shorter file of the name without .md would answer once the note has left (Sub/Notes)",
			{ "Notes.md": "notes", "Sub/Notes": "x", "Home.md": "see [[Notes]]" },
			"Notes.md",
			"Archive/Notes.md",
			"Home.md",
			"see [[Archive/Notes]]",
		],
	])("%s", async (_, files, from, to, checked, text) => {
		const vault = await openVault(files);
		try {
			await vault.host.metadataCache.settled();
			const before = JSON.parse(JSON.stringify(vault.host.metadataCache.resolvedLinks)) as LinkMap;
			await renameNote(vault.host, SCOPE, vault.host.vault.getFileByPath(from) ?? missing(), to);
			expect(await fs.readFile(nodePath.join(vault.root, checked), "utf8")).toBe(text);
			const fresh = await NodeHost.open(vault.root);
			try {
				await fresh.metadataCache.settled();
				expect(reachedAsBefore(fresh.metadataCache.resolvedLinks, from, to)).toEqual(reachedAsBefore(before, from, to));
			} finally {
				await fresh.close();
			}
		} finally {
			await vault.close();
		}
	});
});

describe("linkingSources", () => {
	/** A cache of `notes` notes linking elsewhere, each targets list counting how often it is walked key by key. */
	function cacheLinkingElsewhere(notes: number) {
		let walked = 0;
		const resolvedLinks: Record<string, Record<string, number>> = {};
		const files = [
			{ path: "Old/Plan.md", name: "Plan.md" },
			{ path: "Secret/Plan.md", name: "Plan.md" },
		];
		for (let index = 0; index < notes; index++) {
			const targets = Object.fromEntries(Array.from({ length: 50 }, (_, target) => [`Elsewhere/T${index}-${target}.md`, 1]));
			if (index === 7) targets["Old/Plan.md"] = 1;
			if (index === 9) targets["Secret/Plan.md"] = 1;
			resolvedLinks[`Notes/N${index}.md`] = new Proxy(targets, {
				ownKeys: (target) => {
					walked++;
					return Reflect.ownKeys(target);
				},
			});
			files.push({ path: `Notes/N${index}.md`, name: `N${index}.md` });
		}
		const host = { metadataCache: { resolvedLinks }, vault: { getFiles: () => files } } as unknown as Parameters<typeof linkingSources>[0];
		return { host, walked: () => walked };
	}

	test("finds the notes linking to the note, or to a hidden file of its name, without walking any note's targets one by one", () => {
		const { host, walked } = cacheLinkingElsewhere(1_000);
		const sources = linkingSources(host, { ...SCOPE, excludedFolders: ["Secret"] }, { path: "Old/Plan.md", name: "Plan.md" });
		expect(sources).toEqual(["Notes/N7.md", "Notes/N9.md"]);
		// On main every target of each of the 1,000 notes was looked at (a million links: one piece of 190-310 ms of CPU).
		expect(walked()).toBe(0);
	});
});

/** The host as it is while `hidden` is not indexed: its metadata and its link records absent (no headless catch-up). */
function withUnindexed(host: NodeHost, hidden: string): NodeHost {
	const cache = host.metadataCache;
	const resolvedLinks = Object.fromEntries(Object.entries(cache.resolvedLinks).filter(([source]) => source !== hidden));
	const unresolvedLinks = Object.fromEntries(Object.entries(cache.unresolvedLinks).filter(([source]) => source !== hidden));
	const metadataCache = {
		resolvedLinks,
		unresolvedLinks,
		getFileCache: (file: { path: string }) => (file.path === hidden ? null : cache.getFileCache(file as never)),
		getCache: (path: string) => (path === hidden ? null : cache.getCache(path)),
		getFirstLinkpathDest: (linkpath: string, source: string) => cache.getFirstLinkpathDest(linkpath, source),
		on: cache.on.bind(cache),
		offref: cache.offref.bind(cache),
	};
	return { ...host, vault: host.vault, fileManager: host.fileManager, hiddenLinks: () => host.hiddenLinks(), metadataCache } as unknown as NodeHost;
}

/**
 * A note the host's cache has not indexed yet (no metadata, no resolved links): Obsidian before it
 * first parses the note, the headless server before a note left at start or changed on disk is
 * parsed. The rename reads it and relinks it when its text may name the renamed note; before, it kept
 * its link to the old path.
 */
describe("rename plans with a note the cache has not parsed", () => {
	let vault: OpenVault;
	afterEach(() => vault.close());

	test("a link to the note is rewritten, also where the name falls across two runs of the text look", async () => {
		// "Old" starts at the last character of the first RENAME_NAME_LOOK_CHARS (64 Ki).
		const long = `${"a".repeat(64 * 1024 - 4)} [[Old]] and [[Other]]\n`;
		vault = await openVault({ "Old.md": "# Old\n", "Other.md": "", "Long.md": long, "Short.md": "see [[Old#Old]]\n", "Far.md": "nothing here\n" });
		const host = withUnindexed(withUnindexed(vault.host, "Long.md"), "Short.md");
		const both = await planRename(host, SCOPE, vault.host.vault.getFileByPath("Old.md")!, "New.md");
		expect(both.notes.map((note) => [note.path, note.after.slice(-24)])).toEqual([
			["Long.md", "a [[New]] and [[Other]]\n"],
			["Short.md", "see [[New#Old]]\n"],
		]);
	});

	test("an unindexed note that names the note is read once, to look and to plan", async () => {
		vault = await openVault({ "Old.md": "# Old\n", "Short.md": "see [[Old]]\n", "Far.md": "nothing here\n" });
		const host = withUnindexed(withUnindexed(vault.host, "Short.md"), "Far.md");
		await vault.host.metadataCache.caughtUpWithDisk();
		const reads: string[] = [];
		for (const method of ["read", "cachedRead", "cachedReadPastRewrite"] as const) {
			const original = host.vault[method]?.bind(host.vault);
			if (original) host.vault[method] = (file) => (reads.push(file.path), original(file));
		}
		const plan = await planRename(planningHost(host, SCOPE).host, SCOPE, vault.host.vault.getFileByPath("Old.md")!, "New.md");
		expect(plan.notes.map((note) => [note.path, note.after])).toEqual([["Short.md", "see [[New]]\n"]]);
		// On main read twice (3 calls: the plan's cachedReadPastRewrite reads through cachedRead): once to look for the name, once for the plan.
		expect(reads.filter((path) => path === "Short.md")).toHaveLength(1);
		expect(reads.filter((path) => path === "Far.md")).toHaveLength(1);
	});

	test("an unindexed note in an excluded folder is neither read nor rewritten", async () => {
		vault = await openVault({ "Old.md": "", "Private/Diary.md": "[[Old]]\n" });
		const plan = await planRename(
			withUnindexed(vault.host, "Private/Diary.md"),
			{ ...SCOPE, excludedFolders: ["Private"] },
			vault.host.vault.getFileByPath("Old.md")!,
			"New.md",
		);
		expect(plan.notes).toEqual([]);
	});

	test("an unindexed note the system will not let it read is named as not read, and the rename of another note goes on", async () => {
		vault = await openVault({ "Old.md": "", "Locked.md": "[[Old]]\n", "Short.md": "see [[Old]]\n" });
		const host = withUnindexed(withUnindexed(vault.host, "Locked.md"), "Short.md");
		const read = host.vault.read.bind(host.vault);
		host.vault.read = (file) =>
			file.path === "Locked.md" ? Promise.reject(Object.assign(new Error("permission denied"), { code: "EACCES" })) : read(file);
		const plan = await planRename(host, SCOPE, vault.host.vault.getFileByPath("Old.md")!, "New.md");
		expect(plan.notes.map((note) => [note.path, note.after])).toEqual([["Short.md", "see [[New]]\n"]]);
		expect(plan.unreadNotes).toEqual(["Locked.md"]);
	});

	test("the notes an approved rename looks at again: those not yet parsed that name the note, visible and not already planned", async () => {
		vault = await openVault({ "Old.md": "", "C.md": "[[Old]]\n", "D.md": "[[Old]]\n", "Far.md": "nothing here\n", "Private/Diary.md": "[[Old]]\n" });
		let host = vault.host;
		for (const path of ["C.md", "D.md", "Far.md", "Private/Diary.md"]) host = withUnindexed(host, path);
		const naming = await unparsedNotesNaming(
			host,
			{ ...SCOPE, excludedFolders: ["Private"] },
			vault.host.vault.getFileByPath("Old.md")!,
			new Set(["D.md"]),
			[],
		);
		expect([...naming]).toEqual(["C.md"]);
	});
});

describe("a rename beside large notes the cache has not parsed", () => {
	let vault: OpenVault;
	afterEach(() => vault.close());

	test("is planned: the notes only looked through for the name do not count against the call's journal bound", async () => {
		// Two notes of 7 MiB (under the 8 MiB read bound) linking nowhere, left unparsed: together past the 12 MiB a call may keep.
		const big = `${"x".repeat(1023)}\n`.repeat(7 * 1024);
		vault = await openVault({ "Old.md": "# Old\n", "Links.md": "see [[Old]]\n", "Big 1.md": big, "Big 2.md": big });
		const host = withUnindexed(withUnindexed(vault.host, "Big 1.md"), "Big 2.md");
		const planning = planningHost(host, SCOPE);
		// On lead5: CallTooLargeError ("would change notes holding more than the 12 MiB"), though only Links.md changes.
		await planning.host.fileManager.renameFile(vault.host.vault.getFileByPath("Old.md")!, "New.md");
		expect(planning.changes().map((change) => [change.path, change.after])).toEqual([
			["New.md", "# Old\n"],
			["Links.md", "see [[New]]\n"],
		]);
	}, 30_000);

	test("reads at most RENAME_UNPARSED_LOOK_BYTES of them, and names the rest as not read", async () => {
		const big = `${"x".repeat(1023)}\n`.repeat(7 * 1024);
		vault = await openVault({ "Old.md": "# Old\n", "Links.md": "see [[Old]]\n", "Big 1.md": big, "Big 2.md": big, "Big 3.md": big });
		const host = withUnindexed(withUnindexed(withUnindexed(vault.host, "Big 1.md"), "Big 2.md"), "Big 3.md");
		// The cache's own parses of the files just written first: only the plan's reads are counted.
		await vault.host.metadataCache.caughtUpWithDisk();
		let bytesRead = 0;
		const read = host.vault.read.bind(host.vault);
		host.vault.read = async (file) => {
			const text = await read(file);
			bytesRead += text.length;
			return text;
		};
		const plan = await planRename(planningHost(host, SCOPE).host, SCOPE, vault.host.vault.getFileByPath("Old.md")!, "New.md");
		expect(plan.notes.map((note) => note.path)).toEqual(["Links.md"]);
		expect(plan.unreadNotes).toHaveLength(1);
		// Two of the three 7 MiB notes (the moved note and the linking one come from the text cache).
		expect(bytesRead).toBe(2 * big.length);
	}, 30_000);
});

describe("a rename while the headless cache has many parses queued", () => {
	let vault: OpenVault;
	afterEach(() => vault.close());

	test("walks the queue of parses a bounded number of times, not once per note waiting in it", async () => {
		const queued = 300;
		const files: Record<string, string> = { "Old.md": "# Old\n" };
		// Each names "old" without linking: an edit another program made, its parse queued behind the others.
		for (let index = 0; index < queued; index++) files[`Notes/N${index}.md`] = `the old plan ${index}\n`;
		vault = await openVault(files);
		const cache = vault.host.metadataCache;
		const waiting = vault.host.vault.getMarkdownFiles().filter((file) => file.path.startsWith("Notes/"));
		let walked = 0;
		const metadataCache = Object.create(cache) as typeof cache;
		metadataCache.notesBeingParsed = () => {
			walked += waiting.length;
			return [...waiting];
		};
		metadataCache.caughtUpWithDisk = () => Promise.resolve();
		const host = {
			...vault.host,
			vault: vault.host.vault,
			fileManager: vault.host.fileManager,
			hiddenLinks: () => vault.host.hiddenLinks(),
			metadataCache,
		} as unknown as NodeHost;
		const plan = await planRename(host, SCOPE, vault.host.vault.getFileByPath("Old.md")!, "New.md");
		expect(plan.notes).toEqual([]);
		// On lead5 once to find them and once more for each of the 300 after the wait: 90,300 entries walked in one piece.
		expect(walked).toBeLessThanOrEqual(2 * queued);
	}, 30_000);
});
