import fc from "fast-check";
import { CHUNKED_ARRAY_CHUNK, MAX_TAG_PARENTS_COUNTED } from "../../../src/config/limits";
import type { Host } from "../../../src/host/Host";
import { comparePaths, noteVisibility } from "../../../src/vault/notes";
import { NoteMemo } from "../../../src/vault/noteMemo";
import type { Scope } from "../../../src/vault/scope";
import { tagPlace, TagCountWalk, type CountedTag } from "../../../src/vault/tagCounts";
import { TagNotes } from "../../../src/vault/tagNotes";
import { allTagTexts } from "../../../src/vault/tags";
import { CallBudget, CallOverBudget } from "../../../src/vault/workBudget";
import { listTagsTool } from "../../../src/mcp/tools/list_tags";
import { getGraphStatsTool } from "../../../src/mcp/tools/get_graph_stats";
import type { ToolContext } from "../../../src/mcp/context";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { replaceMethod } from "../../helpers/replaceMethod";

/**
 * The reference: a walk of every visible note's tags as Obsidian's tag pane counts them, written
 * plainly (each note's first spelling of a key, then its parents split on `/`, a note counted once
 * per tag, the spelling of the first note in path order, most used first then by spelling).
 */
function walkedCounts(host: Host, scope: Scope): CountedTag[] {
	const visible = noteVisibility(scope);
	const counts = new Map<string, { tag: string; count: number; by: string }>();
	for (const file of host.vault.getMarkdownFiles()) {
		if (!visible(file.path)) continue;
		const cache = host.metadataCache.getFileCache(file);
		if (!cache) continue;
		const firstSpelling = new Map<string, string>();
		for (const text of allTagTexts(cache)) {
			const spelling = text.replace(/^#/, "");
			if (!firstSpelling.has(spelling.toLowerCase())) firstSpelling.set(spelling.toLowerCase(), spelling);
		}
		const seen = new Set<string>();
		for (const [key, spelling] of firstSpelling) {
			const keyParts = key.split("/");
			const spellingParts = spelling.split("/");
			const depths = [...Array.from({ length: Math.min(keyParts.length - 1, MAX_TAG_PARENTS_COUNTED) }, (_, index) => index + 1), keyParts.length];
			for (const depth of depths) {
				const ancestor = keyParts.slice(0, depth).join("/");
				if (seen.has(ancestor)) continue;
				seen.add(ancestor);
				const tag = `#${spellingParts.slice(0, depth).join("/")}`;
				const entry = counts.get(ancestor);
				if (!entry) counts.set(ancestor, { tag, count: 1, by: file.path });
				else {
					entry.count++;
					if (comparePaths(file.path, entry.by) < 0) Object.assign(entry, { tag, by: file.path });
				}
			}
		}
	}
	return [...counts.values()].map(({ tag, count }) => ({ tag, count })).sort((a, b) => b.count - a.count || comparePaths(a.tag, b.tag));
}

/** A clock that finds every slice used up and stops the call (CallOverBudget) at its `allowed`-th pause. */
function stoppingClock(allowed: number): Pick<CallBudget, "due" | "checkpoint"> & { pauses: () => number } {
	let pauses = 0;
	return {
		due: () => true,
		checkpoint: () => (++pauses >= allowed ? Promise.reject(new CallOverBudget(allowed)) : Promise.resolve()),
		pauses: () => pauses,
	};
}

const TAG_POOL = ["#idea", "#Idea", "#project", "#Project/Alpha", "#project/alpha", "#project/beta/x", "#a/b/c/d/e", "#A/B", "#z", "#zeta/eta"];
const FOLDERS = ["", "A/", "B/", "Private/"];

describe("tag counts", () => {
	test("counted in pieces stopped anywhere and taken up again by later calls, they equal a walk of every note: each scope, prefix and limit", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.tuple(fc.constantFrom(...FOLDERS), fc.array(fc.constantFrom(...TAG_POOL), { maxLength: 6 })), { minLength: 1, maxLength: 8 }),
				fc.integer({ min: 2, max: 6 }),
				fc.constantFrom("", "p", "project/", "idea", "zz"),
				fc.integer({ min: 1, max: 12 }),
				async (notes, allowed, prefix, limit) => {
					const files: Record<string, string> = {};
					notes.forEach(([folder, tags], index) => (files[`${folder}N${index}.md`] = `${tags.join(" ")}\n`));
					const vault = await openVault(files);
					try {
						await vault.host.metadataCache.settled();
						const scopes: Scope[] = [vault.scope(), vault.scope("Private"), { ...vault.scope(), tokenFolders: ["A"] }];
						for (const scope of scopes) {
							const walk = new TagCountWalk(vault.host, scope, new NoteMemo());
							for (let calls = 0; ; calls++) {
								expect(calls).toBeLessThan(1_000);
								try {
									await walk.finish(stoppingClock(allowed));
									break;
								} catch (error) {
									if (!(error instanceof CallOverBudget)) throw error;
								}
							}
							const walked = walkedCounts(vault.host, scope);
							expect((await walk.top("", Number.MAX_SAFE_INTEGER)).tags).toEqual(walked);
							expect(walk.distinct).toBe(walked.length);
							const matching = walked.filter((entry) => entry.tag.slice(1).toLowerCase().startsWith(prefix));
							expect(await walk.top(prefix, limit)).toEqual({ tags: matching.slice(0, limit), total: matching.length });
							// Page after page from each page's last tag: every tag once, in order.
							const paged: CountedTag[] = [];
							for (let after: CountedTag | undefined; ;) {
								const page = await walk.top(prefix, limit, undefined, after);
								paged.push(...page.tags);
								if (page.tags.length < limit) break;
								after = tagPlace(page.tags[limit - 1] as CountedTag);
							}
							expect(paged).toEqual(matching);
						}
					} finally {
						await vault.close();
					}
				},
			),
			{ numRuns: 20 },
		);
	}, 120_000);

	test("notes per tag, parents included, a note counted once, the first note's spelling, excluded notes nowhere", async () => {
		const vault = await openVault({
			"Alpha.md": "---\ntags: [Project/Alpha]\n---\nSee #project/alpha again and #idea\n",
			"Beta.md": "Work on #project/beta and #Idea.\n",
			"Gamma.md": "No tags, only `#code` and a heading\n# Heading\n",
			"Private/Secret.md": "#project/secret #idea\n",
			"Escaped.md": "Not a tag: \\#escaped, a tag: #real\n",
		});
		try {
			await vault.host.metadataCache.settled();
			const walk = await TagCountWalk.finished(vault.host, vault.scope("Private"));
			expect(await walk.top("", 10)).toEqual({
				tags: [
					{ tag: "#idea", count: 2 },
					{ tag: "#Project", count: 2 },
					{ tag: "#Project/Alpha", count: 1 },
					{ tag: "#project/beta", count: 1 },
					{ tag: "#real", count: 1 },
				],
				total: 5,
			});
		} finally {
			await vault.close();
		}
	});

	test("a tag nested deeper than the bound counts for its first parents only, then itself", async () => {
		const deep = Array.from({ length: MAX_TAG_PARENTS_COUNTED + 10 }, (_, index) => `t${index}`).join("/");
		const vault = await openVault({ "Deep.md": `#${deep} #a//b/\n` });
		try {
			await vault.host.metadataCache.settled();
			const walk = await TagCountWalk.finished(vault.host, vault.scope());
			const tags = (await walk.top("", Number.MAX_SAFE_INTEGER)).tags.map((entry) => entry.tag);
			expect(tags).toHaveLength(MAX_TAG_PARENTS_COUNTED + 1 + 4);
			expect(tags).toContain(`#${deep}`);
			expect(tags).toContain(`#${deep.split("/").slice(0, MAX_TAG_PARENTS_COUNTED).join("/")}`);
			expect(tags).not.toContain(
				`#${deep
					.split("/")
					.slice(0, MAX_TAG_PARENTS_COUNTED + 1)
					.join("/")}`,
			);
			expect(tags).toEqual(expect.arrayContaining(["#a", "#a/", "#a//b", "#a//b/"]));
			expect(walkedCounts(vault.host, vault.scope())).toEqual((await walk.top("", Number.MAX_SAFE_INTEGER)).tags);
		} finally {
			await vault.close();
		}
	});
});

describe("list_tags and get_graph_stats over 100,000 different tags, each call stopped after 150 pauses", () => {
	const TAGS = 100_000;
	let vault: OpenVault;
	let kept: TagNotes;
	beforeAll(async () => {
		vault = await openVault({
			"Many.md": `${Array.from({ length: TAGS }, (_, index) => `#t${index}`).join(" ")}\n`,
			"One.md": "#t5 #shared\n",
			"Private/Secret.md": "#secret #shared #t5\n",
			"A/Mine.md": "#mine #shared\n",
		});
		await vault.host.metadataCache.settled();
		kept = new TagNotes(vault.host, new NoteMemo());
		kept.start();
	});
	afterAll(async () => {
		kept.stop();
		await vault.close();
	});

	/** A context whose calls stop at their 150th pause (every look at the clock finds the slice used up). */
	function stoppingContext(scope: Scope): ToolContext {
		let pauses = 0;
		return {
			host: vault.host,
			scope,
			tagNotes: kept,
			callBudget: {
				pause: () => (++pauses % 150 === 0 ? Promise.reject(new CallOverBudget(150)) : Promise.resolve()),
				sliceMs: 0,
				callWorkMs: Number.POSITIVE_INFINITY,
			},
		} as unknown as ToolContext;
	}

	/** Calls `run` until it answers, at most `tries` times: how many calls it took, and the answer. */
	async function retried<T>(tries: number, run: () => Promise<{ ok: boolean; value?: T }>): Promise<{ calls: number; value: T | undefined }> {
		for (let calls = 1; calls <= tries; calls++) {
			const result = await run();
			if (result.ok) return { calls, value: result.value };
		}
		return { calls: Number.POSITIVE_INFINITY, value: undefined };
	}

	test("a client calling again gets its answer: each call goes on from where the last one stopped (every call started over before, and none answered)", async () => {
		const ctx = stoppingContext({ ...vault.scope("Private") });
		const listed = await retried(
			5,
			() => listTagsTool.handler(ctx, { limit: 3 }) as Promise<{ ok: boolean; value?: { tags: CountedTag[]; total: number } }>,
		);
		expect(listed.calls).toBeLessThanOrEqual(3);
		expect(listed.value).toEqual({
			tags: [
				{ tag: "#shared", count: 2 },
				{ tag: "#t5", count: 2 },
				{ tag: "#mine", count: 1 },
			],
			total: TAGS + 2,
			next_cursor: expect.any(String),
		});
		// Kept: asked again, it answers at once.
		const stats = await retried(1, () => getGraphStatsTool.handler(ctx, {}) as Promise<{ ok: boolean; value?: { tags: number } }>);
		expect(stats.value?.tags).toBe(TAGS + 2);
	});

	test("kept counts never answer another scope: a token narrowed to a folder sees only its notes' tags, an excluded folder's tags are nowhere", async () => {
		const whole = await retried(
			5,
			() => listTagsTool.handler(stoppingContext(vault.scope()), { limit: 3 }) as Promise<{ ok: boolean; value?: { tags: CountedTag[]; total: number } }>,
		);
		expect(whole.value?.tags[0]).toEqual({ tag: "#shared", count: 3 });
		const narrowed = stoppingContext({ ...vault.scope(), tokenFolders: ["A"] });
		const mine = await retried(
			5,
			() => listTagsTool.handler(narrowed, { limit: 10 }) as Promise<{ ok: boolean; value?: { tags: CountedTag[]; total: number } }>,
		);
		expect(mine.value).toEqual({
			tags: [
				{ tag: "#mine", count: 1 },
				{ tag: "#shared", count: 1 },
			],
			total: 2,
		});
		const stats = await retried(5, () => getGraphStatsTool.handler(narrowed, {}) as Promise<{ ok: boolean; value?: { tags: number; notes: number } }>);
		expect(stats.value).toMatchObject({ tags: 2, notes: 1 });
		const excluded = await retried(
			5,
			() =>
				listTagsTool.handler(stoppingContext(vault.scope("Private")), { prefix: "secret", limit: 200 }) as Promise<{
					ok: boolean;
					value?: { tags: CountedTag[]; total: number };
				}>,
		);
		expect(excluded.value).toEqual({ tags: [], total: 0 });
	});

	test("an edit is counted by the next call: the kept counts are dropped when a note changes", async () => {
		const ctx = stoppingContext(vault.scope("Private"));
		await retried(5, () => listTagsTool.handler(ctx, { limit: 1 }) as Promise<{ ok: boolean }>);
		const file = vault.host.vault.getFileByPath("One.md");
		if (!file) throw new Error("One.md is missing");
		await vault.host.vault.process(file, () => "#t5 #shared #fresh\n");
		await vault.host.metadataCache.settled();
		const listed = await retried(
			5,
			() => listTagsTool.handler(ctx, { prefix: "fresh", limit: 200 }) as Promise<{ ok: boolean; value?: { tags: CountedTag[]; total: number } }>,
		);
		expect(listed.value).toEqual({ tags: [{ tag: "#fresh", count: 1 }], total: 1 });
	});
});

describe("the first count of a note of 100,000 different tags", () => {
	test("no array grows past a chunk between two pauses (a pushed-into array copies all it holds to grow: 80–125 ms pieces at 800,000 tags)", async () => {
		const TAGS = 100_000;
		const vault = await openVault({ "Many.md": `${Array.from({ length: TAGS }, (_, index) => `#t${index}`).join(" ")}\n`, "One.md": "#t5 #shared\n" });
		try {
			await vault.host.metadataCache.settled();
			// The longest array pushed into between two pauses of the call.
			let longest = 0;
			let longestOverall = 0;
			const push = Object.getOwnPropertyDescriptor(Array.prototype, "push")?.value as (this: unknown[], ...values: unknown[]) => number;
			const pushing = replaceMethod(Array.prototype, "push", function (this: unknown[], ...values: unknown[]) {
				longest = Math.max(longest, this.length + values.length);
				return push.apply(this, values);
			});
			let answer: unknown;
			try {
				const ctx = {
					host: vault.host,
					scope: vault.scope(),
					callBudget: {
						pause: () => {
							longestOverall = Math.max(longestOverall, longest);
							longest = 0;
							return Promise.resolve();
						},
						sliceMs: 0,
						callWorkMs: Number.POSITIVE_INFINITY,
					},
				} as unknown as ToolContext;
				answer = await listTagsTool.handler(ctx, { limit: 3 });
			} finally {
				pushing.restore();
			}
			longestOverall = Math.max(longestOverall, longest);
			expect(answer).toEqual({
				ok: true,
				value: {
					tags: [
						{ tag: "#t5", count: 2 },
						{ tag: "#shared", count: 1 },
						{ tag: "#t0", count: 1 },
					],
					total: TAGS + 1,
					next_cursor: expect.any(String),
				},
			});
			// Before: the note's list of 200,000 strings and the counts' arrays of 100,000 were pushed into.
			expect(longestOverall).toBeLessThanOrEqual(CHUNKED_ARRAY_CHUNK);
		} finally {
			await vault.close();
		}
	});
});

test("list_tags pages through tags longer than a path, alike for more than a path's length and as used: each listed once (cut at 16,383 characters, a page ending at one skipped the rest)", async () => {
	// 20,000 characters: three fill a page's MAX_LISTED_TAG_CHARS.
	const long = (index: number) => `#${"x".repeat(19_990)}${String(index).padStart(9, "0")}`;
	const vault = await openVault(Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`N${index}.md`, `${long(index)}\n`])));
	const kept = new TagNotes(vault.host, new NoteMemo());
	kept.start();
	try {
		await vault.host.metadataCache.settled();
		const ctx = {
			host: vault.host,
			scope: vault.scope(),
			tagNotes: kept,
			callBudget: { pause: () => Promise.resolve(), sliceMs: 1_000_000, callWorkMs: Number.POSITIVE_INFINITY },
		} as unknown as ToolContext;
		const listed: string[] = [];
		let cursor: string | undefined;
		for (let pages = 0; pages < 5; pages++) {
			const page = (await listTagsTool.handler(ctx, { limit: 10, ...(cursor === undefined ? {} : { cursor }) })) as {
				ok: boolean;
				value?: { tags: CountedTag[]; next_cursor?: string };
			};
			expect(page.ok).toBe(true);
			listed.push(...(page.value?.tags ?? []).map((entry) => entry.tag));
			cursor = page.value?.next_cursor;
			if (cursor === undefined) break;
		}
		expect(listed).toEqual(Array.from({ length: 5 }, (_, index) => long(index)));
	} finally {
		kept.stop();
		await vault.close();
	}
});
