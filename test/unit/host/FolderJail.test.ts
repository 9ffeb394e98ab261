import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { FolderJail, OUTSIDE_VAULT } from "../../../src/host/FolderJail";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/**
 * The jail the plugin puts in front of Obsidian's adapter (which follows links): every path with
 * a link in it is refused the same way, whether or not anything is behind the link.
 */
describe("FolderJail", () => {
	let root: string;
	let outside: string;
	let jail: FolderJail;

	beforeAll(async () => {
		root = await makeVault({ "Note.md": "n", "Folder/Inner.md": "i", "Private/Secret.md": "s" });
		outside = await makeTempDir("jail-outside-");
		await fs.writeFile(nodePath.join(outside, "there.md"), "outside");
		await fs.symlink(outside, nodePath.join(root, "LinkedDir"));
		await fs.symlink(nodePath.join(outside, "there.md"), nodePath.join(root, "Linked.md"));
		await fs.symlink(nodePath.join(outside, "missing.md"), nodePath.join(root, "Dangling.md"));
		await fs.symlink(nodePath.join(root, "Private"), nodePath.join(root, "Folder", "ToPrivate"));
		jail = await FolderJail.open(root);
	});
	afterAll(async () => {
		await removeDir(root);
		await removeDir(outside);
	});

	test("makeFolder says whether it made the folder, and never makes one through a link", async () => {
		const made = nodePath.join(jail.root, "Made once");
		await expect(jail.makeFolder(made)).resolves.toBe(true);
		await expect(jail.makeFolder(made)).resolves.toBe(false);
		await expect(jail.makeFolder(nodePath.join(jail.root, "LinkedDir", "new"))).rejects.toMatchObject({ code: OUTSIDE_VAULT });
		await expect(fs.access(nodePath.join(outside, "new"))).rejects.toThrow();
		await expect(jail.makeFolder(nodePath.join(jail.root, "LinkedDir"))).rejects.toMatchObject({ code: OUTSIDE_VAULT });
		await fs.rmdir(made);
		// A parent removed since it was seen is made again.
		await expect(jail.makeFolder(nodePath.join(jail.root, "Gone parent", "Inner"))).resolves.toBe(true);
		await fs.rm(nodePath.join(jail.root, "Gone parent"), { recursive: true });
	});

	test.each(["Note.md", "Folder/Inner.md", "Folder/New note.md", "New folder/deeper/New.md", "/"])(
		"lets %j through: every part that exists is real",
		async (path) => {
			await expect(jail.check(path)).resolves.toBeUndefined();
		},
	);

	test.each([
		["a linked folder, target exists", "LinkedDir/there.md"],
		["a linked folder, target missing", "LinkedDir/missing.md"],
		["a new note under a linked folder", "LinkedDir/new/x.md"],
		["a linked file", "Linked.md"],
		["a dangling link", "Dangling.md"],
		["a link inside the vault to an excluded folder", "Folder/ToPrivate/Secret.md"],
		["a path that climbs out", "../outside.md"],
	])("refuses %s with one error, whatever is behind it", async (_kind, path) => {
		await expect(jail.check(path)).rejects.toMatchObject({
			code: OUTSIDE_VAULT,
			message: "That path is not part of the vault this server gives access to.",
		});
	});

	test("finds every link in the vault folder, without following any", async () => {
		expect(await jail.findLinks()).toEqual(["Dangling.md", "Folder/ToPrivate", "Linked.md", "LinkedDir"]);
	});
});
