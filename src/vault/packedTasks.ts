import { NOTE_TEXT_PIECE_CHARS, SLICED_TASKS } from "../config/limits";
import { detachStrings } from "../headless/detachedStrings";
import { runSteps, type Steps } from "../markdown/steps";

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

/** A task's date fields, each written as one letter (`dsta`: which dates a task has, in their order). */
const DATE_FIELDS = ["due", "scheduled", "start", "done"] as const;
const DATE_LETTERS = "dsta";

const isDateField = (key: string): key is (typeof DATE_FIELDS)[number] => (DATE_FIELDS as readonly string[]).includes(key);

/** Char codes turned into a string at a time: `String.fromCharCode(...codes)` takes its codes as arguments. */
const CODES_PER_CHUNK = 4096;
/** The largest char code a string of one byte a character holds. */
const MAX_ONE_BYTE_CODE = 0xff;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** True when a character of `text` is wider than one byte (V8 then keeps the whole string at two bytes a character). */
function hasWide(text: string): boolean {
	for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > MAX_ONE_BYTE_CODE) return true;
	return false;
}

/** `text`'s UTF-8 bytes as characters of one byte; null when its UTF-8 would not give it back (a lone surrogate). */
function utf8Bytes(text: string): string | null {
	const encoded = utf8.encode(text);
	if (fromUtf8.decode(encoded) !== text) return null;
	const chunks: string[] = [];
	for (let from = 0; from < encoded.length; from += CODES_PER_CHUNK) chunks.push(String.fromCharCode(...encoded.subarray(from, from + CODES_PER_CHUNK)));
	return chunks.join("");
}

/**
 * Fields joined by line breaks, in pieces of about NOTE_TEXT_PIECE_CHARS characters (whole fields),
 * pausing between pieces: a note of 20,000 task lines with emoji (1.8 MB) was encoded in one piece
 * of about 1 s. In one string of one byte a character: as it is when it has no wider character,
 * else its UTF-8 bytes as characters (V8 keeps a string with one emoji or CJK character at two bytes
 * a character, and task lines often hold a date's emoji), or as it is when a lone surrogate has no
 * UTF-8. UTF-8 of the joined text is that of its pieces joined: a line break is a byte of its own.
 */
function* oneByteSteps(fields: readonly string[]): Steps<{ bytes: string; utf8: boolean }> {
	const pieces: string[] = [];
	for (let from = 0; from < fields.length;) {
		let to = from;
		let chars = 0;
		while (to < fields.length && (to === from || chars < NOTE_TEXT_PIECE_CHARS)) chars += (fields[to++] as string).length + 1;
		// The line break that joins this piece to the next stays with this piece.
		pieces.push(fields.slice(from, to).join("\n") + (to < fields.length ? "\n" : ""));
		from = to;
		yield;
	}
	if (!pieces.some(hasWide)) return { bytes: pieces.join(""), utf8: false };
	const bytes: string[] = [];
	for (const piece of pieces) {
		const encoded = utf8Bytes(piece);
		if (encoded === null) return { bytes: pieces.join(""), utf8: false };
		bytes.push(encoded);
		yield;
	}
	return { bytes: bytes.join(""), utf8: true };
}

/**
 * A note's tasks kept small for as long as the note is unchanged: every field of every task in one
 * string of one byte a character, a line each (line number, text, status, which dates, then the
 * dates). A vault's tasks kept as objects, each with a text of its own, cost about twice as much,
 * and an array of their fields (8 bytes a field, and room to grow) more than the text it points
 * to; they are built again when listed, which builds an entry for each anyway.
 */
export class PackedTasks {
	constructor(
		private readonly fields: string,
		/** Whether `fields` holds UTF-8 bytes as characters (see oneByte). */
		private readonly utf8: boolean,
		readonly count: number,
	) {}

	/**
	 * Packs `tasks`. Every field comes from one line of the note (a status is a character of it,
	 * a date a run of its digits), so a line break never stands inside one.
	 */
	static of(tasks: readonly NoteTask[]): PackedTasks {
		const lines: string[] = [];
		for (const task of tasks) PackedTasks.pushFields(task, lines);
		return PackedTasks.ofFields(lines, tasks.length);
	}

	/** Adds one task's fields to `lines`: a caller packing thousands of tasks can pause between them. */
	static pushFields(task: NoteTask, lines: string[]): void {
		// Which dates the task has, in the order its object has them.
		const dates = Object.keys(task).filter(isDateField);
		lines.push(String(task.line), task.text, task.statusChar, dates.map((field) => DATE_LETTERS[DATE_FIELDS.indexOf(field)]).join(""));
		for (const field of dates) lines.push(task[field] as string);
	}

	/** Packs the fields `pushFields` gathered for `count` tasks. */
	static ofFields(lines: readonly string[], count: number): PackedTasks {
		return runSteps(PackedTasks.ofFieldsSteps(lines, count));
	}

	/** `ofFields` in steps (see oneByteSteps). */
	static *ofFieldsSteps(lines: readonly string[], count: number): Steps<PackedTasks> {
		const packed = yield* oneByteSteps(lines);
		// Joined, the fields are one new string: none of them keeps the note's text alive.
		return new PackedTasks(detachStrings({ fields: packed.bytes }).fields, packed.utf8, count);
	}

	/** The tasks, as objects. */
	list(): NoteTask[] {
		return runSteps(this.listSteps());
	}

	/** `list` in steps: UTF-8 read back a piece at a time (a 1.8 MB note's tasks were one piece of 0.3 s). */
	*listSteps(): Steps<NoteTask[]> {
		let text = this.fields;
		if (this.utf8) {
			// Each character of `fields` is one byte (latin1 gives it back as is): a callback per character took 0.2 s for a note of long task lines.
			// Cut after a line break, which is never inside a character's UTF-8 bytes.
			const pieces: string[] = [];
			for (let from = 0; from < this.fields.length;) {
				const newline = this.fields.indexOf("\n", from + NOTE_TEXT_PIECE_CHARS);
				const to = newline === -1 ? this.fields.length : newline + 1;
				pieces.push(fromUtf8.decode(Buffer.from(this.fields.slice(from, to), "latin1")));
				from = to;
				yield;
			}
			text = pieces.join("");
		}
		const lines = text.split("\n");
		yield;
		const tasks: NoteTask[] = [];
		let at = 0;
		for (let index = 0; index < this.count; index++) {
			if (index % SLICED_TASKS === SLICED_TASKS - 1) yield;
			const task: NoteTask = { line: Number(lines[at++]), text: lines[at++] ?? "", statusChar: lines[at++] ?? "" };
			for (const letter of lines[at++] ?? "") {
				const field = DATE_FIELDS[DATE_LETTERS.indexOf(letter)];
				if (field) task[field] = lines[at++] ?? "";
			}
			tasks.push(task);
		}
		return tasks;
	}
}

/** The tasks of every note without any: one for all of them. */
export const NO_TASKS = new PackedTasks("", false, 0);
