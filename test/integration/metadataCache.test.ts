import { promises as fs, renameSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { NodeHost } from "../../src/headless/NodeHost";
import { eventLoopTurns } from "../../src/turns";
import type { CachedMetadata } from "obsidian";
import type { HostFile } from "../../src/host/Host";
import { KeptGraphStats } from "../../src/vault/keptGraphStats";
import { NotesWithTasks } from "../../src/vault/notesWithTasks";
import type { Scope } from "../../src/vault/scope";
import { makeVault, removeDir } from "../helpers/vault";

describe("NodeHost's metadata cache follows changes made on disk by other programs", () => {
	let root: string;
	let host: NodeHost;
	const events: string[] = [];

	beforeEach(async () => {
		root = await makeVault({
			"Hub.md": "# Hub\n\nSee [[Target]] and [[Target#Part|the part]] and [[Later]].\n",
			"Target.md": "# Target\n\n#topic\n",
			"Side.md": "Also [[Target]].\n",
		});
		host = await NodeHost.open(root, { watch: true });
		events.length = 0;
		host.metadataCache.on("changed", (file) => events.push(`changed ${file.path}`));
		host.metadataCache.on("deleted", (file) => events.push(`deleted ${file.path}`));
		host.metadataCache.on("resolved", () => events.push("resolved"));
	});
	afterEach(async () => {
		await host.close();
		await removeDir(root);
	});

	/**
	 * Runs `check` once the cache has taken in what other programs did on disk before: the watcher's
	 * looks, the deletes it tells after a rename's pairing wait, and the parses and link resolutions
	 * they queued. Polled until the links held (at most a second), the events were asserted after: a
	 * new note's `resolved` comes after the last link is resolved and a slice's pause, and under load
	 * the test asked before it (3 of 4 runs at load 20).
	 */
	const onceCaughtUp = async (check: () => void) => {
		await host.metadataCache.caughtUpWithDisk();
		check();
	};

	const backlinksOf = (target: string) =>
		Object.entries(host.metadataCache.resolvedLinks)
			.filter(([, targets]) => target in targets)
			.map(([source]) => source)
			.sort();

	test("starts with every link resolved or unresolved as Obsidian would", () => {
		expect(host.metadataCache.resolvedLinks).toEqual({ "Hub.md": { "Target.md": 2 }, "Target.md": {}, "Side.md": { "Target.md": 1 } });
		expect(host.metadataCache.unresolvedLinks).toEqual({ "Hub.md": { Later: 1 }, "Target.md": {}, "Side.md": {} });
		// Plain objects, as Obsidian's: whatever V8 keeps them as, a plugin may call their prototype's methods.
		const records = [...Object.values(host.metadataCache.resolvedLinks), ...Object.values(host.metadataCache.unresolvedLinks)];
		expect(records.every((record) => Object.getPrototypeOf(record) === Object.prototype)).toBe(true);
		expect(Object.prototype.hasOwnProperty.call(host.metadataCache.resolvedLinks["Hub.md"], "Target.md")).toBe(true);
	});

	test("a note created outside resolves links that pointed nowhere, and gets its own cache", async () => {
		await fs.writeFile(nodePath.join(root, "Later.md"), "Back to [[Hub]] #new\n");
		await onceCaughtUp(() => {
			expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "Target.md": 2, "Later.md": 1 });
			expect(host.metadataCache.unresolvedLinks["Hub.md"]).toEqual({});
			expect(host.metadataCache.getCache("Later.md")?.tags?.[0]?.tag).toBe("#new");
		});
		expect(events).toContain("changed Later.md");
		expect(events).toContain("resolved");
	});

	test("an edit outside rebuilds that note's cache and links", async () => {
		await fs.writeFile(nodePath.join(root, "Side.md"), "Now [[Hub]] instead. #edited\n");
		await onceCaughtUp(() => {
			expect(host.metadataCache.resolvedLinks["Side.md"]).toEqual({ "Hub.md": 1 });
			expect(host.metadataCache.getCache("Side.md")?.tags?.map((tag) => tag.tag)).toEqual(["#edited"]);
		});
		expect(backlinksOf("Target.md")).toEqual(["Hub.md"]);
		expect(events).toContain("changed Side.md");
	});

	test("a note parsed at start that another program touches, or writes over with its same text, keeps its metadata unparsed; a new text is parsed", async () => {
		const target = nodePath.join(root, "Target.md");
		const atStart = host.metadataCache.getCache("Target.md");
		const told: CachedMetadata[] = [];
		host.metadataCache.on("changed", (file, _text, cache) => void (file.path === "Target.md" && told.push(cache)));
		await fs.utimes(target, new Date(), new Date(Date.now() + 60_000));
		await host.metadataCache.caughtUpWithDisk();
		// The same bytes over themselves: no other text is ever on disk.
		const handle = await fs.open(target, "r+");
		await handle.write("# Target\n\n#topic\n", 0);
		await handle.close();
		await host.metadataCache.caughtUpWithDisk();
		// On fedd8526 its first change was parsed in full (no digest was kept at start): a new object, told and cached.
		const kept = { told: told.length >= 2, kept: told.every((cache) => cache === atStart), cached: host.metadataCache.getCache("Target.md") === atStart };
		expect(kept).toEqual({ told: true, kept: true, cached: true });
		await fs.appendFile(target, "#more [[Side]]\n");
		await onceCaughtUp(() => {
			expect(host.metadataCache.getCache("Target.md")?.tags?.map((tag) => tag.tag)).toEqual(["#topic", "#more"]);
			expect(host.metadataCache.resolvedLinks["Target.md"]).toEqual({ "Side.md": 1 });
		});
		expect(told.at(-1)).not.toBe(atStart);
	});

	test("a rename outside: backlinks follow the note's new path, and links to the old name become unresolved", async () => {
		await fs.rename(nodePath.join(root, "Side.md"), nodePath.join(root, "Renamed.md"));
		await onceCaughtUp(() => {
			expect(host.metadataCache.resolvedLinks["Renamed.md"]).toEqual({ "Target.md": 1 });
			expect(host.metadataCache.resolvedLinks["Side.md"]).toBeUndefined();
		});
		expect(backlinksOf("Target.md")).toEqual(["Hub.md", "Renamed.md"]);
		expect(host.metadataCache.getCache("Renamed.md")?.links?.[0]?.link).toBe("Target");

		await fs.rename(nodePath.join(root, "Target.md"), nodePath.join(root, "Moved.md"));
		await onceCaughtUp(() => expect(host.metadataCache.unresolvedLinks["Hub.md"]).toEqual({ Target: 2, Later: 1 }));
		expect(backlinksOf("Moved.md")).toEqual([]);
	});

	test("a note another program renames and at once rewrites ends with its new text's links and tags", async () => {
		// Both before the watcher looks: the rename is paired by inode, and the write's own event then matches the stats recorded.
		await fs.rename(nodePath.join(root, "Side.md"), nodePath.join(root, "Renamed.md"));
		await fs.writeFile(nodePath.join(root, "Renamed.md"), "Now [[Hub]] instead. #edited\n");
		await onceCaughtUp(() => {
			expect(host.metadataCache.resolvedLinks["Renamed.md"]).toEqual({ "Hub.md": 1 });
			expect(host.metadataCache.getCache("Renamed.md")?.tags?.map((tag) => tag.tag)).toEqual(["#edited"]);
		});
		expect(backlinksOf("Target.md")).toEqual(["Hub.md"]);
		expect(events).toContain("changed Renamed.md");
	});

	test("a note another program rewrites and then renames before its new text is read ends with that text's links and tags", async () => {
		// The rename comes between the watcher's look at the rewrite (its stats recorded, a parse queued) and that parse's
		// read: the read finds nothing at the old path, and the rename's stats are those recorded, so no change is told with it.
		let renamed!: () => void;
		const renamedBeforeRead = new Promise<void>((resolve) => (renamed = resolve));
		let armed = false;
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = (file) => {
			if (armed && file.path === "Side.md") {
				armed = false;
				renameSync(nodePath.join(root, "Side.md"), nodePath.join(root, "Renamed.md"));
				renamed();
			}
			return cachedRead(file);
		};
		armed = true;
		// In one piece, so the watcher's first look sees the whole new text.
		writeFileSync(nodePath.join(root, "Side.md"), "Now [[Hub]] instead. #edited\n");
		await renamedBeforeRead;
		await onceCaughtUp(() => {
			expect(host.metadataCache.resolvedLinks["Renamed.md"]).toEqual({ "Hub.md": 1 });
			expect(host.metadataCache.getCache("Renamed.md")?.tags?.map((tag) => tag.tag)).toEqual(["#edited"]);
		});
		expect(host.metadataCache.getCache("Side.md")).toBeNull();
		expect(backlinksOf("Target.md")).toEqual(["Hub.md"]);
	});

	test("a delete outside drops the note's cache, reports deleted, and unresolves links to it", async () => {
		await fs.rm(nodePath.join(root, "Target.md"));
		await onceCaughtUp(() => {
			expect(host.metadataCache.getCache("Target.md")).toBeNull();
			expect(host.metadataCache.unresolvedLinks["Side.md"]).toEqual({ Target: 1 });
		});
		expect(events).toContain("deleted Target.md");
	});

	test("getFirstLinkpathDest answers from the live vault", async () => {
		expect(host.metadataCache.getFirstLinkpathDest("target", "Hub.md")?.path).toBe("Target.md");
		await fs.mkdir(nodePath.join(root, "Sub"));
		await fs.writeFile(nodePath.join(root, "Sub/Target.md"), "nested");
		await onceCaughtUp(() => expect(host.metadataCache.getFirstLinkpathDest("Sub/Target", "Hub.md")?.path).toBe("Sub/Target.md"));
		expect(host.metadataCache.getFirstLinkpathDest("Target", "Hub.md")?.path).toBe("Target.md");
	});

	test("links to names an object's prototype has ([[constructor]], [[toString]]) count as any others", async () => {
		await fs.writeFile(nodePath.join(root, "Words.md"), "[[constructor]] [[toString]] [[constructor]] [[valueOf]]\n");
		// On main: { constructor: "function Object() { [native code] }1", toString: "function toString() { [native code] }1", ... }.
		await onceCaughtUp(() => expect(host.metadataCache.unresolvedLinks["Words.md"]).toEqual({ constructor: 2, toString: 1, valueOf: 1 }));
	});
});

describe("NodeHost's metadata cache reads again a note its parse found missing while the vault still lists it", () => {
	/**
	 * Another program rewrites `note`, and moves `moving` (the note or its folder) away to `away` and back while the
	 * note's parse reads it: the read finds nothing. The watcher's looks at both names wait until it is back (their
	 * lstat held): it then finds what it watches as it last saw it and tells nothing, so no event reads the note again.
	 */
	async function missedThenBack(files: Record<string, string>, note: string, moving: string, away: string): Promise<NodeHost> {
		const root = await makeVault(files);
		const host = await NodeHost.open(root, { watch: true });
		const [from, to] = [nodePath.join(host.vault.root, moving), nodePath.join(host.vault.root, away)];
		let back!: () => void;
		const isBack = new Promise<void>((resolve) => (back = resolve));
		let isAway = false;
		const lstat = fs.lstat.bind(fs);
		jest.spyOn(fs, "lstat").mockImplementation((async (path: string, options?: unknown) => {
			if (isAway && (String(path) === from || String(path) === to)) await isBack;
			return lstat(path, options as undefined);
		}) as typeof fs.lstat);
		let armed = true;
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			if (!armed || file.path !== note) return cachedRead(file);
			armed = false;
			isAway = true;
			renameSync(from, to);
			try {
				return await cachedRead(file);
			} finally {
				renameSync(to, from);
				isAway = false;
				back();
			}
		};
		writeFileSync(nodePath.join(host.vault.root, note), "Now [[Hub]]. #edited\n");
		await isBack;
		await host.metadataCache.caughtUpWithDisk();
		return host;
	}

	afterEach(() => jest.restoreAllMocks());

	test.each([
		["its folder", "Sub", "Moved"],
		["the note", "Sub/Eps.md", "Sub/Away.md"],
	])("%s moved away and back during the read: the note ends with the text on disk", async (_, moving, away) => {
		const host = await missedThenBack({ "Sub/Eps.md": "See [[Target]].\n", "Target.md": "# Target\n", "Hub.md": "# Hub\n" }, "Sub/Eps.md", moving, away);
		try {
			// On 565b5cdf: { "Target.md": 1 } and no tags, the text before the rewrite, until another change of the note.
			expect(host.metadataCache.resolvedLinks["Sub/Eps.md"]).toEqual({ "Hub.md": 1 });
			expect(host.metadataCache.getCache("Sub/Eps.md")?.tags?.map((tag) => tag.tag)).toEqual(["#edited"]);
			expect(
				host.vault
					.getFiles()
					.map((file) => file.path)
					.sort(),
			).toEqual(["Hub.md", "Sub/Eps.md", "Target.md"]);
		} finally {
			const root = host.vault.root;
			await host.close();
			await removeDir(root);
		}
	});
});

/**
 * The server renames a note to a free name; while its move waits, another program moves a note there and away again,
 * and the watcher has told only the first (seed 6 of the seeded check with another program's moves, 2 of 100 runs
 * under load: `Sub/Eps.md` kept another note's older links and tags for good). The watcher's part is played by the
 * calls it makes (`movedOnDisk`), on a vault not watched, so the order is the test's. A create has the same window.
 */
describe("NodeHost's metadata cache, a server's rename or create at a name another program's note passed through meanwhile", () => {
	test("the renamed note's own links are kept there, not those of the note the watcher last saw at the name", async () => {
		const root = await makeVault({
			"Beta.md": "See [[Target]]. #beta\n",
			"Sub/Old.md": "Old [[Hub]]. #old\n",
			"Target.md": "# Target\n",
			"Hub.md": "# Hub\n",
		});
		const host = await NodeHost.open(root);
		try {
			const vault = host.vault as unknown as {
				writer: { move: (from: string, to: string, textRead?: string) => Promise<unknown> };
				movedOnDisk: (file: HostFile, path: string, diskPath: string, stats: unknown) => void;
			};
			const old = host.vault.getFileByPath("Sub/Old.md")!;
			const [oldDisk, there, away] = [
				nodePath.join(host.vault.root, "Sub/Old.md"),
				nodePath.join(host.vault.root, "Sub/Eps.md"),
				nodePath.join(host.vault.root, "Gone.md"),
			];
			const move = vault.writer.move.bind(vault.writer);
			vault.writer.move = async (from, to, textRead) => {
				await fs.rename(oldDisk, there);
				vault.movedOnDisk(old, "Sub/Eps.md", there, await fs.lstat(there));
				// Moved on again before the watcher looks: the vault still lists it at the name.
				await fs.rename(there, away);
				return move(from, to, textRead);
			};
			const deleted: string[] = [];
			host.vault.on("delete", (file) => deleted.push(file.path));
			const beta = host.vault.getFileByPath("Beta.md")!;
			await host.vault.rename(beta, "Sub/Eps.md");
			await host.metadataCache.caughtUpWithNotes(["Sub/Eps.md", "Beta.md"]);
			await host.metadataCache.settled();
			// On lead10 (c3feec40): { "Hub.md": 1 } and #old, Sub/Old.md's, replaced in the vault with no delete told.
			expect(host.metadataCache.resolvedLinks["Sub/Eps.md"]).toEqual({ "Target.md": 1 });
			expect(host.metadataCache.getCache("Sub/Eps.md")?.tags?.map((tag) => tag.tag)).toEqual(["#beta"]);
			expect({ listed: host.vault.getFileByPath("Sub/Eps.md") === beta, deleted }).toEqual({ listed: true, deleted: ["Sub/Eps.md"] });
		} finally {
			await host.close();
			await removeDir(root);
		}
	});

	test("a server's create there: the new note has its own links and tags, the other note's text is kept where it went", async () => {
		const root = await makeVault({ "Sub/Old.md": "Old [[Hub]]. #old\n", "Target.md": "# Target\n", "Hub.md": "# Hub\n" });
		const host = await NodeHost.open(root);
		try {
			const vault = host.vault as unknown as {
				writer: { create: (diskPath: string, ...rest: unknown[]) => Promise<unknown> };
				movedOnDisk: (file: HostFile, path: string, diskPath: string, stats: unknown) => void;
			};
			const old = host.vault.getFileByPath("Sub/Old.md")!;
			const [oldDisk, there, away] = [
				nodePath.join(host.vault.root, "Sub/Old.md"),
				nodePath.join(host.vault.root, "Sub/Eps.md"),
				nodePath.join(host.vault.root, "Gone.md"),
			];
			const create = vault.writer.create.bind(vault.writer);
			vault.writer.create = async (diskPath, ...rest) => {
				await fs.rename(oldDisk, there);
				vault.movedOnDisk(old, "Sub/Eps.md", there, await fs.lstat(there));
				await fs.rename(there, away);
				return create(diskPath, ...rest);
			};
			await host.vault.create("Sub/Eps.md", "See [[Target]]. #new\n");
			await host.metadataCache.caughtUpWithNotes(["Sub/Eps.md"]);
			await host.metadataCache.settled();
			// Unlike a rename's, the create's event parses the note made (its listed object is reused): nothing of Old stays.
			expect(host.metadataCache.resolvedLinks["Sub/Eps.md"]).toEqual({ "Target.md": 1 });
			expect(host.metadataCache.getCache("Sub/Eps.md")?.tags?.map((tag) => tag.tag)).toEqual(["#new"]);
			expect([host.metadataCache.getCache("Sub/Old.md"), await fs.readFile(away, "utf8")]).toEqual([null, "Old [[Hub]]. #old\n"]);
		} finally {
			await host.close();
			await removeDir(root);
		}
	});
});

/**
 * The server renames a note away while the cache's parse of it waits for the disk, and another note onto its name:
 * the read opened the name after both (seed 209 of the seeded check, 1 in 10 runs, more under load: `Other/Moved
 * 29.md` kept the links and tags of the note renamed onto its old name, for good). The read's open is held here.
 */
describe("NodeHost's metadata cache, a note renamed away while its parse's read waits, another renamed onto its name", () => {
	test("each note ends with its own links and tags", async () => {
		const root = await makeVault({ "Gamma.md": "G [[Hub]] #g\n", "Alpha.md": "A [[Target]] #a\n", "Hub.md": "# Hub\n", "Target.md": "# Target\n" });
		const host = await NodeHost.open(root);
		try {
			const jail = host.vault.jail as unknown as { readFile: (diskPath: string, maxBytes?: number) => Promise<Buffer> };
			const readFile = jail.readFile.bind(jail);
			let release!: () => void;
			const released = new Promise<void>((resolve) => (release = resolve));
			let held!: () => void;
			const isHeld = new Promise<void>((resolve) => (held = resolve));
			jail.readFile = async (diskPath, maxBytes) => {
				if (diskPath.endsWith("Gamma.md")) {
					held();
					await released;
				}
				return readFile(diskPath, maxBytes);
			};
			// The read through the thread pool (a note's sync read that found nothing falls back to it).
			host.vault.cachedRead = (file) => host.vault.read(file);
			const gamma = host.vault.getFileByPath("Gamma.md")!;
			await host.vault.process(gamma, (text) => `${text}G again [[Hub]]\n`);
			await isHeld;
			await host.vault.rename(gamma, "Other/Moved.md");
			await host.vault.rename(host.vault.getFileByPath("Alpha.md")!, "Gamma.md");
			release();
			await host.metadataCache.caughtUpWithNotes(["Other/Moved.md", "Gamma.md", "Alpha.md"]);
			await host.metadataCache.caughtUpWithDisk();
			// On 285ac856 Other/Moved.md held Alpha's { "Target.md": 1 } and #a: the parse read the name after Alpha moved there.
			expect([host.metadataCache.resolvedLinks["Other/Moved.md"], host.metadataCache.getCache("Other/Moved.md")?.tags?.map((tag) => tag.tag)]).toEqual([
				{ "Hub.md": 2 },
				["#g"],
			]);
			expect([host.metadataCache.resolvedLinks["Gamma.md"], host.metadataCache.getCache("Gamma.md")?.tags?.map((tag) => tag.tag)]).toEqual([
				{ "Target.md": 1 },
				["#a"],
			]);
		} finally {
			await host.close();
			await removeDir(root);
		}
	});
});

/**
 * A note changed, then renamed onto the name another note was renamed away from, the three queued behind another
 * note's parse: the change's parse runs first, where the note is now (the other's old path), and the other's rename
 * took that metadata as its own (seed 209 of the seeded check under load: `Other/Moved 29.md` kept the links and tags
 * of the note renamed onto `Gamma.md`, for good).
 */
describe("NodeHost's metadata cache, a note changed and renamed onto the name another note left, in the queue's turn", () => {
	/** Holds every read of `path` by the cache until the returned function is called: the parse of it, and the queue behind it, wait. */
	function holdReadsOf(host: NodeHost, path: string): () => void {
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			if (file.path === path) await released;
			return cachedRead(file);
		};
		return release;
	}

	test("the note renamed away keeps its own links and tags", async () => {
		const root = await makeVault({ "Gamma.md": "G [[Hub]] #g\n", "Alpha.md": "A [[Target]] #a\n", "Hub.md": "# Hub\n", "Target.md": "# Target\n" });
		const host = await NodeHost.open(root);
		try {
			const release = holdReadsOf(host, "Hub.md");
			await host.vault.process(host.vault.getFileByPath("Hub.md")!, (text) => `${text}more\n`);
			const alpha = host.vault.getFileByPath("Alpha.md")!;
			await host.vault.process(alpha, (text) => `${text}A again [[Target]]\n`);
			await host.vault.rename(host.vault.getFileByPath("Gamma.md")!, "Other/Moved.md");
			await host.vault.rename(alpha, "Gamma.md");
			release();
			await host.metadataCache.settled();
			// On 285ac856 Other/Moved.md held { "Target.md": 2 } and #a: Alpha's change, parsed at Gamma.md, went with Gamma's rename.
			const of = (path: string) => [host.metadataCache.resolvedLinks[path], host.metadataCache.getCache(path)?.tags?.map((tag) => tag.tag)];
			expect({ moved: of("Other/Moved.md"), gamma: of("Gamma.md") }).toEqual({ moved: [{ "Hub.md": 1 }, ["#g"]], gamma: [{ "Target.md": 2 }, ["#a"]] });
		} finally {
			await host.close();
			await removeDir(root);
		}
	});

	test("a note changed to the very text the note that left the name was last parsed from is parsed there all the same", async () => {
		const root = await makeVault({ "Gamma.md": "G [[Hub]] #g\n", "Alpha.md": "A [[Target]] #a\n", "Hub.md": "# Hub\n", "Target.md": "# Target\n" });
		const host = await NodeHost.open(root);
		try {
			// Gamma's text parsed since start, so the cache knows which text its metadata came from.
			const same = "Same [[Hub]] #same\n";
			await host.vault.process(host.vault.getFileByPath("Gamma.md")!, () => same);
			await host.metadataCache.settled();
			const release = holdReadsOf(host, "Hub.md");
			await host.vault.process(host.vault.getFileByPath("Hub.md")!, (text) => `${text}more\n`);
			const alpha = host.vault.getFileByPath("Alpha.md")!;
			await host.vault.process(alpha, () => same);
			await host.vault.rename(host.vault.getFileByPath("Gamma.md")!, "Other/Moved.md");
			await host.vault.rename(alpha, "Gamma.md");
			release();
			await host.metadataCache.settled();
			// Alpha's parse at Gamma.md reads the text Gamma's metadata there came from: kept as Alpha's, it went with Gamma's
			// rename, and Alpha's rename brought its metadata from before the change ({ "Target.md": 1 }, #a).
			const of = (path: string) => [host.metadataCache.resolvedLinks[path], host.metadataCache.getCache(path)?.tags?.map((tag) => tag.tag)];
			expect({ moved: of("Other/Moved.md"), gamma: of("Gamma.md") }).toEqual({
				moved: [{ "Hub.md": 1 }, ["#same"]],
				gamma: [{ "Hub.md": 1 }, ["#same"]],
			});
		} finally {
			await host.close();
			await removeDir(root);
		}
	});

	test("so does a canvas (its links are carried on rename as a note's metadata is)", async () => {
		const canvas = (...links: string[]) =>
			JSON.stringify({
				nodes: links.map((link, at) => ({ id: `n${at}`, type: "text", text: `[[${link}]]`, x: 0, y: 0, width: 1, height: 1 })),
				edges: [],
			});
		const root = await makeVault({ "Gamma.canvas": canvas("Hub"), "Alpha.canvas": canvas("Target"), "Hub.md": "# Hub\n", "Target.md": "# Target\n" });
		const host = await NodeHost.open(root);
		try {
			const release = holdReadsOf(host, "Hub.md");
			await host.vault.process(host.vault.getFileByPath("Hub.md")!, (text) => `${text}more\n`);
			const alpha = host.vault.getFileByPath("Alpha.canvas")!;
			await host.vault.process(alpha, () => canvas("Target", "Target"));
			await host.vault.rename(host.vault.getFileByPath("Gamma.canvas")!, "Other/Moved.canvas");
			await host.vault.rename(alpha, "Gamma.canvas");
			release();
			await host.metadataCache.settled();
			// On lead11 (b3b55af2) Other/Moved.canvas linked Target twice: Alpha's links, parsed at Gamma.canvas, went with Gamma's rename.
			const { resolvedLinks } = host.metadataCache;
			expect({ moved: resolvedLinks["Other/Moved.canvas"], gamma: resolvedLinks["Gamma.canvas"] }).toEqual({
				moved: { "Hub.md": 1 },
				gamma: { "Target.md": 2 },
			});
		} finally {
			await host.close();
			await removeDir(root);
		}
	});
});

describe("NodeHost's metadata cache caught up with the vault's own writes", () => {
	let root: string;
	let host: NodeHost;

	beforeEach(async () => {
		root = await makeVault({ "Hub.md": "# Hub\n", "Other.md": "# Other\n", "Target.md": "# Target\n" });
		host = await NodeHost.open(root);
	});
	afterEach(async () => {
		await host.close();
		await removeDir(root);
	});

	test("a renamed note is caught up with the changes reported before the call; a write after it is not waited for", async () => {
		await host.vault.rename(host.vault.getFileByPath("Hub.md")!, "Moved.md");
		await host.vault.process(host.vault.getFileByPath("Moved.md")!, (text) => `${text}See [[Target]].\n`);
		// The parse of a write made after the call is held until the end: the call resolves all the same.
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			const text = await cachedRead(file);
			if (file.path === "Other.md") await held;
			return text;
		};
		const caughtUp = host.metadataCache.caughtUpWithNotes(["Moved.md", "Hub.md"]);
		await host.vault.process(host.vault.getFileByPath("Other.md")!, (text) => `${text}See [[Target]].\n`);
		await caughtUp;
		expect(host.metadataCache.resolvedLinks["Moved.md"]).toEqual({ "Target.md": 1 });
		expect(host.metadataCache.resolvedLinks["Other.md"]).toEqual({});
		release();
		await host.metadataCache.settled();
		expect(host.metadataCache.resolvedLinks["Other.md"]).toEqual({ "Target.md": 1 });
	});

	test("a note another program rewrote just before the server renames it is read at its new path as that program left it", async () => {
		const hub = host.vault.getFileByPath("Hub.md")!;
		await host.vault.cachedRead(hub);
		// This host has no watcher: the write stays unseen, as one the watcher has not looked at yet when the rename comes.
		await fs.writeFile(nodePath.join(root, "Hub.md"), "Now [[Target]]. #edited\n");
		await host.vault.rename(hub, "Moved.md");
		await host.metadataCache.caughtUpWithNotes(["Moved.md", "Hub.md"]);
		expect({
			text: await host.vault.cachedRead(hub),
			links: host.metadataCache.resolvedLinks["Moved.md"],
			tags: host.metadataCache.getCache("Moved.md")?.tags?.map((tag) => tag.tag),
		}).toEqual({ text: "Now [[Target]]. #edited\n", links: { "Target.md": 1 }, tags: ["#edited"] });
	});
});

/**
 * A write's notes are parsed ahead of other notes' queued parses (`caughtUpWithNotes`): another
 * program's huge note held every write for the whole wait, and the read after it was answered from
 * the old metadata. The other note's parse is held by a hook (on its read, or on the lane's turn it
 * pauses for), so the order is the test's, not the machine's speed.
 */
describe("NodeHost's metadata cache parses a write's notes ahead of other notes' queued parses", () => {
	let root: string;
	let host: NodeHost;
	let release: () => void;

	beforeEach(async () => {
		root = await makeVault({ "Hub.md": "# Hub\n", "Other.md": "# Other\nSee [[New]].\n", "Target.md": "# Target\n" });
		host = await NodeHost.open(root);
	});
	afterEach(async () => {
		release();
		jest.restoreAllMocks();
		await host.close();
		await removeDir(root);
	});

	/** Creates Big.md, whose parse is held (after its read) until `release`; resolves once it is held. */
	async function bigNoteHeldAtRead(): Promise<void> {
		const released = new Promise<void>((resolve) => (release = resolve));
		let heldNow!: () => void;
		const held = new Promise<void>((resolve) => (heldNow = resolve));
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			const text = await cachedRead(file);
			if (file.path === "Big.md") {
				heldNow();
				await released;
			}
			return text;
		};
		await host.vault.create("Big.md", "- item #big\n".repeat(1000));
		await held;
	}

	const bigParsed = () => host.metadataCache.getCache("Big.md") !== null;
	const addLine = (path: string, line: string) => host.vault.process(host.vault.getFileByPath(path)!, (text) => `${text}${line}\n`);

	test("a note written while another note's read is held has its new links once caughtUpWithNotes resolves, the other still unparsed", async () => {
		await bigNoteHeldAtRead();
		await addLine("Hub.md", "See [[Target]].");
		await host.metadataCache.caughtUpWithNotes(["Hub.md"]);
		expect({ hub: host.metadataCache.resolvedLinks["Hub.md"], bigParsed: bigParsed() }).toEqual({ hub: { "Target.md": 1 }, bigParsed: false });
		expect(host.metadataCache.notesBeingParsed().map((file) => file.path)).toEqual(expect.arrayContaining(["Big.md", "Hub.md"]));
		release();
		await host.metadataCache.settled();
		expect(host.metadataCache.getCache("Big.md")?.tags?.length).toBe(1000);
		expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "Target.md": 1 });
		expect(host.metadataCache.notesBeingParsed()).toEqual([]);
	});

	test("a note written while another note's parse waits between two slices is parsed in that pause", async () => {
		const released = new Promise<void>((resolve) => (release = resolve));
		const take = eventLoopTurns.take;
		let armed = false;
		let pausedNow!: () => void;
		const paused = new Promise<void>((resolve) => (pausedNow = resolve));
		// The first turn taken once Big.md is read is its parse's first pause: held until the end.
		jest.spyOn(eventLoopTurns, "take").mockImplementation(() => {
			if (!armed) return take();
			armed = false;
			pausedNow();
			return released.then(take);
		});
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			const text = await cachedRead(file);
			if (file.path === "Big.md") armed = true;
			return text;
		};
		// Several slices' worth of list items: its parse pauses inside.
		await host.vault.create("Big.md", "- item [[Target]]\n".repeat(5_000));
		await paused;
		await addLine("Hub.md", "See [[Target]].");
		await host.metadataCache.caughtUpWithNotes(["Hub.md"]);
		expect({ hub: host.metadataCache.resolvedLinks["Hub.md"], bigParsed: bigParsed() }).toEqual({ hub: { "Target.md": 1 }, bigParsed: false });
		release();
		await host.metadataCache.settled();
		expect(host.metadataCache.resolvedLinks["Big.md"]).toEqual({ "Target.md": 5_000 });
		expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "Target.md": 1 });
	});

	test("a note written while the queue parses its older text is parsed ahead in that parse's pause, and the older parse ends there unkept", async () => {
		const released = new Promise<void>((resolve) => (release = resolve));
		const take = eventLoopTurns.take;
		let reads = 0;
		let armed = false;
		let pausedNow!: () => void;
		const paused = new Promise<void>((resolve) => (pausedNow = resolve));
		// The first turn taken once Big.md is first read is its queued parse's first pause: held until the end.
		jest.spyOn(eventLoopTurns, "take").mockImplementation(() => {
			if (!armed) return take();
			armed = false;
			pausedNow();
			return released.then(take);
		});
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			const text = await cachedRead(file);
			if (file.path === "Big.md" && reads++ === 0) armed = true;
			return text;
		};
		const announced: string[] = [];
		host.metadataCache.on("changed", (file, text) => void (file.path === "Big.md" && announced.push(text.endsWith("See [[Other]].\n") ? "new" : "old")));
		// Another program's save: several slices' worth of list items, so its parse pauses inside.
		await host.vault.create("Big.md", "- item [[Target]]\n".repeat(5_000));
		await paused;
		expect(bigParsed()).toBe(false);
		await addLine("Big.md", "See [[Other]].");
		let answered = false;
		const caughtUp = host.metadataCache.caughtUpWithNotes(["Big.md"]).then(() => (answered = true));
		// On 285ac856 the writer waited for the rest of the older parse (here held: for good), then a pause of the queue.
		for (let turn = 0; turn < 200 && !answered; turn++) await new Promise((resolve) => setImmediate(resolve));
		expect({ answered, big: host.metadataCache.resolvedLinks["Big.md"] }).toEqual({ answered: true, big: { "Target.md": 5_000, "Other.md": 1 } });
		release();
		await caughtUp;
		await host.metadataCache.settled();
		expect(host.metadataCache.resolvedLinks["Big.md"]).toEqual({ "Target.md": 5_000, "Other.md": 1 });
		expect(host.metadataCache.getCache("Big.md")?.links?.length).toBe(5_001);
		// The parse ahead's and the queued parse's: the older text's parse never said it changed.
		expect(announced).toEqual(["new", "new"]);
		expect(host.metadataCache.notesBeingParsed()).toEqual([]);
	});

	test("a note written while the queue's read of its older text fails (over the read bound) keeps the new text's links after the writer's answer: the failed read is not kept as an empty note", async () => {
		const released = new Promise<void>((resolve) => (release = resolve));
		let heldNow!: () => void;
		const held = new Promise<void>((resolve) => (heldNow = resolve));
		let reads = 0;
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		// The queue's read of the 9 MiB text: done (refused) before the server's write, its outcome held until release.
		host.vault.cachedRead = async (file) => {
			if (file.path !== "Big.md" || reads++ > 0) return cachedRead(file);
			const outcome = await cachedRead(file).then(
				(text) => ({ text }),
				(error: unknown) => ({ error }),
			);
			heldNow();
			await released;
			if ("error" in outcome) throw outcome.error;
			return outcome.text;
		};
		// What listeners (the search index, tasks, graph counts) are told of Big.md, and its links at each `resolve`.
		const told: unknown[] = [];
		host.metadataCache.on("changed", (file, text) => void (file.path === "Big.md" && told.push(text)));
		host.metadataCache.on("resolve", (file) => void (file.path === "Big.md" && told.push(host.metadataCache.resolvedLinks["Big.md"])));
		// Another program's log, over MAX_READ_NOTE_BYTES (8 MiB): its parse reads it as an empty note.
		await host.vault.create("Big.md", `[[Target]]\n${"x".repeat(9 * 1024 * 1024)}\n`);
		await held;
		// Cut short by that program (a log rotated), then written by the server.
		writeFileSync(nodePath.join(root, "Big.md"), "Rotated.\n");
		await addLine("Big.md", "See [[Other]].");
		await host.metadataCache.caughtUpWithNotes(["Big.md"]);
		expect(host.metadataCache.resolvedLinks["Big.md"]).toEqual({ "Other.md": 1 });
		release();
		await host.metadataCache.settled();
		// On lead11 (151b225d) the refused read of the older text, overtaken, was parsed as an empty note after the answer
		// ("", then no links) until the write's own queued parse: a search or get_note_links meanwhile found nothing there.
		const newText = "Rotated.\nSee [[Other]].\n";
		expect(told.filter((event) => event !== newText && JSON.stringify(event) !== JSON.stringify({ "Other.md": 1 }))).toEqual([]);
		expect(told.filter((event) => event === newText)).toHaveLength(2);
	});

	test("a note written twice ends with its last text's links: the parse ahead reads the newest text, and so does its queued parse", async () => {
		await bigNoteHeldAtRead();
		await host.vault.process(host.vault.getFileByPath("Hub.md")!, () => "See [[Target]].\n");
		await host.metadataCache.caughtUpWithNotes(["Hub.md"]);
		expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "Target.md": 1 });
		await host.vault.process(host.vault.getFileByPath("Hub.md")!, () => "See [[Other]].\n");
		await host.metadataCache.caughtUpWithNotes(["Hub.md"]);
		expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "Other.md": 1 });
		release();
		await host.metadataCache.settled();
		expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "Other.md": 1 });
		expect(bigParsed()).toBe(true);
	});

	test("a note changed 30 times while the queue is held is read once after, and not parsed again when a parse ahead read that text: listeners told once more", async () => {
		await bigNoteHeldAtRead();
		// The queue's reads of Hub.md once Big.md's parse is let go, and the metadata each `changed` tells of it (a new object: a new parse).
		let reads = 0;
		const heldRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			if (file.path === "Hub.md") reads++;
			return heldRead(file);
		};
		const told: Array<{ text: string; cache: CachedMetadata }> = [];
		host.metadataCache.on("changed", (file, text, cache) => void (file.path === "Hub.md" && told.push({ text, cache })));
		// Thirty changes, each reported as the watcher reports another program's save; then a writer's wait parses the last text ahead.
		for (let line = 0; line < 30; line++) await addLine("Hub.md", `Line ${line} of [[Target]].`);
		await host.metadataCache.caughtUpWithNotes(["Hub.md"]);
		const lastText = await heldRead(host.vault.getFileByPath("Hub.md")!);
		const ahead = host.metadataCache.getCache("Hub.md");
		expect({ links: host.metadataCache.resolvedLinks["Hub.md"], told: told.map((event) => event.text) }).toEqual({
			links: { "Target.md": 30 },
			told: [lastText],
		});
		[reads, told.length] = [0, 0];
		release();
		await host.metadataCache.settled();
		// On c9f6bc0b each change queued a parse that read and parsed the last text again: 30 reads, 30 new metadata.
		const toldAfter = { count: told.length, last: told.at(-1)?.text === lastText, kept: told.every((event) => event.cache === ahead) };
		expect({ reads, told: toldAfter }).toEqual({ reads: 1, told: { count: 1, last: true, kept: true } });
		expect({ links: host.metadataCache.resolvedLinks["Hub.md"], cache: host.metadataCache.getCache("Hub.md") === ahead }).toEqual({
			links: { "Target.md": 30 },
			cache: true,
		});
		expect(host.metadataCache.notesBeingParsed()).toEqual([]);
	});

	test("a note created ahead resolves its own links at once; links to its name from other notes once its queued create runs", async () => {
		expect(host.metadataCache.unresolvedLinks["Other.md"]).toEqual({ New: 1 });
		await bigNoteHeldAtRead();
		await host.vault.create("New.md", "See [[Target]] and [[New]].\n");
		await host.metadataCache.caughtUpWithNotes(["New.md"]);
		expect(host.metadataCache.resolvedLinks["New.md"]).toEqual({ "Target.md": 1, "New.md": 1 });
		release();
		await host.metadataCache.settled();
		expect(host.metadataCache.resolvedLinks["Other.md"]).toEqual({ "New.md": 1 });
		expect(host.metadataCache.resolvedLinks["New.md"]).toEqual({ "Target.md": 1, "New.md": 1 });
	});

	test("notes created together and parsed ahead together reach each other", async () => {
		await bigNoteHeldAtRead();
		await host.vault.create("First.md", "See [[Second]].\n");
		await host.vault.create("Second.md", "See [[First]].\n");
		await host.metadataCache.caughtUpWithNotes(["First.md", "Second.md"]);
		expect([host.metadataCache.resolvedLinks["First.md"], host.metadataCache.resolvedLinks["Second.md"]]).toEqual([{ "Second.md": 1 }, { "First.md": 1 }]);
		expect(bigParsed()).toBe(false);
	});

	test("a note renamed and then written has its rename run ahead too: its new links at its new path, nothing left at the old", async () => {
		// Other.md links to Hub: the rename resolves that link again, to nowhere.
		await addLine("Other.md", "And [[Hub]].");
		await host.metadataCache.settled();
		await bigNoteHeldAtRead();
		await host.vault.rename(host.vault.getFileByPath("Hub.md")!, "Moved.md");
		await addLine("Moved.md", "See [[Target]] and [[Hub]].");
		await host.metadataCache.caughtUpWithNotes(["Moved.md", "Hub.md"]);
		expect({
			moved: host.metadataCache.resolvedLinks["Moved.md"],
			movedUnresolved: host.metadataCache.unresolvedLinks["Moved.md"],
			hub: host.metadataCache.resolvedLinks["Hub.md"],
			hubCache: host.metadataCache.getCache("Hub.md"),
			other: host.metadataCache.unresolvedLinks["Other.md"],
			bigParsed: bigParsed(),
		}).toEqual({ moved: { "Target.md": 1 }, movedUnresolved: { Hub: 1 }, hub: undefined, hubCache: null, other: { New: 1, Hub: 1 }, bigParsed: false });
		release();
		await host.metadataCache.settled();
		expect(host.metadataCache.resolvedLinks["Moved.md"]).toEqual({ "Target.md": 1 });
		expect(host.metadataCache.getCache("Moved.md")?.links?.map((link) => link.link)).toEqual(["Target", "Hub"]);
		expect(host.metadataCache.resolvedLinks["Hub.md"]).toBeUndefined();
	});

	test("a note renamed to the name of a note deleted elsewhere, the delete still queued, has links to that name lead to it, none to the path gone", async () => {
		await host.vault.create("Deep/Gamma.md", "# Gamma\n");
		await host.vault.create("Beta.md", "# Beta\n");
		await addLine("Hub.md", "See [[Beta]].");
		await host.metadataCache.settled();
		await bigNoteHeldAtRead();
		await host.vault.trash(host.vault.getFileByPath("Beta.md")!);
		await host.vault.rename(host.vault.getFileByPath("Deep/Gamma.md")!, "Deep/Beta.md");
		await addLine("Deep/Beta.md", "See [[Target]].");
		// What the writer's answer reads: on f2f20dc3 the rename ran ahead of the delete, and Hub's [[Beta]] led to Beta.md, gone.
		const answered = host.metadataCache
			.caughtUpWithNotes(["Deep/Beta.md", "Deep/Gamma.md"])
			.then(() => ({ hub: host.metadataCache.resolvedLinks["Hub.md"], moved: host.metadataCache.resolvedLinks["Deep/Beta.md"] }));
		for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
		release();
		expect(await answered).toEqual({ hub: { "Deep/Beta.md": 1 }, moved: { "Target.md": 1 } });
	});

	test("a note renamed away from a name another note is renamed to, that rename still queued, leaves links to the name to the other note", async () => {
		await host.vault.create("Deep/Gamma.md", "# Gamma\n");
		await host.vault.create("Sub/Beta.md", "# Beta\n");
		await addLine("Hub.md", "See [[Gamma]] and [[Beta]].");
		await host.metadataCache.settled();
		await bigNoteHeldAtRead();
		// Queued first: Sub/Beta.md becomes Sub/Gamma.md. Then Deep/Gamma.md becomes Deep/Beta.md and is written.
		await host.vault.rename(host.vault.getFileByPath("Sub/Beta.md")!, "Sub/Gamma.md");
		await host.vault.rename(host.vault.getFileByPath("Deep/Gamma.md")!, "Deep/Beta.md");
		await addLine("Deep/Beta.md", "See [[Target]].");
		// On f2f20dc3 the writer was answered before the other rename was in: [[Gamma]] led nowhere.
		const answered = host.metadataCache.caughtUpWithNotes(["Deep/Beta.md", "Deep/Gamma.md"]).then(() => host.metadataCache.resolvedLinks["Hub.md"]);
		for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
		release();
		expect(await answered).toEqual({ "Sub/Gamma.md": 1, "Deep/Beta.md": 1 });
	});

	test("a note made again where another was deleted, the delete run ahead, is what other notes' links to its name reach in the writer's answer", async () => {
		await addLine("Other.md", "And [[Hub]].");
		await host.metadataCache.settled();
		await bigNoteHeldAtRead();
		await host.vault.trash(host.vault.getFileByPath("Hub.md")!);
		await host.vault.create("Hub.md", "See [[Target]].\n");
		// On f2f20dc3 the delete ran ahead and resolved [[Hub]] to nowhere; the writer was answered before the create's turn.
		const answered = host.metadataCache
			.caughtUpWithNotes(["Hub.md"])
			.then(() => [host.metadataCache.resolvedLinks["Other.md"], host.metadataCache.unresolvedLinks["Other.md"]]);
		for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
		release();
		expect(await answered).toEqual([{ "Hub.md": 1 }, { New: 1 }]);
	});

	test("a note made again where another was deleted, the delete still queued, has the delete run ahead: its own links at once, none of the old note's", async () => {
		await addLine("Hub.md", "See [[Other]].");
		await host.metadataCache.settled();
		await bigNoteHeldAtRead();
		await host.vault.trash(host.vault.getFileByPath("Hub.md")!);
		await host.vault.create("Hub.md", "See [[Target]].\n");
		await host.metadataCache.caughtUpWithNotes(["Hub.md"]);
		expect({
			hub: host.metadataCache.resolvedLinks["Hub.md"],
			links: host.metadataCache.getCache("Hub.md")?.links?.map((link) => link.link),
			bigParsed: bigParsed(),
		}).toEqual({
			hub: { "Target.md": 1 },
			links: ["Target"],
			bigParsed: false,
		});
		release();
		await host.metadataCache.settled();
		expect(host.metadataCache.resolvedLinks["Hub.md"]).toEqual({ "Target.md": 1 });
	});

	test("a note renamed twice before the queue reached the first rename has both renames run ahead: its new links at its last path, nothing at the two before", async () => {
		await addLine("Other.md", "And [[Hub]] and [[Middle]].");
		await host.metadataCache.settled();
		await bigNoteHeldAtRead();
		await host.vault.rename(host.vault.getFileByPath("Hub.md")!, "Middle.md");
		await host.vault.rename(host.vault.getFileByPath("Middle.md")!, "Moved.md");
		await addLine("Moved.md", "See [[Target]].");
		let done = false;
		const caughtUp = host.metadataCache.caughtUpWithNotes(["Moved.md", "Middle.md"]).then(() => (done = true));
		// The queue cannot move while Big.md's read is held: on 565b5cdf the second rename waited for the first's turn, after Big.md.
		for (let turn = 0; turn < 20 && !done; turn++) await new Promise((resolve) => setImmediate(resolve));
		const cache = host.metadataCache;
		expect({
			done,
			moved: cache.resolvedLinks["Moved.md"],
			before: [cache.getCache("Hub.md"), cache.getCache("Middle.md"), cache.resolvedLinks["Hub.md"], cache.resolvedLinks["Middle.md"]],
			other: cache.unresolvedLinks["Other.md"],
			bigParsed: bigParsed(),
		}).toEqual({
			done: true,
			moved: { "Target.md": 1 },
			before: [null, null, undefined, undefined],
			other: { New: 1, Hub: 1, Middle: 1 },
			bigParsed: false,
		});
		release();
		await caughtUp;
		await cache.settled();
		expect(cache.resolvedLinks["Moved.md"]).toEqual({ "Target.md": 1 });
		expect(cache.getCache("Moved.md")?.links?.map((link) => link.link)).toEqual(["Target"]);
		expect([cache.resolvedLinks["Hub.md"], cache.resolvedLinks["Middle.md"], cache.unresolvedLinks["Other.md"]]).toEqual([
			undefined,
			undefined,
			{ New: 1, Hub: 1, Middle: 1 },
		]);
	});

	// Its writer served ahead: on ab6aad95 the note's first rename ran ahead (the note's path then the deleted note's),
	// before the delete, and the deleted note stayed listed under its name (565b5cdf ran the delete first). In turn: both.
	test.each([
		["its writer served ahead", true],
		["all in turn", false],
	])(
		"a note renamed onto the path of a note deleted between its two renames, %s, leaves nothing of the deleted note for links to its name once it moves on",
		async (_, written) => {
			await addLine("Other.md", "And [[Target]].");
			await host.metadataCache.settled();
			await bigNoteHeldAtRead();
			await host.vault.rename(host.vault.getFileByPath("Hub.md")!, "Middle.md");
			await host.vault.trash(host.vault.getFileByPath("Target.md")!);
			await host.vault.rename(host.vault.getFileByPath("Middle.md")!, "Target.md");
			if (written) await addLine("Target.md", "See [[Other]].");
			const caughtUp = written ? host.metadataCache.caughtUpWithNotes(["Target.md"]) : Promise.resolve();
			release();
			await caughtUp;
			await host.metadataCache.settled();
			await host.vault.rename(host.vault.getFileByPath("Target.md")!, "Away.md");
			await host.metadataCache.settled();
			const cache = host.metadataCache;
			expect({
				target: cache.getFirstLinkpathDest("Target", "Other.md")?.path ?? null,
				resolved: cache.resolvedLinks["Other.md"],
				unresolved: cache.unresolvedLinks["Other.md"],
			}).toEqual({ target: null, resolved: {}, unresolved: { New: 1, Target: 1 } });
		},
	);

	test("a writer asking while another writer's notes, left to their turn, are looked at is served in that run, not at the queue's next pause", async () => {
		await host.vault.create("Deep/Gamma.md", "# Gamma\n");
		await host.vault.create("Beta.md", "# Beta\n");
		await host.metadataCache.settled();
		await bigNoteHeldAtRead();
		await host.vault.trash(host.vault.getFileByPath("Beta.md")!);
		await host.vault.rename(host.vault.getFileByPath("Deep/Gamma.md")!, "Deep/Beta.md");
		await addLine("Hub.md", "See [[Target]].");
		// The rename may not run ahead of the queued delete of a note by its new name: the first writer waits for the queue.
		const first = host.metadataCache.caughtUpWithNotes(["Deep/Beta.md", "Deep/Gamma.md"]);
		let answered = false;
		const second = host.metadataCache.caughtUpWithNotes(["Hub.md"]).then(() => (answered = true));
		// On 565b5cdf the second found the first's run under way, which ended answering nobody: Hub.md waited for a pause of the queue.
		for (let turn = 0; turn < 20 && !answered; turn++) await new Promise((resolve) => setImmediate(resolve));
		expect({ answered, hub: host.metadataCache.resolvedLinks["Hub.md"], bigParsed: bigParsed() }).toEqual({
			answered: true,
			hub: { "Target.md": 1 },
			bigParsed: false,
		});
		release();
		await Promise.all([first, second]);
		expect(host.metadataCache.resolvedLinks["Deep/Beta.md"]).toEqual({});
	});

	test("a writer whose note is renamed during its last queued parse is answered once that parse and the rename are in, with no pause of the queue after them", async () => {
		const released = new Promise<void>((resolve) => (release = resolve));
		let heldNow!: () => void;
		const held = new Promise<void>((resolve) => (heldNow = resolve));
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			const text = await cachedRead(file);
			if (file.path === "Hub.md") {
				heldNow();
				await released;
			}
			return text;
		};
		await addLine("Hub.md", "See [[Target]].");
		await held;
		let answered = false;
		const caughtUp = host.metadataCache.caughtUpWithNotes(["Hub.md"]).then(() => (answered = true));
		await host.vault.rename(host.vault.getFileByPath("Hub.md")!, "Moved.md");
		// The clock stands still from here: no slice is ever used up, so the queue never pauses again (a pause answered it before).
		jest.spyOn(performance, "now").mockReturnValue(0);
		release();
		await host.metadataCache.settled();
		for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
		expect({ answered, moved: host.metadataCache.resolvedLinks["Moved.md"] }).toEqual({ answered: true, moved: { "Target.md": 1 } });
		await caughtUp;
	});

	test("a note renamed while its parse reads it ends with the links of the text read, not those from before the write", async () => {
		const released = new Promise<void>((resolve) => (release = resolve));
		let heldNow!: () => void;
		const held = new Promise<void>((resolve) => (heldNow = resolve));
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			const text = await cachedRead(file);
			if (file.path === "Hub.md") {
				heldNow();
				await released;
			}
			return text;
		};
		await addLine("Hub.md", "See [[Target]].");
		await held;
		// The parse stores what it read at the note's new path; the queued rename then moved the note's metadata from before the write over it.
		await host.vault.rename(host.vault.getFileByPath("Hub.md")!, "Moved.md");
		release();
		await host.metadataCache.settled();
		expect(host.metadataCache.resolvedLinks["Moved.md"]).toEqual({ "Target.md": 1 });
		expect(host.metadataCache.getCache("Moved.md")?.links?.map((link) => link.link)).toEqual(["Target"]);
		expect(host.metadataCache.resolvedLinks["Hub.md"]).toBeUndefined();
	});
});

/**
 * Parses ahead of the queue must leave nothing behind: after many interleavings of the server's own
 * writes (each followed by `caughtUpWithNotes`, awaited or not), other programs' creates, edits,
 * renames and deletes, and a big note whose read holds the queue a while (so the write's notes are
 * parsed ahead of it), the settled cache is the one a fresh build of the same folder makes, and so
 * are the counts kept from its events (graph stats, notes with tasks). Seeded: a failing
 * interleaving runs again the same, up to the machine's timing of the watcher.
 */
describe("NodeHost's metadata cache, after parses ahead of the queue, equals a cache built fresh from the disk", () => {
	const NAMES = ["Alpha", "Beta", "Gamma", "Delta", "Sub/Alpha", "Sub/Eps", "Deep/Zeta"];
	const SCOPE: Scope = { configDir: ".obsidian", excludedFolders: [] };
	/** Notes are renamed into and out of these. */
	const EXCLUDING: Scope = { configDir: ".obsidian", excludedFolders: ["Deep", "Other"] };

	/** A small seeded generator (mulberry32): the same seed makes the same interleaving. */
	function randomOf(seed: number): () => number {
		let state = seed >>> 0;
		return () => {
			state = (state + 0x6d2b79f5) >>> 0;
			let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
			mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
			return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
		};
	}

	function noteText(random: () => number): string {
		const pick = () => NAMES[Math.floor(random() * NAMES.length)]!.split("/").pop()!;
		const lines = [`---\nup: "[[${pick()}]]"\n---`, `# Note ${Math.floor(random() * 100)}`];
		for (let line = 0; line < 1 + Math.floor(random() * 4); line++)
			lines.push(random() < 0.5 ? `- [ ] task [[${pick()}]] #t${line}` : `See [[${pick()}]] and ![[${pick()}.png]] #tag/${line}`);
		return `${lines.join("\n")}\n`;
	}

	/** What a reader sees of the cache: each file's links, embeds, tags, tasks and frontmatter links, and the link maps. */
	function snapshot(host: NodeHost): unknown {
		const notes: Record<string, unknown> = {};
		for (const file of host.vault.getFiles()) {
			const cache = host.metadataCache.getCache(file.path);
			notes[file.path] = cache && {
				links: cache.links?.map((link) => [link.link, link.position.start.offset]),
				embeds: cache.embeds?.map((embed) => embed.link),
				tags: cache.tags?.map((tag) => tag.tag),
				tasks: cache.listItems?.map((item) => item.task ?? null),
				frontmatterLinks: cache.frontmatterLinks?.map((link) => link.link),
			};
		}
		return { notes, resolved: host.metadataCache.resolvedLinks, unresolved: host.metadataCache.unresolvedLinks };
	}

	/**
	 * A change queued before a rename that concerns none of its paths, so the rename runs ahead of it
	 * (`movedAhead`), but which changes where the renamed name's links lead: a note made, moved or
	 * deleted elsewhere under the name the note is renamed to or from, by the server or another
	 * program (links resolve by shortest path); the huge note (links counted in parts) changed. Then
	 * the server renames a note and writes it (returning the paths it wrote).
	 */
	async function changeThenRename(host: NodeHost, root: string, random: () => number): Promise<string[]> {
		const pick = () => NAMES[Math.floor(random() * NAMES.length)]!;
		const file = host.vault.getFileByPath(`${pick()}.md`);
		const to = `${pick()}.md`;
		const toName = to.split("/").pop()!;
		const fromName = file?.name ?? "";
		const elsewhere = ["Sub", "Deep", "Other"][Math.floor(random() * 3)]!;
		const before = random();
		const huge = host.vault.getFileByPath("Huge.md");
		if (before < 0.3) {
			const name = random() < 0.5 ? toName : fromName;
			if (name !== "" && host.vault.getFileByPath(`${elsewhere}/${name}`) === null) await host.vault.create(`${elsewhere}/${name}`, noteText(random));
		} else if (before < 0.5) {
			const sameName = host.vault.getFiles().find((other) => other !== file && (other.name === toName || other.name === fromName));
			if (sameName) await (random() < 0.5 ? host.vault.trash(sameName) : host.vault.rename(sameName, `Other/Moved ${Math.floor(random() * 100)}.md`));
		} else if (before < 0.65) {
			const name = random() < 0.5 ? toName : fromName;
			if (name !== "")
				await fs
					.mkdir(nodePath.join(root, elsewhere), { recursive: true })
					.then(() => fs.writeFile(nodePath.join(root, elsewhere, name), noteText(random)));
		} else if (huge !== null && before < 0.85) await fs.appendFile(nodePath.join(root, "Huge.md"), `[[${toName.replace(/\.md$/, "")}]] [[${pick()}]]\n`);
		else if (huge !== null) await host.vault.process(huge, (text) => `${text}[[${fromName.replace(/\.md$/, "")}]]\n`);
		if (!file || host.vault.getFileByPath(to) !== null) return [];
		const path = file.path;
		await host.vault.rename(file, to);
		if (random() < 0.6) await host.vault.process(file, (text) => `${text}${noteText(random)}`);
		return [to, path];
	}

	/** One random change: the server's (returning the paths it wrote) or another program's (returning none). */
	async function change(host: NodeHost, root: string, random: () => number): Promise<string[]> {
		const other = random();
		if (other < 0.08) {
			// Another program rewrites a note and renames it (before or while the watcher looks).
			const [from, to] = [0, 1].map(() => nodePath.join(root, `${NAMES[Math.floor(random() * NAMES.length)]}.md`));
			if (!(await fs.stat(to!).catch(() => null)) && (await fs.stat(from!).catch(() => null))) {
				await fs.writeFile(from!, noteText(random));
				await fs.rename(from!, to!);
			}
			return [];
		}
		if (other < 0.16) {
			// Another program moves Sub to Moved (or back), half the time back again after 0-5 turns of the event loop.
			const [sub, moved] = [nodePath.join(root, "Sub"), nodePath.join(root, "Moved")];
			const [from, to] = (await fs.stat(sub).catch(() => null)) ? [sub, moved] : [moved, sub];
			if (!(await fs.stat(from).catch(() => null)) || (await fs.stat(to).catch(() => null))) return [];
			await fs.rename(from, to);
			if (random() < 0.5) {
				for (let turn = Math.floor(random() * 6); turn > 0; turn--) await new Promise((resolve) => setImmediate(resolve));
				await fs.rename(to, from);
			}
			return [];
		}
		if (random() < 0.25) return changeThenRename(host, root, random);
		const path = `${NAMES[Math.floor(random() * NAMES.length)]}.md`;
		const to = `${NAMES[Math.floor(random() * NAMES.length)]}.md`;
		const file = host.vault.getFileByPath(path);
		const choice = random();
		if (choice < 0.1) {
			// Asked for: its writer may come while the queue parses its older text (the parse ahead overtakes that parse).
			await host.vault.process(host.vault.getFileByPath("Big.md")!, (text) => `${text}- more [[${to}]]\n`);
			return ["Big.md"];
		} else if (choice < 0.3 && file) await host.vault.process(file, (text) => `${text}${noteText(random)}`);
		else if (choice < 0.3) await host.vault.create(path, noteText(random));
		else if (choice < 0.4 && file) await host.vault.process(file, () => noteText(random));
		else if (choice < 0.5 && file && host.vault.getFileByPath(to) === null) {
			await host.vault.rename(file, to);
			// The renamed note written at once (its rename then runs ahead of the queue with its parse), or renamed again.
			const then = random();
			const again = `${NAMES[Math.floor(random() * NAMES.length)]}.md`;
			if (then < 0.4) await host.vault.process(file, (text) => `${text}${noteText(random)}`);
			else if (then < 0.6 && host.vault.getFileByPath(again) === null) {
				await host.vault.rename(file, again);
				return [again, to, path];
			}
			return [to, path];
		} else if (choice < 0.55 && file) {
			await host.vault.trash(file);
			// Made again at once (the trash's delete then runs ahead of the queue with the new note's parse).
			if (random() < 0.5) await host.vault.create(path, noteText(random));
		} else if (choice < 0.55) return [];
		else if (choice < 0.7) await fs.writeFile(nodePath.join(root, path), noteText(random));
		else if (choice < 0.75 && file) await fs.rm(nodePath.join(root, path));
		else if (choice < 0.8 && file && !(await fs.stat(nodePath.join(root, to)).catch(() => null)))
			await fs.rename(nodePath.join(root, path), nodePath.join(root, to));
		else return [];
		return choice < 0.55 ? [path] : [];
	}

	test.each([1, 2, 3, 4, 5, 6, 7, 8])("seed %i", async (seed) => {
		const random = randomOf(seed);
		const files: Record<string, string> = {
			"Big.md": "- item [[Alpha]] #big\n".repeat(2_000),
			"Board.canvas": '{"nodes":[{"id":"a","type":"text","text":"[[Beta]]","x":0,"y":0,"width":1,"height":1}],"edges":[]}',
		};
		for (const name of NAMES) if (random() < 0.6) files[`${name}.md`] = noteText(random);
		// In some seeds (each parse and resolution of it costs ~0.1 s): over HUGE_NOTE_LINKS, its links pointing nowhere are counted in parts, its resolution pauses.
		if (seed % 8 === 1) files["Huge.md"] = "[[Alpha]] [[Nowhere]] [[Beta]] [[Sub/Eps]]\n".repeat(4_200);
		const root = await makeVault(files);
		const host = await NodeHost.open(root, { watch: true });
		// Big.md's read waits some turns of the event loop (another note's a few, or none): the queue waits there, where the
		// write's notes are parsed ahead, and a rename or a write may come while a note is read.
		const readDelays = randomOf(seed + 1_000);
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			const text = await cachedRead(file);
			const turns = file.path === "Big.md" ? 20 : Math.floor(readDelays() * 6);
			for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
			return text;
		};
		// The text each note was last told `changed` with: what the search index holds of it (notes read at start are not told).
		const lastTold = new Map<HostFile, string>();
		for (const file of host.vault.getMarkdownFiles()) lastTold.set(file, await fs.readFile(nodePath.join(root, file.path), "utf8"));
		host.metadataCache.on("changed", (file, text) => void lastTold.set(file, text));
		const graph = new KeptGraphStats(host);
		const tasks = new NotesWithTasks(host, () => new Promise((resolve) => setImmediate(resolve)));
		graph.start();
		tasks.start();
		const unawaited: Array<Promise<unknown>> = [];
		try {
			for (let step = 0; step < 40; step++) {
				// Another program's change may race the server's write: its clear error leaves nothing to compare.
				const written = await change(host, root, random).catch(() => []);
				const caughtUp = host.metadataCache.caughtUpWithNotes(written);
				if (random() < 0.5) {
					await caughtUp;
					// What the write's answer reads: its notes parsed where they are, no link left to a path its renames left.
					// (The paths the server's renames left: another program's delete may be seen meanwhile, its own turn still to come.)
					const gone = written.slice(1).filter((path) => host.vault.getFileByPath(path) === null);
					// Only the server writes Big.md: answered, it has the links of the text on disk (its older parse may have been overtaken).
					if (written[0] === "Big.md") {
						const onDisk = (await fs.readFile(nodePath.join(root, "Big.md"), "utf8")).split("[[").length - 1;
						expect(["Big.md", host.metadataCache.getCache("Big.md")?.links?.length]).toEqual(["Big.md", onDisk]);
					}
					if (host.vault.getFileByPath(written[0] ?? ""))
						expect([written[0], host.metadataCache.getCache(written[0]!)]).not.toEqual([written[0], null]);
					for (const [source, targets] of Object.entries(host.metadataCache.resolvedLinks))
						for (const path of gone) expect([source, path, targets[path]]).toEqual([source, path, undefined]);
				} else unawaited.push(caughtUp);
				if (random() < 0.2) await graph.stats(random() < 0.5 ? SCOPE : EXCLUDING, 5);
				for (let turn = Math.floor(random() * 4); turn > 0; turn--) await new Promise((resolve) => setImmediate(resolve));
			}
			await Promise.all(unawaited);
			await host.metadataCache.caughtUpWithDisk();
			const fresh = await NodeHost.open(root);
			try {
				const withTasks = (notes: HostFile[] | null) => notes?.map((note) => note.path).sort();
				const freshTasks = new NotesWithTasks(fresh, () => new Promise((resolve) => setImmediate(resolve)));
				freshTasks.start();
				await host.metadataCache.settled();
				expect(snapshot(host)).toEqual(snapshot(fresh));
				for (const file of host.vault.getMarkdownFiles())
					expect([file.path, lastTold.get(file)]).toEqual([file.path, await fs.readFile(nodePath.join(root, file.path), "utf8")]);
				expect(await graph.stats(SCOPE, 5)).toEqual(await new KeptGraphStats(fresh).stats(SCOPE, 5));
				expect(await graph.stats(EXCLUDING, 5)).toEqual(await new KeptGraphStats(fresh).stats(EXCLUDING, 5));
				for (let turn = 0; turn < 50 && (tasks.notes() === null || freshTasks.notes() === null); turn++)
					await new Promise((resolve) => setImmediate(resolve));
				expect(withTasks(tasks.notes())).toEqual(withTasks(freshTasks.notes()));
				freshTasks.stop();
			} finally {
				await fresh.close();
			}
		} finally {
			graph.stop();
			tasks.stop();
			await host.close();
			await removeDir(root);
		}
	});
});

/**
 * Writers waiting behind another program's mass delete: 200 notes renamed (a rename relinking them, say) while 500
 * deletes are queued, among them one of a same-named note before each rename, so no rename may run ahead of the queue
 * (links to the name change with the delete). The work is counted, not timed: the queue's entries, the notes asked for
 * and the lookups of queued moves read while the writers wait. On 565b5cdf every pause of the queue walked the whole
 * queue again for each waiting note, and each delete's end walked every note asked for (2,000 notes and 5,000
 * deletes: 40 s of CPU before the writers were answered, 0.85 s now).
 */
describe("NodeHost's metadata cache, writers waiting behind a mass delete", () => {
	const RENAMED = 200;
	const DELETED = 500;
	const ROUNDS = 10;

	test("the work read while they wait is about one walk of the queue for each writer's note, however often the queue pauses", async () => {
		const files: Record<string, string> = { "Hub.md": "# Hub\n" };
		for (let note = 0; note < RENAMED; note++) files[`A/n${note}.md`] = `See [[Hub]] ${note}\n`;
		for (let note = 0; note < DELETED; note++) files[`Del/${note < RENAMED ? "n" : "x"}${note}.md`] = `# ${note}\n`;
		const root = await makeVault(files);
		const host = await NodeHost.open(root);
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		try {
			let heldNow!: () => void;
			const held = new Promise<void>((resolve) => (heldNow = resolve));
			const cachedRead = host.vault.cachedRead.bind(host.vault);
			host.vault.cachedRead = async (file) => {
				const text = await cachedRead(file);
				if (file.path === "Big.md") {
					heldNow();
					await released;
				}
				return text;
			};
			await host.vault.create("Big.md", "- item [[Hub]]\n");
			await held;
			// Another program's mass delete, as the watcher reports it.
			for (let note = 0; note < DELETED; note++) {
				const path = `Del/${note < RENAMED ? "n" : "x"}${note}.md`;
				host.vault.drop(path, host.vault.known(path)!);
			}
			const asked: string[] = [];
			for (let note = 0; note < RENAMED; note++) {
				await host.vault.rename(host.vault.getFileByPath(`A/n${note}.md`)!, `B/n${note}.md`);
				asked.push(`B/n${note}.md`, `A/n${note}.md`);
			}
			// Counted from here: every entry the cache reads of its queue (its array's own moves aside), of the notes asked
			// for, and every lookup of a queued move.
			const inner = host.metadataCache as unknown as { movesDue: Map<string, number>; parsesAsked: Map<HostFile, unknown>; changesQueued: unknown[] };
			const read = { queue: 0, asked: 0, moves: 0 };
			const has = inner.movesDue.has.bind(inner.movesDue);
			inner.movesDue.has = (path: string) => (read.moves++, has(path));
			const moveKeys = inner.movesDue.keys.bind(inner.movesDue);
			inner.movesDue.keys = () => ((read.moves += inner.movesDue.size), moveKeys());
			const askedKeys = inner.parsesAsked.keys.bind(inner.parsesAsked);
			inner.parsesAsked.keys = () => ((read.asked += inner.parsesAsked.size), askedKeys());
			const askedEntries = inner.parsesAsked[Symbol.iterator].bind(inner.parsesAsked);
			inner.parsesAsked[Symbol.iterator] = () => ((read.asked += inner.parsesAsked.size), askedEntries());
			const isIndex = (key: string | symbol) => typeof key === "string" && /^\d+$/u.test(key);
			// An array's shift and splice look whether each index is there before reading it: those reads are not the cache's.
			inner.changesQueued = new Proxy(inner.changesQueued, {
				get: (target, key, receiver): unknown => ((read.queue += isIndex(key) ? 1 : 0), Reflect.get(target, key, receiver)),
				has: (target, key) => ((read.queue -= isIndex(key) ? 1 : 0), Reflect.has(target, key)),
			});
			let answered = false;
			const writers = host.metadataCache.caughtUpWithNotes(asked).then(() => (answered = true));
			// Other writes meanwhile: each is parsed ahead at once, and each is a pause of the queue where the waiting notes are looked at again.
			for (let round = 0; round < ROUNDS; round++) {
				// A turn first: each write asks once the run of parses ahead before it has ended (on 565b5cdf one asking during it waited for the queue).
				await new Promise((resolve) => setImmediate(resolve));
				await host.vault.process(host.vault.getFileByPath("Hub.md")!, (text) => `${text}[[A/n${round}]]\n`);
				await host.metadataCache.caughtUpWithNotes(["Hub.md"]);
			}
			const beforeRelease = answered;
			release();
			await writers;
			const queueLength = DELETED + RENAMED + ROUNDS + 1;
			expect({ beforeRelease, answered, renamedHere: host.metadataCache.getCache(`B/n${RENAMED - 1}.md`)?.links?.length }).toEqual({
				beforeRelease: false,
				answered: true,
				renamedHere: 1,
			});
			// Here about 142,000 entries of the queue, 5,000–6,200 notes asked for, 1,600–2,800 lookups of moves (a busy machine, one
			// burner); on 565b5cdf all three over these bounds (the queue walked again for each note at each pause, every note asked
			// for read at each delete's end); on 285ac856 the lookups, 6,400 (7,200–8,400 with a burner): each pause looked up the
			// moves of every note held, more pauses on a busier machine.
			expect({
				queue: read.queue <= 2 * RENAMED * queueLength,
				asked: read.asked <= 4 * (ROUNDS + 2) * RENAMED,
				moves: read.moves <= 6 * (RENAMED + DELETED),
			}).toEqual({ queue: true, asked: true, moves: true });
		} finally {
			release();
			await host.close();
			await removeDir(root);
		}
	});
});

describe("NodeHost's metadata cache, a note that keeps changing", () => {
	let root: string;
	let host: NodeHost;

	beforeEach(async () => {
		root = await makeVault({ "Hub.md": "# Hub\n", "Target.md": "# Target\n" });
		host = await NodeHost.open(root);
	});
	afterEach(async () => {
		await host.close();
		await removeDir(root);
	});

	const addLine = (line: string) => host.vault.process(host.vault.getFileByPath("Hub.md")!, (text) => `${text}${line}\n`);

	test("is parsed again only once its gap (a few times its last parse's time) has passed, its changes meanwhile read by one parse; a writer's wait and settled() parse it at once", async () => {
		// Each parse of Hub.md takes at least 40 ms (a big note's, in time), from its read: its gap is 120 ms or more.
		const reads: number[] = [];
		const ends: number[] = [];
		const cachedRead = host.vault.cachedRead.bind(host.vault);
		host.vault.cachedRead = async (file) => {
			if (file.path !== "Hub.md") return cachedRead(file);
			reads.push(performance.now());
			await new Promise((resolve) => setTimeout(resolve, 40));
			return cachedRead(file);
		};
		// A change as each parse ends, as from a program that keeps writing, until five parses ended.
		let lines = 0;
		let streamed!: () => void;
		const fiveParsed = new Promise<void>((resolve) => (streamed = resolve));
		host.metadataCache.on("changed", (file) => {
			if (file.path !== "Hub.md") return;
			ends.push(performance.now());
			if (ends.length < 5) void addLine(`Line ${++lines} of [[Target]].`);
			else if (ends.length === 5) streamed();
		});
		await addLine(`Line ${++lines} of [[Target]].`);
		await fiveParsed;
		// Each parse began at least 1.5 times its previous one's time after that one ended (the gap is 3 times it): on
		// fedd8526 each began as the change was written, 0.03-0.64 times it after (with reads held 30 ms).
		const gaps = ends.slice(0, 4).map((end, at) => (reads[at + 1]! - end) / (end - reads[at]!));
		expect({ parses: reads.length, shortGaps: gaps.filter((ratio) => ratio < 1.5) }).toEqual({ parses: 5, shortGaps: [] });

		// Changed within its gap, it is named as being parsed; a writer's wait queues its parse at once (it began in the same turn).
		await addLine(`Line ${++lines} of [[Target]].`);
		expect(host.metadataCache.notesBeingParsed().map((file) => file.path)).toEqual(["Hub.md"]);
		let asked = performance.now();
		await host.metadataCache.caughtUpWithNotes(["Hub.md"]);
		const tookLast = (at: number) => ends[at]! - reads[at]!;
		expect({ parses: reads.length, waited: reads[5]! - asked < tookLast(4) }).toEqual({ parses: 6, waited: true });
		// So does settled(), and the cache holds the last text.
		await addLine(`Line ${++lines} of [[Target]].`);
		asked = performance.now();
		await host.metadataCache.settled();
		expect({ parses: reads.length, waited: reads[6]! - asked < tookLast(5) }).toEqual({ parses: 7, waited: true });
		expect({ links: host.metadataCache.resolvedLinks["Hub.md"], being: host.metadataCache.notesBeingParsed() }).toEqual({
			links: { "Target.md": lines },
			being: [],
		});
	});
});
