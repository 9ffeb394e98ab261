/**
 * On a disk that folds case (macOS, Windows, a FAT drive) a lookup of `Work` opens the person's `WORK/`. The headless folder
 * lookups answered from that (`getFolderByPath("work")` gave a folder), where Obsidian answers from the names it listed: no
 * folder `Work`. So ensureParentFolder took `Work` as there and made nothing, and a note of a token limited to the folders
 * `Inbox` and `Work` went into `WORK/`, a folder it may not see; rename_note called a path a folder because another folder's
 * name differs from it in case; undo's removal of the folders a create made asked the same lookup. Linux CI cannot show the
 * folding disk: the vault's `toDiskPath` is made to answer as such a disk does (any letter case opens the one entry there),
 * and its listing keeps each name as the disk holds it.
 */
import { existsSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import { setTokenFolders } from "../../src/auth/tokenList";
import type { NodeVault } from "../../src/headless/NodeVault";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/** `vault.toDiskPath` as a disk folding case answers: each part of the path opens the entry there in any letter case. */
function foldCaseOnDisk(vault: NodeVault): jest.SpyInstance {
	const lexical = vault.toDiskPath.bind(vault);
	return jest.spyOn(vault, "toDiskPath").mockImplementation((path: string) => {
		const asked = lexical(path);
		const parts = nodePath
			.relative(vault.root, asked)
			.split(nodePath.sep)
			.filter((part) => part !== "");
		let at = vault.root;
		for (const [index, part] of parts.entries()) {
			let names: string[];
			try {
				names = readdirSync(at);
			} catch {
				return nodePath.join(at, ...parts.slice(index));
			}
			const name = names.find((listed) => listed === part) ?? names.find((listed) => listed.toLowerCase() === part.toLowerCase());
			if (name === undefined) return nodePath.join(at, ...parts.slice(index));
			at = nodePath.join(at, name);
		}
		return at;
	});
}

describe("folder lookups on a disk that folds case answer only for the folder as named", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({
			"Inbox/Plan.md": "# Plan\n",
			"Inbox/Other.md": "# Other\n",
			"WORK/x.md": "the person's\n",
			// A name whose first cased letter, `ı`, has no case pair a disk folds back (upper-cased it is `I`, folded `i`).
			"ıWORK/y.md": "y\n",
			"Notes/n.md": "n\n",
			"Notes/Plan.MD/inner.md": "inner\n",
			"Drafts/.keep": "",
			".obsidian/daily-notes.json": JSON.stringify({ folder: "Work/Daily", format: "YYYY-MM-DD" }),
		});
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000 } });
		const limited = setTokenFolders(running.settings, "write", ["Inbox", "Work", "Notes"]);
		if ("error" in limited) throw new Error(limited.error);
		await running.service.apply(limited.settings);
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.write ?? "");
	}, 60_000);
	beforeEach(() => foldCaseOnDisk(running.host.vault));
	afterEach(() => jest.restoreAllMocks());
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("the lookups answer for the folder as the disk lists it, not for another letter case", async () => {
		const folders = running.host.vault;
		// Held by files (`Notes`), and empty but for a hidden file (`Drafts`): each found as named, not in other case.
		for (const [path, found] of [
			["Notes", true],
			["notes", false],
			["NOTES/Plan.MD", false],
			["Notes/plan.md", false],
			["Notes/Plan.MD", true],
			["Drafts", true],
			["drafts", false],
			["WORK", true],
			["Work", false],
			// On names204: answered (the probe of another case flipped `ı` to `I`, which opened nothing, so the disk was taken
			// for one that does not fold).
			["ıWORK", true],
			["ıwork", false],
		] as const) {
			// On the base: every one of them answered (the disk opens each).
			expect([path, folders.getFolderByPath(path)?.path ?? null]).toEqual([path, found ? path : null]);
			expect([path, (await folders.getFolderByPathAsync(path))?.path ?? null]).toEqual([path, found ? path : null]);
		}
	});

	test("create_note, rename_note and add_task do not write into another folder through a folder the disk reads as it", async () => {
		const refusal = `The folder "Work" cannot be made: the disk already holds something by that name that is not that folder (on macOS and Windows, a folder whose name differs only in letter case). Nothing was written. Choose another folder.`;
		// On the base, each succeeded: `WORK/new.md` written (the token may not see WORK), `Inbox/Plan.md` moved to
		// `WORK/Plan.md`, `WORK/Daily/<today>.md` made.
		const answers = [
			await callTool(client, "create_note", { path: "Work/new.md", content: "c" }),
			await callTool(client, "rename_note", { path: "Inbox/Plan.md", new_path: "Work/Plan.md" }),
			await callTool(client, "add_task", { text: "Water the plants" }),
		];
		expect(answers).toEqual([0, 1, 2].map(() => ({ ok: false, error: refusal })));
		expect(readdirSync(nodePath.join(vault, "WORK"))).toEqual(["x.md"]);
		expect(readdirSync(nodePath.join(vault, "Inbox")).sort()).toEqual(["Other.md", "Plan.md"]);
		// A folder the disk has nothing at is made as before.
		await callOk(client, "create_note", { path: "Inbox/New/x.md", content: "c" });
		expect(existsSync(nodePath.join(vault, "Inbox", "New", "x.md"))).toBe(true);
	});

	test("rename_note to a path another folder's name differs from in case does not call it a folder", async () => {
		// On the base: '"Notes/plan.md" is a folder. Choose a note path inside it.' (`Notes/Plan.MD` was answered for it).
		expect(await callError(client, "rename_note", { path: "Inbox/Other.md", new_path: "Notes/plan.md" })).toBe(
			'"Notes/plan.md" cannot be used for this note. Nothing was changed. Choose another new_path.',
		);
		expect(readdirSync(nodePath.join(vault, "Inbox")).sort()).toContain("Other.md");
		expect(readdirSync(nodePath.join(vault, "Notes", "Plan.MD"))).toEqual(["inner.md"]);
	});
});
