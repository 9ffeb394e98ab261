import { STILL_BEING_READ_LISTED } from "../../../src/config/limits";
import type { Host, HostFile } from "../../../src/host/Host";
import { comparePaths } from "../../../src/vault/notes";
import { notesStillBeingRead } from "../../../src/vault/notesStillBeingRead";

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
});
