import { promises as fs } from "node:fs";
import nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import type { HostFile } from "../../src/host/Host";
import { McpService } from "../../src/service";
import { comparePaths, visibleNotes } from "../../src/vault/notes";
import { isInFolder, type Scope } from "../../src/vault/scope";
import { until } from "../helpers/dom";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { RecordingLogger } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

interface Listed {
	notes: Array<{ path: string; modified: string; size: number }>;
	total: number;
	next_cursor?: string;
}

/** Names the collator orders differently from code points (case, accents, numbers), in and out of the excluded and token folders. */
const NAMES = ["apple", "Ärger", "Zeta", "zebra", "10 items", "9 items", "éclair", "Echo"];

function vaultFiles(): Record<string, string> {
	const files: Record<string, string> = {};
	for (const [index, name] of NAMES.entries()) {
		files[`${name}.md`] = `root ${index}\n`;
		files[`Projects/${name}.md`] = `project ${index}\n`;
		files[`Projects/Sub/${name}.md`] = `deep ${index}\n`;
		files[`Projects 2/${name}.md`] = `look-alike ${index}\n`;
		files[`Private/${name}.md`] = `private ${index}\n`;
	}
	files["Projects/picture.png"] = "not a note";
	return files;
}

/** What `list_notes` answered before its notes were kept sorted: every visible note filtered and sorted per call. */
function listedBefore(host: NodeHost, scope: Scope, args: { folder?: string; recursive: boolean; sort: "path" | "modified" }): HostFile[] {
	const { folder, recursive } = args;
	const listed = visibleNotes(host, scope).filter((file) => {
		if (folder === undefined) return recursive || !file.path.includes("/");
		if (!isInFolder(file.path, folder)) return false;
		return recursive || !file.path.slice(folder.length + 1).includes("/");
	});
	return args.sort === "modified"
		? listed.sort((a, b) => b.stat.mtime - a.stat.mtime || comparePaths(a.path, b.path))
		: listed.sort((a, b) => comparePaths(a.path, b.path));
}

/** Fifteen listings for the two tokens: no more than the server keeps, so each round meets the listings the last one kept. */
const ARGUMENTS = [undefined, "Projects"].flatMap((folder) =>
	[true, false].flatMap((recursive) => (["path", "modified"] as const).map((sort) => ({ ...(folder ? { folder } : {}), recursive, sort }))),
);

/** Pages through `list_notes` with `args`, three notes a page, and checks every page's total. */
async function pageThrough(client: Client, args: Record<string, unknown>): Promise<{ paths: string[]; total: number; answers: Listed["notes"] }> {
	const answers: Listed["notes"] = [];
	let total = -1;
	let cursor: string | undefined;
	do {
		const page = await callOk<Listed>(client, "list_notes", { ...args, limit: 3, ...(cursor ? { cursor } : {}) });
		if (total !== -1) expect(page.total).toBe(total);
		total = page.total;
		answers.push(...page.notes);
		cursor = page.next_cursor;
	} while (cursor);
	return { paths: answers.map((note) => note.path), total, answers };
}

describe("list_notes pages from notes kept sorted", () => {
	let root: string;
	let host: NodeHost;
	let service: McpService;
	let whole: Client;
	let limited: Client;
	let settings: VaultMcpSettings;
	const wholeScope: Scope = { configDir: ".obsidian", excludedFolders: ["Private"] };
	const limitedScope: Scope = { ...wholeScope, tokenFolders: ["Projects"] };

	beforeEach(async () => {
		root = await makeVault(vaultFiles());
		host = await NodeHost.open(root, { watch: true });
		settings = { ...defaultSettings(), serverEnabled: true, port: 0, excludedFolders: ["Private"] };
		const first = addToken(settings, "whole", "read");
		if ("error" in first) throw new Error(first.error);
		const second = addToken(first.settings, "limited", "read", undefined, ["Projects"]);
		if ("error" in second) throw new Error(second.error);
		settings = second.settings;
		service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: new MemoryJournal() });
		const status = await service.apply(settings);
		if (status.state !== "listening") throw new Error("the server did not start");
		whole = await connectClient(status.url, first.token);
		limited = await connectClient(status.url, second.token);
	});

	afterEach(async () => {
		await whole.close();
		await limited.close();
		await service.stop();
		await host.close();
		await removeDir(root);
	});

	/** Every argument set, for both tokens, answers what the per-call filter and sort answered; nothing excluded or outside the token's folders shows. */
	async function expectAnswersAsBefore(): Promise<string[]> {
		const everyPath: string[] = [];
		for (const [client, scope] of [
			[whole, wholeScope],
			[limited, limitedScope],
		] as const) {
			for (const args of ARGUMENTS) {
				// The limited token may not name a folder outside its own, and the whole vault is its folder's notes.
				if (scope === limitedScope && args.folder === undefined && !args.recursive) continue;
				const expected = listedBefore(host, scope, args);
				const answer = await pageThrough(client, args);
				expect({ args, paths: answer.paths }).toEqual({ args, paths: expected.map((file) => file.path) });
				expect(answer.total).toBe(expected.length);
				expect(answer.answers).toEqual(
					expected.map((file) => ({ path: file.path, modified: new Date(file.stat.mtime).toISOString(), size: file.stat.size })),
				);
				for (const path of answer.paths) {
					expect(path.startsWith("Private/")).toBe(false);
					if (scope === limitedScope) expect(isInFolder(path, "Projects")).toBe(true);
				}
				everyPath.push(...answer.paths);
			}
		}
		return everyPath;
	}

	test("answers equal the per-call filter and sort, before and after notes are created, changed, renamed and deleted", async () => {
		await expectAnswersAsBefore();
		const vault = host.vault;
		await vault.create("Projects/new note.md", "new\n");
		await vault.create("Aardvark.md", "first\n");
		const zebra = vault.getFileByPath("Projects/zebra.md");
		if (!zebra) throw new Error("the vault has no Projects/zebra.md");
		await vault.process(zebra, (text) => `${text}changed, so newest\n`);
		let listed = await expectAnswersAsBefore();
		expect(listed).toContain("Projects/new note.md");

		// A note moved into the excluded folder is gone from every listing at once; one moved out appears.
		const apple = vault.getFileByPath("Projects/apple.md");
		const secret = vault.getFileByPath("Private/Echo.md");
		if (!apple || !secret) throw new Error("the vault lacks its notes");
		await vault.rename(apple, "Private/apple moved.md");
		await vault.rename(secret, "Projects/Echo out.md");
		listed = await expectAnswersAsBefore();
		expect(listed.some((path) => path.includes("apple moved"))).toBe(false);
		expect(listed).toContain("Projects/Echo out.md");

		// Changes on disk, seen by the watcher: a new note, a deleted one, and a whole folder deleted.
		await fs.writeFile(nodePath.join(root, "Projects", "from disk.md"), "outside\n");
		await until(() => vault.getFileByPath("Projects/from disk.md") !== null);
		await fs.rm(nodePath.join(root, "Zeta.md"));
		await until(() => vault.getFileByPath("Zeta.md") === null);
		await fs.rm(nodePath.join(root, "Projects", "Sub"), { recursive: true });
		await until(() => vault.getMarkdownFiles().every((file) => !file.path.startsWith("Projects/Sub/")));
		listed = await expectAnswersAsBefore();
		expect(listed).toContain("Projects/from disk.md");
		expect(listed).not.toContain("Zeta.md");
		expect(listed.some((path) => path.startsWith("Projects/Sub/"))).toBe(false);
	});

	test("a folder newly excluded is left out of listings kept from before", async () => {
		const before = await pageThrough(whole, { recursive: true, sort: "path" });
		expect(before.paths.some((path) => path.startsWith("Projects 2/"))).toBe(true);
		await service.apply({ ...settings, excludedFolders: ["Private", "Projects 2"] });
		const after = await pageThrough(whole, { recursive: true, sort: "path" });
		expect(after.paths.some((path) => path.startsWith("Projects 2/"))).toBe(false);
		expect(after.total).toBe(before.total - NAMES.length);
	});
});
