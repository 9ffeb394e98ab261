import { openVault, type OpenVault } from "../../helpers/hostVault";

describe("the headless host beside canvases that are not JSON Canvas", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault({
			"Goal.md": "# Goal\n",
			// Each of these made NodeHost.open (and so `serve` and `inspect --links`) fail with a TypeError.
			"Null.canvas": "null",
			"Cards.canvas": JSON.stringify({ nodes: [null, 5, "card", { type: "text", text: "see [[Goal]]" }, { type: "file", file: "Goal.md" }] }),
			"List.canvas": "[1, 2]",
		});
	});
	afterAll(() => vault?.close());

	test("the vault opens, the canvases' good cards link as in a well-formed canvas, and a canvas written null later is followed", async () => {
		const { metadataCache } = vault.host;
		expect(metadataCache.resolvedLinks["Cards.canvas"]).toEqual({ "Goal.md": 2 });
		expect(metadataCache.resolvedLinks["Null.canvas"]).toEqual({});
		const cards = vault.host.vault.getFileByPath("Cards.canvas");
		if (!cards) throw new Error("Cards.canvas is missing");
		await vault.host.vault.process(cards, () => "null");
		await metadataCache.settled();
		expect(metadataCache.resolvedLinks["Cards.canvas"]).toEqual({});
	});
});
