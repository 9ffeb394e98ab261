import { DiskWriter } from "../../../../src/headless/DiskWriter";
import { NodeVault } from "../../../../src/headless/NodeVault";
import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../../helpers/toolVault";
import { countWorkPerPiece } from "../../../helpers/workPieces";

describe("rename_note", () => {
	let tv: ToolVault;
	beforeEach(async () => {
		tv = await openToolVault(
			{ "Ideas.md": "# Ideas\n", "Plan.md": "See [[Ideas]] and [[Ideas#Top|the top]].\n", "Taken.md": "" },
			{ canWrite: true, rights: WRITES_ALLOWED, excluded: ["Private"] },
		);
	});
	afterEach(() => tv.close());

	test("moves the note and updates every link to it", async () => {
		expect(await tv.ok("rename_note", { path: "Ideas", new_path: "Archive/Thoughts" })).toMatchObject({
			path: "Ideas.md",
			new_path: "Archive/Thoughts.md",
		});
		expect(await tv.read("Ideas.md")).toBeNull();
		expect(await tv.read("Archive/Thoughts.md")).toBe("# Ideas\n");
		// The shortest link that reaches the note, as Obsidian writes it; the heading and the alias are kept.
		expect(await tv.read("Plan.md")).toBe("See [[Thoughts]] and [[Thoughts#Top|the top]].\n");
		expect(await tv.read("Plan.md")).not.toContain("[[Ideas");
	});

	test("a taken or excluded new path is refused and nothing moves", async () => {
		expect(await tv.error("rename_note", { path: "Ideas", new_path: "Taken" })).toBeTruthy();
		expect(await tv.error("rename_note", { path: "Ideas", new_path: "Private/Ideas" })).toBeTruthy();
		expect(await tv.read("Ideas.md")).toBe("# Ideas\n");
		expect(await tv.read("Plan.md")).toBe("See [[Ideas]] and [[Ideas#Top|the top]].\n");
	});
});

describe("rename_note of a note linked from many notes", () => {
	const LINKING = 300;
	let tv: ToolVault;
	/** How often a path was checked against the caller's scope (each check reads its excluded folders). */
	let scopeChecks = 0;
	beforeEach(async () => {
		const files: Record<string, string> = { "Hub.md": "# Hub\n" };
		for (let index = 0; index < LINKING; index++) files[`Notes/N${index}.md`] = `Note ${index} links to [[Hub]].\n`;
		const scope = {
			configDir: ".obsidian",
			get excludedFolders() {
				scopeChecks++;
				return [];
			},
		};
		tv = await openToolVault(files, { canWrite: true, rights: WRITES_ALLOWED, scope });
	}, 60_000);
	afterEach(() => tv.close());

	test("writes the linking notes a few at a time, other requests answered between them", async () => {
		const pieces = countWorkPerPiece();
		// Notes written and paths checked against the caller's scope between two pauses.
		const edit = Object.getOwnPropertyDescriptor(DiskWriter.prototype, "editOnce")?.value as DiskWriter["editOnce"];
		const edits = jest.spyOn(DiskWriter.prototype, "editOnce").mockImplementation(function (this: DiskWriter, ...args) {
			pieces.count();
			return edit.apply(this, args);
		});
		scopeChecks = 0;
		// Notes read between two pauses, on the call's planning host too.
		const read = Object.getOwnPropertyDescriptor(NodeVault.prototype, "cachedRead")?.value as NodeVault["cachedRead"];
		const reads = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(function (this: NodeVault, ...args) {
			pieces.count();
			return read.apply(this, args);
		});
		let outcome: Record<string, unknown>;
		try {
			outcome = await tv.ok("rename_note", { path: "Hub", new_path: "Centre" });
		} finally {
			edits.mockRestore();
			reads.mockRestore();
			pieces.restore();
		}
		const checks = scopeChecks;
		expect(outcome).toMatchObject({ path: "Hub.md", new_path: "Centre.md" });
		for (let index = 0; index < LINKING; index++) expect(await tv.read(`Notes/N${index}.md`)).toBe(`Note ${index} links to [[Centre]].\n`);
		expect(pieces.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(LINKING);
		// Before: the 300 notes read again one after another, then 64 notes (RELINKS_APPLIED_AT_ONCE) written back to back, each in one piece.
		expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(4);
		// Each note's write asks whether the call may still write; before, each asking checked every path of the rename again (300 × 301 × 3).
		expect(checks).toBeLessThan(20 * LINKING);
	}, 120_000);
});

describe("rename_note and a frontmatter too large to be read as properties", () => {
	let tv: ToolVault;
	/** More than MAX_FRONTMATTER_ENTRIES lines: not parsed as YAML here, while Obsidian reads its `[[links]]`. */
	const filler = Array.from({ length: 2_100 }, (_, index) => `k${index}: v`).join("\n");
	const big = `---\nup: "[[Hub]]"\n${filler}\n---\nSee [[Hub]].\n`;
	const bigElsewhere = `---\nup: "[[Other]]"\n${filler}\n---\nSee [[Hub]].\n`;
	beforeEach(async () => {
		tv = await openToolVault(
			{ "Hub.md": "# Hub\n", "Other.md": "", "Big.md": big, "Elsewhere.md": bigElsewhere },
			{ canWrite: true, rights: WRITES_ALLOWED },
		);
	});
	afterEach(() => tv.close());

	test("the answer names the note whose frontmatter link was not rewritten", async () => {
		const outcome = await tv.ok("rename_note", { path: "Hub", new_path: "Centre" });
		// Before: no word of it, and Big.md's frontmatter still links to Hub in Obsidian.
		expect(outcome).toEqual({ path: "Hub.md", new_path: "Centre.md", notes_updated: 2, links_updated: 2, frontmatter_not_rewritten: ["Big.md"] });
		expect(await tv.read("Big.md")).toBe(big.replace("See [[Hub]]", "See [[Centre]]"));
		expect(await tv.read("Elsewhere.md")).toBe(bigElsewhere.replace("See [[Hub]]", "See [[Centre]]"));
	});
});
