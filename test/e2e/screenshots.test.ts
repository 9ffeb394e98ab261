import { promises as fs } from "node:fs";
import { takeScreenshots } from "../../scripts/screenshots";

/** The screenshot harness runs (Debian's Chromium via playwright-core) and writes real PNGs. */
test("npm run screenshots renders the settings tab, its rights and Activity parts, the token window, the approval window and Show change to PNG files", async () => {
	const files = await takeScreenshots();
	expect(files.map((file) => file.split("/").pop())).toEqual([
		"settings-tab.png",
		"token-modal.png",
		"approval.png",
		"rights-per-tool.png",
		"activity.png",
		"show-change.png",
	]);
	const sizes = new Map<string, { width: number; height: number }>();
	for (const file of files) {
		const bytes = await fs.readFile(file);
		expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
		sizes.set(file.split("/").pop() ?? "", { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });
	}
	for (const size of sizes.values()) expect(size.width).toBe(810);
	for (const name of ["settings-tab.png", "token-modal.png", "approval.png", "show-change.png"]) expect(sizes.get(name)?.height).toBeGreaterThan(500);
	// The parts are cut from the tab: the open rights of one token (18 tools) and the four changes made through the server.
	expect(sizes.get("rights-per-tool.png")?.height).toBeGreaterThan(600);
	expect(sizes.get("activity.png")?.height).toBeGreaterThan(250);
	expect(sizes.get("rights-per-tool.png")?.height).toBeLessThan(sizes.get("settings-tab.png")?.height ?? 0);
}, 60_000);
