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

	test("notes are counted in slices: the first call a client makes pauses between notes, and counts them all", async () => {
		// Counted in one piece, 100,000 notes held every other client 100-180 ms at each call (two walks of the vault).
		let pauses = 0;
		const pause = () => {
			pauses++;
			return Promise.resolve();
		};
		const notes = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`N${index}.md`, "n"]));
		tv = await openToolVault({ ...notes, "Private/C.md": "c" }, { excluded: ["Private"], callBudget: { pause, sliceMs: 0, callWorkMs: 1_000_000 } });
		expect(await tv.ok("get_vault_status")).toMatchObject({ note_count: 100, search_index: { state: "ready", indexed_notes: 100, total_notes: 100 } });
		// Every slice is over at once here: at least a pause a note (none on main).
		expect(pauses).toBeGreaterThanOrEqual(100);
	});

	test("a note deleted while the count pauses is not counted: a ready index does not seem to miss a note", async () => {
		// Deleted between the count's listing and its look at the index, it was counted (100 notes) and said not indexed (99 of 100, ready).
		let pauses = 0;
		const pause = async () => {
			if (++pauses !== 50) return;
			const { vault, metadataCache } = tv.vault.host;
			await vault.trash(vault.getFileByPath("N0.md")!);
			await metadataCache.settled();
		};
		const notes = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`N${index}.md`, "n"]));
		tv = await openToolVault(notes, { callBudget: { pause, sliceMs: 0, callWorkMs: 1_000_000 } });
		expect(await tv.ok("get_vault_status")).toMatchObject({ note_count: 99, search_index: { state: "ready", indexed_notes: 99, total_notes: 99 } });
		expect(pauses).toBeGreaterThanOrEqual(100);
	});
});
