import fc from "fast-check";
import { z } from "zod";
import { CUT_TO_FIT_LISTED_BYTES, CUT_TO_FIT_SHORTEST_BYTES, MAX_RESPONSE_BYTES, MAX_VAULT_PATH_CHARS } from "../../../src/config/limits";
import { CUTTABLE_ANSWER_BYTES, cutToFitSteps, smallestResultBytes } from "../../../src/mcp/cutToFit";
import { filePlacesOf } from "../../../src/mcp/filePlaces";
import { runSteps } from "../../../src/markdown/steps";

/** Where an answer of tasks, or of a note with its frontmatter, names files: each task's `path`, the note's `path`. */
const TASKS_PATHS = filePlacesOf({
	tasks: z.array(z.object({ path: z.string(), text: z.string() })),
	path: z.string().optional(),
	frontmatter: z.record(z.string(), z.unknown()).optional(),
});

/** Bytes of the tool result as the server sends it: the answer as structured content and as its JSON text. */
function resultBytes(answer: Record<string, unknown>): number {
	return Buffer.byteLength(JSON.stringify({ content: [{ type: "text", text: JSON.stringify(answer) }], structuredContent: answer }));
}

function cutToFit(answer: Record<string, unknown>, maxBytes = MAX_RESPONSE_BYTES, paths = TASKS_PATHS): Record<string, unknown> | null {
	return runSteps(cutToFitSteps(answer, resultBytes(answer), maxBytes, paths));
}

/** The value a JSON Pointer names. */
function at(value: unknown, pointer: string): unknown {
	return pointer
		.split("/")
		.slice(1)
		.map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
		.reduce<unknown>((inside, part) => (inside as Record<string, unknown>)[part], value);
}

describe("cutToFitSteps", () => {
	test("a 3 MB link subpath is cut, named, and the answer fits; the short strings beside it stay whole", () => {
		const subpath = "#".concat("heading ".repeat(400_000));
		const answer = { path: "Note.md", outgoing: [{ link: `Other${subpath}`, target: "Other.md", line: 3 }], unresolved: ["Missing"] };
		expect(resultBytes(answer)).toBeGreaterThan(MAX_RESPONSE_BYTES);
		const cut = cutToFit(answer)!;
		expect(resultBytes(cut)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
		expect(cut.cut_to_fit).toEqual({ strings: ["/outgoing/0/link"], total: 1 });
		const link = (cut.outgoing as Array<{ link: string }>)[0]!.link;
		expect(answer.outgoing[0]!.link.startsWith(link)).toBe(true);
		// Cut to the longest length that fits, not to a sliver.
		expect(resultBytes(cut)).toBeGreaterThan(MAX_RESPONSE_BYTES - CUT_TO_FIT_LISTED_BYTES - 64);
		expect({ ...cut, outgoing: [{ ...(cut.outgoing as object[])[0], link: "" }], cut_to_fit: null }).toEqual({
			...answer,
			outgoing: [{ ...answer.outgoing[0], link: "" }],
			cut_to_fit: null,
		});
	});

	test("a long string is measured and cut a piece at a time, a pause between pieces of 64 Ki characters", () => {
		const answer = { text: "x".repeat(3_000_000) };
		const steps = cutToFitSteps(answer, resultBytes(answer), MAX_RESPONSE_BYTES, null);
		let pauses = 0;
		let next = steps.next();
		for (; !next.done; next = steps.next()) pauses++;
		expect(next.value?.cut_to_fit).toEqual({ strings: ["/text"], total: 1 });
		// Measured whole (45 pauses), then its kept part measured again as it is cut.
		expect(pauses).toBeGreaterThanOrEqual(Math.floor(3_000_000 / (64 * 1024)) + Math.floor((next.value!.text as string).length / (64 * 1024)));
	});

	test("an answer of 20,000 short rows beside one long string pauses between pieces of rows too (the rows were one piece of up to 440 ms)", () => {
		const pausesOf = (answer: Record<string, unknown>) => {
			const steps = cutToFitSteps(answer, resultBytes(answer), MAX_RESPONSE_BYTES, null);
			let pauses = 0;
			while (!steps.next().done) pauses++;
			return pauses;
		};
		const long = "x".repeat(3_000_000);
		const rows = Array.from({ length: 20_000 }, (_, index) => ({ path: `Notes/N${index}.md`, tag: "t" }));
		const alone = pausesOf({ long });
		const withRows = pausesOf({ rows, long });
		// Two passes over 20,000 rows of five values each (a row, two keys, two strings): a pause at least every 4,096 values (none before).
		expect(withRows - alone).toBeGreaterThanOrEqual(Math.floor((2 * 20_000 * 5) / 4_096));
		expect(cutToFit({ rows, long })?.rows).toEqual(rows);
	});

	test("NULs, quotes and line breaks are counted as the result carries them (6, 3 and 2 bytes of JSON, twice, escaped again)", () => {
		for (const char of ["\0", '"', "\n", "\\", "\ud800"]) {
			const answer = { text: char.repeat(1_000_000), kept: "short" };
			const cut = cutToFit(answer)!;
			expect(resultBytes(cut)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
			expect(cut.kept).toBe("short");
			expect((cut.text as string).length).toBeGreaterThan(0);
		}
	});

	test("several long strings are cut to one length; a key of a megabyte is cut too, and a key __proto__ stays a key", () => {
		// As a parser of frontmatter or JSON makes it: `__proto__` an own key.
		const answer = JSON.parse(
			`{"rows":[{"values":{"${"k".repeat(1_000_000)}":"${"x".repeat(900_000)}","__proto__":"kept"}},{"values":{"title":"${"y".repeat(2_000_000)}"}},{"values":{"title":"short"}}]}`,
		) as Record<string, unknown>;
		const cut = cutToFit(answer)!;
		expect(resultBytes(cut)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
		const { strings, total } = cut.cut_to_fit as { strings: string[]; total: number };
		expect(total).toBe(3);
		// The pointers of the key and of its value hold the key, cut: too long for the list, so counted only.
		expect(strings).toEqual(["/rows/1/values/title"]);
		for (const pointer of strings) expect(typeof at(cut, pointer)).toBe("string");
		const rows = cut.rows as Array<{ values: Record<string, string> }>;
		expect(Object.getOwnPropertyDescriptor(rows[0]!.values, "__proto__")?.value).toBe("kept");
		expect(rows[2]!.values.title).toBe("short");
		expect(rows[1]!.values.title!.length).toBeLessThan(2_000_000);
	});

	test("keys alike for their first kilobytes, cut to one text, stay apart: each entry kept and named by its own pointer (the second was dropped)", () => {
		const alike = "a/~".repeat(2000);
		const answer = { values: { [`${alike}1`]: "one", [`${alike}2`]: "two", [`${alike}3`]: "three", short: "kept" } };
		const cut = cutToFit(answer, 24 * 1024)!;
		expect(resultBytes(cut)).toBeLessThanOrEqual(24 * 1024);
		const values = cut.values as Record<string, string>;
		expect(Object.values(values)).toEqual(["one", "two", "three", "kept"]);
		const keys = Object.keys(values).slice(0, 3);
		expect(keys[1]!.endsWith(" (2)") && keys[2]!.endsWith(" (3)")).toBe(true);
		for (const key of keys) expect(alike.startsWith(key.replace(/ \(\d\)$/, ""))).toBe(true);
		const { strings, total } = cut.cut_to_fit as { strings: string[]; total: number };
		expect(total).toBe(3);
		expect(strings.map((pointer) => at(cut, pointer))).toEqual(["one", "two", "three"]);
	});

	test("a thousand keys alike for their first kilobytes are made apart in as much work as keys that differ (each tried every ' (n)' from 2: 240 times the work)", () => {
		const workOf = (keyOf: (index: number) => string) => {
			const answer = { values: Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [keyOf(index), index])) };
			const steps = cutToFitSteps(answer, resultBytes(answer), MAX_RESPONSE_BYTES, null);
			let pauses = 0;
			let next = steps.next();
			for (; !next.done; next = steps.next()) pauses++;
			expect(Object.keys((next.value as { values: object }).values)).toHaveLength(1000);
			return pauses;
		};
		const differing = workOf((index) => `${String(index).padStart(4, "0")}${"k".repeat(2100)}`);
		const alike = workOf((index) => `${"k".repeat(2100)}${String(index).padStart(4, "0")}`);
		expect(alike).toBeLessThanOrEqual(2 * differing);
	});

	test("an answer too big only because of many short strings is not cut (null: the caller asks for less)", () => {
		const answer = { notes: Array.from({ length: 3000 }, (_, index) => ({ path: `${"folder/".repeat(120)}note ${index}.md` })) };
		expect(resultBytes(answer)).toBeGreaterThan(MAX_RESPONSE_BYTES);
		expect(cutToFit(answer)).toBeNull();
	});

	test("for any answer: the result fits, every string is itself or a prefix of whole characters, short ones are whole, and each named one was cut", () => {
		const unit = fc.constantFrom("a", "é", "\u4e16", "🙂", "\ud83d", "\n", "\0", '"', "\\", "/", "~");
		const text = fc.oneof(fc.string({ unit, maxLength: 8 }), fc.string({ unit, minLength: 1000, maxLength: 6000 }));
		const maxBytes = 64 * 1024;
		fc.assert(
			fc.property(
				fc.array(fc.record({ key: fc.string({ unit, maxLength: 3 }), text, more: fc.array(text, { maxLength: 3 }) }), { maxLength: 12 }),
				(rows) => {
					const answer = { rows: rows.map((row) => ({ [row.key]: row.text, more: row.more })), total: rows.length };
					const cut = cutToFit(answer, maxBytes);
					if (resultBytes(answer) <= maxBytes - CUT_TO_FIT_LISTED_BYTES && cut !== null) expect(cut.cut_to_fit).toEqual({ strings: [], total: 0 });
					if (cut === null) return;
					expect(resultBytes(cut)).toBeLessThanOrEqual(maxBytes);
					const { strings, total } = cut.cut_to_fit as { strings: string[]; total: number };
					expect(strings.length).toBeLessThanOrEqual(total);
					const original = answer.rows;
					const after = cut.rows as Array<Record<string, unknown>>;
					expect(after).toHaveLength(original.length);
					original.forEach((row, index) => {
						const was = [...Object.values(row).filter((value) => typeof value === "string"), ...row.more];
						const now = [...Object.values(after[index]!).filter((value) => typeof value === "string"), ...(after[index]!.more as string[])];
						was.forEach((value, at) => {
							const kept = now[at]!;
							expect(value.startsWith(kept)).toBe(true);
							expect(/[\ud800-\udbff]$/.test(kept) && /^[\udc00-\udfff]/.test(value.slice(kept.length))).toBe(false);
							if (Buffer.byteLength(JSON.stringify(value)) * 3 <= CUT_TO_FIT_SHORTEST_BYTES) expect(kept).toBe(value);
						});
					});
					for (const pointer of strings) {
						expect(typeof at(cut, pointer)).toBe("string");
						expect(pointer.startsWith("/rows/")).toBe(true);
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("cutToFitSteps never cuts a path the answer names to a part", () => {
	/** A path of 984 characters, most of 3 UTF-8 bytes (2.9 KB, twice in the result), under MAX_PATH_LENGTH, in folders of 238 bytes. */
	const LONG_PATH = `${Array.from({ length: 12 }, (_, index) => `${index % 10}${"語".repeat(79)}`).join("/")}/Task list.md`;
	/** `count` tasks in the note at LONG_PATH, each of a text of `textChars` characters. */
	const tasks = (count: number, textChars: number) => ({
		tasks: Array.from({ length: count }, (_, index) => ({ path: LONG_PATH, text: `${index} ${"t".repeat(textChars)}` })),
	});

	test("answers of many long strings beside long paths: the texts are cut, the paths sent whole (they were cut to a prefix naming another note)", () => {
		const answer = tasks(220, 8_000);
		const cut = cutToFit(answer)!;
		expect(resultBytes(cut)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
		const sent = cut.tasks as Array<{ path: string; text: string }>;
		expect(sent.map((task) => task.path)).toEqual(answer.tasks.map((task) => task.path));
		for (const [index, task] of sent.entries()) expect(answer.tasks[index]!.text.startsWith(task.text) && task.text.length < 8_000).toBe(true);
		expect((cut.cut_to_fit as { total: number }).total).toBe(220);
		expect((cut.cut_to_fit as { strings: string[] }).strings.every((pointer) => pointer.endsWith("/text"))).toBe(true);
	});

	test("when the paths alone leave no room for the rest, the longest are sent empty and named, never cut to a part (the answer was refused)", () => {
		// Without the paths kept, the same answer was sent with every path cut short.
		const unkept = cutToFit(tasks(500, 8_000), MAX_RESPONSE_BYTES, null)!;
		expect((unkept.tasks as Array<{ path: string }>)[0]!.path.length).toBeLessThan(LONG_PATH.length);
		const answer = tasks(500, 8_000);
		const cut = cutToFit(answer)!;
		expect(resultBytes(cut)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
		const sent = cut.tasks as Array<{ path: string; text: string }>;
		expect(sent).toHaveLength(500);
		for (const [index, task] of sent.entries()) {
			expect([LONG_PATH, ""]).toContain(task.path);
			expect(answer.tasks[index]!.text.startsWith(task.text)).toBe(true);
		}
		const emptied = sent.flatMap((task, index) => (task.path === "" ? [`/tasks/${index}/path`] : []));
		expect(emptied.length).toBeGreaterThan(0);
		// As many as must be, the last ones: the first tasks keep their note's path.
		expect(emptied.length).toBeLessThan(500);
		expect(sent.findIndex((task) => task.path === "")).toBe(500 - emptied.length);
		const named = (cut.cut_to_fit as { strings: string[] }).strings;
		const namedPaths = named.filter((pointer) => pointer.endsWith("/path"));
		expect(namedPaths.length).toBeGreaterThan(0);
		expect(namedPaths).toEqual(emptied.slice(0, namedPaths.length));
		expect((cut.cut_to_fit as { total: number }).total).toBe(emptied.length + sent.filter((task, index) => task.text !== answer.tasks[index]!.text).length);
	});

	test("a frontmatter property called `path` is the author's text, cut like any other; a path field longer than any path names no file and is cut", () => {
		const planted = "p".repeat(3_000_000);
		const cut = cutToFit({ path: "Note.md", frontmatter: { path: planted } })!;
		expect(cut.path).toBe("Note.md");
		expect(cut.cut_to_fit).toEqual({ strings: ["/frontmatter/path"], total: 1 });
		const overLong = cutToFit({ tasks: [{ path: `${"q".repeat(MAX_VAULT_PATH_CHARS)}${planted}`, text: "t" }] })!;
		expect(overLong.cut_to_fit).toEqual({ strings: ["/tasks/0/path"], total: 1 });
	});

	test("a key left whole keeps its text and value when a longer key before it is cut to that same text", () => {
		const short = "k".repeat(1_500);
		const answer = { frontmatter: { [`${short}${"k".repeat(3_000_000)}`]: "long", [short]: "short", x: "y".repeat(3_000_000) } };
		const cut = cutToFit(answer)!;
		const frontmatter = cut.frontmatter as Record<string, string>;
		expect(frontmatter[short]).toBe("short");
		expect(Object.keys(frontmatter)).toHaveLength(3);
		expect(Object.entries(frontmatter).find(([key]) => key !== short && key !== "x")?.[1]).toBe("long");
	});

	test("links whose note and heading are both long: each emptied one frees its heading too, so 1,100 fit (the merged cut counted the heading still to be cut, emptied twice as many and refused 1,100)", () => {
		const LINKS = filePlacesOf({ outgoing: z.array(z.object({ link: z.string() })) });
		for (const count of [900, 1_100]) {
			const outgoing = Array.from({ length: count }, (_, index) => ({ link: `[[${"d/".repeat(550)}n${index}#${"h".repeat(3_000)}]]` }));
			const cut = cutToFit({ outgoing }, MAX_RESPONSE_BYTES, LINKS);
			expect(cut).not.toBeNull();
			expect(resultBytes(cut!)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
			const sent = cut!.outgoing as Array<{ link: string }>;
			// Each link whole up to its heading, or empty: never a part of its note's path.
			for (const [index, link] of sent.entries()) {
				const whole = outgoing[index]!.link;
				expect(link.link === "" || link.link.startsWith(whole.slice(0, whole.indexOf("#") + 1))).toBe(true);
			}
			const emptied = sent.filter((link) => link.link === "").length;
			// As few emptied as must be: sending one more whole (its head, its heading cut to the shortest) would not fit.
			expect(resultBytes(cut!) + 1_100 + CUT_TO_FIT_SHORTEST_BYTES * 2).toBeGreaterThan(MAX_RESPONSE_BYTES);
			expect(emptied).toBeLessThan(count);
		}
	});
});

describe("smallestResultBytes: what an answer built a piece at a time may hold and still be cut to fit", () => {
	test("an answer whose smallest form fits CUTTABLE_ANSWER_BYTES is cut to fit MAX_RESPONSE_BYTES, never refused; one over it cannot be by much", () => {
		const text = fc
			.tuple(fc.constantFrom("x", '"', "\0", "é", "😀", "\\"), fc.integer({ min: 0, max: 4_000 }))
			.map(([character, count]) => character.repeat(count));
		fc.assert(
			fc.property(fc.array(fc.tuple(text, fc.integer()), { minLength: 200, maxLength: 1_200 }), (cells) => {
				const answer = { rows: cells.map(([value, number]) => ({ value, number })), total: cells.length };
				const smallest = smallestResultBytes(answer);
				const cut = cutToFit(answer, MAX_RESPONSE_BYTES, null);
				if (smallest <= CUTTABLE_ANSWER_BYTES) {
					expect(cut).not.toBeNull();
					expect(resultBytes(cut!)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
				}
				// Counted at most a comma too many for each row and list (the last one has none).
				if (cut === null) expect(smallest).toBeGreaterThan(CUTTABLE_ANSWER_BYTES);
				if (cut !== null && resultBytes(answer) > MAX_RESPONSE_BYTES)
					expect(smallest).toBeLessThanOrEqual(CUTTABLE_ANSWER_BYTES + 4 * (cells.length + 2));
			}),
			{ numRuns: 25 },
		);
	});
});
