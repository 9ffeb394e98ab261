import fc from "fast-check";
import { NOTE_TEXT_PIECE_CHARS } from "../../../src/config/limits";
import { dateNumber, PackedTasks, TaskTally, type NoteTask } from "../../../src/vault/packedTasks";
import { taskStatus } from "../../../src/markdown/taskLine";
import { heapAfterGc } from "../../helpers/gc";
import { ChunkedArray } from "../../../src/markdown/chunkedArray";
import { replaceMethod } from "../../helpers/replaceMethod";

const date = fc.constantFrom("2026-10-01", "2026-11-13", "2027-01-31");
const anyDate = fc.date({ min: new Date("1000-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }).map((made) => made.toISOString().slice(0, 10));
const DATE_FIELDS = ["due", "scheduled", "start", "done"] as const;
const task: fc.Arbitrary<NoteTask> = fc
	.record({
		line: fc.nat({ max: 100_000 }),
		text: fc.string({ unit: fc.constantFrom("a", " ", "é", "東", "📅", "\r", "[", "x", "\ud83d") }),
		statusChar: fc.constantFrom(" ", "x", "X", "-", "/"),
		dates: fc.shuffledSubarray([...DATE_FIELDS]),
		value: date,
	})
	.map(({ line, text, statusChar, dates, value }) => {
		const made: NoteTask = { line, text, statusChar };
		for (const field of dates) made[field] = value;
		return made;
	});

/**
 * What the memo may keep for a note of three tasks (a text of about 80 characters): about 220
 * bytes now, about 1,180 with a note's tally in three Maps and a typed array.
 */
const BYTES_PER_NOTE_OF_THREE_TASKS = 400;

describe("PackedTasks", () => {
	test("lists back the tasks it was given, field for field, in order", () => {
		fc.assert(
			fc.property(fc.array(task, { maxLength: 20 }), (tasks) => {
				const packed = PackedTasks.of(tasks);
				expect(packed.count).toBe(tasks.length);
				const listed = packed.list();
				expect(listed).toEqual(tasks);
				// The same keys in the same order (a task's dates come in the order its line gave them).
				expect(listed.map((entry) => Object.keys(entry))).toEqual(tasks.map((entry) => Object.keys(entry)));
			}),
			{ numRuns: 500 },
		);
	});

	test("tasks of long lines, packed and listed back in several pieces each way, are the tasks it was given", () => {
		const long = task.map((made) => ({ ...made, text: (made.text || "a").repeat(1 + Math.floor(30_000 / Math.max(1, made.text.length))) }));
		fc.assert(
			fc.property(fc.array(fc.oneof(task, long), { maxLength: 12 }), (tasks) => {
				const listed = PackedTasks.of(tasks).list();
				expect(listed).toEqual(tasks);
				expect(listed.map((entry) => Object.keys(entry))).toEqual(tasks.map((entry) => Object.keys(entry)));
			}),
			{ numRuns: 60 },
		);
	});

	test("a note's 5 MB of task fields is packed and listed back a piece at a time (joined, copied and split whole before: pieces of 0.2–0.3 s each)", () => {
		const tasks: NoteTask[] = Array.from({ length: 3_000 }, (_, line) => ({
			line,
			text: `task ${line}${" 📅 2024-01-01 ⛔ a,b".repeat(70)}`,
			statusChar: " ",
			due: "2024-01-01",
		}));
		// Characters copied (into strings of their own) or split into lines, step by step.
		const perStep = [0];
		const count = (chars: number) => perStep.push((perStep.pop() ?? 0) + chars);
		const clone = globalThis.structuredClone;
		const cloned = jest.spyOn(globalThis, "structuredClone").mockImplementation((value: unknown) => {
			for (const item of value as unknown[]) if (typeof item === "string") count(item.length);
			return clone(value);
		});
		const split = Object.getOwnPropertyDescriptor(String.prototype, "split")?.value as (this: string, separator: string) => string[];
		const splitting = replaceMethod(String.prototype, "split", function (this: string, separator: unknown) {
			if (separator === "\n") count(this.length);
			return split.call(this, separator as string);
		});
		const run = <T>(steps: Generator<void, T, void>): T => {
			for (;;) {
				const next = steps.next();
				if (next.done) return next.value;
				perStep.push(0);
			}
		};
		let listed: NoteTask[];
		try {
			const fields = new ChunkedArray<string>();
			const tally = new TaskTally();
			for (const each of tasks) PackedTasks.pushFields(each, fields, tally);
			listed = run(run(PackedTasks.ofFieldsSteps(fields, tally)).listSteps());
		} finally {
			cloned.mockRestore();
			splitting.restore();
		}
		expect(listed).toEqual(tasks);
		// Before: 5.1 million characters copied and split in one step. Now a piece of about NOTE_TEXT_PIECE_CHARS.
		expect(Math.max(...perStep)).toBeLessThanOrEqual(2 * NOTE_TEXT_PIECE_CHARS);
	});

	test("counts each status's tasks, and those due within a range, as the tasks themselves say", () => {
		const dated = fc.record({ statusChar: fc.constantFrom(" ", "x", "X", "-", "/", "?"), due: fc.option(anyDate, { nil: undefined }) });
		const range = fc.tuple(anyDate, anyDate).map(([from, to]) => ({ from: dateNumber(from), to: dateNumber(to) }));
		fc.assert(
			fc.property(fc.array(dated, { maxLength: 40 }), range, (drawn, due) => {
				const tasks: NoteTask[] = drawn.map(({ statusChar, due: date }, line) =>
					date === undefined ? { line, text: "t", statusChar } : { line, text: "t", statusChar, due: date },
				);
				const packed = PackedTasks.of(tasks);
				expect(packed.count).toBe(tasks.length);
				for (const status of ["any", "open", "done", "cancelled", "other"] as const) {
					const ofStatus = tasks.filter((each) => status === "any" || taskStatus(each.statusChar) === status);
					expect(packed.countOf(status)).toBe(ofStatus.length);
					const within = ofStatus.filter((each) => each.due !== undefined && dateNumber(each.due) >= due.from && dateNumber(each.due) <= due.to);
					expect(packed.countOf(status, due)).toBe(within.length);
				}
			}),
			{ numRuns: 500 },
		);
	});

	test("counts past 65,535 tasks of one status (each number is kept as two characters of 16 bits)", () => {
		const tasks: NoteTask[] = Array.from({ length: 70_000 }, (_, line) =>
			line % 2 === 0 ? { line, text: "t", statusChar: " " } : { line, text: "t", statusChar: " ", due: "2026-10-01" },
		);
		const packed = PackedTasks.of(tasks);
		expect(packed.count).toBe(70_000);
		expect(packed.countOf("open")).toBe(70_000);
		expect(packed.countOf("open", { from: dateNumber("2026-10-01"), to: dateNumber("2026-10-01") })).toBe(35_000);
		expect(packed.countOf("done")).toBe(0);
	});

	test("a note's few tasks cost the memo little beyond their text (three Maps and a typed array a note were about 0.7 KB)", async () => {
		const notes = 10_000;
		const kept: PackedTasks[] = [];
		const before = await heapAfterGc();
		for (let note = 0; note < notes; note++)
			kept.push(
				PackedTasks.of([
					{ line: 3, text: `buy milk ${note}`, statusChar: " ", due: "2026-10-01" },
					{ line: 4, text: `call ${note}`, statusChar: "x" },
					{ line: 9, text: `plan ${note}`, statusChar: " ", due: "2026-11-13", scheduled: "2026-11-01" },
				]),
			);
		const perNote = ((await heapAfterGc()) - before) / notes;
		expect(kept[notes - 1]?.countOf("open")).toBe(2);
		expect(perNote).toBeLessThan(BYTES_PER_NOTE_OF_THREE_TASKS);
	});
});
