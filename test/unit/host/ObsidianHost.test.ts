import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { App } from "obsidian";
import type { HostFile } from "../../../src/host/Host";
import { obsidianHost } from "../../../src/host/ObsidianHost";
import { FileOverBytesError } from "../../../src/host/FileOverBytesError";
import { OBSIDIAN_SETTINGS_MAX_BYTES } from "../../../src/config/limits";
import { makeTempDir, removeDir } from "../../helpers/vault";

/**
 * The jail around Obsidian's vault, where Obsidian itself cannot run: a stand-in App whose adapter
 * reads and writes by path and follows links, as Obsidian's does, and whose rename changes a TFile's
 * `path` in place, as Obsidian's does (the object a tool listed is the one Obsidian moves).
 */
describe("the Obsidian host checks the path it hands Obsidian", () => {
	let root: string;
	let vaultDir: string;
	const files = new Map<string, HostFile>();
	const fileAt = (path: string): HostFile => {
		let file = files.get(path);
		if (!file) {
			file = { path, name: nodePath.basename(path), basename: nodePath.basename(path, ".md"), extension: "md", stat: { ctime: 0, mtime: 0, size: 20 } };
			files.set(path, file);
		}
		return file;
	};
	/** Obsidian renaming `file` to `to` while a call is under way: the same object, a new path. */
	const renamedInPlace = (file: HostFile, to: string) => {
		files.delete(file.path);
		(file as { path: string }).path = to;
		files.set(to, file);
	};
	const written: string[] = [];
	/** What the adapter was asked, in order. */
	const adapterCalls: string[] = [];
	/** The size the adapter's `stat` answers, when set: the file's size before another program grew it. */
	let sizeBeforeGrowth: number | undefined;

	async function host() {
		const onDisk = (file: HostFile) => nodePath.join(vaultDir, file.path);
		const app = {
			vault: {
				adapter: {
					getBasePath: () => vaultDir,
					stat: async (path: string) => {
						adapterCalls.push(`stat ${path}`);
						return { size: sizeBeforeGrowth ?? (await fs.stat(nodePath.join(vaultDir, path))).size };
					},
					read: (path: string) => {
						adapterCalls.push(`read ${path}`);
						return fs.readFile(nodePath.join(vaultDir, path), "utf8");
					},
				},
				configDir: ".obsidian",
				on: () => ({}),
				offref: () => undefined,
				getFileByPath: (path: string) => files.get(path) ?? null,
				read: (file: HostFile) => fs.readFile(onDisk(file), "utf8"),
				cachedRead: (file: HostFile) => fs.readFile(onDisk(file), "utf8"),
				process: async (file: HostFile, fn: (text: string) => string) => {
					const text = fn(await fs.readFile(onDisk(file), "utf8"));
					written.push(file.path);
					await fs.writeFile(onDisk(file), text);
					return text;
				},
			},
			metadataCache: {},
			workspace: {},
			fileManager: {},
		};
		return obsidianHost(app as unknown as App, { registerEvent: () => undefined, register: () => undefined });
	}

	beforeEach(async () => {
		root = await makeTempDir();
		vaultDir = nodePath.join(root, "vault");
		await fs.mkdir(nodePath.join(vaultDir, "Notes"), { recursive: true });
		await fs.mkdir(nodePath.join(root, "outside"));
		await fs.writeFile(nodePath.join(vaultDir, "Notes", "a.md"), "in the vault\n");
		await fs.writeFile(nodePath.join(root, "outside", "secret.md"), "outside the vault\n");
		await fs.symlink(nodePath.join(root, "outside"), nodePath.join(vaultDir, "Link"));
		files.clear();
		written.length = 0;
		adapterCalls.length = 0;
		sizeBeforeGrowth = undefined;
		fileAt("Notes/a.md");
		fileAt("Link/secret.md");
	});
	afterEach(() => removeDir(root));

	test("a note behind a link out of the vault is refused", async () => {
		const jailed = await host();
		await expect(jailed.vault.read(fileAt("Link/secret.md"))).rejects.toMatchObject({ code: "EOUTSIDEVAULT" });
	});

	test("a note Obsidian renames through the link while its path is checked is not read there (it was: the path was read again after the check)", async () => {
		const jailed = await host();
		const note = fileAt("Notes/a.md");
		files.delete("Link/secret.md");
		for (const read of [(file: HostFile) => jailed.vault.read(file), (file: HostFile) => jailed.vault.cachedRead(file)]) {
			const reading = read(note);
			renamedInPlace(note, "Link/secret.md");
			await expect(reading).rejects.toMatchObject({ code: "ENOENT" });
			renamedInPlace(note, "Notes/a.md");
		}
	});

	test("nor written there", async () => {
		const jailed = await host();
		const note = fileAt("Notes/a.md");
		files.delete("Link/secret.md");
		const writing = jailed.vault.process(note, (text) => `${text}appended\n`);
		renamedInPlace(note, "Link/secret.md");
		await expect(writing).rejects.toMatchObject({ code: "ENOENT" });
		expect(written).toEqual([]);
		expect(await fs.readFile(nodePath.join(root, "outside", "secret.md"), "utf8")).toBe("outside the vault\n");
	});

	test("a note not renamed is read and written at its path", async () => {
		const jailed = await host();
		const note = fileAt("Notes/a.md");
		expect(await jailed.vault.read(note)).toBe("in the vault\n");
		await jailed.vault.process(note, (text) => `${text}appended\n`);
		expect(written).toEqual(["Notes/a.md"]);
		expect(await fs.readFile(nodePath.join(vaultDir, "Notes", "a.md"), "utf8")).toBe("in the vault\nappended\n");
	});

	test("a settings file over OBSIDIAN_SETTINGS_MAX_BYTES is refused, never read whole by Obsidian's adapter (it reads a file whole); one within it is read", async () => {
		const jailed = await host();
		await fs.mkdir(nodePath.join(vaultDir, ".obsidian"));
		await fs.writeFile(nodePath.join(vaultDir, ".obsidian", "app.json"), "{}");
		// One byte over, sparse: no settings file of Obsidian's is near it.
		await fs.writeFile(nodePath.join(vaultDir, ".obsidian", "templates.json"), "");
		await fs.truncate(nodePath.join(vaultDir, ".obsidian", "templates.json"), OBSIDIAN_SETTINGS_MAX_BYTES + 1);
		await expect(jailed.vault.adapter.read(".obsidian/templates.json")).rejects.toBeInstanceOf(FileOverBytesError);
		expect(await jailed.vault.adapter.read(".obsidian/app.json")).toBe("{}");
		expect(adapterCalls.filter((call) => call.startsWith("read "))).toEqual([]);
	});

	test("a settings file that grew past OBSIDIAN_SETTINGS_MAX_BYTES after its size was known is refused (it was read whole)", async () => {
		const jailed = await host();
		await fs.mkdir(nodePath.join(vaultDir, ".obsidian"));
		await fs.writeFile(nodePath.join(vaultDir, ".obsidian", "templates.json"), "{}");
		// Its size as Obsidian knew it a moment ago, before another program grew it.
		sizeBeforeGrowth = 2;
		await fs.truncate(nodePath.join(vaultDir, ".obsidian", "templates.json"), OBSIDIAN_SETTINGS_MAX_BYTES + 1);
		await expect(jailed.vault.adapter.read(".obsidian/templates.json")).rejects.toBeInstanceOf(FileOverBytesError);
	});

	test("a settings file behind a link out of the vault is not read", async () => {
		const jailed = await host();
		await fs.writeFile(nodePath.join(root, "outside", "app.json"), "{}");
		await fs.symlink(nodePath.join(root, "outside"), nodePath.join(vaultDir, ".obsidian"));
		await expect(jailed.vault.adapter.read(".obsidian/app.json")).rejects.toMatchObject({ code: "EOUTSIDEVAULT" });
	});
});
