import { closeSync, constants as fsConstants, promises as fs, readSync } from "node:fs";
import * as nodePath from "node:path";
import { Worker } from "node:worker_threads";
import { FolderJail, OUTSIDE_VAULT } from "../../src/host/FolderJail";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/**
 * Another program swaps a note's folder for a link to a folder outside the vault and back, over
 * and over, while the jail opens the note (a search reading a result, an edit opening a note, a
 * read through the thread pool). The outside folder holds a file of the same name: no open may
 * read it. Before, a folder that was real for the check after the open and a link again for the
 * look at the path (which then named the outside file, opened through the link) let it through.
 */
const READS = 4_000;

const readers: Array<[string, (jail: FolderJail, path: string) => string | Promise<string>]> = [
	["a search's synchronous read", (jail, path) => jail.readTextSync(path)],
	[
		"an edit's synchronous open",
		(jail, path) => {
			const { fd } = jail.openSync(path, fsConstants.O_RDONLY);
			try {
				const bytes = Buffer.alloc(64);
				return bytes.subarray(0, readSync(fd, bytes, 0, 64, 0)).toString("utf8");
			} finally {
				closeSync(fd);
			}
		},
	],
	["a read through the thread pool", async (jail, path) => (await jail.readFile(path)).toString("utf8")],
];

test.each(readers)("%s, while another thread swaps the folder for a link out and back: the file outside is never read", async (_kind, read) => {
	const root = await makeVault({ "Raced/there.md": "inside" });
	const outside = await makeTempDir("swap-open-outside-");
	const jail = await FolderJail.open(root);
	await fs.writeFile(nodePath.join(outside, "there.md"), "outside");
	await fs.symlink(outside, nodePath.join(jail.root, "Raced link"));
	const stop = new Int32Array(new SharedArrayBuffer(4));
	// Four renames a round: the real folder, nothing, the link, nothing, the real folder again.
	const swapper = new Worker(
		`const { renameSync } = require("node:fs");
		const { root, stop } = require("node:worker_threads").workerData;
		const [real, aside, link] = [root + "/Raced", root + "/Raced aside", root + "/Raced link"];
		while (Atomics.load(stop, 0) === 0) {
			renameSync(real, aside);
			renameSync(link, real);
			renameSync(real, link);
			renameSync(aside, real);
		}`,
		{ eval: true, workerData: { root: jail.root, stop } },
	);
	const texts = new Map<string, number>();
	const codes = new Map<unknown, number>();
	try {
		await new Promise((resolve) => swapper.once("online", resolve));
		for (let attempt = 0; attempt < READS; attempt++) {
			try {
				const text = await read(jail, nodePath.join(jail.root, "Raced", "there.md"));
				texts.set(text, (texts.get(text) ?? 0) + 1);
			} catch (error) {
				const code = (error as NodeJS.ErrnoException).code;
				codes.set(code, (codes.get(code) ?? 0) + 1);
			}
		}
	} finally {
		Atomics.store(stop, 0, 1);
		await new Promise((resolve) => swapper.once("exit", resolve));
		await removeDir(root);
		await removeDir(outside);
	}
	expect([...texts.keys()]).toEqual(["inside"]);
	// Refused as a link, as gone (the folder moved aside) or as changing: nothing else.
	expect([...codes.keys()].filter((code) => code !== OUTSIDE_VAULT && code !== "ENOENT" && code !== "EWRITECONFLICT")).toEqual([]);
	// The race was run: both states of the folder were met.
	expect(codes.size).toBeGreaterThan(0);
});
