import { symlink } from "node:fs/promises";
import * as nodePath from "node:path";
import { NodeHost } from "../../../src/headless/NodeHost";
import { journalledHost, previewHost } from "../../../src/journal/recordingHost";
import { MemoryJournal } from "../../helpers/memoryJournal";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/** The hosts a write call runs on answer everything the headless host does, its class methods included. */
describe("the recording and preview hosts over the headless host", () => {
	test("still name the symbolic links the jail hides", async () => {
		const outside = await makeTempDir();
		const root = await makeVault({ "A.md": "a" });
		await symlink(outside, nodePath.join(root, "Linked"));
		const host = await NodeHost.open(root);
		try {
			expect(host.hiddenLinks()).toEqual(["Linked"]);
			const call = { id: "c", time: new Date().toISOString(), tokenName: "t", tool: "append_to_note" };
			expect(journalledHost(host, new MemoryJournal(), call).hiddenLinks()).toEqual(["Linked"]);
			expect(previewHost(host).host.hiddenLinks()).toEqual(["Linked"]);
		} finally {
			await host.close();
			await removeDir(root);
			await removeDir(outside);
		}
	});
});
