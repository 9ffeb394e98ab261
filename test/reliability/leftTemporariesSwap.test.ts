/**
 * The start-up removal of the temporary files a crash left (NodeVault.removeLeftTemporaries) while
 * another program swaps their folder for a link to a folder outside the vault and back. The outside
 * folder holds stale files of the same names: none may be removed. The removal looked at the folder
 * (checkFolderSync) and then removed each file by its path: a folder real for the look and a link
 * again for the removal led the removal out of the vault (jail102 closed this for create, mkdir,
 * copy, trash and move by acting in the folder held open; this removal was left by path).
 */
import { existsSync, promises as fs, utimesSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { Worker } from "node:worker_threads";
import { STALE_NOTE_TEMPORARY_MS } from "../../src/config/limits";
import { NodeVault } from "../../src/headless/NodeVault";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/** Stale temporaries in the raced folder: each removal is one chance for the swap to land between the look and the removal. */
const TEMPORARIES = 2_000;
/** Vaults opened, each removing its temporaries once while the swapper runs. */
const ROUNDS = 2;

function temporaryName(index: number): string {
	return `.vault-mcp-${index.toString(16).padStart(12, "0")}.tmp`;
}

function leaveStale(folder: string): void {
	const at = (Date.now() - 2 * STALE_NOTE_TEMPORARY_MS) / 1000;
	for (let index = 0; index < TEMPORARIES; index++) {
		const full = nodePath.join(folder, temporaryName(index));
		writeFileSync(full, "a note's new text");
		utimesSync(full, at, at);
	}
}

test("while another thread swaps their folder for a link out of the vault and back, no file outside is removed", async () => {
	const root = await makeVault({ "Raced/Plan.md": "# Plan\n" });
	const outside = await makeTempDir("left-temporaries-outside-");
	const stop = new Int32Array(new SharedArrayBuffer(4));
	let swapper: Worker | undefined;
	try {
		leaveStale(outside);
		let lost = 0;
		for (let round = 0; round < ROUNDS && lost === 0; round++) {
			leaveStale(nodePath.join(root, "Raced"));
			const vault = await NodeVault.open(root, { watch: false });
			try {
				await fs.symlink(outside, nodePath.join(vault.root, "Raced link"));
				Atomics.store(stop, 0, 0);
				swapper = new Worker(
					`const { renameSync } = require("node:fs");
					const { root, stop } = require("node:worker_threads").workerData;
					const [real, aside, link] = [root + "/Raced", root + "/Raced aside", root + "/Raced link"];
					while (Atomics.load(stop, 0) === 0) {
						renameSync(real, aside);
						renameSync(link, real);
						renameSync(real, link);
						renameSync(aside, real);
					}`,
					{ eval: true, workerData: { root: vault.root, stop } },
				);
				await new Promise((resolve) => swapper!.once("online", resolve));
				await vault.removeLeftTemporaries();
				Atomics.store(stop, 0, 1);
				await new Promise((resolve) => swapper!.once("exit", resolve));
				swapper = undefined;
				await fs.unlink(nodePath.join(vault.root, "Raced link"));
			} finally {
				await vault.close?.();
			}
			for (let index = 0; index < TEMPORARIES; index++) if (!existsSync(nodePath.join(outside, temporaryName(index)))) lost++;
		}
		expect(lost).toBe(0);
	} finally {
		Atomics.store(stop, 0, 1);
		await swapper?.terminate();
		await removeDir(root);
		await removeDir(outside);
	}
}, 120_000);
