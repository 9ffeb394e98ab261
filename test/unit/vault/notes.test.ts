import fc from "fast-check";
import { closestNotes, findNote, truncateAsJson } from "../../../src/vault/notes";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { expectEqual } from "../../helpers/plainEqual";

describe("truncateAsJson", () => {
	/** The UTF-8 bytes of `text` as a JSON string, less its two quotes. */
	const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

	test.each<[string, string, number, string]>([
		["text that fits is unchanged", "héllo", 6, "héllo"],
		["ASCII is cut at the byte", "abcdef", 3, "abc"],
		["a two-byte letter is never split", "aé", 2, "a"],
		["a four-byte emoji is never split", "ok🙂", 5, "ok"],
		["zero bytes leave nothing", "abc", 0, ""],
		["a line break counts as its escape, two bytes", "\n\n\n", 5, "\n\n"],
		["a NUL counts as its escape, six bytes", "\0\0", 11, "\0"],
		["a quote and a backslash count two each", '"\\x', 4, '"\\'],
		["a lone surrogate counts as its escape, six bytes", "\ud83dab", 7, "\ud83da"],
		["the worst characters, fitting to the byte, are whole", "\0\ud83d\u001f", 18, "\0\ud83d\u001f"],
		["the worst characters, a byte over, are cut", "\0\ud83d\u001f", 17, "\0\ud83d"],
	])("%s", (_name, text, maxBytes, expected) => {
		expect(truncateAsJson(text, maxBytes)).toBe(expected);
		expect(jsonBytes(truncateAsJson(text, maxBytes))).toBeLessThanOrEqual(maxBytes);
	});

	test("a note of 4 MB of line breaks, CRs or NULs is cut to at most the bound as JSON (cut by UTF-8 bytes, it was 2 to 6 times over)", () => {
		for (const char of ["\n", "\r", "\0"]) {
			const cut = truncateAsJson(char.repeat(4_000_000), 512 * 1024);
			expect(jsonBytes(cut)).toBeLessThanOrEqual(512 * 1024);
			expect(jsonBytes(cut + char)).toBeGreaterThan(512 * 1024);
		}
	});

	test("for any text and bound: the longest prefix, whole characters, whose JSON fits", () => {
		fc.assert(
			fc.property(
				fc.string({ unit: fc.constantFrom("a", "é", "\u4e16", "🙂", "\ud83d", "\ude42", "\n", "\0", '"', "\\", "\u2028") }),
				fc.nat(40),
				(text, maxBytes) => {
					const cut = truncateAsJson(text, maxBytes);
					expectEqual(text.startsWith(cut), true);
					expect(jsonBytes(cut)).toBeLessThanOrEqual(maxBytes);
					if (cut.length < text.length) {
						// The next whole character (a surrogate pair is one) would not fit.
						const pair = /^[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(cut.length));
						expect(jsonBytes(text.slice(0, cut.length + (pair ? 2 : 1)))).toBeGreaterThan(maxBytes);
						// Never between the halves of a pair.
						expectEqual(/[\ud800-\udbff]$/.test(cut) && /^[\udc00-\udfff]/.test(text.slice(cut.length)), false);
					}
				},
			),
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
