import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { OBSIDIAN_SETTINGS_MAX_BYTES } from "../../../src/config/limits";
import { FileOverBytesError } from "../../../src/host/FileOverBytesError";
import { FolderJail, OUTSIDE_VAULT } from "../../../src/host/FolderJail";
import { readSettingsFile } from "../../../src/host/settingsFile";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/** Obsidian's settings files, read through the jail with a bound on the bytes read. */
describe("readSettingsFile", () => {
	let root: string;
	let outside: string;
	let jail: FolderJail;

	beforeAll(async () => {
		root = await makeVault({ ".obsidian/app.json": '{"attachmentFolderPath":"Files"}' });
		outside = await makeTempDir("settings-outside-");
		await fs.writeFile(nodePath.join(outside, "templates.json"), '{"folder":"Outside"}');
		await fs.symlink(nodePath.join(outside, "templates.json"), nodePath.join(root, ".obsidian", "templates.json"));
		jail = await FolderJail.open(root);
	});
	afterAll(async () => {
		await removeDir(root);
		await removeDir(outside);
	});

	test("reads a settings file under the bound as text", async () => {
		await expect(readSettingsFile(jail, nodePath.join(jail.root, ".obsidian", "app.json"))).resolves.toBe('{"attachmentFolderPath":"Files"}');
	});

	test("refuses a file over the bound by its size, as a FileOverBytesError, not a note's error", async () => {
		const big = nodePath.join(jail.root, ".obsidian", "daily-notes.json");
		await fs.writeFile(big, Buffer.alloc(OBSIDIAN_SETTINGS_MAX_BYTES + 10, 0x20));
		const read = readSettingsFile(jail, big);
		await expect(read).rejects.toBeInstanceOf(FileOverBytesError);
		await expect(read).rejects.toMatchObject({ bytes: OBSIDIAN_SETTINGS_MAX_BYTES + 10 });
	});

	test("never follows a link out of the vault", async () => {
		await expect(readSettingsFile(jail, nodePath.join(jail.root, ".obsidian", "templates.json"))).rejects.toMatchObject({ code: OUTSIDE_VAULT });
	});
});
