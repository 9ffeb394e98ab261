/**
 * A replace writes the note's new text to a hidden temporary file beside it, then renames it over the
 * note. A serve killed between the two left that file for good, a copy of the note's new text
 * (`kill -9` during a hub rename: 39-51 a kill once the file was made through the thread pool). The
 * server removes, as it starts, those not written to for STALE_NOTE_TEMPORARY_MS, and nothing else:
 * not one in a folder excluded now, not a young one (another process's edit under way), not a file
 * of another name, a folder, nor a link named like one (nor what it leads to, outside the vault).
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { LEFT_TEMPORARIES_PIECE_FILES, STALE_NOTE_TEMPORARY_MS } from "../../src/config/limits";
import { NodeVault } from "../../src/headless/NodeVault";
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
		// The removal the start began, in pieces.
		await running.host.vault.removeLeftTemporaries();

		expect(left.filter((path) => existsSync(path))).toEqual([]);
		expect(kept.filter((path) => !existsSync(path))).toEqual([]);
		expect(existsSync(nodePath.join(vault, "Notes/.vault-mcp-dddddddddddd.tmp"))).toBe(true);
		expect(existsSync(nodePath.join(vault, "Notes/.vault-mcp-eeeeeeeeeeee.tmp"))).toBe(true);
		expect(existsSync(far)).toBe(true);
	});

	test("many are removed in pieces of at most LEFT_TEMPORARIES_PIECE_FILES, the event loop turning between them (20,000 held it 789 ms in one piece)", async () => {
		const count = 3 * LEFT_TEMPORARIES_PIECE_FILES + 10;
		const stale = STALE_NOTE_TEMPORARY_MS + 60_000;
		for (let index = 0; index < count; index++) leave(`Notes/.vault-mcp-${index.toString(16).padStart(12, "0")}.tmp`, "x\n", stale);
		const folder = nodePath.join(vault, "Notes");
		const leftNow = (): number => readdirSync(folder).filter((name) => name.endsWith(".tmp")).length;
		const opened = await NodeVault.open(vault);
		// How many are left at each turn of the loop while they are removed.
		const seen: number[] = [leftNow()];
		let removing = true;
		const look = (): void => {
			seen.push(leftNow());
			if (removing) setImmediate(look);
		};
		setImmediate(look);
		await opened.removeLeftTemporaries();
		removing = false;
		seen.push(leftNow());
		expect(seen[0]).toBe(count);
		expect(seen.at(-1)).toBe(0);
		const removedInATurn = seen.slice(1).map((left, index) => (seen[index] as number) - left);
		expect(Math.max(...removedInATurn)).toBeLessThanOrEqual(LEFT_TEMPORARIES_PIECE_FILES);
		expect(removedInATurn.filter((removed) => removed > 0).length).toBeGreaterThanOrEqual(count / LEFT_TEMPORARIES_PIECE_FILES);
	});
});
