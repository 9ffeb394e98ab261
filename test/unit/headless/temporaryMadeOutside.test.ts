/**
 * A replace's temporary file is made through the thread pool: the folder is checked before the open
 * is handed over and after its answer comes back. A program that swaps the note's folder for a link
 * out of the vault while the open waits for a thread, and swaps it back before the answer is read,
 * had the file made outside the vault, and the edit, refused, left it there.
 */
import { readdirSync, readFileSync, renameSync, symlinkSync, unlinkSync } from "node:fs";
import * as nodePath from "node:path";
import { DiskWriter } from "../../../src/headless/DiskWriter";
import { FolderJail } from "../../../src/host/FolderJail";
import { holdThreadPool } from "../../helpers/threadPool";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

describe("a replace's temporary file made while its folder is swapped for a link out and back", () => {
	let root: string;
	let outside: string;
	let pipes: string;

	beforeEach(async () => {
		root = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n" });
		outside = await makeTempDir("writer-outside-");
		pipes = await makeTempDir("writer-pipes-");
	});
	afterEach(async () => {
		await removeDir(root);
		await removeDir(outside);
		await removeDir(pipes);
	});

	test("is not left outside the vault, and the note is unchanged", async () => {
		const writer = new DiskWriter(await FolderJail.open(root));
		const folder = nodePath.join(root, "Notes");
		const note = nodePath.join(folder, "Plan.md");
		const pool = await holdThreadPool(pipes);
		let outcome: unknown;
		try {
			const edit = writer
				.editOnce(note, (text) => text.replace("one", "two"))
				.then(
					(result) => result,
					(error: unknown) => error,
				);
			// The edit's open waits for a thread.
			for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
			renameSync(folder, `${folder}.real`);
			symlinkSync(outside, folder);
			// One thread freed: it makes the file through the link. The loop is held meanwhile, so the folder is back
			// before the open's answer is read.
			pool.release(1);
			const until = Date.now() + 2_000;
			while (Date.now() < until && readdirSync(outside).length === 0);
			unlinkSync(folder);
			renameSync(`${folder}.real`, folder);
			outcome = await edit;
		} finally {
			await pool.releaseAll();
		}
		expect(readdirSync(outside)).toEqual([]);
		expect(readFileSync(note, "utf8")).toBe("# Plan\n\n- one\n");
		expect(readdirSync(folder)).toEqual(["Plan.md"]);
		expect(outcome).toBeInstanceOf(Error);
	});
});
