/**
 * Text hidden in variation selectors, one byte a selector (U+FE00–U+FE0F for 0–15, U+E0100–U+E01EF for 16–255), after
 * a visible character: nothing is drawn, a model reading the note gets every byte (the published "emoji smuggling" of a
 * prompt). read_note's hidden_content named none of it, nor the other characters drawn as nothing the path key leaves
 * out (the musical beams and ties U+1D173–U+1D17A, the shorthand format controls, Khmer's inherent vowels, Mongolian's
 * variation selectors, the deprecated format characters U+206A–U+206F, the Hangul fillers). Generated messages, over
 * real HTTP with the real SDK client.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { startWriteClient } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** `message`'s UTF-8 bytes as variation selectors, one each. */
function asSelectors(message: string): string {
	return [...Buffer.from(message, "utf8")].map((byte) => String.fromCodePoint(byte < 16 ? 0xfe00 + byte : 0xe0100 + byte - 16)).join("");
}

/** One of each run of other characters drawn as nothing (Default_Ignorable_Code_Point) hidden_content did not name. */
const DRAWN_AS_NOTHING = [0x1d173, 0x1d17a, 0x1bca0, 0x17b4, 0x180b, 0x2065, 0x206a, 0x206f, 0x3164, 0xffa0, 0x115f, 0xe0080, 0xe0fff];

interface HiddenStretch {
	kind: string;
	line: number;
	characters: number;
}

describe("read_note names text hidden in variation selectors and other characters drawn as nothing", () => {
	let vault: string;
	let client: Client;
	let stop: () => Promise<void>;

	beforeAll(async () => {
		vault = await makeVault({ "Plain.md": "Coffee \u2615\ufe0f and tea \u2764\ufe0e, a kanji \u845b\udb40\udd00.\n" });
		({ client, stop } = await startWriteClient(vault));
	}, 60_000);
	afterAll(async () => {
		await stop();
		await removeDir(vault);
	});

	test("a message of selectors after a visible character is named, whatever the message", async () => {
		let note = 0;
		await fc.assert(
			fc.asyncProperty(fc.string({ minLength: 2, maxLength: 40 }), fc.constantFrom("\ud83d\ude00", "a", "\u4e2d", "."), async (message, carrier) => {
				const path = `Smuggled ${note++}.md`;
				const hidden = asSelectors(message);
				await callOk(client, "create_note", { path, content: `Line one\nSee ${carrier}${hidden} here\n` });
				const read = await callOk<{ hidden_content: HiddenStretch[] }>(client, "read_note", { path });
				expect(read.hidden_content).toEqual([{ kind: "invisible_characters", line: 1, characters: hidden.length }]);
			}),
			{ numRuns: 25 },
		);
	}, 60_000);

	test("each other character drawn as nothing is named", async () => {
		const unnamed: string[] = [];
		for (const code of DRAWN_AS_NOTHING) {
			const path = `Mark ${code.toString(16)}.md`;
			await callOk(client, "create_note", { path, content: `a${String.fromCodePoint(code)}b\n` });
			const read = await callOk<{ hidden_content: HiddenStretch[] }>(client, "read_note", { path });
			if (read.hidden_content.length !== 1 || read.hidden_content[0]?.kind !== "invisible_characters") unnamed.push(code.toString(16));
		}
		expect(unnamed).toEqual([]);
	}, 60_000);

	test("a single selector choosing a character's look (emoji or text, a kanji's variant) is not hidden text", async () => {
		const read = await callOk<{ hidden_content: HiddenStretch[] }>(client, "read_note", { path: "Plain.md" });
		expect(read.hidden_content).toEqual([]);
	});
});
