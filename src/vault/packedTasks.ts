import { NOTE_TEXT_PIECE_CHARS, SLICED_TASKS } from "../config/limits";
import { detachStrings } from "../headless/detachedStrings";
import { ChunkedArray } from "../markdown/chunkedArray";
import { runSteps, type Steps } from "../markdown/steps";
import { taskStatus } from "../markdown/taskLine";

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
 * Fields joined by line breaks, in pieces of about NOTE_TEXT_PIECE_CHARS characters (whole fields,
 * each piece but the last ending in a line break), pausing between pieces: a note of 20,000 task
 * lines with emoji (1.8 MB) was encoded in one piece of about 1 s, and a note's 7 MB of tasks
 * joined, then copied, into one string took two pieces of 0.2–0.3 s. Each piece in one string of
 * one byte a character: as it is when no piece has a wider character, else its UTF-8 bytes as
 * characters (V8 keeps a string with one emoji or CJK character at two bytes a character, and task
 * lines often hold a date's emoji), or as it is when a lone surrogate has no UTF-8. UTF-8 of the
 * joined text is that of its pieces joined: a line break is a byte of its own.
 */
function* oneByteSteps(fields: ChunkedArray<string>): Steps<{ pieces: string[]; utf8: boolean }> {
	const pieces: string[] = [];
	let wide = false;
	for (let from = 0; from < fields.length;) {
		let to = from;
		let chars = 0;
		while (to < fields.length && (to === from || chars < NOTE_TEXT_PIECE_CHARS)) chars += fields.get(to++).length + 1;
		const pieceFields = new Array<string>(to - from);
		for (let index = from; index < to; index++) pieceFields[index - from] = fields.get(index);
		// The line break that joins this piece to the next stays with this piece.
		const piece = pieceFields.join("\n") + (to < fields.length ? "\n" : "");
		wide ||= hasWide(piece);
		pieces.push(piece);
		from = to;
		yield;
	}
	if (!wide) return { pieces: yield* detachedSteps(pieces), utf8: false };
	const bytes: string[] = [];
	for (const piece of pieces) {
		const encoded = utf8Bytes(piece);
		if (encoded === null) return { pieces: yield* detachedSteps(pieces), utf8: false };
		// Made from char codes: a string of its own, no slice of the note's text.
		bytes.push(encoded);
		yield;
	}
	return { pieces: bytes, utf8: true };
}

/** Each piece copied into a string of its own, a piece a step: one may be a field as it is, a slice that would keep the note's whole text alive. */
function* detachedSteps(pieces: readonly string[]): Steps<string[]> {
	const copies: string[] = [];
	for (const piece of pieces) {
		copies.push(detachStrings({ piece }).piece);
		yield;
	}
	return copies;
}

/** A task's status as list_tasks names it. */
export type TaskStatusName = ReturnType<typeof taskStatus>;
const STATUS_NAMES: readonly TaskStatusName[] = ["open", "done", "cancelled", "other"];

/** A YYYY-MM-DD date as the number YYYYMMDD: numbers in the same order as the dates. */
export function dateNumber(date: string): number {
	return Number(date.slice(0, 4)) * 10_000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
}

const STATUS_COUNT = STATUS_NAMES.length;

/**
 * A note's tasks counted as they are packed: how many of each status have no due date, and the due
 * dates of each status. `seal` gives them as the numbers PackedTasks keeps (see `countOf`).
 */
export class TaskTally {
	/** Tasks without a due date, by status (the place of its name in STATUS_NAMES). */
	private readonly undated = STATUS_NAMES.map(() => 0);
	// In chunks, as the fields are: no array of a note's due dates grows by copying itself whole.
	private readonly dues: Array<ChunkedArray<number> | undefined> = [];

	add(statusChar: string, due: string | undefined): void {
		const status = STATUS_NAMES.indexOf(taskStatus(statusChar));
		if (due === undefined) this.undated[status] = (this.undated[status] as number) + 1;
		else {
			const dues = this.dues[status] ?? new ChunkedArray<number>();
			dues.push(dateNumber(due));
			this.dues[status] = dues;
		}
	}

	/**
	 * The undated counts by status, then where each status's due dates end, then each status's due
	 * dates (as YYYYMMDD), sorted, one status after the other; each number as two characters of 16
	 * bits (see tallyNumber). Kept for every note with tasks: three Maps and a typed array a note
	 * were about 0.7 KB (6 MB of a 10,000-note vault's heap), an array of the numbers 8 bytes each.
	 */
	seal(): string {
		const byStatus = STATUS_NAMES.map((_, status) => {
			const dues = this.dues[status];
			// As 32-bit integers, sorted as numbers: a date's YYYYMMDD fits.
			return dues ? Int32Array.from({ length: dues.length }, (_, index) => dues.get(index)).sort() : new Int32Array(0);
		});
		const codes = new Uint16Array(2 * (STATUS_COUNT * 2 + byStatus.reduce((total, dues) => total + dues.length, 0)));
		const put = (at: number, value: number) => {
			codes[2 * at] = value >>> 16;
			codes[2 * at + 1] = value & 0xffff;
		};
		let at = STATUS_COUNT * 2;
		for (const [status, dues] of byStatus.entries()) {
			put(status, this.undated[status] as number);
			for (const date of dues) put(at++, date);
			put(STATUS_COUNT + status, at);
		}
		const chunks: string[] = [];
		for (let from = 0; from < codes.length; from += CODES_PER_CHUNK) chunks.push(String.fromCharCode(...codes.subarray(from, from + CODES_PER_CHUNK)));
		return chunks.join("");
	}
}

/** The number at `at` of a sealed tally (TaskTally.seal): its high 16 bits, then its low 16 bits (every number is under 2^31). */
function tallyNumber(tally: string, at: number): number {
	return (tally.charCodeAt(2 * at) << 16) | tally.charCodeAt(2 * at + 1);
}

/** The index of the first number of `tally`'s numbers `[from, to)`, sorted, above `value` (`to` when none is). */
function firstAbove(tally: string, from: number, to: number, value: number): number {
	let low = from;
	let high = to;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (tallyNumber(tally, middle) <= value) low = middle + 1;
		else high = middle;
	}
	return low;
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
		/**
		 * The fields, a line each, in pieces that end between two fields (see oneByteSteps); a lone
		 * piece as it is (most notes' tasks are one: an array for it cost 56 bytes a note).
		 */
		private readonly pieces: string | readonly string[],
		/** Whether `pieces` hold UTF-8 bytes as characters (see oneByteSteps). */
		private readonly utf8: boolean,
		/** How many tasks of each status and due date (see TaskTally.seal). */
		private readonly tally: string,
	) {}

	get count(): number {
		const tally = this.tally;
		let undated = 0;
		for (let status = 0; status < STATUS_COUNT; status++) undated += tallyNumber(tally, status);
		return undated + tallyNumber(tally, STATUS_COUNT * 2 - 1) - STATUS_COUNT * 2;
	}

	/**
	 * How many tasks have `status` (any: every status) and, when `due` is given, a due date within
	 * it (inclusive): list_tasks counts a note's matching tasks without listing them (a note of
	 * 200,000 tasks was listed whole, 2–3.6 s, by every call that asked for 200 of them).
	 */
	countOf(status: TaskStatusName | "any", due?: { from: number; to: number }): number {
		const tally = this.tally;
		let counted = 0;
		for (let each = 0; each < STATUS_COUNT; each++) {
			if (status !== "any" && STATUS_NAMES[each] !== status) continue;
			const from = each === 0 ? STATUS_COUNT * 2 : tallyNumber(tally, STATUS_COUNT + each - 1);
			const to = tallyNumber(tally, STATUS_COUNT + each);
			if (due === undefined) counted += tallyNumber(tally, each) + to - from;
			else if (due.from <= due.to) counted += firstAbove(tally, from, to, due.to) - firstAbove(tally, from, to, due.from - 1);
		}
		return counted;
	}

	/**
	 * Packs `tasks`. Every field comes from one line of the note (a status is a character of it,
	 * a date a run of its digits), so a line break never stands inside one.
	 */
	static of(tasks: readonly NoteTask[]): PackedTasks {
		const lines = new ChunkedArray<string>();
		const tally = new TaskTally();
		for (const task of tasks) PackedTasks.pushFields(task, lines, tally);
		return PackedTasks.ofFields(lines, tally);
	}

	/**
	 * Adds one task's fields to `lines`: a caller packing thousands of tasks can pause between them
	 * (in chunks: a note of 200,000 tasks grew one array of its million fields by copying it whole).
	 */
	static pushFields(task: NoteTask, lines: ChunkedArray<string>, tally: TaskTally): void {
		tally.add(task.statusChar, task.due);
		// Which dates the task has, in the order its object has them.
		const dates = Object.keys(task).filter(isDateField);
		lines.push(String(task.line));
		lines.push(task.text);
		lines.push(task.statusChar);
		lines.push(dates.map((field) => DATE_LETTERS[DATE_FIELDS.indexOf(field)]).join(""));
		for (const field of dates) lines.push(task[field] as string);
	}

	/** Packs the fields `pushFields` gathered, with their tally. */
	static ofFields(lines: ChunkedArray<string>, tally: TaskTally): PackedTasks {
		return runSteps(PackedTasks.ofFieldsSteps(lines, tally));
	}

	/** `ofFields` in steps (see oneByteSteps). */
	static *ofFieldsSteps(lines: ChunkedArray<string>, tally: TaskTally): Steps<PackedTasks> {
		const packed = yield* oneByteSteps(lines);
		return new PackedTasks(packed.pieces.length === 1 ? (packed.pieces[0] as string) : packed.pieces, packed.utf8, tally.seal());
	}

	/** The tasks, as objects. */
	list(): NoteTask[] {
		return runSteps(this.listSteps());
	}

	/**
	 * `list` in steps, a piece of the fields at a time: UTF-8 read back (a 1.8 MB note's tasks were
	 * one piece of 0.3 s) and split into lines. Only the tasks `keep` accepts, and no further pieces
	 * read once `wanted` are found: a call asking for 200 tasks read all 200,000 of a note.
	 */
	*listSteps(wanted = Infinity, keep: (task: NoteTask) => boolean = () => true): Steps<NoteTask[]> {
		const tasks: NoteTask[] = [];
		// Lines read and not yet made into tasks: a task's fields may run on into the next piece.
		let lines: string[] = [];
		let read = 0;
		const pieces = typeof this.pieces === "string" ? [this.pieces] : this.pieces;
		const count = this.count;
		for (const [index, piece] of pieces.entries()) {
			if (tasks.length >= wanted) break;
			// Each character of a piece is one byte (latin1 gives it back as is): a callback per character took 0.2 s for a note of long task lines.
			const text = this.utf8 ? fromUtf8.decode(Buffer.from(piece, "latin1")) : piece;
			const pieceLines = text.split("\n");
			// Every piece but the last ends in the line break before the next piece's first field.
			if (index < pieces.length - 1) pieceLines.pop();
			lines = lines.length === 0 ? pieceLines : lines.concat(pieceLines);
			let at = 0;
			const last = index === pieces.length - 1;
			while (read < count && tasks.length < wanted) {
				// A task is its line number, text, status and date letters, then a field per letter.
				const letters = lines[at + 3];
				if (!last && (letters === undefined || at + 4 + letters.length > lines.length)) break;
				if (read % SLICED_TASKS === SLICED_TASKS - 1) yield;
				const task: NoteTask = { line: Number(lines[at++]), text: lines[at++] ?? "", statusChar: lines[at++] ?? "" };
				for (const letter of lines[at++] ?? "") {
					const field = DATE_FIELDS[DATE_LETTERS.indexOf(letter)];
					if (field) task[field] = lines[at++] ?? "";
				}
				read++;
				if (keep(task)) tasks.push(task);
			}
			lines = lines.slice(at);
			yield;
		}
		return tasks;
	}
}

/** The tasks of every note without any: one for all of them. */
export const NO_TASKS = new PackedTasks([], false, new TaskTally().seal());
