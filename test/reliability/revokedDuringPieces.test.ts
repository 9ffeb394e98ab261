import * as nodeFs from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { NOTE_TEXT_PIECE_CHARS } from "../../src/config/limits";
import { FolderJail } from "../../src/host/FolderJail";
import type { VaultMcpSettings } from "../../src/config/settings";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
const fsModule = require("node:fs") as typeof nodeFs;

const LINES = Array.from({ length: Math.ceil((4 * NOTE_TEXT_PIECE_CHARS) / 40) }, (_, index) => `- line ${index} of the long plan\n`).join("");
const NOTE = `# Plan\n\n${LINES}`;

/** A running server with one write token over a new vault of `files`; afterwards spies are restored and all of it stopped and removed. */
async function withWriteServer(files: Record<string, string>, run: (vault: string, running: RunningService, client: Client) => Promise<void>): Promise<void> {
	const vault = await makeVault(files);
	const running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
	});
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await run(vault, running, client);
	} finally {
		jest.restoreAllMocks();
		await client.close().catch(() => undefined);
		await running.stop();
		await removeDir(vault);
	}
}

/**
 * A headless edit of a note over NOTE_TEXT_PIECE_CHARS reads the note, and writes its new text, a
 * piece at a time with turns between them. A token revoked (or its right set to Deny, or its
 * folders narrowed) in one of those turns must write nothing afterwards.
 */
describe.each([
	["revoked", (settings: VaultMcpSettings): VaultMcpSettings => ({ ...settings, tokens: [] })],
	[
		"set_property set to Deny",
		(settings: VaultMcpSettings): VaultMcpSettings => ({
			...settings,
			tokens: settings.tokens.map((token) => ({ ...token, rights: { ...token.rights, set_property: "deny" } })),
		}),
	],
	[
		"narrowed to another folder",
		(settings: VaultMcpSettings): VaultMcpSettings => ({ ...settings, tokens: settings.tokens.map((token) => ({ ...token, folders: ["Other"] })) }),
	],
])("a write token %s while its long edit is made in pieces", (_how, change) => {
	test.each([
		["while the note is read", "readSync"],
		["while the new text is written", "writeSync"],
	] as const)("%s: the note is left as it was", async (_when, call) => {
		await withWriteServer({ "Notes/Plan.md": NOTE, "Other/Keep.md": "keep\n" }, async (vault, running, client) => {
			const original = fsModule[call] as (...args: unknown[]) => number;
			let changed = false;
			// The owner changes the settings in a turn the edit gives back, after its first piece.
			jest.spyOn(fsModule, call).mockImplementation((...args: unknown[]) => {
				if (!changed && new Error().stack?.includes(call === "readSync" ? "readInPieces" : "replaceFile") === true) {
					changed = true;
					void running.service.apply(change(running.settings));
				}
				return original(...args);
			});
			await callTool(client, "set_property", { path: "Notes/Plan.md", name: "status", value: "done" }).catch(() => undefined);
			expect(changed).toBe(true);
			expect(await fs.readFile(nodePath.join(vault, "Notes", "Plan.md"), "utf8")).toBe(NOTE);
			// No temporary file with the new text is left beside it, and history holds no change.
			expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual(["Plan.md"]);
			expect(running.journal.list(10)).toEqual([]);
		});
	});
});

/** The same for a long note made by create_note: its text is written a piece at a time once the file is made. */
test("a write token revoked while its long create_note is written in pieces: no note is left", async () => {
	await withWriteServer({ "Other/Keep.md": "keep\n" }, async (vault, running, client) => {
		// The owner revokes the token once the server has made the file, before its text is written.
		const changed = onceFileMade(() => void running.service.apply({ ...running.settings, tokens: [] }));
		await callTool(client, "create_note", { path: "Notes/Plan.md", content: NOTE }).catch(() => undefined);
		expect(changed()).toBe(true);
		expect(await fs.readdir(nodePath.join(vault, "Notes")).catch(() => [])).toEqual([]);
		expect(running.journal.list(10)).toEqual([]);
	});
});

/**
 * A create_note stopped by a revocation leaves the vault as it was: the folders it made for the
 * note go too (innermost first, each only while empty), whether the token was revoked once the
 * folders were made, before the file, or while the note's text was written in pieces.
 */
describe("a create_note into new folders stopped by a revocation", () => {
	test.each([["once its folders are made"], ["while its text is written in pieces"]] as const)("%s: no folder it made is left", async (when) => {
		await withWriteServer({ "Other/Keep.md": "keep\n" }, async (vault, running, client) => {
			const revoke = () => running.service.apply({ ...running.settings, tokens: [] });
			let changed: () => boolean;
			if (when === "once its folders are made") {
				// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the jail as `this`
				const original = FolderJail.prototype.makeFolders;
				let made = false;
				changed = () => made;
				jest.spyOn(FolderJail.prototype, "makeFolders").mockImplementation(async function (this: FolderJail, folder: string) {
					await original.call(this, folder);
					if (made) return;
					made = true;
					await revoke();
				});
			} else changed = onceFileMade(() => void revoke());
			await callTool(client, "create_note", { path: "New/Deep/Plan.md", content: NOTE }).catch(() => undefined);
			expect(changed()).toBe(true);
			expect(nodeFs.existsSync(nodePath.join(vault, "New"))).toBe(false);
			expect(await fs.readdir(nodePath.join(vault, "Other"))).toEqual(["Keep.md"]);
			expect(running.journal.list(10)).toEqual([]);
		});
	});
});

/**
 * The folders a stopped create_note takes away are only those it made itself: one the person (or
 * another client) made in the moment between the call seeing it missing and making it stays,
 * even empty, and so does what the journal says the call made (undo would take it away too).
 */
describe("a create_note stopped by a revocation, its folders made meanwhile by someone else", () => {
	/** Whether the jail is asked on the way to making the note's folders, once the call has seen them missing. */
	const makingFolders = (): boolean => /createInFolders|makeMissingFolders/.test(new Error().stack ?? "");

	/** Runs `meanwhile` once, the first time the call asks the jail to make one of the note's folders; true once it ran. */
	function onFirstFolderCheck(meanwhile: () => Promise<void>): () => boolean {
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the jail as `this`
		const original = FolderJail.prototype.makeFolder;
		let ran = false;
		jest.spyOn(FolderJail.prototype, "makeFolder").mockImplementation(async function (this: FolderJail, folder: string) {
			if (!ran && makingFolders()) {
				ran = true;
				await meanwhile();
			}
			return original.call(this, folder);
		});
		return () => ran;
	}

	test("the folders it did not make stay", async () => {
		await withWriteServer({ "Other/Keep.md": "keep\n" }, async (vault, running, client) => {
			const ran = onFirstFolderCheck(async () => {
				// The person makes the folders in their file manager, and revokes the token, at that moment.
				await fs.mkdir(nodePath.join(vault, "New", "Deep"), { recursive: true });
				await running.service.apply({ ...running.settings, tokens: [] });
			});
			await callTool(client, "create_note", { path: "New/Deep/Plan.md", content: "# Plan\n" }).catch(() => undefined);
			expect(ran()).toBe(true);
			expect(nodeFs.existsSync(nodePath.join(vault, "New", "Deep"))).toBe(true);
			expect(nodeFs.existsSync(nodePath.join(vault, "New", "Deep", "Plan.md"))).toBe(false);
		});
	});

	test("the journal records only the folders the call made", async () => {
		await withWriteServer({ "Other/Keep.md": "keep\n" }, async (vault, running, client) => {
			const ran = onFirstFolderCheck(() => fs.mkdir(nodePath.join(vault, "New")).then(() => undefined));
			await callTool(client, "create_note", { path: "New/Deep/Plan.md", content: "# Plan\n" });
			expect(ran()).toBe(true);
			const [entry] = running.journal.list(1);
			expect(entry?.changes[0]?.createdFolders).toEqual(["New/Deep"]);
		});
	});
});

/**
 * Runs `then` once, right after the server has made a file through the jail (before a byte of its text is
 * written); true once it ran. `then` starts the change (a revocation takes effect in a later microtask, before the
 * first piece's write returns from the thread pool).
 */
function onceFileMade(then: () => void): () => boolean {
	// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the jail as `this`
	const original = FolderJail.prototype.createFileSync;
	let ran = false;
	jest.spyOn(FolderJail.prototype, "createFileSync").mockImplementation(function (this: FolderJail, diskPath: string, mode?: number) {
		const made = original.call(this, diskPath, mode);
		if (!ran && new Error().stack?.includes("DiskWriter.create") === true) {
			ran = true;
			then();
		}
		return made;
	});
	return () => ran;
}

/**
 * A rename's move opens the note and reads it in pieces, to check it still holds the text the rename read, with turns
 * between them; then it moves the file. A token revoked, its right set to Deny, or the new path's folder excluded in one
 * of those turns moved the note anyway (recorded in history; the client was told nothing was written, and no link was
 * pointed at the new path). Now it is asked again last before the file moves: the note stays where it was, and the
 * folders the rename made for its new path go too (on 285ac856 `New/Sub/` was left, empty).
 */
test.each([
	["revoked", (settings: VaultMcpSettings): VaultMcpSettings => ({ ...settings, tokens: [] })],
	[
		"rename_note set to Deny",
		(settings: VaultMcpSettings): VaultMcpSettings => ({
			...settings,
			tokens: settings.tokens.map((token) => ({ ...token, rights: { ...token.rights, rename_note: "deny" } })),
		}),
	],
	["the new path's folder excluded", (settings: VaultMcpSettings): VaultMcpSettings => ({ ...settings, excludedFolders: ["New"] })],
])("a write token %s while its rename's move reads the long note: nothing is moved", async (_how, change) => {
	await withWriteServer({ "Notes/Plan.md": NOTE, "Notes/Linker.md": "See [[Plan]].\n" }, async (vault, running, client) => {
		const original = fsModule.readSync as (...args: unknown[]) => number;
		let changed = false;
		jest.spyOn(fsModule, "readSync").mockImplementation((...args: unknown[]) => {
			if (!changed && new Error().stack?.includes("openToMove") === true) {
				changed = true;
				void running.service.apply(change(running.settings));
			}
			return original(...args);
		});
		await callTool(client, "rename_note", { path: "Notes/Plan.md", new_path: "New/Sub/Plan.md" }).catch(() => undefined);
		expect(changed).toBe(true);
		expect(await fs.readdir(nodePath.join(vault, "Notes"))).toEqual(["Linker.md", "Plan.md"]);
		expect(await fs.readFile(nodePath.join(vault, "Notes", "Plan.md"), "utf8")).toBe(NOTE);
		expect(nodeFs.existsSync(nodePath.join(vault, "New"))).toBe(false);
		expect(await fs.readFile(nodePath.join(vault, "Notes", "Linker.md"), "utf8")).toBe("See [[Plan]].\n");
		expect(running.journal.list(10)).toEqual([]);
	});
});
