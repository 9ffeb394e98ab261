import { UnreadableFileCopy, unreadableCopyPath } from "../../../src/config/unreadableCopy";

describe("UnreadableFileCopy: an unreadable settings file is copied aside once", () => {
	const NOW = new Date("2026-12-02T11:16:11.123Z");

	test("the copy sits beside the file, stamped with the time without ':' or '.'", () => {
		expect(unreadableCopyPath(".obsidian/plugins/vault-mcp/data.json", NOW)).toBe(
			".obsidian/plugins/vault-mcp/data.json.unreadable-2026-12-02T11-16-11-123Z",
		);
	});

	test("asked again (by the plugin re-reading the file, or by a second error), it names the first copy and copies nothing more", async () => {
		const copies: Array<[string, string]> = [];
		const kept = new UnreadableFileCopy("data.json", async (from, to) => void copies.push([from, to]));
		expect(await kept.keep(NOW)).toBe("data.json.unreadable-2026-12-02T11-16-11-123Z");
		expect(await kept.keep(new Date(NOW.getTime() + 60_000))).toBe("data.json.unreadable-2026-12-02T11-16-11-123Z");
		expect(copies).toEqual([["data.json", "data.json.unreadable-2026-12-02T11-16-11-123Z"]]);
	});

	test("a copy that failed is tried again next time, and its failure reaches the caller", async () => {
		let fail = true;
		const kept = new UnreadableFileCopy("data.json", async () => {
			if (fail) throw new Error("EEXIST");
		});
		await expect(kept.keep(NOW)).rejects.toThrow("EEXIST");
		fail = false;
		await expect(kept.keep(NOW)).resolves.toBe("data.json.unreadable-2026-12-02T11-16-11-123Z");
	});
});
