import fc from "fast-check";
import { PackedTasks, type NoteTask } from "../../../src/vault/packedTasks";

const date = fc.constantFrom("2026-10-01", "2026-11-13", "2027-01-31");
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
});
