import { parseQuery } from "../../../src/search/query";
import { IndexedNoteSearch } from "../../../src/vault/search";
import { Gate } from "../../helpers/gate";
import { openVault, type OpenVault } from "../../helpers/hostVault";

/** A door the test opens: until then, whoever waits on it waits. */

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

// A body long enough to be taken out of the index in steps (over 16,384 words), with one word no other note holds.
const BIG = `# Big\n\nzanzibar ${Array.from({ length: 30_000 }, (_, index) => `w${index}`).join(" ")}\n`;

describe("a long note taken out of the search index in steps (renamed or deleted)", () => {
	let vault: OpenVault;
	let index: IndexedNoteSearch;
	const gate = new Gate({ open: true });
	beforeEach(async () => {
		vault = await openVault({ "Notes/Big.md": BIG, "Notes/Other.md": "# Other\n\nnothing to see\n" });
		index = new IndexedNoteSearch(vault.host, vault.scope("Private"), () => gate.wait().then(settle));
		index.start();
		await index.whenReady();
	});
	afterEach(async () => {
		gate.open();
		jest.restoreAllMocks();
		await index.stop();
		await vault.close();
	});

	test.each([
		["renamed into an excluded folder", (v: OpenVault) => v.host.vault.rename(v.host.vault.getFileByPath("Notes/Big.md")!, "Private/Big.md")],
		["deleted", (v: OpenVault) => v.host.vault.trash(v.host.vault.getFileByPath("Notes/Big.md")!)],
	])("%s: a search while its steps wait neither finds it nor counts it", async (_, change) => {
		const scope = vault.scope("Private");
		expect((await index.search(scope, parseQuery("zanzibar"), {}, 10)).results.map((hit) => hit.path)).toEqual(["Notes/Big.md"]);
		// Every slice is used up at once, so the removal pauses after each step, at the gate.
		let clock = performance.now();
		jest.spyOn(performance, "now").mockImplementation(() => (clock += 1_000));
		gate.close();
		await change(vault);
		while (gate.waiting === 0) await settle();
		for (const filter of [{}, { folder: "Notes" }]) {
			const answer = await index.search(scope, parseQuery("zanzibar"), filter, 10);
			expect(answer.results.map((hit) => hit.path)).toEqual([]);
			expect(answer.total).toBe(0);
		}
		gate.open();
		jest.restoreAllMocks();
		for (let turn = 0; turn < 20; turn++) await settle();
		expect((await index.search(scope, parseQuery("zanzibar"), {}, 10)).total).toBe(0);
		expect((await index.search(scope, parseQuery("nothing"), {}, 10)).results.map((hit) => hit.path)).toEqual(["Notes/Other.md"]);
	});
});

describe("the index's note count once notes leave", () => {
	test("a note moved into an excluded folder or deleted is no longer counted in total_notes (it told how many had gone since the start)", async () => {
		const vault = await openVault({ "Notes/A.md": "a\n", "Notes/B.md": "b\n", "Notes/C.md": "c\n", "Private/D.md": "d\n" });
		const index = new IndexedNoteSearch(vault.host, vault.scope("Private"), () => new Promise((resolve) => setImmediate(resolve)));
		try {
			index.start();
			await index.whenReady();
			const scope = vault.scope("Private");
			expect(index.status(scope)).toEqual({ state: "ready", indexed_notes: 3, total_notes: 3 });
			await vault.host.vault.rename(vault.host.vault.getFileByPath("Notes/A.md")!, "Private/A.md");
			await vault.host.vault.trash(vault.host.vault.getFileByPath("Notes/B.md")!);
			for (let turn = 0; turn < 20; turn++) await settle();
			expect(index.status(scope)).toEqual({ state: "ready", indexed_notes: 1, total_notes: 1 });
		} finally {
			await index.stop();
			await vault.close();
		}
	});
});
