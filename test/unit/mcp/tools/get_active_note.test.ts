import type { HostFile } from "../../../../src/host/Host";
import type { ToolContext } from "../../../../src/mcp/context";
import { getActiveNoteTool } from "../../../../src/mcp/tools/get_active_note";
import { openVault, type OpenVault } from "../../../helpers/hostVault";
import { contextWithWorkspace, type FakeWorkspace } from "../../../helpers/workspaceContext";

describe("get_active_note", () => {
	let vault: OpenVault;
	let fake: FakeWorkspace;
	let ctx: ToolContext;
	const file = (path: string) => vault.host.vault.getFileByPath(path) as HostFile;
	beforeAll(async () => {
		vault = await openVault({ "Plan.md": "# Plan\n", "Private/Diary.md": "secret\n", "photo.png": "png" });
	});
	afterAll(() => vault.close());
	beforeEach(() => {
		fake = { opened: [], active: null, selection: "" };
		ctx = contextWithWorkspace(vault, fake, ["Private"]);
	});

	test("the focused note's path, and the selected text when there is some", async () => {
		fake.active = file("Plan.md");
		expect(await getActiveNoteTool.handler(ctx, {})).toEqual({ ok: true, value: { path: "Plan.md" } });
		fake.selection = "Plan";
		expect(await getActiveNoteTool.handler(ctx, {})).toEqual({ ok: true, value: { path: "Plan.md", selection: "Plan" } });
	});

	test("nothing open, an attachment, or a note of an excluded folder: the same answer, 'no note is open'", async () => {
		const none = await getActiveNoteTool.handler(ctx, {});
		expect(none).toEqual({ ok: false, error: expect.stringMatching(/^No note is open/) });
		fake.active = file("Private/Diary.md");
		expect(await getActiveNoteTool.handler(ctx, {})).toEqual(none);
		fake.active = file("photo.png");
		expect(await getActiveNoteTool.handler(ctx, {})).toEqual(none);
	});

	test("headless (no workspace) it says it works only inside Obsidian", async () => {
		const headless = { ...ctx, host: { ...ctx.host, workspace: undefined } } as ToolContext;
		expect(await getActiveNoteTool.handler(headless, {})).toEqual({
			ok: false,
			error: expect.stringMatching(/only while this server runs inside Obsidian/),
		});
	});
});
