import type { ToolContext } from "../../../../src/mcp/context";
import { openNoteTool } from "../../../../src/mcp/tools/open_note";
import { openVault, type OpenVault } from "../../../helpers/hostVault";
import { contextWithWorkspace, type FakeWorkspace } from "../../../helpers/workspaceContext";
import { countWorkPerPiece } from "../../../helpers/workPieces";
import { SUBPATH_HEADING_STEP } from "../../../../src/config/limits";
import { actBetweenPieces } from "../../../helpers/betweenPieces";
import { onLowerCase } from "../../../helpers/replaceMethod";

describe("open_note", () => {
	let vault: OpenVault;
	let fake: FakeWorkspace;
	let ctx: ToolContext;
	beforeAll(async () => {
		vault = await openVault({
			"Projects/Plan.md": "# Plan\n## Goals\ntext\n",
			"Plan.md": "other\n",
			"Private/Diary.md": "secret\n",
			"Work#1/Steps.md": "# Steps\n",
			"Private/Work.md": "hidden\n",
		});
	});
	afterAll(() => vault.close());
	beforeEach(() => {
		fake = { opened: [], active: null, selection: "" };
		ctx = contextWithWorkspace(vault, fake, ["Private"]);
	});

	test("opens the note by its full path, so no other note of the same name is opened; at a heading if asked", async () => {
		expect(await openNoteTool.handler(ctx, { path: "Projects/Plan" })).toEqual({ ok: true, value: { path: "Projects/Plan.md" } });
		expect(await openNoteTool.handler(ctx, { path: "Projects/Plan", heading: "## goals" })).toEqual({
			ok: true,
			value: { path: "Projects/Plan.md", heading: "Goals" },
		});
		expect(fake.opened).toEqual(["Projects/Plan.md", "Projects/Plan.md#Goals"]);
	});

	test("a note whose path holds # is opened as that very file, not as link text Obsidian would read as the excluded note Work", async () => {
		expect(await openNoteTool.handler(ctx, { path: "Steps", heading: "Steps" })).toEqual({
			ok: true,
			value: { path: "Work#1/Steps.md", heading: "Steps" },
		});
		expect(fake.opened).toEqual(["Work#1/Steps.md#Steps"]);
	});

	test("an unknown heading, a missing or an excluded note opens nothing", async () => {
		expect(await openNoteTool.handler(ctx, { path: "Projects/Plan", heading: "Nope" })).toEqual({
			ok: false,
			error: expect.stringMatching(/^No heading "Nope".*Nothing was opened\.$/),
		});
		expect((await openNoteTool.handler(ctx, { path: "Private/Diary" })).ok).toBe(false);
		expect((await openNoteTool.handler(ctx, { path: "Missing" })).ok).toBe(false);
		expect(fake.opened).toEqual([]);
	});

	test("a heading among a note's 10,000 is looked for in slices, as read_note looks (every heading was keyed in one piece), and still found", async () => {
		const many = await openVault({ "Many.md": Array.from({ length: 10_000 }, (_, index) => `## Step ${index}\ntext\n`).join("") });
		const manyCtx = contextWithWorkspace(many, fake, []);
		await many.host.metadataCache.settled();
		const pieces = countWorkPerPiece();
		// Each heading keyed is lowered once.
		const lowered = onLowerCase(() => pieces.count());
		try {
			expect((await openNoteTool.handler(manyCtx, { path: "Many", heading: "Nope" })).ok).toBe(false);
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(SUBPATH_HEADING_STEP + 10);
			expect(await openNoteTool.handler(manyCtx, { path: "Many", heading: "step 9999" })).toEqual({
				ok: true,
				value: { path: "Many.md", heading: "Step 9999" },
			});
			expect(fake.opened).toEqual(["Many.md#Step 9999"]);
		} finally {
			lowered.restore();
			pieces.restore();
			await many.close();
		}
	});
	test("a note moved into an excluded folder while its headings are looked through is not named there, nor its headings listed, nor opened", async () => {
		const many = await openVault({ "Notes/Many.md": Array.from({ length: 200 }, (_, index) => `## Step ${index}\ntext\n`).join("") });
		const manyCtx = contextWithWorkspace(many, fake, ["Private"]);
		await many.host.metadataCache.settled();
		// The person moves the note into the excluded folder while the call looks through its headings (after the first run of steps).
		const moving = actBetweenPieces(async () => {
			const file = many.host.vault.getFileByPath("Notes/Many.md");
			if (file) await many.host.vault.rename(file, "Private/Many.md");
		});
		try {
			for (const heading of ["Nope", "Step 150"]) {
				moving.rearm();
				const answer = await openNoteTool.handler(manyCtx, { path: "Notes/Many", heading });
				expect(moving.acted()).toBe(true);
				expect(answer.ok).toBe(false);
				expect(JSON.stringify(answer)).not.toMatch(/Private|Step \d/);
				const back = many.host.vault.getFileByPath("Private/Many.md");
				if (back) await many.host.vault.rename(back, "Notes/Many.md");
			}
			expect(fake.opened).toEqual([]);
		} finally {
			moving.restore();
			await many.close();
		}
	});
});
