import { IndexedNoteSearch } from "../../../src/vault/search";
import { openVault, type OpenVault } from "../../helpers/hostVault";

/**
 * Notes of 400 words each, most of them different: about 4 ms of indexing a note, so the build (about 0.15 s of CPU)
 * runs in several INDEX_BUILD_SLICE_MS slices and waits between them for the calls ahead of it.
 */
const BUILD_NOTES = 40;
const prose = (index: number): string => Array.from({ length: 400 }, (_, word) => `w${(index * 31 + word * 7) % 5000}x`).join(" ");

/** A turn of the event loop. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("vault-wide calls ahead of the index build (NoteSearch.aheadOfBuild)", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		const files: Record<string, string> = {};
		for (let index = 0; index < BUILD_NOTES; index++) files[`Note ${index}.md`] = `# Note ${index}\n${prose(index)}\n`;
		vault = await openVault(files);
	});
	afterAll(() => vault.close());

	test("a call sent while the build still lists its notes goes ahead of the build, on the build's credit", async () => {
		// The wall-time hold lifted: only the CPU credit (the limits') decides, so the counts hold on a machine of any load.
		const index = new IndexedNoteSearch(vault.host, vault.scope(), turn, undefined, { aheadOfBuild: { holdMs: 600_000 } });
		try {
			index.start();
			// The same turn as the start: the build is listing its notes (the first moments after `serve`). The call does little
			// work, pausing many times; ahead of the build, the build waits for it after the slice under way (if any).
			const left = BUILD_NOTES - index.status().indexed_notes;
			let indexedDuring = 0;
			await index.aheadOfBuild(turn, async (pause) => {
				const atSend = index.status().indexed_notes;
				// Taking turns, the build indexes a slice at each pause: stopped once it has done more than half.
				for (let pauses = 0; pauses < 100 && index.status().indexed_notes - atSend <= left / 2; pauses++) {
					await pause();
					await new Promise((resolve) => setTimeout(resolve, 1));
				}
				indexedDuring = index.status().indexed_notes - atSend;
			});
			expect(indexedDuring).toBeLessThanOrEqual(left / 2);
			await index.whenReady();
			expect(index.status().indexed_notes).toBe(BUILD_NOTES);
		} finally {
			await index.stop();
		}
	});

	test("a call awaiting the disk past the wall-time hold lets the build go on while it waits", async () => {
		// Credit enough for any call; a hold of 20 ms of wall, so the call's wait (not a pause) is what decides.
		const index = new IndexedNoteSearch(vault.host, vault.scope(), turn, undefined, { aheadOfBuild: { creditMs: 600_000, holdMs: 20 } });
		try {
			index.start();
			await new Promise((resolve) => setTimeout(resolve, 1));
			let indexedDuring = -1;
			await index.aheadOfBuild(turn, async () => {
				const atSend = index.status().indexed_notes;
				// A read the disk answers late: here, once the build is done (or, on the base, after 2,000 polls, held all along).
				for (let polls = 0; polls < 2_000 && index.status().state !== "ready"; polls++) await new Promise((resolve) => setTimeout(resolve, 5));
				indexedDuring = index.status().indexed_notes - atSend;
				return atSend;
			});
			expect(index.status().state).toBe("ready");
			expect(indexedDuring).toBeGreaterThan(0);
		} finally {
			await index.stop();
		}
	});
});
