import {
	HEADING_KEYED_MAX_CHARS,
	MAX_ANSWERED_SECTION_CHARS,
	MAX_NOTE_HEADINGS,
	MAX_STARTUP_PARSE_BYTES,
	SLICED_TAGS,
	SUBPATH_HEADING_STEP_CHARS,
} from "../../../../src/config/limits";
import { countSetAdds, countWorkPerPiece } from "../../../helpers/workPieces";
import { NodeVault } from "../../../../src/headless/NodeVault";
import { NodeMetadataCache } from "../../../../src/headless/NodeMetadataCache";
import type { HostFile } from "../../../../src/host/Host";
import { NO_SEARCH } from "../../../helpers/inMemoryClient";
import { openToolVault, type ToolVault } from "../../../helpers/toolVault";
import { onLowerCase } from "../../../helpers/replaceMethod";
import { restJsonBytesAtMost } from "../../../../src/mcp/tools/read_note";

describe("read_note", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{ "Projects/Plan.md": "---\ntags: [project]\n---\n# Plan\n#idea\n", "Private/Diary.md": "secret", "photo.png": "png" },
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("by path or by link text: the text, frontmatter, tags and a hash of the text", async () => {
		const byLink = await tv.ok("read_note", { path: "Plan" });
		expect(byLink).toMatchObject({
			path: "Projects/Plan.md",
			content: "---\ntags: [project]\n---\n# Plan\n#idea\n",
			frontmatter: { tags: ["project"] },
			truncated: false,
		});
		expect(byLink.tags).toEqual(expect.arrayContaining(["#project", "#idea"]));
		expect(byLink.hash).toMatch(/^[0-9a-f]{64}$/);
		expect(await tv.ok("read_note", { path: "Projects/Plan.md" })).toEqual(byLink);
	});

	test("a note named 'a#b.md' renamed while it is read is answered whole at its new path (it was read as a heading 'b.md' of it: an error)", async () => {
		const hashed = await openToolVault({ "a#b.md": "# Top\nhash note\n" });
		const read = Object.getOwnPropertyDescriptor(NodeVault.prototype, "cachedRead")?.value as NodeVault["cachedRead"];
		const reads = jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file) {
			const text = await read.call(this, file);
			if (file.path === "a#b.md") await this.rename(file, "c.md");
			return text;
		});
		try {
			expect(await hashed.ok("read_note", { path: "a#b.md" })).toMatchObject({ path: "c.md", content: "# Top\nhash note\n" });
		} finally {
			reads.mockRestore();
			await hashed.close();
		}
	});

	test("a note that fits is answered without making the answer beside its text as JSON (the properties' JSON was made twice a read)", async () => {
		const stringify = jest.spyOn(JSON, "stringify");
		try {
			const read = await tv.ok("read_note", { path: "Plan" });
			expect(read).toMatchObject({ frontmatter: { tags: ["project"] }, truncated: false });
			// read_note's `rest`: every field of the answer but its text.
			const restsMade = stringify.mock.calls.filter(([value]) => value !== null && typeof value === "object" && "hash" in value && !("content" in value));
			expect(restsMade).toHaveLength(0);
		} finally {
			stringify.mockRestore();
		}
	});

	test("the bound on the answer beside the text holds for every kind of character (control, lone surrogate, pair, quote, wide)", () => {
		const pieces = ["a", "\u0000", "\u001f", "\ud800", "\udfff", "\ud83d\ude00", '"', "\\", "\u00e9", "\u4e2d", "\u2028", "\n"];
		let seed = 7;
		const next = (below: number) => {
			seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
			return seed % below;
		};
		const text = (most: number) => Array.from({ length: next(most + 1) }, () => pieces[next(pieces.length)]).join("");
		// The worst case, every field there: strings of NULs (6 bytes a character), numbers at their longest. The bound is met, and
		// by a few bytes only (its last commas), so a field counted short anywhere fails here.
		const nul = (length: number) => "\u0000".repeat(length);
		const worst = {
			path: nul(200),
			section: nul(30),
			frontmatter: null,
			frontmatter_unparsed: nul(60),
			tags: [nul(12), nul(3), nul(1), nul(7), nul(2)],
			tags_left_out: -1.2345678901234567e-308,
			hash: nul(64),
			modified: nul(24),
			size: -1.2345678901234567e-308,
		};
		const worstBytes = Buffer.byteLength(JSON.stringify(worst));
		expect(restJsonBytesAtMost(worst)).toBeGreaterThanOrEqual(worstBytes);
		expect(restJsonBytesAtMost(worst)).toBeLessThanOrEqual(worstBytes + 2);
		for (let round = 0; round < 2_000; round++) {
			const rest = {
				path: `${text(200)}.md`,
				section: next(2) === 0 ? undefined : text(30),
				frontmatter: next(2) === 0 ? null : { [text(10)]: text(50), list: [text(5), 1.5e-300, -0] },
				frontmatter_unparsed: next(3) === 0 ? text(60) : undefined,
				tags: Array.from({ length: next(6) }, () => `#${text(12)}`),
				tags_left_out: next(2) === 0 ? undefined : -1.2345678901234567e-308,
				// Short or long: a long one's room (6 bytes a character) would hide another field counted short.
				hash: next(2) === 0 ? "" : text(64),
				modified: next(2) === 0 ? "" : text(24),
				size: Number.MAX_SAFE_INTEGER,
			};
			expect(restJsonBytesAtMost(rest)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(rest)));
		}
	});

	test("an excluded note answers as a missing one; an attachment is not a note", async () => {
		expect(await tv.error("read_note", { path: "Private/Diary" })).toMatch(/^No note "Private\/Diary"/);
		expect(await tv.error("read_note", { path: "photo.png" })).toMatch(/not a Markdown note/);
	});

	test("a note holding a tag of a million characters is read: its other tags listed, that one counted as left out", async () => {
		const huge = `#${"a".repeat(1_000_000)}`;
		const planted = await openToolVault({ "Planted.md": `#small ${huge}\n#other\n` });
		try {
			const read = await planted.ok("read_note", { path: "Planted" });
			expect(read.tags).toEqual(["#small", "#other"]);
			expect(read.tags_left_out).toBe(1);
			// The text is there, cut at its bound as any long note's.
			expect(read.truncated).toBe(true);
			expect(String(read.content).startsWith(`#small #${"a".repeat(1000)}`)).toBe(true);
		} finally {
			await planted.close();
		}
	});

	// 90 s: a bound for a hang only (2.5 s alone); at load 15–20 beside other builds it ran out jest's 30 s once.
	test("a note of 50,000 different tags is read with its tags listed in slices (deduplicated in one piece before: about 1 s at 800,000)", async () => {
		// About three times the most a piece may add below: deduplicated in one piece, they fail it.
		const TAGS = 50_000;
		const planted = await openToolVault(
			{ "Many tags.md": `${Array.from({ length: TAGS }, (_, index) => `#t${index}`).join(" ")}\n` },
			{ search: NO_SEARCH },
		);
		// The note's tags come from its metadata, which opening the vault makes in pieces: on a busy machine it can still be coming.
		await planted.vault.host.metadataCache.settled();
		const pieces = countWorkPerPiece();
		// Texts added to sets between two pauses.
		const stopCountingAdds = countSetAdds(pieces);
		try {
			const read = await planted.ok("read_note", { path: "Many tags" });
			expect((read.tags as string[]).slice(0, 2)).toEqual(["#t0", "#t1"]);
			expect((read.tags as string[]).length + Number(read.tags_left_out)).toBe(TAGS);
			expect(pieces.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(TAGS);
			// Before: all of them in one piece. Now a pause at least every SLICED_TAGS (a note's tag keys) or 1,024 (its listed tags).
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(SLICED_TAGS + 1024);
		} finally {
			stopCountingAdds();
			pieces.restore();
			await planted.close();
		}
	}, 90_000);

	test("a heading or block of a note over a megabyte asked for while its metadata is still being parsed after start: said to be still read, not missing", async () => {
		// Parsed after start (over MAX_STARTUP_PARSE_BYTES), in slices. Its parse is held until both calls are answered: left to
		// the machine's speed, the parse (seconds once, 2-3x faster since the block parser's short paths) ended between them.
		// Enough headings and blocks for the note to pass MAX_STARTUP_PARSE_BYTES (1.3 MB).
		const HEADINGS = 60_000;
		const last = HEADINGS - 1;
		const text = `${Array.from({ length: HEADINGS }, (_, index) => `# h${index}\n\nline ^b${index}\n\n`).join("")}end\n`;
		expect(text.length).toBeGreaterThan(MAX_STARTUP_PARSE_BYTES);
		let releaseParse!: () => void;
		const parseReleased = new Promise<void>((resolve) => (releaseParse = resolve));
		const cacheIndex = NodeMetadataCache.prototype as unknown as { index: (file: HostFile, text: string) => Promise<unknown> };
		const index = cacheIndex.index;
		const held = jest.spyOn(cacheIndex, "index").mockImplementation(async function (this: unknown, file: HostFile, noteText: string) {
			if (file.path === "Outline.md" && noteText.length > 0) await parseReleased;
			return index.call(this, file, noteText);
		});
		const planted = await openToolVault({ "Outline.md": text });
		try {
			const cache = planted.vault.host.metadataCache;
			expect(cache.getCache("Outline.md")).toBeNull();
			const block = await planted.error("read_note", { path: `Outline#^b${last}` });
			const heading = await planted.error("read_note", { path: `Outline#h${last}` });
			// Answered before the parse ended (else the test proves nothing).
			expect(cache.getCache("Outline.md")).toBeNull();
			for (const answer of [block, heading]) {
				expect(answer).toMatch(/^"Outline\.md" is still being read/);
				expect(answer).not.toMatch(/no headings|No (block|heading)/);
			}
			releaseParse();
			await cache.settled();
			expect(await planted.ok("read_note", { path: `Outline#^b${last}` })).toMatchObject({ content: `line ^b${last}` });
			expect(await planted.ok("read_note", { path: `Outline#h${last}` })).toMatchObject({ section: `h${last}` });
		} finally {
			releaseParse();
			held.mockRestore();
			await planted.close();
		}
	}, 60_000);

	test("a heading past the MAX_NOTE_HEADINGS a note's parse keeps is said to be not read, and the note is read whole; one within is read", async () => {
		const count = MAX_NOTE_HEADINGS + 10;
		const text = Array.from({ length: count }, (_, index) => `# ${index}\n`).join("");
		const planted = await openToolVault({ "Outline.md": text, "Small.md": "# a\n" });
		try {
			await planted.vault.host.metadataCache.settled();
			const past = await planted.error("read_note", { path: `Outline#${count - 1}` });
			expect(past).toMatch(new RegExp(`^No heading "${count - 1}" in "Outline\\.md"\\. Its headings: # 0 \\(line 0\\);`));
			expect(past).toContain(`Headings past the first ${MAX_NOTE_HEADINGS} of a note are not read: read it whole.`);
			expect(await planted.ok("read_note", { path: "Outline#5" })).toMatchObject({ section: "5", content: "# 5\n" });
			// The last heading kept: its section ends at the first one left out, not at the note's end (the 10 after it came too).
			expect(await planted.ok("read_note", { path: `Outline#${MAX_NOTE_HEADINGS - 1}` })).toMatchObject({
				section: `${MAX_NOTE_HEADINGS - 1}`,
				content: `# ${MAX_NOTE_HEADINGS - 1}\n`,
			});
			const whole = await planted.ok("read_note", { path: "Outline" });
			expect(whole).toMatchObject({ size: text.length });
			expect(text.startsWith(whole.content as string)).toBe(true);
			// A note within the bound is told nothing of it.
			expect(await planted.error("read_note", { path: "Small#nothere" })).toBe(
				'No heading "nothere" in "Small.md". Its headings: # a (line 0). Call read_note with one of these after \'#\', or with the path alone for the whole note.',
			);
		} finally {
			await planted.close();
		}
	}, 60_000);

	test("past MAX_NOTE_HEADINGS a kept heading's section ends at the first heading left out of its level; a note of exactly MAX_NOTE_HEADINGS is not told headings are unread", async () => {
		// The last two headings kept are `# top` and `## sub`; `### deep` and `# next` are left out: `# top` ends at `# next`, not at `### deep`.
		const nested = `${"# h\n".repeat(MAX_NOTE_HEADINGS - 2)}# top\n## sub\n### deep\n# next\nafter\n`;
		const exact = Array.from({ length: MAX_NOTE_HEADINGS }, (_, index) => `# ${index}\n`).join("");
		const planted = await openToolVault({ "Nested.md": nested, "Exact.md": exact });
		try {
			await planted.vault.host.metadataCache.settled();
			const top = await planted.ok("read_note", { path: "Nested#top" });
			expect(top).toMatchObject({ section: "top", content: "# top\n## sub\n### deep\n" });
			expect(await planted.ok("read_note", { path: "Nested#sub" })).toMatchObject({ content: "## sub\n### deep\n" });
			const missing = await planted.error("read_note", { path: "Exact#nothere" });
			expect(missing).toMatch(/^No heading "nothere" in "Exact\.md"\. Its headings: # 0 \(line 0\);/);
			expect(missing).not.toContain("not read");
			expect(await planted.ok("read_note", { path: `Exact#${MAX_NOTE_HEADINGS - 1}` })).toMatchObject({ content: `# ${MAX_NOTE_HEADINGS - 1}\n` });
		} finally {
			await planted.close();
		}
	}, 60_000);

	test("a missing heading among 20,000 is answered in slices (every heading built and keyed in one piece before: about 0.2 s at 150,000), listing the first ones", async () => {
		// Five times the most headings a piece may key below: keyed in one piece, they fail it.
		const HEADINGS = 20_000;
		const planted = await openToolVault({ "Outline.md": `${"# h\n".repeat(HEADINGS - 1)}## Last one\nend\n` }, { search: NO_SEARCH });
		await planted.vault.host.metadataCache.settled();
		const pieces = countWorkPerPiece();
		// Headings keyed between two pauses (headingKey lowers each heading's case once).
		const lowered = onLowerCase(() => pieces.count());
		try {
			const error = await planted.error("read_note", { path: "Outline#nothere" });
			expect(error).toMatch(/^No heading "nothere" in "Outline.md"\. Its headings: # h \(line 0\); # h \(line 1\);/);
			expect(error).toContain(" more.");
			expect(pieces.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(HEADINGS);
			// Before: all of them in one piece. Now a pause at least every 2,048 headings.
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(4096);
			// Asked again, the note unchanged: its headings are not read and keyed again (150,000 more before).
			const before = pieces.perPiece.reduce((sum, count) => sum + count, 0);
			expect(await planted.error("read_note", { path: "Outline#nothere" })).toBe(error);
			expect(pieces.perPiece.reduce((sum, count) => sum + count, 0) - before).toBeLessThan(1_000);
		} finally {
			lowered.restore();
			pieces.restore();
		}
		try {
			// Found as before: the last heading's section, and a chain inside the first heading's.
			expect(await planted.ok("read_note", { path: "Outline#Last one" })).toMatchObject({ section: "Last one", content: "## Last one\nend\n" });
			expect(await planted.ok("read_note", { path: "Outline#h" })).toMatchObject({ section: "h", content: "# h\n" });
			expect(await planted.error("read_note", { path: "Outline#h#Last one" })).toMatch(/^No heading "h#Last one"/);
			// Changed, the note's new headings are read (those kept were its old metadata's).
			const file = planted.vault.host.vault.getFileByPath("Outline.md");
			if (!file) throw new Error("no Outline.md");
			await planted.vault.host.vault.process(file, (text) => `${text}## nothere\nnow\n`);
			await planted.vault.host.metadataCache.settled();
			expect(await planted.ok("read_note", { path: "Outline#nothere" })).toMatchObject({ section: "nothere", content: "## nothere\nnow\n" });
		} finally {
			await planted.close();
		}
	});

	test("headings of megabytes are compared with the key, not keyed whole, and long headings are keyed a bounded number of characters a piece (one planted heading of 7 MB was one piece of 0.5 s)", async () => {
		const huge = `ΣΑΣ: ${" a".repeat(1_000_000)}`;
		const spaced = `Alpha${" ".repeat(100_000)}Omega ΟΔΟΣ`;
		const long = Array.from({ length: 1_500 }, (_, index) => `# ${"w".repeat(2_000)} ${index}`).join("\n");
		// No search index (read_note does not search): indexing Big.md once its parse has ended runs beside the call and
		// pauses by its own immediates, not by turns, so its tokenizing was counted in the call's pieces (one of 1,211,240
		// characters, under load). So in each piece-counting test here.
		const planted = await openToolVault({ "Big.md": `# ${huge}\ntext\n# ${spaced}\nfound\n${long}\n# Last\nend\n` }, { search: NO_SEARCH });
		await planted.vault.host.metadataCache.settled();
		const pieces = countWorkPerPiece();
		// Characters whose case is lowered between two pauses (headingKey lowers each heading it keys whole), and the most at once.
		let longest = 0;
		const lowered = onLowerCase((text) => {
			pieces.count(text.length);
			longest = Math.max(longest, text.length);
		});
		try {
			expect(await planted.error("read_note", { path: "Big#nothere" })).toMatch(/^No heading "nothere" in "Big\.md"\. Its headings: # ΣΑΣ: {2}a a a/);
			// Before: the 2 MB heading lowered whole, then 2,048 headings of 2 KB a piece (4 MB). Now a piece's headings are
			// SUBPATH_HEADING_STEP_CHARS and one more; the bound leaves room for other work of the process in the same piece.
			expect(longest).toBeLessThanOrEqual(HEADING_KEYED_MAX_CHARS);
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(8 * SUBPATH_HEADING_STEP_CHARS);
			// Found by its key, however it is spaced and cased, and its section read as it is in the note.
			const found = await planted.ok("read_note", { path: "Big#alpha omega οδος" });
			// Compared as booleans: a failed match of megabyte strings is diffed for minutes. The heading is echoed cut, so
			// the section's text has the answer's room (an 800 KB heading echoed whole left content "").
			const echo = `${spaced.slice(0, MAX_ANSWERED_SECTION_CHARS)}… (${spaced.length} characters)`;
			expect({ section: found.section === echo, content: found.content === `# ${spaced}\nfound\n` }).toEqual({ section: true, content: true });
			expect(longest).toBeLessThanOrEqual(HEADING_KEYED_MAX_CHARS);
			expect(await planted.ok("read_note", { path: "Big#Last" })).toMatchObject({ content: "# Last\nend\n" });
			expect(await planted.error("read_note", { path: "Big#alpha" })).toMatch(/^No heading "alpha"/);
		} finally {
			lowered.restore();
			pieces.restore();
			await planted.close();
		}
	}, 60_000);

	test("a path's heading of up to a megabyte is compared with each heading, not keyed whole (`a:` 400,000 times was one piece of 36–130 ms), and still finds its heading", async () => {
		const planted = await openToolVault({ "Long.md": `# Intro\nfirst\n# ${"Ab:".repeat(2_000)}\nbody\n# Other\nlast\n` });
		await planted.vault.host.metadataCache.settled();
		let longest = 0;
		const lowered = onLowerCase((text) => {
			longest = Math.max(longest, text.length);
		});
		try {
			expect(await planted.error("read_note", { path: `Long#${"a:".repeat(400_000)}` })).toMatch(/^No heading "a:a:a:/);
			// Before: the path's 800,000 characters lowered at once (and run through two replaces).
			expect(longest).toBeLessThan(100);
			// Found by a part of another case and spacing, over HEADING_KEYED_MAX_CHARS, and by the key's own words.
			const part = "aB  ".repeat(2_000);
			expect(part.length).toBeGreaterThan(HEADING_KEYED_MAX_CHARS);
			expect(await planted.ok("read_note", { path: `Long#${part}` })).toMatchObject({ content: `# ${"Ab:".repeat(2_000)}\nbody\n` });
			expect(await planted.error("read_note", { path: `Long#${part}a` })).toMatch(/^No heading/);
		} finally {
			lowered.restore();
			await planted.close();
		}
	});

	test("a heading of hundreds of kilobytes named by a path as long is compared in pieces (two of 900 KB were one piece of 60-130 ms, twice a call)", async () => {
		const WORDS = 100_000;
		const planted = await openToolVault({ "Long.md": `# ${"a: ".repeat(WORDS)}\nbody\n# Next\n` }, { search: NO_SEARCH });
		await planted.vault.host.metadataCache.settled();
		const pieces = countWorkPerPiece();
		// Words lowered between two pauses: the comparison lowers each word of both sides it reads.
		const lowered = onLowerCase(() => pieces.count());
		try {
			const read = await planted.ok("read_note", { path: `Long#${"A ".repeat(WORDS)}` });
			const content = String(read.content);
			// The section found (cut to fit the answer).
			expect(content.startsWith("# a: a: ") && content.length > 100_000).toBe(true);
			// Found (by its print, then word by word) and its line checked again: both sides' words, twice.
			expect(pieces.perPiece.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(4 * WORDS);
			// Before: 200,000 in one piece, twice. Now a pause every SUBPATH_HEADING_STEP_CHARS of the heading (3 characters a word,
			// each lowered on both sides); the look-up's last step and the check's first share a piece.
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(2 * Math.ceil((2 * SUBPATH_HEADING_STEP_CHARS) / 3) + 4);
		} finally {
			lowered.restore();
			pieces.restore();
			await planted.close();
		}
	});

	test("a path of thousands of words is compared word by word only with headings whose print is its own (each of 1,900 long headings was: 467 ms a call where keying the path had cost 25)", async () => {
		const HEADINGS = 150;
		const long = Array.from({ length: HEADINGS }, (_, index) => `# ${"a:".repeat(600)}${index}\ntext ${index}\n`).join("");
		const planted = await openToolVault({ "Long.md": `${long}# Last\nend\n` });
		await planted.vault.host.metadataCache.settled();
		// Words lowered: `sameHeadingKey` lowers each word of both sides it reads.
		let lowered = 0;
		const lower = Object.getOwnPropertyDescriptor(String.prototype, "toLowerCase")?.value as (this: string) => string;
		const spied = jest.spyOn(String.prototype, "toLowerCase").mockImplementation(function (this: string) {
			lowered++;
			return lower.call(this);
		});
		try {
			// Over HEADING_KEYED_MAX_CHARS: compared, not keyed. Of another word count, and of the same count and length with another last word.
			for (const path of ["a: ".repeat(1_500), `${"a:".repeat(600)}x${" :".repeat(1_500)}`]) {
				expect(path.length).toBeGreaterThan(HEADING_KEYED_MAX_CHARS);
				expect(await planted.error("read_note", { path: `Long#${path}` })).toMatch(/^No heading "a:/);
			}
			// Before: 600 words of each of the 150 headings, each lowered on both sides (360,000).
			expect(lowered).toBeLessThan(1_000);
			// Still found, by a path of another case and spacing, in Cyrillic too.
			const found = `${"A       ".repeat(600)}7`;
			expect(found.length).toBeGreaterThan(HEADING_KEYED_MAX_CHARS);
			expect(await planted.ok("read_note", { path: `Long#${found}` })).toMatchObject({ content: `# ${"a:".repeat(600)}7\ntext 7\n` });
		} finally {
			spied.mockRestore();
			await planted.close();
		}
		const cyrillic = await openToolVault({ "Ж.md": `# ${"Жж:".repeat(1_500)}\nbody\n# Other\n` });
		try {
			await cyrillic.vault.host.metadataCache.settled();
			expect(await cyrillic.ok("read_note", { path: `Ж#${"жЖ ".repeat(1_500)}` })).toMatchObject({ content: `# ${"Жж:".repeat(1_500)}\nbody\n` });
		} finally {
			await cyrillic.close();
		}
	});

	test("a section or block whose text no longer starts with its heading or holds its id, at the offsets the metadata gives, is not read from them", async () => {
		const planted = await openToolVault({ "Moved.md": "# Top\nline ^blockA\n\n# Next\nend\n" });
		await planted.vault.host.metadataCache.settled();
		// The text as it is a moment after a change the metadata has not caught up with: same length, other words.
		const read = jest.spyOn(planted.vault.host.vault, "cachedRead").mockResolvedValue("# Tip\nline zzzzzzz\n\n# Next\nend ^blockA\n");
		try {
			expect(await planted.error("read_note", { path: "Moved#Top" })).toMatch(/changed while it was read/);
			expect(await planted.error("read_note", { path: "Moved#^blocka" })).toMatch(/changed while it was read/);
			read.mockResolvedValue("# TOP\nline ^BlockA\n\n# Next\nend\n");
			expect(await planted.ok("read_note", { path: "Moved#top" })).toMatchObject({ content: "# TOP\nline ^BlockA\n\n" });
			expect(await planted.ok("read_note", { path: "Moved#^blocka" })).toMatchObject({ content: "line ^BlockA" });
		} finally {
			read.mockRestore();
			await planted.close();
		}
	});

	test("a block of megabytes is checked for its id without lowering the whole block in one piece (a paragraph of 7 MB of Greek was one piece of about 45 ms)", async () => {
		const paragraph = "Σ ж ".repeat(500_000);
		const planted = await openToolVault({ "Para.md": `Intro ^first\n\n${paragraph}end ^BigOne\n\nlast ^Last\n` });
		await planted.vault.host.metadataCache.settled();
		// The longest text whose case is lowered at once.
		let longest = 0;
		const lowered = onLowerCase((text) => {
			longest = Math.max(longest, text.length);
		});
		try {
			const found = await planted.ok("read_note", { path: "Para#^bigone" });
			// Compared as booleans: a failed match of megabyte strings is diffed for minutes (the answer cuts the block).
			expect({
				section: found.section,
				content: `${paragraph}end ^BigOne`.startsWith(found.content as string) && (found.content as string).length > 100_000,
			}).toEqual({
				section: "^BigOne",
				content: true,
			});
			// Before: the 2 MB block lowered whole to see that it still holds `^bigone`.
			expect(longest).toBeLessThan(1_000);
			expect(await planted.ok("read_note", { path: "Para#^LAST" })).toMatchObject({ content: "last ^Last" });
			expect(await planted.ok("read_note", { path: "Para#^first" })).toMatchObject({ content: "Intro ^first" });
		} finally {
			lowered.restore();
			await planted.close();
		}
	}, 60_000);

	test("a block id of 60,000 characters is read, and a missing one is said to be missing (the id's pattern was too large: read_note failed inside the server)", async () => {
		const id = "b".repeat(60_000);
		const planted = await openToolVault({ "Long.md": `First ^short\n\nThe long one ^${id}\n\nlast\n` });
		try {
			await planted.vault.host.metadataCache.settled();
			expect(await planted.ok("read_note", { path: `Long#^${id}` })).toMatchObject({ content: `The long one ^${id}` });
			expect(await planted.error("read_note", { path: `Long#^${id}c` })).toMatch(/^No block "\^bbbb/);
			expect(await planted.ok("read_note", { path: "Long#^short" })).toMatchObject({ content: "First ^short" });
		} finally {
			await planted.close();
		}
	});

	test("a block among thousands is found, or found missing, in slices (every block built and listed in one piece before: about 0.15 s at 100,000)", async () => {
		const blocks = (count: number, words = "") => Array.from({ length: count }, (_, line) => `Line ${line}${words} ^b${line}`).join("\n\n") + "\n";
		// One note kept packed, one over the size kept packed (1 MiB), whose blocks are a plain record.
		const planted = await openToolVault({ "Packed.md": blocks(10_000), "Plain.md": blocks(5_000, " and more words".repeat(15)) }, { search: NO_SEARCH });
		await planted.vault.host.metadataCache.settled();
		const pieces = countWorkPerPiece();
		// Block ids compared between two pauses (each is lowered once to be compared; the notes' other words are not counted).
		const lowered = onLowerCase((text) => {
			if (/^b\d+$/.test(text)) pieces.count();
		});
		try {
			expect(await planted.ok("read_note", { path: "Packed#^b9999" })).toMatchObject({ section: "^b9999", content: "Line 9999 ^b9999" });
			expect(await planted.ok("read_note", { path: "Plain#^B4999" })).toMatchObject({
				section: "^b4999",
				content: `Line 4999${" and more words".repeat(15)} ^b4999`,
			});
			expect(await planted.error("read_note", { path: "Packed#^nothere" })).toMatch(/^No block "\^nothere" in "Packed.md"\./);
			expect(await planted.error("read_note", { path: "Plain#^nothere" })).toMatch(/^No block "\^nothere" in "Plain.md"\./);
			// Before: 10,000 and 5,000 in one piece each. Now a pause at least every 2,048 blocks, and none listed for a block the note does not hold.
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(4096);
		} finally {
			lowered.restore();
			pieces.restore();
			await planted.close();
		}
	});
});
