/**
 * A replace writes the note's new text to a hidden temporary file beside it, then renames it over the
 * note. A serve killed between the two left that file for good, a copy of the note's new text
 * (`kill -9` during a hub rename: 39-51 a kill once the file was made through the thread pool). The
 * server removes, as it starts, those not written to for STALE_NOTE_TEMPORARY_MS, and nothing else:
 * not one in a folder excluded now, not a young one (another process's edit under way), not a file
 * of another name, a folder, nor a link named like one (nor what it leads to, outside the vault).
 */
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { STALE_NOTE_TEMPORARY_MS } from "../../src/config/limits";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

describe("the temporary files of replaces a crash cut short", () => {
	let vault: string;
	let outside: string;
	let running: RunningService | undefined;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "Private/Diary.md": "# Diary\n" });
		outside = await makeVault({});
	});

	afterEach(async () => {
		await running?.stop();
		running = undefined;
		await removeDir(vault);
		await removeDir(outside);
	});

	/** Writes `text` at `path` (in the vault) `ageMs` ago; returns its full path. */
	function leave(path: string, text: string, ageMs: number): string {
		const full = nodePath.join(vault, path);
		writeFileSync(full, text);
		const at = (Date.now() - ageMs) / 1000;
		utimesSync(full, at, at);
		return full;
	}

	test("those older than STALE_NOTE_TEMPORARY_MS outside excluded folders are removed as the server starts; nothing else is", async () => {
		const stale = STALE_NOTE_TEMPORARY_MS + 60_000;
		const left = [leave("Notes/.vault-mcp-0123456789ab.tmp", "# Plan\nnew\n", stale), leave(".vault-mcp-ba9876543210.tmp", "x\n", stale)];
		const kept = [
			leave("Notes/.vault-mcp-aaaaaaaaaaaa.tmp", "under way\n", 1_000),
			leave("Private/.vault-mcp-bbbbbbbbbbbb.tmp", "# Diary\nnew\n", stale),
			leave("Notes/.vault-mcp-notours.tmp", "someone's\n", stale),
			leave("Notes/vault-mcp-cccccccccccc.tmp", "a file\n", stale),
		];
		mkdirSync(nodePath.join(vault, "Notes/.vault-mcp-dddddddddddd.tmp"));
		const far = nodePath.join(outside, "far.txt");
		writeFileSync(far, "outside\n");
		utimesSync(far, (Date.now() - stale) / 1000, (Date.now() - stale) / 1000);
		symlinkSync(far, nodePath.join(vault, "Notes/.vault-mcp-eeeeeeeeeeee.tmp"));

		running = await startService(vault, { settings: { excludedFolders: ["Private"] } });

		expect(left.filter((path) => existsSync(path))).toEqual([]);
		expect(kept.filter((path) => !existsSync(path))).toEqual([]);
		expect(existsSync(nodePath.join(vault, "Notes/.vault-mcp-dddddddddddd.tmp"))).toBe(true);
		expect(existsSync(nodePath.join(vault, "Notes/.vault-mcp-eeeeeeeeeeee.tmp"))).toBe(true);
		expect(existsSync(far)).toBe(true);
	});
});
