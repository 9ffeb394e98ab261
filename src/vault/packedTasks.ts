import type { StringPool } from "../headless/compactMetadata";
import { detachStrings } from "../headless/detachedStrings";

/** A task as derived from its note alone: list_tasks adds the note's path (a rename keeps the metadata). */
export interface NoteTask {
	line: number;
	text: string;
	statusChar: string;
	due?: string;
	scheduled?: string;
	start?: string;
	done?: string;
}

/** A task's date fields, whose few values (dates) recur across a vault's tasks. */
const DATE_FIELDS = ["due", "scheduled", "start", "done"] as const;
/** A digit for each date field and one for none. */
const DATE_DIGIT_BASE = DATE_FIELDS.length + 1;

const isDateField = (key: string): key is (typeof DATE_FIELDS)[number] => (DATE_FIELDS as readonly string[]).includes(key);

/** Char codes turned into a string at a time: `String.fromCharCode(...codes)` takes its codes as arguments. */
const CODES_PER_CHUNK = 4096;
/** The largest char code a string of one byte a character holds. */
const MAX_ONE_BYTE_CODE = 0xff;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/**
 * `text` in a string of one byte a character: itself when it has no wider character, else its
 * UTF-8 bytes as characters (V8 keeps a string with one emoji or CJK character at two bytes a
 * character, and task lines often hold a date's emoji). Null when its UTF-8 would not give it
 * back (a lone surrogate).
 */
function oneByte(text: string): { bytes: string; utf8: boolean } | null {
	let wide = false;
	for (let index = 0; index < text.length && !wide; index++) wide = text.charCodeAt(index) > MAX_ONE_BYTE_CODE;
	if (!wide) return { bytes: text, utf8: false };
	const encoded = utf8.encode(text);
	if (fromUtf8.decode(encoded) !== text) return null;
	const chunks: string[] = [];
	for (let from = 0; from < encoded.length; from += CODES_PER_CHUNK) chunks.push(String.fromCharCode(...encoded.subarray(from, from + CODES_PER_CHUNK)));
	return { bytes: chunks.join(""), utf8: true };
}

/**
 * A note's tasks kept small for as long as the note is unchanged: their texts joined in one
 * string of one byte a character, and for each task its line, its status and the dates it has
 * (which, in their order, then the dates) in one flat array. A vault's tasks kept as objects, each
 * with a text of its own, cost about twice as much; they are built again when listed, which
 * builds an entry for each anyway.
 */
export class PackedTasks {
	constructor(
		private readonly texts: string,
		/** Whether `texts` holds UTF-8 bytes as characters (see oneByte). */
		private readonly utf8: boolean,
		private readonly fields: ReadonlyArray<string | number>,
		readonly count: number,
	) {}

	/** Packs `tasks`, one copy of each date and status kept for every note's tasks in `strings`. */
	static of(tasks: readonly NoteTask[], strings: StringPool): PackedTasks {
		const fields: Array<string | number> = [];
		for (const task of tasks) {
			// Which dates the task has, in the order its object has them (one base-5 digit each, the first lowest).
			const dates = Object.keys(task).filter(isDateField);
			fields.push(
				task.line,
				strings.intern(task.statusChar),
				dates.reduceRight((order, field) => order * DATE_DIGIT_BASE + DATE_FIELDS.indexOf(field) + 1, 0),
			);
			for (const field of dates) fields.push(strings.intern(task[field] as string));
		}
		// A task's text is one line's, so a line break never stands inside one. Joined, the texts are
		// one new string: none of them keeps the note's text alive.
		const joined = detachStrings({ texts: tasks.map((task) => task.text).join("\n") }).texts;
		const packed = oneByte(joined) ?? { bytes: joined, utf8: false };
		return new PackedTasks(packed.bytes, packed.utf8, fields, tasks.length);
	}

	/** The tasks, as objects. */
	list(): NoteTask[] {
		// Each character of `texts` is one byte (latin1 gives it back as is): a callback per character took 0.2 s for a note of long task lines.
		const texts = (this.utf8 ? fromUtf8.decode(Buffer.from(this.texts, "latin1")) : this.texts).split("\n");
		const tasks: NoteTask[] = [];
		let at = 0;
		for (let index = 0; index < this.count; index++) {
			const task: NoteTask = { line: this.fields[at++] as number, text: texts[index] ?? "", statusChar: this.fields[at++] as string };
			for (let order = this.fields[at++] as number; order > 0; order = Math.floor(order / DATE_DIGIT_BASE)) {
				const field = DATE_FIELDS[(order % DATE_DIGIT_BASE) - 1];
				if (field) task[field] = this.fields[at++] as string;
			}
			tasks.push(task);
		}
		return tasks;
	}
}

/** The tasks of every note without any: one for all of them. */
export const NO_TASKS = new PackedTasks("", false, [], 0);
