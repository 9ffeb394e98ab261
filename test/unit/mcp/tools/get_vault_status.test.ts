import { openToolVault, type ToolVault } from "../../../helpers/toolVault";

describe("get_vault_status", () => {
	let tv: ToolVault;
	afterEach(() => tv.close());

	test("a read token: what it may do, and the notes it can see (an excluded folder's not counted)", async () => {
		tv = await openToolVault({ "A.md": "a", "B.md": "b", "Private/C.md": "c" }, { excluded: ["Private"] });
		expect(await tv.ok("get_vault_status")).toMatchObject({
			server_version: "test",
			can_read: true,
			can_write: false,
			note_count: 2,
			search_index: { state: "ready" },
		});
	});

	test("a write token with writing on says it may write", async () => {
		tv = await openToolVault({ "A.md": "a" }, { canWrite: true });
		expect(await tv.ok("get_vault_status")).toMatchObject({ can_write: true, note_count: 1 });
	});
});
