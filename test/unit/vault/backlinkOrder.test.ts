import fc from "fast-check";
import { BACKLINK_CHANGES_PER_CLOCK_CHECK, KEPT_BACKLINK_COUNT_CHANGES } from "../../../src/config/limits";
import { backlinksPage, byCount, changedSince, CountChanges, moveInOrder, type BacklinksPage, type CountedSource } from "../../../src/vault/backlinkOrder";

/** Names whose code order is not the collator's (either case, an accent), some alike to the collator but for case. */
const pathArb = fc.constantFrom("L/a.md", "L/A.md", "L/b.md", "L/é.md", "L/E.md", "L/e.md", "M/z.md", "M/Z.md", "a.md", "B.md", "ä.md", "c.md");

/** A walk's state as BacklinksWalk keeps it: counts, the order, the changes since it first answered. */
class Walk {
	readonly counts = new Map<string, number>();
	order: string[] = [];
	readonly changes = new CountChanges();
	constructor(initial: ReadonlyMap<string, number>) {
		for (const [path, count] of initial) if (count > 0) this.counts.set(path, count);
		this.order = sorted(this.counts);
	}
	set(path: string, count: number): void {
		const was = this.counts.get(path) ?? 0;
		if (was === count) return;
		if (!moveInOrder(this.order, this.counts, path, was, count)) throw new Error(`${path} not where its count ${was} puts it`);
		if (count > 0) this.counts.set(path, count);
		else this.counts.delete(path);
		this.changes.add(path, was);
	}
	page(limit: number, cursor?: { after: CountedSource; version: number | null }): BacklinksPage {
		return backlinksPage({ order: this.order, counts: this.counts, changes: this.changes, gone: new Set() }, limit, cursor);
	}
}

function sorted(counts: ReadonlyMap<string, number>): string[] {
	return [...counts]
		.map(([path, count]) => ({ path, count }))
		.sort(byCount)
		.map(({ path }) => path);
}

const countsArb = fc.array(fc.tuple(pathArb, fc.integer({ min: 0, max: 4 })), { maxLength: 12 }).map((pairs) => new Map(pairs));
const editsArb = fc.array(fc.tuple(pathArb, fc.integer({ min: 0, max: 4 })), { maxLength: 6 });

describe("backlinkOrder: the kept order moved in place, and pages read while counts change", () => {
	test("moving each changed count by binary search keeps the order a sort of the counts would make", () => {
		fc.assert(
			fc.property(countsArb, fc.array(fc.tuple(pathArb, fc.integer({ min: 0, max: 4 })), { maxLength: 30 }), (initial, edits) => {
				const walk = new Walk(initial);
				for (const [path, count] of edits) {
					walk.set(path, count);
					expect(walk.order).toEqual(sorted(walk.counts));
				}
			}),
		);
	});

	test("pages read one after another, counts changed between them: each file linking throughout comes once, none that does not link now", () => {
		fc.assert(
			fc.property(countsArb, fc.integer({ min: 1, max: 4 }), fc.array(editsArb, { maxLength: 6 }), (initial, limit, between) => {
				const walk = new Walk(initial);
				const listed: string[] = [];
				/** Linking at every page: each must come once. */
				const throughout = new Set(walk.counts.keys());
				let cursor: { after: CountedSource; version: number | null } | undefined;
				for (let page = 0; ; page++) {
					const answer = walk.page(limit, cursor);
					expect(answer.orderChanged).not.toBe("lost");
					expect(answer.total).toBe(walk.counts.size);
					for (const { path, count } of answer.items) expect(walk.counts.get(path)).toBe(count);
					listed.push(...answer.items.map(({ path }) => path));
					if (!answer.next) break;
					cursor = answer.next;
					for (const [path, count] of between[page] ?? []) walk.set(path, count);
					for (const path of throughout) if (!walk.counts.has(path)) throughout.delete(path);
				}
				expect(new Set(listed).size).toBe(listed.length);
				for (const path of throughout) expect(listed).toContain(path);
			}),
		);
	});

	test(`a cursor older than the last ${KEPT_BACKLINK_COUNT_CHANGES} changes kept, or not this walk's, pages the order now after its key, and says so`, () => {
		const walk = new Walk(new Map([...Array.from({ length: 6 }, (_, index) => [`n${index}.md`, 1] as const), ["top.md", 3]]));
		const first = walk.page(2);
		expect(first.items.map(({ path }) => path)).toEqual(["top.md", "n0.md"]);
		// Twice the changes kept (up and down again): the first page's version is let go.
		for (let change = 0; change < KEPT_BACKLINK_COUNT_CHANGES; change++) walk.set("n5.md", change % 2 === 0 ? 2 : 1);
		expect(walk.page(2, first.next).orderChanged).toBe("kept");
		for (let change = 0; change < KEPT_BACKLINK_COUNT_CHANGES; change++) walk.set("n5.md", change % 2 === 0 ? 2 : 1);
		const late = walk.page(2, first.next);
		expect(late.orderChanged).toBe("lost");
		expect(late.items.map(({ path }) => path)).toEqual(["n1.md", "n2.md"]);
		expect(walk.page(2, first.next && { after: first.next.after, version: null }).orderChanged).toBe("lost");
		// The lost page's cursor is of the order now.
		expect(walk.page(2, late.next).orderChanged).toBeUndefined();
	});

	/**
	 * review195's left: the changes since an old cursor's version were read in one piece, up to 8,191 of them (1.7-10 ms at
	 * every such page). Counted by the entries made for them (a Map's `set` a changed file) between two of the call's
	 * checkpoints; a budget always due. On the base all 8,191 come before the first checkpoint.
	 */
	test(`the changes since a cursor's version are read in pieces of at most ${BACKLINK_CHANGES_PER_CLOCK_CHECK}`, async () => {
		const changes = new CountChanges();
		const kept = 2 * KEPT_BACKLINK_COUNT_CHANGES - 1;
		for (let index = 0; index < kept; index++) changes.add(`L/${String(index).padStart(5, "0")}.md`, index % 3);
		const perPiece = [0];
		const budget = { due: () => true, checkpoint: () => (perPiece.push(0), Promise.resolve()) };
		const set = Object.getOwnPropertyDescriptor(Map.prototype, "set")?.value as (
			this: Map<unknown, unknown>,
			key: unknown,
			value: unknown,
		) => Map<unknown, unknown>;
		const counted = jest.spyOn(Map.prototype, "set").mockImplementation(function <K, V>(this: Map<K, V>, key: K, value: V) {
			perPiece[perPiece.length - 1] = (perPiece.at(-1) ?? 0) + 1;
			return set.call(this, key, value) as Map<K, V>;
		});
		let since: Awaited<ReturnType<typeof changedSince>>;
		try {
			since = await changedSince(changes, 0, budget);
		} finally {
			counted.mockRestore();
		}
		expect(perPiece.reduce((sum, each) => sum + each, 0)).toBe(kept);
		expect(Math.max(...perPiece)).toBeLessThanOrEqual(BACKLINK_CHANGES_PER_CLOCK_CHECK);
		// The same as read in one piece.
		const then = changes.countsAt(0);
		expect(since?.then).toEqual(then);
		expect(since?.sorted).toEqual([...(then ?? [])].map(([path, count]) => ({ path, count })).sort(byCount));
	});
});
