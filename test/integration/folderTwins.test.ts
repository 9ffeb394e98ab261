/**
 * create_note and rename_note refused a note path read as another note's (letter case, spaces), but made a folder read as
 * another folder's: `notes/b.md` beside `Notes/` made a second folder `notes` (two in Obsidian on Linux and Android; on
 * macOS and Windows one on the disk that Obsidian listed as two until it read the vault again). The real SDK client over
 * real HTTP.
 */
import { lstatSync, mkdirSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { startService, startWriteClient, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

describe("folders read as another folder's name", () => {
	let vault: string;
	let stopClient: () => Promise<void>;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({
			"Notes/a.md": "a\n",
			"Notes/Sub/s.md": "s\n",
			"Private/p.md": "p\n",
			"Public.md": "public\n",
			"Cafe\u0301/c.md": "c\n",
		});
		({ client, stop: stopClient } = await startWriteClient(vault, { excludedFolders: ["Private"] }));
	}, 60_000);
	afterAll(async () => {
		await stopClient();
		await removeDir(vault);
	});

	test("a new note or a move into a twin of a folder is refused, naming the folder; into the folder as spelt, or a new one, it is made", async () => {
		for (const path of ["notes/b.md", "NOTES/new/b.md", " Notes/b.md", "Notes/sub/b.md"])
			expect(await callError(client, "create_note", { path, content: "c" })).toMatch(/^A folder already exists at "Notes(\/Sub)?"/);
		expect(await callError(client, "rename_note", { path: "Public.md", new_path: "notes/Public.md" })).toContain('A folder already exists at "Notes"');
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Cafe\u0301", "Notes", "Private", "Public.md"]);
		expect(readdirSync(`${vault}/Notes`).sort()).toEqual(["Sub", "a.md"]);
		// Held on the base too: the folder as spelt, and a folder with no twin.
		await callOk(client, "create_note", { path: "Notes/Sub/b.md", content: "c" });
		await callOk(client, "create_note", { path: "Other/c.md", content: "c" });
		// A folder named in NFD on this disk, which the files list in NFC and the folder lookup misses: not a twin of itself.
		await callOk(client, "create_note", { path: "Caf\u00e9/x.md", content: "c" });
		// An excluded folder's twin is refused as that folder is, never named.
		expect(await callError(client, "create_note", { path: "private/x.md", content: "c" })).not.toContain("Private");
	});
});

/**
 * The folder-twin look saw only folders holding files, and asked the host whether each folder of the path was there: an empty
 * `drafts/` was no twin of a new `DRAFTS/x.md`, and on a disk that folds case (macOS, Windows) headless `getFolderByPath`
 * answers for `notes` beside `Notes`, so the look ended there and the twin went unseen. Folders are now judged by the names
 * the host lists. Linux CI cannot show the folding disk: its lookups are made to answer as such a disk's do.
 */
describe("folder twins by the names listed", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ "Notes/a.md": "a\n", "Other/Sub/o.md": "o\n", "Private/p.md": "p\n", "Public.md": "public\n", "Moved.md": "moved\n" });
		mkdirSync(nodePath.join(vault, "drafts"));
		mkdirSync(nodePath.join(vault, "Private", "empty"));
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000, excludedFolders: ["Private"] } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.write ?? "");
	}, 60_000);
	afterEach(() => jest.restoreAllMocks());
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("an empty folder's twin is refused, naming it; the empty folder as spelt takes the note", async () => {
		// On the base: `DRAFTS/x.md` made, a second folder beside the empty `drafts`.
		expect(await callError(client, "create_note", { path: "DRAFTS/x.md", content: "c" })).toContain('A folder already exists at "drafts"');
		expect(await callError(client, "rename_note", { path: "Moved.md", new_path: "Drafts/Moved.md" })).toContain('A folder already exists at "drafts"');
		expect(readdirSync(vault).sort()).toEqual([".obsidian", "Moved.md", "Notes", "Other", "Private", "Public.md", "drafts"]);
		await callOk(client, "create_note", { path: "drafts/x.md", content: "c" });
		// An empty folder inside an excluded one: refused as the excluded folder is, never named.
		expect(await callError(client, "create_note", { path: "private/EMPTY/x.md", content: "c" })).toBe(
			'"private/EMPTY/x.md" is in a folder this server does not give access to.',
		);
	});

	test("on a disk whose lookups fold case, a folder's twin is still refused", async () => {
		// As macOS and Windows answer: a folder lookup finds the folder whose name differs only in letter case.
		const foldedLookup = (path: string) => {
			let at = vault;
			for (const part of path.split("/")) {
				const name = readdirSync(at).find((listed) => listed.toLowerCase() === part.toLowerCase());
				if (name === undefined || !lstatSync(nodePath.join(at, name)).isDirectory()) return null;
				at = nodePath.join(at, name);
			}
			return { path, name: nodePath.posix.basename(path) };
		};
		jest.spyOn(running.host.vault, "getFolderByPath").mockImplementation(foldedLookup);
		jest.spyOn(running.host.vault, "getFolderByPathAsync").mockImplementation((path) => Promise.resolve(foldedLookup(path)));
		// On the base: no refusal (the lookup answered for each folder, so the look ended), and the write failed inside the server.
		expect(await callError(client, "create_note", { path: "notes/b.md", content: "c" })).toContain('A folder already exists at "Notes"');
		expect(await callError(client, "create_note", { path: "Other/SUB/b.md", content: "c" })).toContain('A folder already exists at "Other/Sub"');
		expect(await callError(client, "rename_note", { path: "Public.md", new_path: "NOTES/Public.md" })).toContain('A folder already exists at "Notes"');
		expect(readdirSync(nodePath.join(vault, "Notes"))).toEqual(["a.md"]);
	});

	test("create_note and rename_note walk the vault's files once each, not once for each twin", async () => {
		// The walks the twin looks make (src/vault/writes.ts); other parts of a call list the files for their own ends.
		const vault = running.host.vault;
		const listFiles = vault.getFiles.bind(vault);
		let walks = 0;
		jest.spyOn(vault, "getFiles").mockImplementation(() => {
			if (new Error().stack?.includes(`${nodePath.sep}vault${nodePath.sep}writes.ts`) === true) walks++;
			return listFiles();
		});
		await callOk(client, "create_note", { path: "Fresh/one.md", content: "c" });
		// On the base: 2 (the note's twin, then the folder's).
		expect(walks).toBe(1);
		walks = 0;
		await callOk(client, "rename_note", { path: "Public.md", new_path: "Fresh2/Public.md" });
		expect(walks).toBe(1);
	});
});
