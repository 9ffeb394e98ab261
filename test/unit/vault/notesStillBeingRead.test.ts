import { STILL_BEING_READ_LISTED } from "../../../src/config/limits";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { NodeHost } from "../../../src/headless/NodeHost";
import { NodeVault } from "../../../src/headless/NodeVault";
import type { Host, HostFile } from "../../../src/host/Host";
import { comparePaths, visibleNotes } from "../../../src/vault/notes";
import { NotesNotYetRead, notesStillBeingRead } from "../../../src/vault/notesStillBeingRead";
import { openVault } from "../../helpers/hostVault";
import { makeVault, removeDir } from "../../helpers/vault";

describe("notesStillBeingRead", () => {
	test(`names the first ${STILL_BEING_READ_LISTED} notes without metadata in path order, whatever order they come in, and none that has it`, async () => {
		const paths = Array.from({ length: 40 }, (_, index) => `Note ${String(index).padStart(2, "0")}.md`);
		const notes = [...paths].reverse().map((path) => ({ path, extension: "md" }) as HostFile);
		const read = new Set(paths.filter((_, index) => index % 3 === 0));
		const host = { metadataCache: { getFileCache: (file: HostFile) => (read.has(file.path) ? {} : null) } } as unknown as Host;
		const unread = paths.filter((path) => !read.has(path)).sort(comparePaths);
		expect((await notesStillBeingRead(host, notes)).map((note) => note.path)).toEqual(unread.slice(0, STILL_BEING_READ_LISTED));
		expect((await notesStillBeingRead(host, notes.slice(0, 3))).map((note) => note.path)).toEqual(
			notes
				.slice(0, 3)
				.map((note) => note.path)
				.filter((path) => !read.has(path))
				.sort(comparePaths),
		);
	});

	test("keeps the same one of two paths the collator calls equal at the last place named, whichever came first", async () => {
		// A soft hyphen the collator ignores: on a tie the note that came first was kept, so a fresh server named the other.
		const before = Array.from({ length: STILL_BEING_READ_LISTED - 1 }, (_, index) => `0 ${index}.md`);
		const tied = ["ab.md", "a\u00ADb.md"];
		const host = { metadataCache: { getFileCache: () => null } } as unknown as Host;
		const named = async (paths: string[]) =>
			(
				await notesStillBeingRead(
					host,
					paths.map((path) => ({ path, extension: "md" }) as HostFile),
				)
			).map((note) => note.path);
		expect(await named([...before, ...tied])).toEqual([...before, "ab.md"]);
		expect(await named([...before, ...[...tied].reverse()])).toEqual([...before, "ab.md"]);
	});

	test("names a note whose metadata is an older text's, its parse having found it missing (awaiting its re-read)", async () => {
		const notes = ["A.md", "B.md", "C.md"].map((path) => ({ path, extension: "md" }) as HostFile);
		const host = { metadataCache: { getFileCache: () => ({}), notesAwaitingReread: () => [notes[1]] } } as unknown as Host;
		expect((await notesStillBeingRead(host, notes)).map((note) => note.path)).toEqual(["B.md"]);
	});
});

describe("NotesNotYetRead", () => {
	test("answers what a walk of the vault answers, as notes are created unread, moved in and out of sight, deleted and read", async () => {
		const vault = await openVault({ "A/Read.md": "read\n", "B/Other.md": "other\n", "Hidden/Secret.md": "secret\n" });
		await vault.host.metadataCache.settled();
		const held = new Set<string>();
		const waiting: Array<() => void> = [];
		const read = Reflect.get<NodeVault, "cachedRead">(NodeVault.prototype, "cachedRead");
		const reads = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			if (held.has(file.path)) await new Promise<void>((resolve) => waiting.push(resolve));
			return read.call(this, file);
		});
		const kept = new NotesNotYetRead(vault.host, () => new Promise((resolve) => setImmediate(resolve)));
		const scope = vault.scope("Hidden");
		const same = async () => {
			const walked = (await notesStillBeingRead(vault.host, visibleNotes(vault.host, scope))).map((note) => note.path);
			expect((await kept.visible(scope))?.map((note) => note.path)).toEqual(walked);
			return walked;
		};
		try {
			kept.start();
			expect(await same()).toEqual([]);
			for (const path of ["A/New.md", "B/New.md", "Hidden/New.md", "Top.md"]) {
				held.add(path);
				await vault.host.vault.create(path, "new\n");
			}
			expect(await same()).toEqual(["A/New.md", "B/New.md", "Top.md"]);
			await vault.host.vault.rename(vault.host.vault.getFileByPath("Top.md") as HostFile, "Hidden/Top.md");
			expect(await same()).toEqual(["A/New.md", "B/New.md"]);
			await vault.host.vault.rename(vault.host.vault.getFileByPath("A/New.md") as HostFile, "C/New.md");
			expect(await same()).toEqual(["B/New.md", "C/New.md"]);
			await vault.host.vault.trash(vault.host.vault.getFileByPath("B/New.md") as HostFile);
			expect(await same()).toEqual(["C/New.md"]);
			held.clear();
			for (const release of waiting.splice(0)) release();
			await vault.host.metadataCache.settled();
			expect(await same()).toEqual([]);
		} finally {
			held.clear();
			for (const release of waiting.splice(0)) release();
			reads.mockRestore();
			kept.stop();
			await vault.close();
		}
	});

	test("a folder of unread notes renamed on disk while they are read: named at their new paths, and none once the folder is moved into an excluded one", async () => {
		const root = await makeVault({ "A/Read.md": "read\n", "Hidden/Secret.md": "secret\n" });
		// The notes of the renamed folder, under either name, are read only when let go: the index is still being built.
		const holding = (path: string) => /^(Old|New|Hidden\/New)\//.test(path);
		let holdingOn = true;
		const waiting: Array<() => void> = [];
		const read = Reflect.get<NodeVault, "cachedRead">(NodeVault.prototype, "cachedRead");
		const reads = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			if (holdingOn && holding(file.path)) await new Promise<void>((resolve) => waiting.push(resolve));
			return read.call(this, file);
		});
		const host = await NodeHost.open(root, { watch: true });
		const kept = new NotesNotYetRead(host, () => new Promise((resolve) => setImmediate(resolve)));
		const scope = { configDir: host.vault.configDir, excludedFolders: ["Hidden"] };
		const answers = async () => {
			const walked = (await notesStillBeingRead(host, visibleNotes(host, scope))).map((note) => note.path);
			const tracked = (await kept.visible(scope))?.map((note) => note.path);
			return { walked, tracked };
		};
		/**
		 * Waits until the vault shows the notes at `now` and none at `before`: the watcher reports a folder renamed
		 * on disk a moment later, one note at a time, so one note seen at its new path says nothing of the other.
		 */
		const moved = async (before: string[], now: string[]) => {
			const done = () => now.every((path) => host.vault.getFileByPath(path)) && before.every((path) => !host.vault.getFileByPath(path));
			while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
		};
		try {
			await host.metadataCache.settled();
			kept.start();
			for (const path of ["Old/One.md", "Old/Two.md"]) await host.vault.create(path, "unread\n");
			while ((await kept.visible(scope)) === null) await new Promise((resolve) => setImmediate(resolve));
			expect(await answers()).toEqual({ walked: ["Old/One.md", "Old/Two.md"], tracked: ["Old/One.md", "Old/Two.md"] });
			await rename(join(root, "Old"), join(root, "New"));
			await moved(["Old/One.md", "Old/Two.md"], ["New/One.md", "New/Two.md"]);
			// Once the vault has taken in the rename (its new look at the notes may still be running: then the caller walks).
			let after = await answers();
			while (after.tracked === null) after = await answers();
			expect(after).toEqual({ walked: ["New/One.md", "New/Two.md"], tracked: ["New/One.md", "New/Two.md"] });
			await rename(join(root, "New"), join(root, "Hidden", "New"));
			await moved(["New/One.md", "New/Two.md"], ["Hidden/New/One.md", "Hidden/New/Two.md"]);
			after = await answers();
			while (after.tracked === null) after = await answers();
			expect(after).toEqual({ walked: [], tracked: [] });
		} finally {
			holdingOn = false;
			for (const release of waiting.splice(0)) release();
			reads.mockRestore();
			kept.stop();
			await host.close();
			await removeDir(root);
		}
	});
});
