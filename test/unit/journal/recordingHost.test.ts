import { symlink } from "node:fs/promises";
import * as nodePath from "node:path";
import { NodeHost } from "../../../src/headless/NodeHost";
import { planningHost } from "../../../src/journal/recordingHost";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/** The host a write call is planned on answers everything the headless host does, its class methods included. */
describe("the planning host over the headless host", () => {
	test("still name the symbolic links the jail hides", async () => {
		const outside = await makeTempDir();
		const root = await makeVault({ "A.md": "a" });
		await symlink(outside, nodePath.join(root, "Linked"));
		const host = await NodeHost.open(root);
		try {
			expect(host.hiddenLinks()).toEqual(["Linked"]);
			expect(planningHost(host, { configDir: ".obsidian", excludedFolders: [] }).host.hiddenLinks()).toEqual(["Linked"]);
		} finally {
			await host.close();
			await removeDir(root);
			await removeDir(outside);
		}
	});
});
