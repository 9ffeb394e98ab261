import { LINKS_PER_CLOCK_CHECK } from "../../../src/config/limits";
import { graphStats } from "../../../src/vault/links";
import { NoteMemo, sharedNoteMemo } from "../../../src/vault/noteMemo";
import type { Scope } from "../../../src/vault/scope";
import { IndexedNoteSearch } from "../../../src/vault/search";
import { CallBudget } from "../../../src/vault/workBudget";
import { openVault, type OpenVault } from "../../helpers/hostVault";

/**
 * A hub note linking every note: each of its targets is checked against every excluded folder
 * before its links count in the graph (0.5 µs a target with 3 folders, 2.3 µs with 30), and the
 * search index and the graph counts did all of a note's targets in one piece (a note of 100,000
 * links: 50–230 ms). Counted here, not timed: every look at the clock finds the slice used up, so
 * the work pauses wherever it may, and each pause starts a new piece; a piece's work is the number
 * of paths checked against the excluded folders.
 */
const NOTES = 2_000;
const EXCLUDED = ["Private", "Archive", "Drafts"];

function hubVault(): Record<string, string> {
	const files: Record<string, string> = { "Hub.md": Array.from({ length: NOTES }, (_, index) => `[[N${index}]]`).join("\n") + "\n[[Nowhere]]\n" };
	for (let index = 0; index < NOTES; index++) files[`Notes/N${index}.md`] = "[[Hub]]\n";
	return files;
}

/** Paths checked against the excluded folders, piece by piece: `pause()` starts a new piece. */
function countedScope(vault: OpenVault): { scope: Scope; perPiece: number[]; pause: () => Promise<void> } {
	const perPiece = [0];
	const folders = [...EXCLUDED];
	Object.defineProperty(folders, "some", {
		value(this: string[], test: (folder: string) => boolean) {
			perPiece[perPiece.length - 1] = (perPiece.at(-1) ?? 0) + 1;
			return Array.prototype.some.call(this, test);
		},
	});
	const pause = () => {
		perPiece.push(0);
		return new Promise<void>((resolve) => setImmediate(resolve));
	};
	return { scope: { configDir: vault.host.vault.configDir, excludedFolders: folders }, perPiece, pause };
}

/** Every look at the clock finds the slice used up, until the returned function puts it back. */
function sliceAlwaysUsedUp(): () => void {
	let now = performance.now();
	const clock = jest.spyOn(performance, "now").mockImplementation(() => (now += 1_000));
	return () => clock.mockRestore();
}

const expectedStats = { notes: NOTES + 1, links: 2 * NOTES, unresolved_links: 1, orphans: 0 };

describe("a hub note linking 2,000 notes, with excluded folders", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault(hubVault());
		await vault.host.metadataCache.settled();
	}, 60_000);
	afterAll(async () => {
		await vault.close();
	});

	test("a graph count checks the hub's targets a few hundred between two pauses, and counts every link", async () => {
		const { scope, perPiece, pause } = countedScope(vault);
		const restore = sliceAlwaysUsedUp();
		let stats;
		try {
			stats = await graphStats(vault.host, scope, 1, new CallBudget(pause), new NoteMemo());
		} finally {
			restore();
		}
		expect(stats).toMatchObject({ ...expectedStats, top_linked: [{ path: "Hub.md", backlinks: NOTES }] });
		// All 2,000 in one piece on c9445824.
		expect(Math.max(...perPiece)).toBeLessThanOrEqual(LINKS_PER_CLOCK_CHECK + 2);
	});

	test("the search index's build keeps the hub's links in its slices, a few hundred targets between two pauses", async () => {
		const { scope, perPiece, pause } = countedScope(vault);
		const index = new IndexedNoteSearch(vault.host, scope, pause);
		const memo = () => sharedNoteMemo.links.has(vault.host.metadataCache.resolvedLinks["Hub.md"] ?? {});
		expect(memo()).toBe(false);
		try {
			const restore = sliceAlwaysUsedUp();
			try {
				index.start();
				await index.whenReady();
				// The hub's links are kept last, after its note is in the index.
				for (let turn = 0; turn < 10_000 && !memo(); turn++) await new Promise((resolve) => setImmediate(resolve));
			} finally {
				restore();
			}
			expect(memo()).toBe(true);
			// All 2,000 in one piece on c9445824.
			expect(Math.max(...perPiece)).toBeLessThanOrEqual(LINKS_PER_CLOCK_CHECK + 2);
			const stats = await graphStats(vault.host, scope, 1, new CallBudget(), sharedNoteMemo);
			expect(stats).toMatchObject({ ...expectedStats, top_linked: [{ path: "Hub.md", backlinks: NOTES }] });
			expect(stats).toEqual(
				await graphStats(vault.host, { configDir: vault.host.vault.configDir, excludedFolders: EXCLUDED }, 1, new CallBudget(), new NoteMemo()),
			);
		} finally {
			await index.stop();
		}
	}, 60_000);
});
