import fc from "fast-check";
import { closestNotes, decodeCursor, encodeCursor, findNote, page, truncateUtf8 } from "../../../src/vault/notes";
import { openVault, type OpenVault } from "../../helpers/hostVault";

describe("paging", () => {
	const items = Array.from({ length: 7 }, (_, index) => `note ${index}`);

	test.each<[string, number, number, string[], boolean]>([
		["the first page, more to come", 0, 3, ["note 0", "note 1", "note 2"], true],
		["a middle page", 3, 3, ["note 3", "note 4", "note 5"], true],
		["the last, short page has no cursor", 6, 3, ["note 6"], false],
		["a page that ends exactly at the end has no cursor", 4, 3, ["note 4", "note 5", "note 6"], false],
		["past the end: empty, no cursor", 10, 3, [], false],
	])("%s", (_name, offset, limit, expected, hasNext) => {
		const answer = page(items, offset, limit);
		expect(answer.items).toEqual(expected);
		expect(answer.nextCursor !== undefined).toBe(hasNext);
	});

	test("following the cursors visits every item once, in order", () => {
		const seen: string[] = [];
		let cursor: string | undefined;
		do {
			const offset = decodeCursor(cursor);
			if (!offset.ok) throw new Error(offset.error);
			const answer = page(items, offset.value, 2);
			seen.push(...answer.items);
			cursor = answer.nextCursor;
		} while (cursor !== undefined);
		expect(seen).toEqual(items);
	});

	test.each([
		["not base64 JSON", "%%%"],
		["JSON without an offset", Buffer.from('{"page":2}').toString("base64url")],
		["a negative offset", Buffer.from('{"offset":-1}').toString("base64url")],
		["a fractional offset", Buffer.from('{"offset":1.5}').toString("base64url")],
		["an offset that is text", Buffer.from('{"offset":"3"}').toString("base64url")],
	])("a cursor that is %s is refused with what to do", (_kind, cursor) => {
		expect(decodeCursor(cursor)).toEqual({ ok: false, error: "The cursor is not valid. Call again without a cursor to start from the first page." });
	});

	test("no cursor starts at the first item, and a cursor carries its offset", () => {
		expect(decodeCursor(undefined)).toEqual({ ok: true, value: 0 });
		expect(decodeCursor(encodeCursor(42))).toEqual({ ok: true, value: 42 });
	});
});

describe("truncateUtf8", () => {
	test.each<[string, string, number, string]>([
		["text that fits is unchanged", "héllo", 6, "héllo"],
		["ASCII is cut at the byte", "abcdef", 3, "abc"],
		["a two-byte letter is never split", "aé", 2, "a"],
		["a four-byte emoji is never split", "ok🙂", 5, "ok"],
		["zero bytes leave nothing", "abc", 0, ""],
	])("%s", (_name, text, maxBytes, expected) => {
		expect(truncateUtf8(text, maxBytes)).toBe(expected);
		expect(Buffer.byteLength(truncateUtf8(text, maxBytes))).toBeLessThanOrEqual(maxBytes);
	});

	test("encoding only the piece that holds the cut gives what encoding the whole text gives, for any text and bound", () => {
		const whole = (text: string, maxBytes: number) => {
			const bytes = Buffer.from(text, "utf8");
			if (bytes.length <= maxBytes) return text;
			let end = maxBytes;
			while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
			return bytes.subarray(0, end).toString("utf8");
		};
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom("a", "é", "\u4e16", "🙂", "\ud83d", "\ude42") }), fc.nat(40), (text, maxBytes) => {
				expect(truncateUtf8(text, maxBytes)).toBe(whole(text, maxBytes));
			}),
			{ numRuns: 3000 },
		);
	});
});

describe("findNote", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault({
			"Projects/Garden.md": "# Garden\n",
			"Archive/Diary.md": "old diary",
			"Private/Diary.md": "secret diary",
			"Private/Only.md": "secret",
			"Inbox.md": "inbox",
			"photo.png": "not a note",
		});
	});
	afterAll(() => vault.close());

	test.each<[string, string, string]>([
		["a full path with .md", "Projects/Garden.md", "Projects/Garden.md"],
		["a path without .md", "Projects/Garden", "Projects/Garden.md"],
		["link text, by name alone", "Garden", "Projects/Garden.md"],
		["link text with a heading", "Garden#Plan", "Projects/Garden.md"],
		["link text with an alias", "Inbox|my inbox", "Inbox.md"],
		["a name an excluded note shares resolves to the visible one", "Diary", "Archive/Diary.md"],
	])("%s", (_name, input, expected) => {
		const found = findNote(vault.host, vault.scope("Private"), input);
		expect(found.ok && found.value.path).toBe(expected);
	});

	test("an excluded note is answered exactly like a missing one", () => {
		const excluded = findNote(vault.host, vault.scope("Private"), "Private/Only.md");
		const missing = findNote(vault.host, vault.scope("Private"), "Elsewhere/Only.md");
		expect(excluded).toEqual({ ok: false, error: expect.stringMatching(/^No note "Private\/Only.md"\./) });
		expect(!excluded.ok && excluded.error.replace("Private/", "")).toBe(!missing.ok && missing.error.replace("Elsewhere/", ""));
	});

	test("a missing note names the closest visible notes and what to call", () => {
		expect(findNote(vault.host, vault.scope("Private"), "Gardn")).toEqual({
			ok: false,
			error: 'No note "Gardn". Closest: "Projects/Garden.md", "Archive/Diary.md", "Inbox.md". Call list_notes or search_notes to find the right path.',
		});
	});

	test.each([
		["an attachment", "photo.png", '"photo.png" is not a Markdown note; only notes (.md) can be read.'],
		["a path out of the vault", "../outside.md", "The path has an empty, '.' or '..' part; give the path from the vault root."],
		["the config folder", ".obsidian/app.json", "Hidden files and folders (names starting with '.') are not part of the vault."],
	])("%s is refused with the reason", (_kind, input, message) => {
		expect(findNote(vault.host, vault.scope(), input)).toEqual({ ok: false, error: message });
	});

	test("closestNotes puts names that contain the wanted one first", () => {
		const notes = vault.host.vault.getMarkdownFiles();
		expect(closestNotes(notes, "diar", 2)).toEqual(["Archive/Diary.md", "Private/Diary.md"]);
	});
});
