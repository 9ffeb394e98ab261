import { promises as fs } from "node:fs";
import { takeScreenshots } from "../../scripts/screenshots";

/** The screenshot harness runs (Debian's Chromium via playwright-core) and writes real PNGs. */
test("npm run screenshots renders the settings tab, the token window and the approval window to PNG files", async () => {
	const files = await takeScreenshots();
	expect(files.map((file) => file.split("/").pop())).toEqual(["settings-tab.png", "token-modal.png", "approval.png"]);
	for (const file of files) {
		const bytes = await fs.readFile(file);
		expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
		const width = bytes.readUInt32BE(16);
		const height = bytes.readUInt32BE(20);
		expect(width).toBe(810);
		expect(height).toBeGreaterThan(500);
	}
}, 60_000);
