import { KEPT_NOTE_LINK_WALKS, LINKS_PER_CLOCK_CHECK } from "../../../src/config/limits";
import type { HostFile } from "../../../src/host/Host";
import { KeptNoteLinks } from "../../../src/vault/keptNoteLinks";
import { noteLinks } from "../../../src/vault/links";
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
