import { NodeHost } from "../../../src/headless/NodeHost";
import { untilNoRename, withRenamesSeen } from "../../../src/vault/renamesSeen";
import { makeVault, removeDir } from "../../helpers/vault";

describe("renamesSeen: work made again when a note moved while it ran", () => {
	let root: string;
	let host: NodeHost;
	beforeEach(async () => {
		root = await makeVault({ "Notes/A.md": "a\n" });
		host = await NodeHost.open(root, { watch: false });
	});
	afterEach(async () => {
		await host.close();
		await removeDir(root);
	});

	async function rename(from: string, to: string): Promise<void> {
		const file = host.vault.getFileByPath(from);
		if (!file) throw new Error(`no ${from}`);
		await host.vault.rename(file, to);
	}

	test("a rename during the work is seen; one before or after it is not", async () => {
		expect(await withRenamesSeen(host, () => Promise.resolve(1))).toEqual({ value: 1, renamed: false });
		expect(await withRenamesSeen(host, () => rename("Notes/A.md", "Notes/B.md").then(() => 2))).toEqual({ value: 2, renamed: true });
		await rename("Notes/B.md", "Notes/C.md");
		expect(await withRenamesSeen(host, () => Promise.resolve(3))).toEqual({ value: 3, renamed: false });
	});

	test("run again until a run sees no rename, at most the runs given", async () => {
		let runs = 0;
		const paths = ["Notes/A.md", "Notes/B.md", "Notes/C.md", "Notes/D.md"];
		const work = async () => {
			runs++;
			if (runs < 3) await rename(paths[runs - 1]!, paths[runs]!);
			return runs;
		};
		expect(await untilNoRename(host, 3, work)).toEqual({ value: 3 });
		runs = 0;
		await rename("Notes/C.md", "Notes/A.md");
		expect(await untilNoRename(host, 2, work)).toBeNull();
		expect(runs).toBe(2);
	});
});
