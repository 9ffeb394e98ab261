import { NodeHost } from "../../../src/headless/NodeHost";
import { untilNoneMovedOutOfSight, withMovesOutOfSight } from "../../../src/vault/renamesSeen";
import type { Scope } from "../../../src/vault/scope";
import { makeVault, removeDir } from "../../helpers/vault";

describe("renamesSeen: work made again when a note moved out of the caller's sight while it ran", () => {
	let root: string;
	let host: NodeHost;
	const scope: Scope = { configDir: ".obsidian", excludedFolders: ["Private"], tokenFolders: ["Notes", "Private"] };
	beforeEach(async () => {
		root = await makeVault({ "Notes/A.md": "a\n", "Notes/kept.md": "k\n", "Private/kept.md": "k\n", "Other/kept.md": "k\n" });
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

	test("a move out of sight during the work is seen; one before or after it, or within sight, or into sight, is not", async () => {
		expect(await withMovesOutOfSight(host, scope, () => Promise.resolve(1))).toEqual({ value: 1, movedOut: false });
		expect(await withMovesOutOfSight(host, scope, () => rename("Notes/A.md", "Notes/B.md").then(() => 2))).toEqual({ value: 2, movedOut: false });
		expect(await withMovesOutOfSight(host, scope, () => rename("Notes/B.md", "Private/B.md").then(() => 3))).toEqual({ value: 3, movedOut: true });
		expect(await withMovesOutOfSight(host, scope, () => rename("Private/B.md", "Notes/B.md").then(() => 4))).toEqual({ value: 4, movedOut: false });
		// Outside the token's folders is out of its sight too.
		expect(await withMovesOutOfSight(host, scope, () => rename("Notes/B.md", "Other/B.md").then(() => 5))).toEqual({ value: 5, movedOut: true });
		await rename("Other/B.md", "Private/B.md");
		expect(await withMovesOutOfSight(host, scope, () => Promise.resolve(6))).toEqual({ value: 6, movedOut: false });
	});

	test("run again until a run sees no move out of sight, at most the runs given", async () => {
		let runs = 0;
		const work = async (moveOut: (run: number) => boolean) => {
			runs++;
			const from = host.vault.getFileByPath("Notes/A.md") ?? host.vault.getFileByPath("Notes/B.md") ?? host.vault.getFileByPath("Private/A.md");
			if (!from) throw new Error("the note is gone");
			const to = moveOut(runs) ? "Private/A.md" : from.path === "Notes/A.md" ? "Notes/B.md" : "Notes/A.md";
			if (from.path !== to) await host.vault.rename(from, to);
			if (to === "Private/A.md") await rename("Private/A.md", "Notes/A.md");
			return runs;
		};
		expect(await untilNoneMovedOutOfSight(host, scope, 3, () => work((run) => run < 3))).toEqual({ value: 3 });
		runs = 0;
		expect(await untilNoneMovedOutOfSight(host, scope, 2, () => work(() => true))).toBeNull();
		expect(runs).toBe(2);
		// Moves within sight at every run do not make it run again.
		runs = 0;
		expect(await untilNoneMovedOutOfSight(host, scope, 3, () => work(() => false))).toEqual({ value: 1 });
	});
});
