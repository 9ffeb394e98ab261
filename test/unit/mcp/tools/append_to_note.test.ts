import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../../helpers/toolVault";

describe("append_to_note", () => {
	let tv: ToolVault;
	beforeEach(async () => {
		tv = await openToolVault({ "Log.md": "# Log\nfirst\n\n# Later\nold\n", "NoNewline.md": "text" }, { canWrite: true, rights: WRITES_ALLOWED });
	});
	afterEach(() => tv.close());

	test("adds the text at the end of the note as a paragraph of its own", async () => {
		expect(await tv.ok("append_to_note", { path: "Log", content: "second" })).toMatchObject({ path: "Log.md", mode: "freeform" });
		expect(await tv.read("Log.md")).toBe("# Log\nfirst\n\n# Later\nold\n\nsecond\n");
		await tv.ok("append_to_note", { path: "NoNewline", content: "more" });
		expect(await tv.read("NoNewline.md")).toBe("text\n\nmore");
	});

	test("under a heading: at the end of that heading's section", async () => {
		await tv.ok("append_to_note", { path: "Log", content: "added", heading: "log" });
		expect(await tv.read("Log.md")).toBe("# Log\nfirst\n\nadded\n\n# Later\nold\n");
	});

	test("an unknown heading or note is refused, and nothing changes", async () => {
		expect(await tv.error("append_to_note", { path: "Log", content: "x", heading: "Nope" })).toMatch(/No heading "Nope"/);
		expect(await tv.error("append_to_note", { path: "Missing", content: "x" })).toMatch(/No note "Missing"/);
		expect(await tv.read("Log.md")).toBe("# Log\nfirst\n\n# Later\nold\n");
	});
});
