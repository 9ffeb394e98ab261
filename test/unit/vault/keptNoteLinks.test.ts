import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { collatorCalls } from "../../helpers/collatorCalls";
import {
	KEPT_BACKLINK_BYTES,
	KEPT_BACKLINK_SORTING_BYTES,
	KEPT_BACKLINK_SOURCE_BYTES,
	KEPT_NOTE_LINK_WALKS,
	LINKS_PER_CLOCK_CHECK,
	SORT_CHECK_ITEMS,
} from "../../../src/config/limits";
import type { HostFile } from "../../../src/host/Host";
import { KeptNoteLinks } from "../../../src/vault/keptNoteLinks";
import { backlinks, noteLinks } from "../../../src/vault/links";
import { CallOverBudget, type CallBudget } from "../../../src/vault/workBudget";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { replaceMethod } from "../../helpers/replaceMethod";

const LINK_PATHS = 2_000;
const LISTED = 100;

/** A note linking to Hub, to Private/Secret and to `count` names no file has (`prefix0`, `prefix1`, …). */
function linksTo(prefix: string, count: number): string {
	return `[[Hub]] [[Secret]] ${Array.from({ length: count }, (_, index) => `[[${prefix}${index}]]`).join(" ")}\n`;
}

/**
 * A budget that is always due and lets a call pass `pauses` checkpoints, each a turn of the event
 * loop, then stops it as a call over its budget is stopped: a count, not a clock. The walk looks at
 * the clock after each new link path, so a call resolves about `pauses` of them.
 */
function budgetOf(pauses: number): CallBudget {
	let left = pauses;
	return {
		due: () => true,
		beginSlice: () => undefined,
		checkpoint: async () => {
			if (left-- <= 0) throw new CallOverBudget(0);
			await new Promise((resolve) => setImmediate(resolve));
		},
	} as unknown as CallBudget;
}

describe("KeptNoteLinks: a walk over a note's links stopped at its budget is gone on with by the next call", () => {
	let vault: OpenVault;
	let kept: KeptNoteLinks;
	/** Link paths resolved since the test began, by the note asking. */
	const resolved = new Map<string, number>();
	let counting: { restore(): void };
	beforeAll(async () => {
		const files: Record<string, string> = {
			"Hub.md": "# Hub\n",
			"Private/Secret.md": "# Secret\n",
			"Planted.md": linksTo("n", LINK_PATHS),
			"Changed.md": linksTo("c", LINK_PATHS),
		};
		for (let note = 0; note <= KEPT_NOTE_LINK_WALKS; note++) files[`Big ${note}.md`] = linksTo(`b${note}-`, LINKS_PER_CLOCK_CHECK);
		vault = await openVault(files);
		await vault.host.metadataCache.settled();
		const cache = vault.host.metadataCache;
		const first = cache.getFirstLinkpathDest.bind(cache);
		counting = replaceMethod(cache, "getFirstLinkpathDest", (linkpath: string, source: string) => {
			resolved.set(source, (resolved.get(source) ?? 0) + 1);
			return first(linkpath, source);
		});
	});
	afterAll(async () => {
		counting.restore();
		await vault.close();
	});
	beforeEach(() => {
		kept = new KeptNoteLinks(vault.host);
		kept.start();
		resolved.clear();
	});
	afterEach(() => kept.stop());
	const file = (path: string): HostFile => vault.host.vault.getFileByPath(path) as HostFile;

	/** Calls until the walk ends, each call stopped after `pauses` checkpoints; the answer and the calls made. */
	async function untilAnswered(path: string, scope = vault.scope("Private"), pauses = 500) {
		for (let calls = 1; calls <= 100; calls++) {
			try {
				return { links: await kept.links(scope, file(path), LISTED, budgetOf(pauses)), calls };
			} catch (error) {
				if (!(error instanceof CallOverBudget)) throw error;
			}
		}
		throw new Error(`${path}: still stopped after 100 calls`);
	}

	test("ends after a few calls, each link path resolved once in all, and answers as a walk made whole; then again with none resolved", async () => {
		const fresh = await noteLinks(vault.host, vault.scope("Private"), file("Planted.md"), LISTED);
		resolved.clear();
		const { links, calls } = await untilAnswered("Planted.md");
		// Starting over each time, a call that resolves about 500 link paths would never end.
		expect(calls).toBeGreaterThanOrEqual(4);
		expect(resolved.get("Planted.md")).toBe(LINK_PATHS + 2);
		expect(links).toMatchObject({ outgoing: fresh.outgoing, outgoingTotal: LINK_PATHS + 2, unresolved: fresh.unresolved, unresolvedTotal: LINK_PATHS + 1 });
		expect(links.unresolved[0]).toBe("Secret");
		expect((await untilAnswered("Planted.md")).calls).toBe(1);
		expect(resolved.get("Planted.md")).toBe(LINK_PATHS + 2);
	});

	test("two calls at once take turns on the walk: both answer the same, each link path resolved once", async () => {
		const scope = vault.scope("Private");
		const [one, two] = await Promise.all([
			kept.links(scope, file("Planted.md"), LISTED, budgetOf(Infinity)),
			kept.links(scope, file("Planted.md"), LISTED, budgetOf(Infinity)),
		]);
		expect(two).toEqual(one);
		expect(one.outgoingTotal).toBe(LINK_PATHS + 2);
		expect(resolved.get("Planted.md")).toBe(LINK_PATHS + 2);
	});

	test("a walk is for one scope: another token's, seeing the private folder, walks the note afresh", async () => {
		await untilAnswered("Planted.md");
		const { links } = await untilAnswered("Planted.md", vault.scope());
		expect(links.outgoing[1]).toEqual({ link: "Secret", target: "Private/Secret.md", line: 0 });
		expect(links.unresolvedTotal).toBe(LINK_PATHS);
		expect(resolved.get("Planted.md")).toBe(2 * (LINK_PATHS + 2));
	});

	test(`at most ${KEPT_NOTE_LINK_WALKS} walks are kept, the one asked longest ago dropped; a note of fewer than ${LINKS_PER_CLOCK_CHECK} links takes no place`, async () => {
		const scope = vault.scope("Private");
		for (let note = 0; note <= KEPT_NOTE_LINK_WALKS; note++) await kept.links(scope, file(`Big ${note}.md`), LISTED);
		await kept.links(scope, file("Hub.md"), LISTED);
		resolved.clear();
		// Big 1 is the longest asked of those kept: had Hub's walk been kept, it would have been dropped for it.
		await kept.links(scope, file("Big 1.md"), LISTED);
		expect(resolved.get("Big 1.md")).toBeUndefined();
		// Big 0 was dropped for Big 8's walk, and is walked again.
		await kept.links(scope, file("Big 0.md"), LISTED);
		expect(resolved.get("Big 0.md")).toBe(LINKS_PER_CLOCK_CHECK + 2);
	});

	test("a walk stopped part way is not dropped for walks another call finished: it still goes on where it stopped", async () => {
		const scope = vault.scope("Private");
		await expect(kept.links(scope, file("Planted.md"), LISTED, budgetOf(500))).rejects.toBeInstanceOf(CallOverBudget);
		// Another token's calls meanwhile, each answered whole: dropping the walk asked longest ago dropped Planted's, whose
		// stopped call had said the same call again gets further, and a client between such calls started over each time.
		for (let note = 0; note < KEPT_NOTE_LINK_WALKS; note++) await kept.links(vault.scope(), file(`Big ${note}.md`), LISTED);
		await untilAnswered("Planted.md");
		expect(resolved.get("Planted.md")).toBe(LINK_PATHS + 2);
	});

	test(`${KEPT_NOTE_LINK_WALKS + 1} walks stopped part way, called in turn, all end: the one furthest behind is dropped, not the one asked longest ago`, async () => {
		const scope = vault.scope("Private");
		const ended = new Set<number>();
		// Each call resolves about 100 of a note's 514 link paths. Dropping the one asked longest ago, each walk was dropped
		// just before its caller came back, and none ever ended.
		for (let round = 0; round < 30 && ended.size <= KEPT_NOTE_LINK_WALKS; round++)
			for (let note = 0; note <= KEPT_NOTE_LINK_WALKS; note++) {
				if (ended.has(note)) continue;
				await kept.links(scope, file(`Big ${note}.md`), LISTED, budgetOf(100)).then(
					() => ended.add(note),
					(error: unknown) => {
						if (!(error instanceof CallOverBudget)) throw error;
					},
				);
			}
		expect(ended.size).toBe(KEPT_NOTE_LINK_WALKS + 1);
	});

	test("a changed note is walked afresh: its new links are answered", async () => {
		await expect(kept.links(vault.scope("Private"), file("Changed.md"), LISTED, budgetOf(500))).rejects.toBeInstanceOf(CallOverBudget);
		await vault.host.vault.process(file("Changed.md"), () => linksTo("m", 10));
		await vault.host.metadataCache.settled();
		const { links, calls } = await untilAnswered("Changed.md");
		expect([calls, links.outgoingTotal, links.unresolved.slice(0, 3)]).toEqual([1, 12, ["Secret", "m0", "m1"]]);
	});

	// Last: it adds a note to the vault the others share.
	test("a note made drops what was kept (as one deleted or moved): where a link path leads may change with any file", async () => {
		await untilAnswered("Planted.md");
		await vault.host.vault.create("n7.md", "Seven.\n");
		await vault.host.metadataCache.settled();
		const { links, calls } = await untilAnswered("Planted.md");
		expect(calls).toBeGreaterThanOrEqual(4);
		expect(links.unresolvedTotal).toBe(LINK_PATHS);
		expect(links.outgoing.find((link) => link.link === "n7")?.target).toBe("n7.md");
	});

	// Last as well: it adds a note.
	test("a walk made after a note came but before the host resolved links to it is dropped when the host does: the link is reached", async () => {
		// The headless host adds a new file to its link resolver in its queue of changes, after the vault's `create`
		// (which dropped every walk): held here as a parse of a big note ahead of it holds it.
		const metadata = vault.host.metadataCache as unknown as { onCreate(file: HostFile): Promise<void> };
		const onCreate = metadata.onCreate.bind(metadata);
		let release = (): void => undefined;
		const ahead = new Promise<void>((resolve) => (release = resolve));
		const holding = replaceMethod(metadata, "onCreate", async (made: HostFile) => {
			await ahead;
			return onCreate(made);
		});
		try {
			await vault.host.vault.create("n9.md", "Nine.\n");
			const meanwhile = await untilAnswered("Planted.md");
			expect(meanwhile.links.outgoing.find((link) => link.link === "n9")?.target).toBeNull();
		} finally {
			release();
			holding.restore();
		}
		await vault.host.metadataCache.settled();
		// Kept as made meanwhile, n9 pointed nowhere until the next file came, went or moved.
		const { links } = await untilAnswered("Planted.md");
		expect(links.outgoing.find((link) => link.link === "n9")?.target).toBe("n9.md");
		expect(links.unresolvedTotal).toBe(LINK_PATHS - 1);
	});
});

/** Notes linking to every hub, and the hubs. */
const LINKING_NOTES = 600;
const HUBS = 4;

/**
 * Backlinks walks held their memory outside KEPT_NOTE_LINK_BYTES (eight of a hub linked from 100,000 notes: 74 MB), and
 * sorted every linking file in one piece, redone from the start by a call stopped in it. Counted: `resolvedLinks` records
 * read and collator comparisons, never a clock. About 0.8 s of CPU here (load 15), most of it the vault's 604 files opened.
 */
describe("KeptNoteLinks: backlinks walks, their memory counted and their first sort in pieces", () => {
	let vault: OpenVault;
	/** Linking notes' `resolvedLinks` records read since the test began: a backlinks walk reads each once as it counts it. */
	let recordsRead = 0;
	let restoreRecords = (): void => undefined;
	beforeAll(async () => {
		const hubLinks = Array.from({ length: HUBS }, (_, hub) => `[[H${hub}]]`).join(" ");
		const files: Record<string, string> = {};
		for (let hub = 0; hub < HUBS; hub++) files[`H${hub}.md`] = "# Hub\n";
		// Names of letters in either case: the vault lists them in code order (capitals first), the answer's order is the
		// collator's (either case together), so the sort has work to do.
		const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
		let seed = 7;
		const letter = () => letters[(seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % letters.length] as string;
		for (let note = 0; note < LINKING_NOTES; note++) files[`L/${letter()}${letter()}${letter()}${note}.md`] = `${hubLinks}\n`;
		vault = await openVault(files);
		await vault.host.metadataCache.settled();
		const cache = vault.host.metadataCache;
		const records = cache.resolvedLinks;
		const counted = new Proxy(records, {
			get: (target, key, receiver) => {
				if (typeof key === "string" && key.startsWith("L/")) recordsRead++;
				return Reflect.get(target, key, receiver) as unknown;
			},
		});
		Object.defineProperty(cache, "resolvedLinks", { value: counted, configurable: true, writable: true });
		restoreRecords = () => Object.defineProperty(cache, "resolvedLinks", { value: records, configurable: true, writable: true });
	});
	afterAll(async () => {
		restoreRecords();
		await vault.close();
	});

	test("eight walks' worth fit the count, but not the bytes: backlinks walks are held within the bound of bytes, the one asked last kept", async () => {
		// Room for two finished walks of a hub, and a half.
		const bound = 2.5 * LINKING_NOTES * KEPT_BACKLINK_BYTES;
		const kept = new KeptNoteLinks(vault.host, bound);
		kept.start();
		try {
			const scope = vault.scope();
			for (let hub = 0; hub < HUBS; hub++) expect(await kept.backlinks(scope, `H${hub}.md`)).toHaveLength(LINKING_NOTES);
			recordsRead = 0;
			// The last asked is kept: answered again without counting.
			await kept.backlinks(scope, `H${HUBS - 1}.md`);
			expect(recordsRead).toBe(0);
			// The first was dropped for the bound (uncounted, four walks of 600 entries were all kept) and counts afresh.
			await kept.backlinks(scope, "H0.md");
			expect(recordsRead).toBe(LINKING_NOTES);
			expect(kept.heldBytes).toBeLessThanOrEqual(bound);
		} finally {
			kept.stop();
		}
	});

	test("stopped walks that two by two pass the bound of bytes, each asked in turn by its own client, all end; at most two such walks held", async () => {
		// Any two walks pass the bound (a walk holds KEPT_BACKLINK_SOURCE_BYTES for each vault file from its start), so only the
		// walk asked and one other may be kept. Dropping every walk but the one asked, each dropped the other at every call
		// and none ended (walks175's left case: two hubs of ~800,000 linking notes each, called alternately).
		const vaultFiles = Object.keys(vault.host.metadataCache.resolvedLinks).length;
		const bound = 1.5 * vaultFiles * KEPT_BACKLINK_SOURCE_BYTES;
		const largestWalk = vaultFiles * KEPT_BACKLINK_SOURCE_BYTES + LINKING_NOTES * (KEPT_BACKLINK_BYTES + KEPT_BACKLINK_SORTING_BYTES);
		const kept = new KeptNoteLinks(vault.host, bound);
		kept.start();
		try {
			const scope = vault.scope();
			// Two clients alternating, then four (a hub each) in turn, then two while H3's client, furthest on, gave up: each
			// call counts about 100 linking notes. Kept however long ago it was asked, H3's walk would have held the place.
			for (const [first, hubs] of [
				[0, 2],
				[0, HUBS],
				[1, 3],
			] as const) {
				if (first === 1) for (let call = 0; call < 5; call++) await kept.backlinks(scope, "H3.md", budgetOf(100)).catch(() => undefined);
				const ended = new Set<number>();
				let mostHeld = 0;
				for (let round = 0; round < 40 && ended.size < hubs - first; round++)
					for (let hub = first; hub < hubs; hub++) {
						if (ended.has(hub)) continue;
						await kept.backlinks(scope, `H${hub}.md`, budgetOf(100)).then(
							() => ended.add(hub),
							(error: unknown) => {
								if (!(error instanceof CallOverBudget)) throw error;
							},
						);
						mostHeld = Math.max(mostHeld, kept.heldBytes);
					}
				expect([first, hubs, ended.size]).toEqual([first, hubs, hubs - first]);
				// Past the bound by the walk asked and one other at most: four walks would hold twice as much.
				expect(mostHeld).toBeLessThanOrEqual(2 * largestWalk);
				kept.stop();
				kept.start();
			}
		} finally {
			kept.stop();
		}
	});

	test("a kept walk does not hold the last answer it gave (memory its bytes do not count)", async () => {
		// The walk's turn was the answer's promise: a finished walk of 20,000 linking notes held 102 B a linking note where
		// its bytes counted 64 (62 without the answer).
		setFlagsFromString("--expose-gc");
		const collect = runInNewContext("gc") as () => void;
		const kept = new KeptNoteLinks(vault.host);
		kept.start();
		try {
			const answered = async () => new WeakRef(await kept.backlinks(vault.scope(), "H2.md"));
			const answer = await answered();
			await new Promise((resolve) => setImmediate(resolve));
			collect();
			expect(answer.deref()).toBeUndefined();
		} finally {
			kept.stop();
		}
	});

	test(`a finished backlinks walk makes its answer in pieces: at most ${LINKS_PER_CLOCK_CHECK} entries between two pauses, the same answer`, async () => {
		const kept = new KeptNoteLinks(vault.host);
		kept.start();
		const scope = vault.scope();
		const whole = await kept.backlinks(scope, "H2.md");
		expect(whole).toHaveLength(LINKING_NOTES);
		// Linking notes' counts looked up between two pauses, piece by piece: each entry of the answer looks up its count.
		const pieces = [0];
		const get = Object.getOwnPropertyDescriptor(Map.prototype, "get")?.value as (this: Map<unknown, unknown>, key: unknown) => unknown;
		const counting = jest.spyOn(Map.prototype, "get").mockImplementation(function (this: Map<unknown, unknown>, key: unknown) {
			if (typeof key === "string" && key.startsWith("L/")) pieces.push((pieces.pop() ?? 0) + 1);
			return get.call(this, key);
		});
		const alwaysDue = {
			due: () => true,
			beginSlice: () => undefined,
			checkpoint: async () => {
				await new Promise((resolve) => setImmediate(resolve));
				pieces.push(0);
			},
		} as unknown as CallBudget;
		let again: Array<{ path: string; count: number }>;
		try {
			again = await kept.backlinks(scope, "H2.md", alwaysDue);
		} finally {
			counting.mockRestore();
			kept.stop();
		}
		expect(again).toEqual(whole);
		expect(pieces.reduce((sum, piece) => sum + piece, 0)).toBeGreaterThanOrEqual(LINKING_NOTES);
		// On the base: all 600 in one piece.
		expect(Math.max(...pieces)).toBeLessThanOrEqual(LINKS_PER_CLOCK_CHECK);
	});

	/**
	 * H3's backlinks now, and one linking note from the middle of them with `edit`, which rewrites it (to link to H3 twice:
	 * it goes first, with a count of 2) and waits for the cache.
	 */
	const editableLinkingNote = async () => {
		const scope = vault.scope();
		const hubLinks = Array.from({ length: HUBS }, (_, hub) => `[[H${hub}]]`).join(" ");
		const before = await backlinks(vault.host, scope, "H3.md");
		const edited = before[LINKING_NOTES / 2]?.path as string;
		const edit = async (text: string) => {
			await vault.host.vault.process(vault.host.vault.getFileByPath(edited) as HostFile, () => text);
			await vault.host.metadataCache.settled();
		};
		return { scope, hubLinks, before, edited, edit };
	};

	test("a linking note edited at any pause of a call, first or on a finished walk, is answered as it is after the edit", async () => {
		const { scope, hubLinks, before, edited, edit } = await editableLinkingNote();
		/** A budget always due whose `at`-th pause (from 1) edits the note; `pauses` counts them. */
		const editingAt = (at: number) => {
			const budget = {
				pauses: 0,
				due: () => true,
				beginSlice: () => undefined,
				checkpoint: async () => {
					if (++budget.pauses === at) await edit(`${hubLinks} [[H3]]\n`);
					await new Promise((resolve) => setImmediate(resolve));
				},
			};
			return budget;
		};
		const kept = new KeptNoteLinks(vault.host);
		try {
			for (const finished of [false, true]) {
				kept.start();
				if (finished) await kept.backlinks(scope, "H3.md");
				// The call's pauses with nothing edited: the first call's counts, its sort and lists; a finished walk's few.
				const dry = editingAt(0);
				expect(await kept.backlinks(scope, "H3.md", dry as unknown as CallBudget)).toEqual(before);
				if (finished) await kept.backlinks(scope, "H3.md");
				else kept.stop();
				// Edited at each pause after the counting (at each of a finished walk's): at the last ones, on the base, the
				// answer was the one counted before the edit.
				for (let at = finished ? 1 : LINKING_NOTES; at <= dry.pauses; at++) {
					if (!finished) kept.start();
					const answer = await kept.backlinks(scope, "H3.md", editingAt(at) as unknown as CallBudget);
					expect([finished, at, answer]).toEqual([finished, at, await backlinks(vault.host, scope, "H3.md")]);
					expect(answer[0]).toEqual({ path: edited, count: 2 });
					await edit(`${hubLinks}\n`);
					// Finished again (the note counted back), or let go.
					if (finished) await kept.backlinks(scope, "H3.md");
					else kept.stop();
				}
				kept.stop();
			}
		} finally {
			kept.stop();
			if ((await vault.host.vault.cachedRead(vault.host.vault.getFileByPath(edited) as HostFile)) !== `${hubLinks}\n`) await edit(`${hubLinks}\n`);
		}
	});

	test("a linking note edited at every pause of a call still gets an answer: the changes are counted again at most BACKLINK_RECOUNTS_PER_CALL times", async () => {
		const { scope, hubLinks, before, edited, edit } = await editableLinkingNote();
		// Each pause after the first count edits the note to link to H3 once or twice in turn, as a sync tool rewriting it
		// might: every count changes and the order must be made again. Without the bound the call sorted for ever (its way
		// out here: WAY_OUT pauses).
		const WAY_OUT = 20_000;
		let editing = false;
		const budget = {
			pauses: 0,
			due: () => true,
			beginSlice: () => undefined,
			checkpoint: async () => {
				if (++budget.pauses > WAY_OUT) throw new Error(`still sorting after ${WAY_OUT} pauses`);
				if (editing) await edit(budget.pauses % 2 === 0 ? `${hubLinks} [[H3]]\n` : `${hubLinks}\n`);
				await new Promise((resolve) => setImmediate(resolve));
			},
		};
		const kept = new KeptNoteLinks(vault.host);
		try {
			kept.start();
			await kept.backlinks(scope, "H3.md");
			editing = true;
			const answer = await kept.backlinks(scope, "H3.md", budget as unknown as CallBudget);
			editing = false;
			expect(answer.map(({ path }) => path).sort()).toEqual(before.map(({ path }) => path).sort());
			expect([1, 2]).toContain(answer.find(({ path }) => path === edited)?.count);
			// The next call counts what changed since and answers the vault as it is.
			await edit(`${hubLinks}\n`);
			expect(await kept.backlinks(scope, "H3.md")).toEqual(before);
		} finally {
			editing = false;
			kept.stop();
			if ((await vault.host.vault.cachedRead(vault.host.vault.getFileByPath(edited) as HostFile)) !== `${hubLinks}\n`) await edit(`${hubLinks}\n`);
		}
	});

	test("a linking note's count changed on a finished walk moves it in the kept order: a binary search, not a sort of every linking note", async () => {
		const { scope, hubLinks, edited, edit } = await editableLinkingNote();
		const kept = new KeptNoteLinks(vault.host);
		kept.start();
		try {
			await kept.backlinks(scope, "H3.md");
			// Up (first, count 2), then down (back among the rest), then a page of it: each call's comparisons counted.
			const compared: number[] = [];
			for (const text of [`${hubLinks} [[H3]]\n`, `${hubLinks}\n`]) {
				await edit(text);
				const before = collatorCalls();
				const answer = await kept.backlinks(scope, "H3.md");
				compared.push(collatorCalls() - before);
				expect(answer).toEqual(await backlinks(vault.host, scope, "H3.md"));
			}
			await edit(`${hubLinks} [[H3]]\n`);
			const before = collatorCalls();
			const page = await kept.backlinksPage(scope, "H3.md", 10, undefined);
			compared.push(collatorCalls() - before);
			expect(page?.items[0]).toEqual({ path: edited, count: 2 });
			expect(page?.total).toBe(LINKING_NOTES);
			// Two binary searches over 600 (about 10 comparisons each), a page's one: on the base each was a sort, about 4,000.
			for (const calls of compared) expect(calls).toBeLessThanOrEqual(64);
		} finally {
			kept.stop();
			await edit(`${hubLinks}\n`);
		}
	});

	test("a backlinks walk's first sort goes in pieces; a call stopped in it is gone on with by the next, not sorted from the start", async () => {
		const kept = new KeptNoteLinks(vault.host);
		kept.start();
		try {
			const scope = vault.scope();
			// One sort of the 600 linking notes, made whole: 4,063 comparisons.
			const before = collatorCalls();
			await kept.backlinks(scope, "H1.md");
			const wholeSort = collatorCalls() - before;
			kept.stop();
			kept.start();
			// Comparisons between two checkpoints, piece by piece, over calls each stopped after 4 checkpoints (a linking note
			// counted between two, SORT_CHECK_ITEMS merged): a sort of several pieces is stopped part way.
			const pieces = [0];
			let last = collatorCalls();
			const stoppingBudget = (): CallBudget => {
				let left = 4;
				return {
					due: () => true,
					beginSlice: () => undefined,
					checkpoint: async () => {
						pieces.push(collatorCalls() - last);
						if (left-- <= 0) throw new CallOverBudget(0);
						await new Promise((resolve) => setImmediate(resolve));
						last = collatorCalls();
					},
				} as unknown as CallBudget;
			};
			let answer: Array<{ path: string; count: number }> | null = null;
			let stoppedSorting = 0;
			for (let calls = 0; answer === null && calls < 400; calls++) {
				const callStart = collatorCalls();
				answer = await kept.backlinks(scope, "H1.md", stoppingBudget()).catch((error: unknown) => {
					if (!(error instanceof CallOverBudget)) throw error;
					if (collatorCalls() > callStart) stoppedSorting++;
					last = collatorCalls();
					return null;
				});
			}
			pieces.push(collatorCalls() - last);
			// Sorted afresh at each call, a sort of more pieces than a call may take never ended.
			expect(answer?.map(({ path }) => path)).toEqual((await kept.backlinks(scope, "H1.md")).map(({ path }) => path));
			expect(answer).toHaveLength(LINKING_NOTES);
			// A piece merges SORT_CHECK_ITEMS items, a comparison each at most (765 here); the first sort was one piece (2,979–3,005 on the base).
			expect(Math.max(...pieces)).toBeLessThanOrEqual(SORT_CHECK_ITEMS);
			// Stopped in the sort, and gone on with.
			expect(stoppedSorting).toBeGreaterThanOrEqual(1);
			// Gone on with where it stopped: all the calls compared as much as one sort.
			expect(pieces.reduce((sum, piece) => sum + piece, 0)).toBeLessThanOrEqual(1.5 * wholeSort);
		} finally {
			kept.stop();
		}
	});

	test("a page read after hundreds of linking notes' counts changed sorts the changes since its cursor in pieces, not in one", async () => {
		const kept = new KeptNoteLinks(vault.host);
		kept.start();
		const scope = vault.scope();
		const hubLinks = Array.from({ length: HUBS }, (_, hub) => `[[H${hub}]]`).join(" ");
		// Half the linking notes, every other in the vault's order (random to the collator's): the changes are kept in the order they were counted.
		const edited = vault.host.vault
			.getMarkdownFiles()
			.filter((file) => file.path.startsWith("L/"))
			.filter((_, index) => index % 2 === 0);
		const rewrite = async (text: string) => {
			for (const file of edited) await vault.host.vault.process(file, () => text);
			await vault.host.metadataCache.settled();
		};
		try {
			const first = await kept.backlinksPage(scope, "H2.md", 10, undefined);
			expect(first?.next).toBeDefined();
			// Half the linking notes link H2 twice now: 300 count changes since the first page, all of count 1 then.
			await rewrite(`${hubLinks} [[H2]]\n`);
			const pieces = [0];
			let last = collatorCalls();
			const pausing = {
				due: () => true,
				beginSlice: () => undefined,
				checkpoint: async () => {
					pieces.push(collatorCalls() - last);
					await new Promise((resolve) => setImmediate(resolve));
					last = collatorCalls();
				},
			} as unknown as CallBudget;
			const second = await kept.backlinksPage(
				scope,
				"H2.md",
				10,
				{ after: first?.next?.after as { path: string; count: number }, order: first?.nextOrder },
				pausing,
			);
			pieces.push(collatorCalls() - last);
			// In the first page's order (every count was 1 then), counts as now.
			expect(second?.orderChanged).toBe("kept");
			const then = (await backlinks(vault.host, scope, "H1.md")).map(({ path }) => path);
			const twice = new Set(edited.map((file) => file.path));
			expect(second?.items).toEqual(then.slice(10, 20).map((path) => ({ path, count: twice.has(path) ? 2 : 1 })));
			// A piece merges SORT_CHECK_ITEMS items at most; on the base the 300 changes' keys were sorted in the page's one piece.
			expect(Math.max(...pieces)).toBeLessThanOrEqual(SORT_CHECK_ITEMS);
		} finally {
			kept.stop();
			await rewrite(`${hubLinks}\n`);
		}
	});

	test("a page's cursor names its walk at random: two walks' names made one after the other tell nothing of the walks made between", async () => {
		const kept = new KeptNoteLinks(vault.host);
		kept.start();
		try {
			const scope = vault.scope();
			const walkOf = async (hub: string) => (await kept.backlinksPage(scope, hub, 10, undefined))?.nextOrder?.split("/")[0] ?? "";
			const [a, b] = [await walkOf("H0.md"), await walkOf("H1.md")];
			// Named by a count after the server's start time (on the base), the two shared all but the count's last characters.
			let shared = 0;
			while (shared < Math.min(a.length, b.length) && a[shared] === b[shared]) shared++;
			expect(shared).toBeLessThanOrEqual(3);
			expect(a.length).toBeGreaterThanOrEqual(12);
		} finally {
			kept.stop();
		}
	});
});
