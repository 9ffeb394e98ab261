import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { PLUGIN_ID } from "../../../src/config/store";
import { findProjectRoot } from "../../helpers/fixtures";

describe("the plugin's folder id", () => {
	test("is the id in manifest.json: Obsidian keeps data.json in .obsidian/plugins/<id>/, where the CLI looks for it", () => {
		const manifest = JSON.parse(readFileSync(nodePath.join(findProjectRoot(), "manifest.json"), "utf8")) as { id: string };
		expect(PLUGIN_ID).toBe(manifest.id);
	});
});
