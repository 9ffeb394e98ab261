import { execFileSync, spawn } from "node:child_process";
import * as nodePath from "node:path";
import fc from "fast-check";
import { JOURNAL_READ_PIECE_BYTES } from "../../../src/config/limits";
import { lineBytes, lineSteps, parseLine, replayLine, syncFolder, type JournalLine } from "../../../src/journal/journalLines";
import type { JournalChange, JournalEntry } from "../../../src/journal/entry";
import { makeTempDir, removeDir } from "../../helpers/vault";

/** How long before another program opens the pipe for writing, which frees an open that waits for one. */
const WRITER_AFTER_S = 6;

test("syncFolder: a named pipe where the journal's folder was (another program swapped it) is skipped at once, not waited on", async () => {
	const dir = await makeTempDir("sync-folder-");
	const pipe = nodePath.join(dir, "journal");
	execFileSync("sh", ["-c", 'mkfifo "$0"', pipe]);
	// Frees a blocked open in the end, so the test finishes either way.
	const writer = spawn("sh", ["-c", `sleep ${WRITER_AFTER_S}; exec 3>"$0"`, pipe], { stdio: "ignore" });
	try {
		const started = Date.now();
		syncFolder(pipe);
		expect(Date.now() - started).toBeLessThan((WRITER_AFTER_S * 1000) / 2);
		// A real folder is still synced without error.
		syncFolder(dir);
	} finally {
		writer.kill();
		await removeDir(dir);
	}
});

describe("lineSteps: a long journal line parsed a piece at a time", () => {
	const hash = (char: string) => char.repeat(64);
	/** A change line of `before` → `after`, as the journal writes it (without its line end). */
	const changeLine = (before: string | null, after: string | null, extra: Record<string, unknown> = {}): Buffer =>
		lineBytes([
			{
				kind: "change",
				id: "c1",
				time: "2026-12-04T21:00:00.000Z",
				tokenName: "laptop",
				tool: "append_to_note",
				path: "Notes/Plan.md",
				before,
				beforeHash: before === null ? null : hash("a"),
				after,
				afterHash: after === null ? null : hash("b"),
				...extra,
			},
		]).subarray(0, -1);
	/** The longest piece of characters given to JSON.parse between two steps, and the result. */
	const run = (bytes: Buffer): { longest: number; parsed: JournalLine | null } => {
		const perPiece = [0];
		const parse = JSON.parse;
		const spy = jest.spyOn(JSON, "parse").mockImplementation((json: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
			perPiece[perPiece.length - 1] = (perPiece.at(-1) ?? 0) + json.length;
			return parse(json, reviver) as unknown;
		});
		try {
			const steps = lineSteps(bytes);
			for (;;) {
				const next = steps.next();
				if (next.done) return { longest: Math.max(...perPiece), parsed: next.value };
				perPiece.push(0);
			}
		} finally {
			spy.mockRestore();
		}
	};

	test("a change to a 1 MiB note (texts full of escapes, accents, emoji and a pair cut by the piece size) parses to the same record, no piece over ~64 KiB", () => {
		const note = `# Big\n\n${'- a "quoted" line\\with é, 😀 and a tab\t\n'.repeat(26_000)}`.slice(0, 1024 * 1024);
		const after = `${note}- more 😀\n`;
		const bytes = changeLine(note, after, { createdFolders: ["Notes"] });
		expect(bytes.length).toBeGreaterThan(2 * 1024 * 1024);
		const { longest, parsed } = run(bytes);
		expect(parsed).toEqual(parseLine(bytes.toString("utf8")));
		expect(parsed).toMatchObject({ before: note, after });
		// Before: the whole line, over 2 million characters, in one JSON.parse.
		expect(longest).toBeLessThan(JOURNAL_READ_PIECE_BYTES + 1_000);
	});

	test("long lines that are no record, or a damaged one, are refused as parseLine refuses them", () => {
		const long = "x".repeat(200_000);
		const good = changeLine(long, `${long}y`);
		const cases: Buffer[] = [
			// Cut short in a text, or in its fields.
			good.subarray(0, 150_000),
			good.subarray(0, good.length - 5),
			// A raw control character inside a long text (JSON forbids it).
			Buffer.from(good.toString("utf8").replace("xxxx", "xx\u0001x")),
			// A bad escape far into a long text.
			Buffer.from(good.toString("utf8").replace(`${"x".repeat(10)}"`, `${"x".repeat(9)}\\q"`)),
			// A hash that is not one; a kind from a future version.
			changeLine(long, long, { afterHash: "zz" }),
			changeLine(long, long, { kind: "merge" }),
			// A long text where a short field must be, and no string at all.
			changeLine(long, long, { time: 5 }),
			Buffer.from(`[${"1,".repeat(200_000)}1]`),
		];
		for (const bytes of cases) {
			expect(parseLine(bytes.toString("utf8"))).toBeNull();
			expect(run(bytes).parsed).toBeNull();
		}
		// Fields past any record's (a long line of short strings, which would be parsed in one piece): no record this version writes.
		const planted = Buffer.from(`{"kind":"drop","id":"a","path":"b","x":[${'"y",'.repeat(100_000)}"y"]}`);
		expect(run(planted)).toEqual({ longest: expect.any(Number) as number, parsed: null });
		expect(run(planted).longest).toBeLessThan(JOURNAL_READ_PIECE_BYTES);
	});

	test('a planted long line whose long text ends in a cut-short escape (`\\u12"`) is refused in a few steps, as parseLine refuses it', () => {
		const long = "x".repeat(100_000);
		const planted = changeLine(long, long)
			.toString("utf8")
			.replace(`${"x".repeat(10)}"`, `${"x".repeat(10)}\\u12"`);
		const bytes = Buffer.from(planted);
		expect(parseLine(planted)).toBeNull();
		// Before: each step began the same piece again and the parse never ended (the CLI's read, a synchronous runSteps, hung).
		const steps = lineSteps(bytes);
		let taken = 0;
		let next = steps.next();
		for (; !next.done && taken < 1_000; taken++) next = steps.next();
		expect(next).toEqual({ done: true, value: null });
		expect(taken).toBeLessThan((2 * bytes.length) / JOURNAL_READ_PIECE_BYTES + 10);
	});

	test("a long line holding a list nested 100,000 deep under a key the record drops parses to what parseLine makes of it, long texts put back", () => {
		const long = "x".repeat(1_000);
		const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
		const json = changeLine(long, `${long}y`, { createdFolders: ["Notes", "x".repeat(300)] }).toString("utf8");
		const bytes = Buffer.from(`${json.slice(0, -1)},"extra":${nested}}`);
		expect(bytes.length).toBeGreaterThan(JOURNAL_READ_PIECE_BYTES);
		const expected = parseLine(bytes.toString("utf8"));
		expect(expected).toMatchObject({ before: long, after: `${long}y`, createdFolders: ["Notes", "x".repeat(300)] });
		// Before: putting the long texts back walked every level, and overflowed the stack.
		expect(run(bytes).parsed).toEqual(expected);
	});

	test("any long line parses to what parseLine makes of it (texts of any characters, escaped anyhow, keys in any order, repeated)", () => {
		const piece = fc.oneof(
			fc.string({ unit: "grapheme", maxLength: 40 }),
			fc.string({ unit: "binary", maxLength: 40 }),
			fc.constantFrom('"', "\\", "\n", "\u2028", "😀", "\ud83d", "\ude00", "é"),
		);
		const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join("").repeat(Math.ceil(70_000 / Math.max(1, parts.join("").length))));
		fc.assert(
			fc.property(text, text, fc.boolean(), fc.boolean(), fc.nat(5), (before, after, escapeAll, reorder, cutAt) => {
				let json = changeLine(before, after).toString("utf8");
				// Another writer may escape every character, and order the keys its own way.
				if (escapeAll)
					json = json.replace(/[^\x20-\x7e]|[a-z]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`.replace("\\u005c", "\\\\"));
				if (reorder) json = `{"after":${JSON.stringify(before)},${json.slice(1)}`;
				let bytes = Buffer.from(json, "utf8");
				if (cutAt > 0) bytes = bytes.subarray(0, Math.floor((bytes.length * cutAt) / 6));
				expect(run(bytes).parsed).toEqual(parseLine(bytes.toString("utf8")));
			}),
			{ numRuns: 60 },
		);
	});
});

describe("replayLine: moved lines of a call that changed many notes", () => {
	const hash = "a".repeat(64);
	const change = (id: string, path: string, text: string): Extract<JournalLine, { kind: "change" }> => ({
		kind: "change",
		id,
		time: "2026-12-05T10:00:00.000Z",
		tokenName: "w",
		tool: "rename_note",
		path,
		before: `${text} before`,
		beforeHash: hash,
		after: `${text} after`,
		afterHash: hash,
	});

	/** The call's changes, its list wrapped to count the changes looked at from then on. */
	function counted(entry: JournalEntry): { looks: () => number } {
		let looks = 0;
		entry.changes = new Proxy(entry.changes, {
			get(target, key, receiver) {
				if (typeof key === "string" && /^\d+$/.test(key)) looks++;
				return Reflect.get(target, key, receiver) as unknown;
			},
		});
		return { looks: () => looks };
	}

	test("a rename that relinked 2,000 notes, each then moved by the person: each change is looked at a few times, not once per move", () => {
		const notes = 2000;
		const entries = new Map<string, JournalEntry>();
		for (let index = 0; index < notes; index++) replayLine(change("call", `Notes/N${index}.md`, `n${index}`), entries);
		const entry = entries.get("call") as JournalEntry;
		const { looks } = counted(entry);
		for (let index = 0; index < notes; index++)
			replayLine({ kind: "moved", id: "call", path: `Notes/N${index}.md`, nowAt: `Archive/N${index}.md` }, entries);
		// Before: every move looked through the call's every change (4,000,000 looks).
		expect(looks()).toBeLessThan(notes * 4);
		expect(entry.changes.map((each: JournalChange) => each.nowAt)).toEqual(Array.from({ length: notes }, (_, index) => `Archive/N${index}.md`));
	});

	/** The call's changes, its list wrapped to count the changes looked at, not moved along by a splice (a read and a write), from then on. */
	function countedLooksNotMoves(entry: JournalEntry): { looks: () => number } {
		let reads = 0;
		let writes = 0;
		entry.changes = new Proxy(entry.changes, {
			get(target, key, receiver) {
				if (typeof key === "string" && /^\d+$/.test(key)) reads++;
				return Reflect.get(target, key, receiver) as unknown;
			},
			set(target, key, value, receiver) {
				if (typeof key === "string" && /^\d+$/.test(key)) writes++;
				return Reflect.set(target, key, value, receiver);
			},
		});
		return { looks: () => reads - writes };
	}

	test.each([
		["in the order they were recorded (a rename stopped after recording its relinks)", false],
		["last first", true],
	])("a call of 500 changes, each then dropped %s: each drop looks at a few changes, not all of them", (_order, lastFirst) => {
		// 500: the counting list's every splice moves the changes after the one dropped through the proxy, slowly.
		const notes = 500;
		const entries = new Map<string, JournalEntry>();
		for (let index = 0; index < notes; index++) replayLine(change("call", `Notes/N${index}.md`, `n${index}`), entries);
		// One change more at a path already changed: its drop takes the later one.
		replayLine(change("call", "Notes/N0.md", "again"), entries);
		const entry = entries.get("call") as JournalEntry;
		const { looks } = countedLooksNotMoves(entry);
		const order = Array.from({ length: notes - 1 }, (_, index) => index + 1);
		for (const index of lastFirst ? order.reverse() : order) replayLine({ kind: "drop", id: "call", path: `Notes/N${index}.md` }, entries);
		// Before: every drop listed the call's every path and looked through them from the end (about 190,000 looks in order).
		expect(looks()).toBeLessThan(notes * 10);
		expect(entry.changes.map((each: JournalChange) => each.before)).toEqual(["n0 before", "again before"]);
		replayLine({ kind: "drop", id: "call", path: "Notes/N0.md" }, entries);
		expect(entry.changes.map((each: JournalChange) => each.before)).toEqual(["n0 before"]);
		replayLine({ kind: "drop", id: "call", path: "Notes/N0.md" }, entries);
		expect(entries.has("call")).toBe(false);
	});

	test("changes, drops and moves of a few paths in any order: each drop takes the last change of its path, as a look through the whole list does", () => {
		const paths = ["A.md", "B.md", "C.md"];
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.constantFrom("change", "drop", "moved"), fc.constantFrom(...paths)), { maxLength: 40 }), (steps) => {
				const entries = new Map<string, JournalEntry>();
				let expected: string[] = [];
				steps.forEach(([kind, path], step) => {
					if (kind === "change") {
						replayLine(change("call", path, `${path}${step}`), entries);
						expected.push(`${path}${step} before`);
					} else if (kind === "moved") replayLine({ kind: "moved", id: "call", path, nowAt: `X/${path}` }, entries);
					else {
						replayLine({ kind: "drop", id: "call", path }, entries);
						const index = expected.map((before) => before.slice(0, before.indexOf(".md") + 3)).lastIndexOf(path);
						if (index !== -1) expected = expected.filter((_, at) => at !== index);
					}
					expect((entries.get("call")?.changes ?? []).map((each) => each.before)).toEqual(expected);
				});
			}),
			{ numRuns: 200 },
		);
	});

	test("moves, changes, drops and replaced attempts interleaved: every change of the moved path, and only those, says where it is", () => {
		const entries = new Map<string, JournalEntry>();
		const lines: JournalLine[] = [
			change("call", "A.md", "a1"),
			change("call", "B.md", "b1"),
			{ kind: "moved", id: "call", path: "A.md", nowAt: "X/A.md" },
			// A second change of A, after B's: added, not an attempt replaced.
			change("call", "A.md", "a2"),
			{ kind: "moved", id: "call", path: "A.md", nowAt: "Y/A.md" },
			change("call", "C.md", "c1"),
			{ kind: "moved", id: "call", path: "C.md", nowAt: "W/C.md" },
			// Written again on fresh text (its before is not the last attempt's after): replaces that attempt.
			{ ...change("call", "C.md", "c2"), beforeHash: "b".repeat(64) },
			{ kind: "drop", id: "call", path: "B.md" },
			{ kind: "moved", id: "call", path: "B.md", nowAt: "Z/B.md" },
			{ kind: "moved", id: "call", path: "C.md", nowAt: "Z/C.md" },
		];
		for (const line of lines) replayLine(line, entries);
		expect((entries.get("call") as JournalEntry).changes.map((each) => [each.path, each.before, each.nowAt])).toEqual([
			["A.md", "a1 before", "Y/A.md"],
			["A.md", "a2 before", "Y/A.md"],
			["C.md", "c2 before", "Z/C.md"],
		]);
	});
});
