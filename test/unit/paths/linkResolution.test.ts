import fc from "fast-check";
import { LinkFileIndex, pickLinkTarget } from "../../../src/paths/linkResolution";
import { linkpathOf } from "../../../src/markdown/inline";
import type { HostFile } from "../../../src/host/Host";
import { MAX_VAULT_PATH_CHARS, V8_HASHED_STRING_MAX_CHARS } from "../../../src/config/limits";
import { openVault } from "../../helpers/hostVault";

function file(path: string): HostFile {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return { path, name, basename: name.slice(0, dot), extension: name.slice(dot + 1), stat: { ctime: 0, mtime: 0, size: 0 } };
}

describe("LinkFileIndex resolves like Obsidian's getFirstLinkpathDest", () => {
	const resolver = new LinkFileIndex<HostFile>();
	for (const path of ["Note.md", "Projects/Note.md", "Projects/Deep/Plan.md", "Archive/Plan.md", "Other/Plan.md", "Files/report.pdf", "Café Menu.md"])
		resolver.add(file(path));
	const resolve = (link: string, source = "Inbox/Start.md") => resolver.resolve(linkpathOf(link), source)?.path ?? null;

	test.each([
		["exact vault path, with or without .md", "Projects/Note", "Projects/Note.md"],
		["exact vault path with .md", "Projects/Note.md", "Projects/Note.md"],
		["a name matching several files: the shortest path", "Note", "Note.md"],
		["case-insensitive", "projects/deep/PLAN", "Projects/Deep/Plan.md"],
		["a partial path", "Deep/Plan", "Projects/Deep/Plan.md"],
		["a leading slash is the vault root", "/Projects/Note", "Projects/Note.md"],
		["a #heading subpath resolves to the note", "Projects/Note#Some heading", "Projects/Note.md"],
		["a ^block subpath resolves to the note", "Note#^abc123", "Note.md"],
		["a non-Markdown file by its full name", "report.pdf", "Files/report.pdf"],
		["a decoded Markdown link target", "Café Menu.md", "Café Menu.md"],
		["a link to nothing", "Missing", null],
		["a name that needs its extension", "report", null],
	])("%s: %s → %s", (_label, link, expected) => {
		expect(resolve(link)).toBe(expected);
	});

	test("among equal names, one in the linking note's folder wins", () => {
		expect(resolve("Plan", "Archive/Index.md")).toBe("Archive/Plan.md");
		expect(resolve("Plan", "Other/Index.md")).toBe("Other/Plan.md");
		expect(resolve("Plan", "Elsewhere/Index.md")).toBe("Other/Plan.md"); // the shortest path
	});

	test("relative links resolve from the linking note's folder and never leave the vault", () => {
		expect(resolve("./Note", "Projects/Index.md")).toBe("Projects/Note.md");
		expect(resolve("../Note", "Projects/Deep/Index.md")).toBe("Projects/Note.md");
		expect(resolve("../../../Note", "Projects/Index.md")).toBeNull();
	});

	test("an empty link path (#heading in the same note) is the note itself", () => {
		expect(resolve("#Heading", "Note.md")).toBe("Note.md");
	});

	test("files whose paths differ only in case: the one spelled as the link spells it, whatever order they came in", () => {
		for (const order of [
			["Notes/a.md", "Notes/A.md"],
			["Notes/A.md", "Notes/a.md"],
		]) {
			const local = new LinkFileIndex<HostFile>();
			for (const path of order) local.add(file(path));
			expect(local.resolve("", "Notes/A.md")?.path).toBe("Notes/A.md");
			expect(local.resolve("", "Notes/a.md")?.path).toBe("Notes/a.md");
			expect(local.resolve("Notes/A", "Start.md")?.path).toBe("Notes/A.md");
			expect(local.resolve("Notes/a", "Start.md")?.path).toBe("Notes/a.md");
			expect(local.resolve("NOTES/A", "Start.md")?.path).toBe("Notes/A.md"); // neither spelled so: path order
			local.remove("Notes/a.md");
			expect(local.resolve("", "Notes/A.md")?.path).toBe("Notes/A.md");
			expect(local.resolve("Notes/a", "Start.md")?.path).toBe("Notes/A.md");
		}
	});

	test("a file renamed in place (as hosts rename the object they handed out) is looked at once, under its new name only", () => {
		let looks = 0;
		const moving = file("Inbox/Draft.md");
		let path = moving.path;
		Object.defineProperty(moving, "path", {
			get: () => {
				looks += 1;
				return path;
			},
		});
		const local = new LinkFileIndex<HostFile>();
		local.add(moving);
		for (let round = 0; round < 50; round += 1) {
			const [from, to] = round % 2 === 0 ? ["Inbox/Draft.md", "Inbox/Final.md"] : ["Inbox/Final.md", "Inbox/Draft.md"];
			path = to;
			moving.name = to.slice(to.lastIndexOf("/") + 1);
			local.remove(from);
			local.add(moving);
		}
		expect(local.resolve("Final", "Start.md")).toBeNull();
		looks = 0;
		expect(local.resolve("Draft", "Start.md")).toBe(moving);
		expect(looks).toBeLessThanOrEqual(2);
	});

	test("a file added twice at its path is one file to compare a link with (a note parsed ahead of its queued create is added twice)", () => {
		const local = new LinkFileIndex<HostFile>();
		const note = file("A.md");
		local.add(note);
		local.add(note);
		const work = { compared: 0 };
		expect(local.resolve("A", "B.md", work)).toBe(note);
		expect(work.compared).toBe(1);
	});

	test("a file added at a path another file is still listed at takes its place: removing the path leaves neither", () => {
		// A note renamed onto the path of a note deleted meanwhile, its rename applied before that delete.
		const local = new LinkFileIndex<HostFile>();
		const deleted = file("Target.md");
		const renamed = file("Target.md");
		local.add(deleted);
		local.add(renamed);
		expect(local.resolve("Target", "B.md")).toBe(renamed);
		local.remove("Target.md");
		expect(local.resolve("Target", "B.md")).toBeNull();
	});

	test("removed files no longer resolve", () => {
		const local = new LinkFileIndex<HostFile>();
		local.add(file("A.md"));
		local.remove("A.md");
		expect(local.resolve("A", "B.md")).toBeNull();
	});
});

describe("one rule for every set of files", () => {
	const folders = ["", "A", "A/B", "C", "a"];
	const names = ["Note.md", "note.md", "Plan.md", "pic.png", "pic.png.md", "B.md"];
	const pathArb = fc.tuple(fc.constantFrom(...folders), fc.constantFrom(...names)).map(([folder, name]) => (folder ? `${folder}/${name}` : name));
	const linkArb = fc.constantFrom("Note", "note.md", "Plan", "A/Note", "B/Plan", "/A/Note", "./Note", "../Plan", "../../Note", "pic.png", "B", "Missing", "");
	const sourceArb = fc.constantFrom("Start.md", "A/Start.md", "A/B/Start.md", "C/Start.md");

	test("the index by name answers as the rule over every file", () => {
		fc.assert(
			fc.property(fc.uniqueArray(pathArb, { maxLength: 12 }), linkArb, sourceArb, (paths, link, source) => {
				const files = [...paths, source].filter((path, index, all) => all.indexOf(path) === index).map(file);
				const index = new LinkFileIndex<HostFile>();
				for (const entry of files) index.add(entry);
				expect(index.resolve(link, source)?.path ?? null).toBe(pickLinkTarget(link, source, files)?.path ?? null);
			}),
		);
	});

	test("hiding files never changes the answer when it stays visible (what a token's view relies on)", () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(pathArb, { maxLength: 12 }),
				fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
				linkArb,
				sourceArb,
				(paths, hidden, link, source) => {
					const files = paths.map(file);
					const visible = files.filter((_, index) => !hidden[index]);
					const whole = pickLinkTarget(link, source, files);
					if (whole && visible.includes(whole)) expect(pickLinkTarget(link, source, visible)).toBe(whole);
				},
			),
		);
	});

	test("the order files come in does not matter, even for paths that differ only in case", () => {
		fc.assert(
			fc.property(fc.uniqueArray(pathArb, { maxLength: 12 }), linkArb, sourceArb, (paths, link, source) => {
				const files = paths.map(file);
				expect(pickLinkTarget(link, source, [...files].reverse())?.path ?? null).toBe(pickLinkTarget(link, source, files)?.path ?? null);
			}),
		);
	});
});

describe("a link path longer than any file's path", () => {
	const resolver = new LinkFileIndex<HostFile>();
	for (const path of ["Note.md", "Start.md"]) resolver.add(file(path));

	test("resolves to nothing without being lowercased whole (a 4 MB link was, in one piece, each time it was resolved)", () => {
		const planted = "Ab/".repeat(1_400_000);
		const lower = jest.spyOn(String.prototype, "toLowerCase");
		try {
			expect(resolver.resolve(planted, "Start.md")).toBeNull();
			expect(resolver.resolve(`./${planted}`, "Start.md")).toBeNull();
			expect(pickLinkTarget(planted, "Start.md", [file("Note.md"), file("Start.md")])).toBeNull();
			const longest = Math.max(0, ...lower.mock.contexts.map((text) => String(text).length));
			expect(longest).toBeLessThanOrEqual(MAX_VAULT_PATH_CHARS);
		} finally {
			lower.mockRestore();
		}
	});

	test("a link path of MAX_VAULT_PATH_CHARS still resolves; one character more names nothing", () => {
		const atLimit = `${"/".repeat(MAX_VAULT_PATH_CHARS - "Note".length)}Note`;
		expect(resolver.resolve(atLimit, "Start.md")?.path).toBe("Note.md");
		expect(resolver.resolve(`/${atLimit}`, "Start.md")).toBeNull();
	});

	test("is counted as unresolved, as every link to no file is, but kept in no record by its text (V8 hashes a longer key by its length alone)", async () => {
		// Every link path that may reach a file is a key V8 hashes whole.
		expect(MAX_VAULT_PATH_CHARS).toBeLessThanOrEqual(V8_HASHED_STRING_MAX_CHARS);
		const planted = "x".repeat(MAX_VAULT_PATH_CHARS + 1);
		const vault = await openVault({ "Note.md": "# Note\n", "Start.md": `see [[${planted}]] and [[Note]] and [[Nowhere]]\n` });
		try {
			await vault.host.metadataCache.settled();
			expect(vault.host.metadataCache.resolvedLinks["Start.md"]).toEqual({ "Note.md": 1 });
			expect(vault.host.metadataCache.unresolvedLinks["Start.md"]).toEqual({ Nowhere: 1 });
			expect(vault.host.metadataCache.unresolvedLinkTotal?.("Start.md")).toBe(2);
		} finally {
			await vault.close();
		}
	});
});
