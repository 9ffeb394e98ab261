import { createHash } from "node:crypto";
import { Parser } from "yaml";
import { NOTE_TEXT_PIECE_CHARS, YAML_TOKENS_PER_STEP } from "../../../../src/config/limits";
import { countWorkPerPiece } from "../../../helpers/workPieces";
import { sha256Hex } from "../../../../src/sha256";
import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../../helpers/toolVault";

describe("create_note", () => {
	let tv: ToolVault;
	beforeEach(async () => {
		tv = await openToolVault(
			{
				"Existing.md": "keep me\n",
				"Templates/Meeting.md": "# Meeting\nAttendees:\n",
				".obsidian/templates.json": JSON.stringify({ folder: "Templates" }),
			},
			{ canWrite: true, rights: WRITES_ALLOWED, excluded: ["Private"] },
		);
	});
	afterEach(() => tv.close());

	test("writes a new note (adding .md and its folders) and answers its path and hash", async () => {
		expect(await tv.ok("create_note", { path: "Projects/2026/Plan", content: "# Plan\n" })).toMatchObject({ path: "Projects/2026/Plan.md", created: true });
		expect(await tv.read("Projects/2026/Plan.md")).toBe("# Plan\n");
	});

	test("an existing note is never overwritten unless asked; asked, its old text is kept in a backup", async () => {
		expect(await tv.error("create_note", { path: "Existing", content: "new\n" })).toMatch(/exists/i);
		expect(await tv.read("Existing.md")).toBe("keep me\n");
		await tv.ok("create_note", { path: "Existing", content: "new\n", overwrite: true });
		expect(await tv.read("Existing.md")).toBe("new\n");
		expect(await tv.read("Existing.md.bak")).toBe("keep me\n");
	});

	test("from a template; an excluded or hidden path is refused and nothing is written", async () => {
		await tv.ok("create_note", { path: "Standup", content: "", template: "Meeting" });
		expect(await tv.read("Standup.md")).toContain("Attendees:");
		expect(await tv.error("create_note", { path: "Private/Note", content: "x" })).toBeTruthy();
		expect(await tv.error("create_note", { path: ".obsidian/evil", content: "x" })).toBeTruthy();
		expect(await tv.read("Private/Note.md")).toBeNull();
	});

	test.each(["C# notes", "Plan ^1", "Ideas [draft]"])(
		"a new note named %s is refused, as rename_note refuses the name: links to it would break; nothing is written",
		async (name) => {
			expect(await tv.error("create_note", { path: `Inbox/${name}`, content: "x\n" })).toContain("# ^ [ ] or |");
			expect(await tv.read(`Inbox/${name}.md`)).toBeNull();
		},
	);

	test("a note already named with a link character (made outside Obsidian) is still overwritten by its exact path, its old text backed up", async () => {
		const named = await openToolVault({ "a#b.md": "old\n" }, { canWrite: true, rights: WRITES_ALLOWED });
		try {
			expect(await named.ok("create_note", { path: "a#b.md", content: "new\n", overwrite: true })).toMatchObject({ path: "a#b.md", created: false });
			expect(await named.read("a#b.md")).toBe("new\n");
			expect(await named.read("a#b.md.bak")).toBe("old\n");
		} finally {
			await named.close();
		}
	});

	test("a megabyte note's hash in the answer is taken a piece at a time, and is the hash of its text", async () => {
		const content = "- [ ] a task 😀 line\n".repeat(50_000);
		const expected = sha256Hex(content);
		const hashed: number[] = [];
		const prototype = Object.getPrototypeOf(createHash("sha256")) as { update: (data: string, encoding?: string) => unknown };
		const update = prototype.update;
		const spy = jest.spyOn(prototype, "update").mockImplementation(function (this: unknown, data: string, encoding?: string) {
			if (typeof data === "string") hashed.push(data.length);
			return update.call(this, data, encoding);
		});
		try {
			expect(await tv.ok("create_note", { path: "Big", content })).toMatchObject({ path: "Big.md", created: true, hash: expected });
		} finally {
			spy.mockRestore();
		}
		expect(Math.max(...hashed)).toBeLessThanOrEqual(NOTE_TEXT_PIECE_CHARS);
	});

	test("outliner mode sets mode: outliner in a big frontmatter in set_property's pieces, not in one", async () => {
		const PROPERTIES = 1_900;
		const frontmatter = Array.from({ length: PROPERTIES }, (_, index) => `p${index}: value ${index}\n`).join("");
		const pieces = countWorkPerPiece();
		// YAML tokens read between two pauses: each goes through the parser's `next`.
		const next = Object.getOwnPropertyDescriptor(Parser.prototype, "next")?.value as (this: Parser, source: string) => ReturnType<Parser["next"]>;
		const spy = jest.spyOn(Parser.prototype, "next").mockImplementation(function (this: Parser, source: string) {
			pieces.count();
			return next.call(this, source);
		});
		try {
			await tv.ok("create_note", { path: "Outline", content: `---\n${frontmatter}---\nfirst\nsecond\n`, mode: "outliner" });
		} finally {
			spy.mockRestore();
			pieces.restore();
		}
		expect(await tv.read("Outline.md")).toBe(`---\n${frontmatter}mode: outliner\n---\n- first\n- second\n`);
		// Every property is read (a key, a value and their separators: four tokens or more each)…
		expect(pieces.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(4 * PROPERTIES);
		// …a step of tokens at a time. Before: all of them in one piece (7,600 and more).
		expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(YAML_TOKENS_PER_STEP + 1);
	});

	test("a read token cannot call it", async () => {
		const reader = await openToolVault({});
		try {
			await expect(reader.call("create_note", { path: "X", content: "x" })).rejects.toThrow(/not found/);
		} finally {
			await reader.close();
		}
	});
});
