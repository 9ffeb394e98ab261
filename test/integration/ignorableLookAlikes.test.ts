/**
 * Every default-ignorable code point (Unicode's Default_Ignorable_Code_Point: drawn as nothing, by Obsidian and any
 * renderer that does not know it) is a look-alike maker as the zero-width space is. The path key left out the musical
 * beam and tie marks (U+1D173–U+1D17A), the shorthand format controls (U+1BCA0–U+1BCA3), U+FFF0–U+FFF8 and
 * U+E0400–U+E0FFF: beside an excluded `Private`, create_note made `Pri\u{1D173}vate/x.md` (a second folder that reads
 * as the excluded one) and a twin of `Public.md`. The real SDK client over real HTTP; the code points are generated
 * from the property (the first and last of each run of them), not listed by hand.
 */
import { readdirSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startWriteClient } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** The first and last code point of each run of default-ignorable code points. */
function ignorableRunEnds(): number[] {
	const ends: number[] = [];
	let runStart = -1;
	for (let code = 0; code <= 0x110000; code++) {
		const ignorable = code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && /\p{Default_Ignorable_Code_Point}/u.test(String.fromCodePoint(code));
		if (ignorable && runStart < 0) runStart = code;
		if (!ignorable && runStart >= 0) {
			ends.push(runStart);
			if (code - 1 !== runStart) ends.push(code - 1);
			runStart = -1;
		}
	}
	return ends;
}

describe("default-ignorable code points make no look-alike of an excluded folder or a note", () => {
	let vault: string;
	let client: Client;
	let stop: () => Promise<void>;

	beforeAll(async () => {
		vault = await makeVault({ "Private/s.md": "secret\n", "Public.md": "public\n" });
		({ client, stop } = await startWriteClient(vault, { excludedFolders: ["Private"] }));
	}, 60_000);
	afterAll(async () => {
		await stop();
		await removeDir(vault);
	});

	test("create_note refuses each inside the excluded folder's name and a note's, and makes nothing", async () => {
		const codes = ignorableRunEnds();
		// The property holds the runs named above and those the key already left out (U+200B, U+00AD, U+FE00…).
		expect(codes).toEqual(expect.arrayContaining([0x200b, 0x1d173, 0x1d17a, 0x1bca0, 0xe0fff]));
		const made: string[] = [];
		for (const code of codes) {
			const mark = String.fromCodePoint(code);
			for (const path of [`Pri${mark}vate/x.md`, `Pub${mark}lic.md`]) {
				const outcome = await callTool(client, "create_note", { path, content: "planted\n" });
				if (outcome.ok) made.push(`U+${code.toString(16).toUpperCase()} ${path.startsWith("Pri") ? "folder" : "note"}`);
			}
		}
		expect(made).toEqual([]);
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Private", "Public.md"]);
	}, 60_000);
});
