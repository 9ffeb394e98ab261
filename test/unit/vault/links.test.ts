import { backlinks, graphStats, noteLinks } from "../../../src/vault/links";
import { CANVAS_MAX_LINKED_TEXT_CHARS } from "../../../src/config/limits";
import { LinkFileIndex } from "../../../src/paths/linkResolution";
import { CallBudget } from "../../../src/vault/workBudget";
import { openVault, type OpenVault } from "../../helpers/hostVault";

describe("links and the graph", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault({
			"Hub.md": '---\nrelated: "[[Leaf]]"\n---\n[[Leaf]] and [[Leaf#Part|the part]], [[Diary]], [[Nowhere]] and ![[Leaf]]\n',
			"Leaf.md": "Back to [[Hub]].\n",
			"Lonely.md": "Nobody links here.\n",
			"Self.md": "Only [[Self]].\n",
			"Archive/Diary.md": "archived [[Missing too]]\n",
			"Private/Diary.md": "[[Hub]] [[Hub]] [[Hub]]\n",
		});
	});
	afterAll(() => vault.close());
	const scope = () => vault.scope("Private");
	const file = (path: string) => {
		const found = vault.host.vault.getFileByPath(path);
		if (!found) throw new Error(path);
		return found;
	};

	test("outgoing links come frontmatter first, then in the order of the text, each resolved", async () => {
		expect((await noteLinks(vault.host, scope(), file("Hub.md"), 100)).outgoing).toEqual([
			{ link: "Leaf", target: "Leaf.md", line: null },
			{ link: "Leaf", target: "Leaf.md", line: 3 },
			{ link: "Leaf#Part", target: "Leaf.md", line: 3 },
			{ link: "Diary", target: "Archive/Diary.md", line: 3 },
			{ link: "Nowhere", target: null, line: 3 },
			{ link: "Leaf", target: "Leaf.md", line: 3 },
		]);
	});

	test("unresolved links are listed once each, by link path", async () => {
		expect((await noteLinks(vault.host, scope(), file("Hub.md"), 100)).unresolved).toEqual(["Nowhere"]);
		expect((await noteLinks(vault.host, scope(), file("Leaf.md"), 100)).unresolved).toEqual([]);
	});

	test("at most the number asked for of each list, with the totals of both", async () => {
		const { outgoing, outgoingTotal, unresolved, unresolvedTotal } = await noteLinks(vault.host, vault.scope(), file("Hub.md"), 2);
		expect({ outgoing, outgoingTotal, unresolved, unresolvedTotal }).toEqual({
			outgoing: [
				{ link: "Leaf", target: "Leaf.md", line: null },
				{ link: "Leaf", target: "Leaf.md", line: 3 },
			],
			outgoingTotal: 6,
			unresolved: ["Nowhere"],
			unresolvedTotal: 1,
		});
		expect(await noteLinks(vault.host, vault.scope(), file("Private/Diary.md"), 1)).toMatchObject({ outgoingTotal: 3, unresolvedTotal: 0 });
	});

	test("backlinks count links per visible note; an excluded note's links count nowhere", async () => {
		expect(await backlinks(vault.host, scope(), "Hub.md")).toEqual([{ path: "Leaf.md", count: 1 }]);
		expect(await backlinks(vault.host, vault.scope(), "Hub.md")).toEqual([
			{ path: "Private/Diary.md", count: 3 },
			{ path: "Leaf.md", count: 1 },
		]);
		expect(await backlinks(vault.host, scope(), "Leaf.md")).toEqual([{ path: "Hub.md", count: 4 }]);
	});

	test("graph stats count visible notes, links between them, links to nowhere and orphans", async () => {
		expect(await graphStats(vault.host, scope(), 2)).toEqual({
			notes: 5,
			// Hub → Leaf ×4, Hub → Archive/Diary, Leaf → Hub; a note's link to itself is no edge.
			links: 6,
			// [[Nowhere]] and [[Missing too]].
			unresolved_links: 2,
			// Lonely, and Self (it links only to itself).
			orphans: 2,
			top_linked: [
				{ path: "Leaf.md", backlinks: 4 },
				{ path: "Archive/Diary.md", backlinks: 1 },
			],
		});
	});

	test("with nothing excluded, the excluded note's links join the counts", async () => {
		const stats = await graphStats(vault.host, vault.scope(), 1);
		expect(stats).toMatchObject({ notes: 6, links: 9, top_linked: [{ path: "Hub.md", backlinks: 4 }] });
	});
});

describe("a canvas's backlinks when a hidden note has the name its text card links", () => {
	let vault: OpenVault;
	const card = (id: string, fields: Record<string, string>) => ({ id, x: 0, y: 0, width: 10, height: 10, ...fields });
	beforeAll(async () => {
		vault = await openVault({
			"Projects/Sub/Plan.md": "# Plan\n",
			// Shorter, so the whole vault's resolution sends `[[Plan]]` here.
			"Secret/Plan.md": "# Secret plan\n",
			"Projects/Board.canvas": JSON.stringify({
				nodes: [
					card("t", { type: "text", text: "see [[Plan]] and ![[Plan]]" }),
					card("f", { type: "file", file: "Projects/Sub/Plan.md" }),
					card("s", { type: "file", file: "Secret/Plan.md" }),
				],
				edges: [],
			}),
		});
		await vault.host.metadataCache.settled();
	});
	afterAll(() => vault.close());

	test("the text card's links count for the visible note, as over a vault without the hidden one; the hidden file's card counts nowhere", async () => {
		expect(vault.host.metadataCache.resolvedLinks["Projects/Board.canvas"]).toEqual({ "Secret/Plan.md": 3, "Projects/Sub/Plan.md": 1 });
		expect(await backlinks(vault.host, vault.scope("Secret"), "Projects/Sub/Plan.md")).toEqual([{ path: "Projects/Board.canvas", count: 3 }]);
		expect(await backlinks(vault.host, vault.scope(), "Projects/Sub/Plan.md")).toEqual([{ path: "Projects/Board.canvas", count: 1 }]);
		expect(await backlinks(vault.host, vault.scope(), "Secret/Plan.md")).toEqual([{ path: "Projects/Board.canvas", count: 3 }]);
	});
});

describe("a canvas saved again within the same millisecond, at the same size", () => {
	let vault: OpenVault;
	const board = (link: string) =>
		JSON.stringify({ nodes: [{ id: "t", x: 0, y: 0, width: 10, height: 10, type: "text", text: `see [[${link}]] and ![[Plan]]` }], edges: [] });
	beforeAll(async () => {
		vault = await openVault({ "Projects/Sub/Plan.md": "# Plan\n", "Secret/Plan.md": "# Secret plan\n", "Projects/Board.canvas": board("Plan") });
		await vault.host.metadataCache.settled();
	});
	afterAll(() => vault.close());

	test("its backlinks follow the new text, not the links read from the old one", async () => {
		expect(await backlinks(vault.host, vault.scope("Secret"), "Projects/Sub/Plan.md")).toEqual([{ path: "Projects/Board.canvas", count: 2 }]);
		const file = vault.host.vault.getFileByPath("Projects/Board.canvas");
		if (!file) throw new Error("no canvas");
		const before = { ...file.stat };
		await vault.host.vault.process(file, () => board("Goal"));
		await vault.host.metadataCache.settled();
		// What a quick second save leaves: the same size and, at a millisecond's precision, the same time.
		Object.assign(file.stat, { mtime: before.mtime, size: before.size });
		expect(await backlinks(vault.host, vault.scope("Secret"), "Projects/Sub/Plan.md")).toEqual([{ path: "Projects/Board.canvas", count: 1 }]);
	});
});

describe("a note's links read from the headless cache's packed form", () => {
	let vault: OpenVault;
	const mixed = [
		"[[A]] then ![[B]] and [[C|see C]]",
		"```",
		"[[Not a link]]",
		"```",
		"![[D#Part]] [[E#^block]] [md](F.md) ![img](G.png)",
		"",
		"- [[A]] ![[A]] [[A]]",
	].join("\n");
	beforeAll(async () => {
		// More notes than the headless cache keeps built lists for (64).
		const others = Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`Other ${index}.md`, `[[A]] ![[B]] [[Other ${index + 1}]]`]));
		vault = await openVault({ ...others, "Mixed.md": mixed, "Watched.md": "[[A]]", "A.md": "a", "B.md": "b" });
	});
	afterAll(() => vault.close());
	const file = (path: string) => {
		const found = vault.host.vault.getFileByPath(path);
		if (!found) throw new Error(path);
		return found;
	};

	test("lists links and embeds in the order of the text with their lines, as the built entries give them", async () => {
		const listed = await noteLinks(vault.host, vault.scope(), file("Mixed.md"), 100);
		const cache = vault.host.metadataCache.getFileCache(file("Mixed.md"));
		const built = [...(cache?.links ?? []), ...(cache?.embeds ?? [])].sort((a, b) => a.position.start.offset - b.position.start.offset);
		expect(listed.outgoing.map((entry) => [entry.link, entry.line])).toEqual(built.map((entry) => [entry.link, entry.position.start.line]));
		expect(listed.outgoing.map((entry) => entry.link)).toEqual(["A", "B", "C", "D#Part", "E#^block", "F.md", "G.png", "A", "A", "A"]);
		expect(listed.outgoingTotal).toBe(10);
	});

	test("does not build the notes' link entries (a note's 100,000 links were built in one piece of 0.1 s)", async () => {
		const watched = vault.host.metadataCache.getFileCache(file("Watched.md"));
		const links = watched?.links;
		expect(links).toHaveLength(1);
		// Building 80 notes' entries would drop Watched.md's built list from the cache's last 64.
		for (let index = 0; index < 80; index++) expect((await noteLinks(vault.host, vault.scope(), file(`Other ${index}.md`), 100)).outgoingTotal).toBe(3);
		expect(watched?.links).toBe(links);
	});
});

describe("a canvas's backlinks beside a hidden note, whatever the canvas's shape", () => {
	let vault: OpenVault;
	const card = (id: string, fields: Record<string, unknown>) => ({ id, x: 0, y: 0, width: 10, height: 10, ...fields });
	beforeAll(async () => {
		vault = await openVault({
			"Projects/Sub/Plan.md": "# Plan\n",
			"Projects/Goal.md": "# Goal\n",
			// Shorter, so the whole vault's resolution sends `Plan.md` here.
			"Secret/Plan.md": "# Secret plan\n",
			"Secret/Hidden.md": "# Hidden\n",
			// Read by the metadata cache (and Obsidian) as it reads any canvas, though not JSON Canvas 1.0: a card of a plugin's own type, an edge to a card since deleted.
			"Projects/Loose.canvas": JSON.stringify({
				nodes: [card("t", { type: "text", text: "[[Goal]] and [[Hidden]]" }), card("p", { type: "excalidraw", file: "Drawing.excalidraw" })],
				edges: [{ id: "e", fromNode: "t", toNode: "gone" }],
			}),
			// A file card naming a note by the end of its path, as a link does.
			"Projects/Short.canvas": JSON.stringify({ nodes: [card("f", { type: "file", file: "Plan.md" })], edges: [] }),
		});
		await vault.host.metadataCache.settled();
	});
	afterAll(() => vault.close());

	test("a text card's link counts for the visible note though the canvas is not JSON Canvas 1.0, as over a vault without the hidden note", async () => {
		expect(vault.host.metadataCache.resolvedLinks["Projects/Loose.canvas"]).toEqual({ "Projects/Goal.md": 1, "Secret/Hidden.md": 1 });
		expect(await backlinks(vault.host, vault.scope("Secret"), "Projects/Goal.md")).toEqual([{ path: "Projects/Loose.canvas", count: 1 }]);
	});

	test("a file card naming a visible path counts for the note it reaches among the visible files, as over a vault without the hidden note", async () => {
		expect(vault.host.metadataCache.resolvedLinks["Projects/Short.canvas"]).toEqual({ "Secret/Plan.md": 1 });
		expect(await backlinks(vault.host, vault.scope("Secret"), "Projects/Sub/Plan.md")).toEqual([{ path: "Projects/Short.canvas", count: 1 }]);
	});
});

describe("backlinks of a note in a vault whose notes and canvases link into an excluded folder", () => {
	let vault: OpenVault;
	const LINKING = 40;
	beforeAll(async () => {
		const files: Record<string, string> = {
			"Hub.md": "# Hub\n",
			"Secret/Hidden.md": "# Hidden\n",
			"Board.canvas": JSON.stringify({ nodes: [{ id: "t", type: "text", text: "[[Hidden]] [[Hub]]", x: 0, y: 0, width: 10, height: 10 }], edges: [] }),
		};
		for (let note = 0; note < LINKING; note++) files[`Notes/${note}.md`] = "[[Hub]] and [[Hidden]]\n";
		vault = await openVault(files);
		await vault.host.metadataCache.settled();
	});
	afterAll(() => vault.close());

	// Each linking file's links are resolved again among the visible files (one of its targets is hidden), and each
	// gathered every visible file by name for it: over 4,000 notes a get_note_links call was 1.8-2.0 s of CPU, its whole
	// work budget, and the same call again did all of it again.
	test("one call gathers the vault's visible files once, not once per linking file", async () => {
		const gathered = jest.spyOn(vault.host.vault, "getFiles");
		try {
			const found = await backlinks(vault.host, vault.scope("Secret"), "Hub.md", new CallBudget());
			expect(found).toHaveLength(LINKING + 1);
			expect(found).toContainEqual({ path: "Board.canvas", count: 1 });
			expect(found).toContainEqual({ path: "Notes/0.md", count: 1 });
			expect(gathered).toHaveBeenCalledTimes(1);
		} finally {
			gathered.mockRestore();
		}
	});
});

describe("a canvas of 60,000 links to one note in a card, and a card past the text read for links, beside a hidden note", () => {
	let vault: OpenVault;
	const LINKS = 60_000;
	const card = (id: string, text: string) => ({ id, type: "text", text, x: 0, y: 0, width: 10, height: 10 });
	beforeAll(async () => {
		vault = await openVault({
			"Hub.md": "# Hub\n",
			"Other.md": "# Other\n",
			"Secret/Hidden.md": "# Hidden\n",
			"Crowded.canvas": JSON.stringify({ nodes: [card("a", `[[Hidden]] ${"[[Hub]] ".repeat(LINKS)}`)], edges: [] }),
			// The first card alone is past the bound: it counts no links; the small card after it still does.
			"Huge.canvas": JSON.stringify({
				nodes: [card("big", "[[Other]] ".repeat(Math.ceil(CANVAS_MAX_LINKED_TEXT_CHARS / 10) + 1)), card("small", "[[Other]] [[Hidden]]")],
				edges: [],
			}),
		});
		await vault.host.metadataCache.settled();
	});
	afterAll(() => vault.close());

	test("a token that cannot see one of its targets gets every link counted, each link path resolved once, not once a link", async () => {
		const cache = vault.host.metadataCache;
		const original = cache.getFirstLinkpathDest.bind(cache);
		let resolutions = 0;
		cache.getFirstLinkpathDest = (linkpath, source) => {
			resolutions++;
			return original(linkpath, source);
		};
		try {
			expect(await backlinks(vault.host, vault.scope("Secret"), "Hub.md")).toEqual([{ path: "Crowded.canvas", count: LINKS }]);
		} finally {
			cache.getFirstLinkpathDest = original;
		}
		expect(resolutions).toBeLessThan(100);
	});

	test("a card that would take the canvas past the text read for links counts none, for every token and in the metadata cache alike", async () => {
		expect(vault.host.metadataCache.resolvedLinks["Huge.canvas"]).toEqual({ "Other.md": 1, "Secret/Hidden.md": 1 });
		expect(await backlinks(vault.host, vault.scope("Secret"), "Other.md")).toEqual([{ path: "Huge.canvas", count: 1 }]);
		expect(await backlinks(vault.host, vault.scope(), "Other.md")).toEqual([{ path: "Huge.canvas", count: 1 }]);
	});
});

/**
 * A link path is resolved by comparing it with every file of the name it asks for: a note of 60,000
 * different paths to a name 3,000 folders hold (`[[p1/Same]]`, `[[p2/Same]]`, …) held get_note_links
 * 230 ms at a time. Counted as files compared between pauses, not timed.
 */
describe("a note's links to many paths of a name hundreds of folders hold", () => {
	const SAME_NAMED = 300;
	const PATHS = 2_000;
	let vault: OpenVault;
	beforeAll(async () => {
		const files: Record<string, string> = { "Hub.md": Array.from({ length: PATHS }, (_, index) => `[[p${index}/Same]] [[Same]]`).join(" ") };
		for (let index = 0; index < SAME_NAMED; index++) files[`D${index}/Same.md`] = `# Same ${index}\n`;
		vault = await openVault(files);
	});
	afterAll(() => vault.close());

	test("are resolved with a look at the clock after each new path, and listed as before", async () => {
		const hub = vault.host.vault.getFileByPath("Hub.md");
		if (!hub) throw new Error("Hub.md");
		const perPiece = [0];
		const budget = new CallBudget(
			() => {
				perPiece.push(0);
				return Promise.resolve();
			},
			0,
			Number.POSITIVE_INFINITY,
		);
		const resolve = Object.getOwnPropertyDescriptor(LinkFileIndex.prototype, "resolve")?.value as LinkFileIndex<never>["resolve"];
		const compared = jest.spyOn(LinkFileIndex.prototype, "resolve").mockImplementation(function (this: LinkFileIndex<never>, ...args) {
			if (/same$/i.test(args[0])) perPiece[perPiece.length - 1] = (perPiece.at(-1) ?? 0) + SAME_NAMED;
			return resolve.apply(this, args) as never;
		});
		let listed: Awaited<ReturnType<typeof noteLinks>>;
		try {
			listed = await noteLinks(vault.host, vault.scope(), hub, 1000, budget);
		} finally {
			compared.mockRestore();
		}
		expect(listed.outgoingTotal).toBe(2 * PATHS);
		expect(listed.outgoing.slice(0, 2)).toEqual([
			{ link: "p0/Same", target: null, line: 0 },
			{ link: "Same", target: "D0/Same.md", line: 0 },
		]);
		expect(listed.unresolvedTotal).toBe(PATHS);
		// Each path once, "Same" once: 2,001 resolutions.
		expect(perPiece.reduce((sum, count) => sum + count, 0)).toBe((PATHS + 1) * SAME_NAMED);
		// Before: 512 links between two looks, about 257 new paths each time (77,100 files compared in one piece).
		expect(Math.max(...perPiece)).toBeLessThanOrEqual(SAME_NAMED);
	});
});
