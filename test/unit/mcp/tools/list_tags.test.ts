import { SLICED_TAGS } from "../../../../src/config/limits";
import { countWorkPerPiece } from "../../../helpers/workPieces";
import { openToolVault, type ToolVault } from "../../../helpers/toolVault";
import { onLowerCase } from "../../../helpers/replaceMethod";

describe("list_tags", () => {
	let tv: ToolVault;
	beforeAll(async () => {
		tv = await openToolVault(
			{ "A.md": "---\ntags: [project]\n---\n#project/alpha #idea\n", "B.md": "#idea #Idea\n", "Private/C.md": "#secret\n" },
			{ excluded: ["Private"] },
		);
	});
	afterAll(() => tv.close());

	test("each tag with the number of notes that have it, never a tag seen only in an excluded folder", async () => {
		const listed = await tv.ok<{ tags: Array<{ tag: string; count: number }>; total: number }>("list_tags");
		expect(listed.tags).toEqual(
			expect.arrayContaining([
				{ tag: "#idea", count: 2 },
				{ tag: "#project", count: 1 },
			]),
		);
		expect(listed.tags.map((entry) => entry.tag)).not.toContain("#secret");
	});

	test("a prefix narrows the list", async () => {
		const listed = await tv.ok<{ tags: Array<{ tag: string }> }>("list_tags", { prefix: "proj" });
		expect(listed.tags.map((entry) => entry.tag).sort()).toEqual(["#project", "#project/alpha"]);
	});

	test("a planted tag of a million characters is counted and left out of the page, which still answers", async () => {
		const planted = await openToolVault({ "Big.md": `#${"a".repeat(1_000_000)} #small\n`, "Other.md": "#small\n" });
		try {
			const listed = await planted.ok<{ tags: Array<{ tag: string; count: number }>; total: number; left_out?: number }>("list_tags");
			expect(listed.tags).toEqual([{ tag: "#small", count: 2 }]);
			expect(listed.total).toBe(2);
			expect(listed.left_out).toBe(1);
		} finally {
			await planted.close();
		}
	});

	test("paged one tag at a time past planted tags too long to list, every tag is listed once and the paging ends", async () => {
		const long = "a".repeat(100_000);
		const planted = await openToolVault({ "Big.md": `#${long}x #${long}y #small\n`, "Other.md": "#small #b\n" });
		try {
			type Page = { tags: Array<{ tag: string; count: number }>; left_out?: number; next_cursor?: string };
			const listed: string[] = [];
			let leftOut = 0;
			let cursor: string | undefined;
			for (let calls = 0; ; calls++) {
				expect(calls).toBeLessThan(10);
				const page = await planted.ok<Page>("list_tags", { limit: 1, ...(cursor ? { cursor } : {}) });
				listed.push(...page.tags.map((entry) => entry.tag));
				leftOut += page.left_out ?? 0;
				cursor = page.next_cursor;
				if (cursor === undefined) break;
			}
			expect(listed).toEqual(["#small", "#b"]);
			// The two share the longest text a cursor names: the page after the first is past both.
			expect(leftOut).toBe(1);
		} finally {
			await planted.close();
		}
	});

	test("paged past a page whose tags fill its characters, a tag left out for room is the next page's first, never skipped", async () => {
		// Tags of 40,000 characters: one fills most of a page's 64 K characters, the next has no room on it.
		const tags = ["x", "y", "z"].map((letter) => `#${letter.repeat(40_000)}`);
		const planted = await openToolVault({ "Big.md": `${tags.join(" ")} #small\n`, "Other.md": "#small\n" });
		try {
			type Page = { tags: Array<{ tag: string; count: number }>; left_out?: number; next_cursor?: string };
			const listed: string[] = [];
			let cursor: string | undefined;
			for (let calls = 0; ; calls++) {
				expect(calls).toBeLessThan(10);
				const page = await planted.ok<Page>("list_tags", { limit: 3, ...(cursor ? { cursor } : {}) });
				listed.push(...page.tags.map((entry) => entry.tag));
				cursor = page.next_cursor;
				if (cursor === undefined) break;
			}
			// Each tag by its first characters and length (a failure prints 40,000 letters otherwise).
			const short = (tag: string) => `${tag.slice(0, 3)}…${tag.length}`;
			expect(listed.map(short)).toEqual(["#small", ...tags].map(short));
		} finally {
			await planted.close();
		}
	});

	test("a prefix over 60,000 different tags keeps the matching ones, looked at in slices (filtered in one piece after the count before)", async () => {
		const TAGS = 60_000;
		const planted = await openToolVault({ "Many.md": `${Array.from({ length: TAGS }, (_, index) => `#t${index}`).join(" ")}\n` });
		const pieces = countWorkPerPiece();
		// Tags lower-cased (each tag's key) between two pauses.
		const lowered = onLowerCase(() => pieces.count());
		try {
			const listed = await planted.ok<{ tags: Array<{ tag: string; count: number }>; total: number }>("list_tags", { prefix: "t5999", limit: 20 });
			expect(listed.total).toBe(11);
			expect(listed.tags.map((entry) => entry.tag)).toContain("#t59999");
			// Before: every tag's key in one piece after the count.
			expect(Math.max(...pieces.perPiece)).toBeLessThanOrEqual(SLICED_TAGS + 1024);
		} finally {
			lowered.restore();
			pieces.restore();
			await planted.close();
		}
	});
});
