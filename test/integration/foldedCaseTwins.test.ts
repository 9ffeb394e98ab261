/**
 * Names a disk that folds case reads as one though lower case alone keeps them apart: final sigma `ς`
 * and `σ` (macOS and Windows both fold them to `Σ`). Beside an excluded `Ιδιωτικός` ("private"),
 * create_note made `Ιδιωτικόσ/x.md` and rename_note moved a note there: on such a disk, into the
 * excluded folder. The real SDK client over real HTTP.
 */
import { existsSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startWriteClient } from "../helpers/service";
import { callError } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** `Ιδιωτικός`, ending in final sigma, and its twin ending in `σ`. */
const EXCLUDED = "\u0399\u03b4\u03b9\u03c9\u03c4\u03b9\u03ba\u03cc\u03c2";
const EXCLUDED_TWIN = "\u0399\u03b4\u03b9\u03c9\u03c4\u03b9\u03ba\u03cc\u03c3";
/** `Λόγος.md` and its twin `Λόγοσ.md`. */
const NOTE = "\u039b\u03cc\u03b3\u03bf\u03c2.md";
const NOTE_TWIN = "\u039b\u03cc\u03b3\u03bf\u03c3.md";

describe("final sigma twins of names (one name on a disk that folds case)", () => {
	let vault: string;
	let stopClient: () => Promise<void>;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ [`${EXCLUDED}/s.md`]: "zebracorn\n", [NOTE]: "word\n", "Public.md": "public\n" });
		({ client, stop: stopClient } = await startWriteClient(vault, { excludedFolders: [EXCLUDED] }));
	}, 60_000);
	afterAll(async () => {
		await stopClient();
		await removeDir(vault);
	});

	test("create_note and rename_note into the excluded folder's twin are refused, and nothing is made there", async () => {
		expect(await callError(client, "create_note", { path: `${EXCLUDED_TWIN}/x.md`, content: "c" })).toContain("does not give access");
		expect(await callError(client, "create_note", { path: `${EXCLUDED.toUpperCase()}/x.md`, content: "c" })).toContain("does not give access");
		expect(await callError(client, "rename_note", { path: "Public.md", new_path: `${EXCLUDED_TWIN}/y.md` })).toContain("does not give access");
		expect(existsSync(nodePath.join(vault, EXCLUDED_TWIN))).toBe(false);
		expect(readdirSync(nodePath.join(vault, EXCLUDED))).toEqual(["s.md"]);
		expect(existsSync(nodePath.join(vault, "Public.md"))).toBe(true);
		// Held on the base too: the excluded note read by its twin's path is a missing note.
		const error = await callError(client, "read_note", { path: `${EXCLUDED_TWIN}/s.md` });
		expect(error).toContain("No note");
		expect(error).not.toContain("zebracorn");
	});

	test("create_note refuses a note whose name is another's but for final sigma", async () => {
		expect(await callError(client, "create_note", { path: NOTE_TWIN, content: "c" })).toContain(`A note already exists at "${NOTE}"`);
		expect(existsSync(nodePath.join(vault, NOTE_TWIN))).toBe(false);
	});
});
