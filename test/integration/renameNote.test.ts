import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { promises as fs, lstatSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { LinkMap } from "../../src/host/Host";
import { setTokenFolders } from "../../src/auth/tokenList";
import { undoCall } from "../../src/journal/undo";
import type { ApprovalRequest, Approver } from "../../src/mcp/approval";
import { hashText } from "../../src/vault/writes";
import { MAX_READ_NOTE_BYTES } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { copyVault, makeVault, removeDir, TASKS_DEMO_VAULT } from "../helpers/vault";

interface Renamed {
	path: string;
	new_path: string;
	notes_updated: number;
	links_updated: number;
}

/** Every file under the vault (config folder left out: the journal lives there) → SHA-256 of its bytes. */
async function fileHashes(root: string): Promise<Record<string, string>> {
	const hashes: Record<string, string> = {};
	const walk = async (folder: string): Promise<void> => {
		for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
			const full = nodePath.join(folder, entry.name);
			if (entry.isDirectory()) {
				if (entry.name !== ".obsidian") await walk(full);
			} else
				hashes[nodePath.relative(root, full).split(nodePath.sep).join("/")] = createHash("sha256")
					.update(await fs.readFile(full))
					.digest("hex");
		}
	};
	await walk(root);
	return hashes;
}

/** A link map with each renamed path replaced by its new one, as source and as target. */
function renamedMap(map: LinkMap, moves: ReadonlyMap<string, string>): LinkMap {
	const moved = (path: string) => moves.get(path) ?? path;
	const out: LinkMap = {};
	for (const [source, targets] of Object.entries(map)) {
		const mapped: Record<string, number> = {};
		for (const [target, count] of Object.entries(targets)) mapped[moved(target)] = (mapped[moved(target)] ?? 0) + count;
		out[moved(source)] = mapped;
	}
	return out;
}

/** A deep copy, so later changes to the live cache do not reach it. */
function copyMap(map: LinkMap): LinkMap {
	return JSON.parse(JSON.stringify(map)) as LinkMap;
}

describe("rename_note on the tasks-demo vault (real Obsidian data), over real HTTP", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await copyVault(TASKS_DEMO_VAULT);
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000 } });
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("after several renames every link reaches the same note as before (only renamed paths change), none breaks, and undo restores every note byte for byte", async () => {
		const cache = running.host.metadataCache;
		await cache.settled();
		const originalFiles = await fileHashes(vault);
		const resolvedBefore = copyMap(cache.resolvedLinks);
		const unresolvedBefore = copyMap(cache.unresolvedLinks);
		const renames: Array<[string, string]> = [
			// Into another folder: wikilinks with #heading, #heading#sub, #^block and aliases point at it.
			["Test Attachments/wikilink.md", "Archive/wikilink.md"],
			// Markdown links with #heading and #^block; the new name has a space (%20 in those links).
			["Test Attachments/markdownLink.md", "Archive/Links/markdown link.md"],
			// To a name another note has (Test Data/internal_heading_links.md): links to it need the full path.
			["Manual Testing/Internal Heading Links/Other File.md", "Archive/Old notes/internal_heading_links.md"],
			// Linked from a canvas's text card.
			["Manual Testing/Frontmatter/Tags in Frontmatter.md", "Archive/Frontmatter tags.md"],
			// To the root, under the name of another linked note: [[multiple_headings]] would reach it, so those links are kept on their note.
			["Manual Testing/Styling of Queries.md", "multiple_headings.md"],
		];
		const moves = new Map(renames);
		const results: Renamed[] = [];
		for (const [path, newPath] of renames) results.push(await callOk<Renamed>(client, "rename_note", { path, new_path: newPath }));
		await cache.settled();

		expect(results.map((result) => [result.path, result.new_path])).toEqual(renames);
		// wikilink keeps a unique name: its shortest links ([[wikilink#heading]]) already reach the new place, so no text changes.
		expect(results.map((result) => [result.notes_updated, result.links_updated])).toEqual([
			[0, 0],
			[1, 8],
			[1, 3],
			[1, 1],
			[4, 4],
		]);
		expect(cache.resolvedLinks).toEqual(renamedMap(resolvedBefore, moves));
		expect(cache.unresolvedLinks).toEqual(renamedMap(unresolvedBefore, moves));
		for (const [path, newPath] of renames) {
			expect(running.host.vault.getFileByPath(path)).toBeNull();
			expect(running.host.vault.getFileByPath(newPath)).not.toBeNull();
		}
		// The text Obsidian writes: the path part only, form, subpath and alias kept.
		const allLinks = readFileSync(nodePath.join(vault, "Test Data/all_link_types.md"), "utf8");
		expect(allLinks).toContain("[[wikilink#heading#sub-heading|wikilink with alias and two headings]]");
		expect(allLinks).toContain("[[wikilink#^block|wikilink with alias and block]]");
		expect(allLinks).toContain("](markdown%20link.md#heading#sub-heading)");
		expect(allLinks).toContain("](markdown%20link.md#^block)");
		expect(readFileSync(nodePath.join(vault, "Test Data/internal_heading_links.md"), "utf8")).toContain(
			"[[Archive/Old notes/internal_heading_links#Some Header]]",
		);
		expect(readFileSync(nodePath.join(vault, "Test Data/link_in_heading.md"), "utf8")).toContain("## I link to [[Test Data/multiple_headings]]");
		expect(readFileSync(nodePath.join(vault, "Test Data/link_in_task_markdown_link.md"), "utf8")).toContain(
			"[multiple_headings](Test%20Data/multiple_headings.md)",
		);
		expect(readFileSync(nodePath.join(vault, "Manual Testing/Frontmatter/Frontmatter code.canvas"), "utf8")).toContain(
			'"text":"Sample frontmatter in Markdown - from the file [[Frontmatter tags]]:\\n\\n```yaml',
		);

		// Undo, newest first: every note back, byte for byte, and nothing left at the new paths.
		const calls = running.journal.list(renames.length);
		expect(calls.map((entry) => entry.tool)).toEqual(renames.map(() => "rename_note"));
		for (const entry of calls) {
			const outcome = await undoCall(running.host, running.journal, entry.id);
			expect(outcome.ok).toBe(true);
		}
		await cache.settled();
		expect(await fileHashes(vault)).toEqual(originalFiles);
		expect(cache.resolvedLinks).toEqual(resolvedBefore);
		expect(cache.unresolvedLinks).toEqual(unresolvedBefore);
	});
});

describe("rename_note's refusals, link formats and expected_hash, over real HTTP", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const read = (path: string) => readFileSync(nodePath.join(vault, path), "utf8");
	const exists = (path: string) =>
		fs.access(nodePath.join(vault, path)).then(
			() => true,
			() => false,
		);

	beforeEach(async () => {
		vault = await makeVault({
			"Plan.md": "# Plan\n\n## Goals\n\nGrow beans ^goal\n",
			"Notes/Source.md": "See [[Plan#Goals|the goals]], ![[Plan#^goal]] and [plan](Plan.md#Goals).\n",
			"Notes/Taken.md": "taken\n",
			"Notes/Linker.md": "[[Taken]] and [[Plan]]\n",
			"Archive/Taken.md": "another Taken\n",
			"Private/Diary.md": "Dear diary, [[Plan]]\n",
			"picture.png": "png",
		});
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000, excludedFolders: ["Private"] } });
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("refuses an existing target (any letter case), a non-note, the excluded folder, a path outside the vault and a name links cannot hold; nothing changes", async () => {
		const before = await fileHashes(vault);
		expect(await callError(client, "rename_note", { path: "Plan", new_path: "Notes/Taken.md" })).toContain("already exists");
		expect(await callError(client, "rename_note", { path: "Plan", new_path: "notes/TAKEN.md" })).toContain("already exists");
		expect(await callError(client, "rename_note", { path: "picture.png", new_path: "Other.png" })).toMatch(/not a Markdown note/);
		expect(await callError(client, "rename_note", { path: "Plan", new_path: "Other.png" })).toMatch(/Only Markdown notes/);
		expect(await callError(client, "rename_note", { path: "Plan", new_path: "Private/Plan.md" })).toMatch(/does not give access/);
		expect(await callError(client, "rename_note", { path: "Private/Diary", new_path: "Diary.md" })).toMatch(/No note|not found|does not/i);
		expect(await callError(client, "rename_note", { path: "Plan", new_path: "../Plan.md" })).toMatch(/'\.\.'/);
		expect(await callError(client, "rename_note", { path: "Plan", new_path: "Plan #2.md" })).toContain("# ^ [ ] or |");
		expect(await fileHashes(vault)).toEqual(before);
	});

	test("a target path held by a named pipe or a socket (files the vault does not list) is refused as unusable; nothing changes", async () => {
		execFileSync("mkfifo", [nodePath.join(vault, "Notes/Pipe.md")]);
		const socket = createServer();
		await new Promise<void>((listening) => socket.listen(nodePath.join(vault, "Notes/Socket.md"), listening));
		try {
			for (const target of ["Notes/Pipe.md", "Notes/Socket.md"]) {
				// Before: let through to the move, which failed inside the server ("rename_note failed inside the server", EEXIST).
				expect(await callError(client, "rename_note", { path: "Plan", new_path: target })).toBe(
					`"${target}" cannot be used for this note. Nothing was changed. Choose another new_path.`,
				);
			}
			expect(read("Plan.md")).toBe("# Plan\n\n## Goals\n\nGrow beans ^goal\n");
			expect(read("Notes/Linker.md")).toBe("[[Taken]] and [[Plan]]\n");
			expect(lstatSync(nodePath.join(vault, "Notes/Pipe.md")).isFIFO()).toBe(true);
			expect(lstatSync(nodePath.join(vault, "Notes/Socket.md")).isSocket()).toBe(true);
		} finally {
			await new Promise((closed) => socket.close(closed));
		}
	});

	test("a case-twin of the target that the token cannot see does not hide a visible one: the rename is still refused", async () => {
		const narrowed = setTokenFolders(running.settings, "write", ["Notes"]);
		if ("error" in narrowed) throw new Error(narrowed.error);
		await running.service.apply(narrowed.settings);
		// The hidden twin (outside the token's folder, spelled `notes`) comes first in the vault's list.
		await running.host.vault.createFolder("notes");
		await running.host.vault.create("notes/Goal.md", "hidden twin\n");
		await running.host.vault.create("Notes/goal.md", "visible twin\n");
		const before = await fileHashes(vault);
		expect(await callError(client, "rename_note", { path: "Notes/Source", new_path: "Notes/Goal.md" })).toBe(
			'A note already exists at "Notes/goal.md". Nothing was changed. Choose another new_path.',
		);
		expect(await fileHashes(vault)).toEqual(before);
	});

	test("relative link format: links are written from each linking note's folder; the note in the excluded folder is not rewritten (nor counted)", async () => {
		await fs.writeFile(nodePath.join(vault, ".obsidian/app.json"), JSON.stringify({ newLinkFormat: "relative" }));
		const result = await callOk<Renamed>(client, "rename_note", { path: "Plan", new_path: "Archive/Plan 2026.md" });
		expect(result).toEqual({ path: "Plan.md", new_path: "Archive/Plan 2026.md", notes_updated: 2, links_updated: 4 });
		expect(read("Notes/Source.md")).toBe(
			"See [[../Archive/Plan 2026#Goals|the goals]], ![[../Archive/Plan 2026#^goal]] and [plan](../Archive/Plan%202026.md#Goals).\n",
		);
		expect(read("Private/Diary.md")).toBe("Dear diary, [[Plan]]\n");
		expect(read("Archive/Plan 2026.md")).toBe("# Plan\n\n## Goals\n\nGrow beans ^goal\n");
		expect(await exists("Plan.md")).toBe(false);
	});

	test("absolute link format writes the full path even when the name is unique", async () => {
		await fs.writeFile(nodePath.join(vault, ".obsidian/app.json"), JSON.stringify({ newLinkFormat: "absolute" }));
		await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan.md" });
		expect(read("Notes/Source.md")).toBe("See [[Archive/Plan#Goals|the goals]], ![[Archive/Plan#^goal]] and [plan](Archive/Plan.md#Goals).\n");
	});

	test("the moved note's own links that would reach another note from its new folder are pointed back at the note they reached", async () => {
		await callOk(client, "rename_note", { path: "Notes/Linker", new_path: "Archive/Linker.md" });
		// From Archive/, [[Taken]] would reach Archive/Taken.md: written as the full path of the note it reached.
		expect(read("Archive/Linker.md")).toBe("[[Notes/Taken]] and [[Plan]]\n");
	});

	test("a new name that would take over other notes' links ([[Taken]] would reach the renamed note): those links are written as the full path of the note they reach, so every link keeps its target, and undo restores them", async () => {
		const cache = running.host.metadataCache;
		const before = await fileHashes(vault);
		const resolvedBefore = copyMap(cache.resolvedLinks);
		const unresolvedBefore = copyMap(cache.unresolvedLinks);
		const result = await callOk<Renamed>(client, "rename_note", { path: "Plan", new_path: "Taken.md" });
		await cache.settled();
		// Linker: [[Taken]] kept on Notes/Taken, [[Plan]] now the renamed note (full path: three notes are named Taken).
		expect(read("Notes/Linker.md")).toBe("[[Notes/Taken]] and [[Taken]]\n");
		expect(read("Notes/Source.md")).toBe("See [[Taken#Goals|the goals]], ![[Taken#^goal]] and [plan](Taken.md#Goals).\n");
		expect(result).toEqual({ path: "Plan.md", new_path: "Taken.md", notes_updated: 2, links_updated: 5 });
		// The note in the excluded folder is not rewritten: its [[Plan]] no longer reaches anything.
		expect(read("Private/Diary.md")).toBe("Dear diary, [[Plan]]\n");
		expect(cache.resolvedLinks).toEqual({ ...renamedMap(resolvedBefore, new Map([["Plan.md", "Taken.md"]])), "Private/Diary.md": {} });
		expect(cache.unresolvedLinks).toEqual({ ...renamedMap(unresolvedBefore, new Map([["Plan.md", "Taken.md"]])), "Private/Diary.md": { Plan: 1 } });

		const [entry] = running.journal.list(1);
		expect((await undoCall(running.host, running.journal, entry?.id ?? "")).ok).toBe(true);
		expect(await fileHashes(vault)).toEqual(before);
	});

	test("expected_hash: a mismatch moves nothing and returns the current hash; the right one goes through", async () => {
		const before = await fileHashes(vault);
		const message = await callError(client, "rename_note", { path: "Plan", new_path: "Archive/Plan.md", expected_hash: "0".repeat(64) });
		expect(message).toContain(hashText(read("Plan.md")));
		expect(await fileHashes(vault)).toEqual(before);
		await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan.md", expected_hash: hashText(read("Plan.md")) });
		expect(await exists("Archive/Plan.md")).toBe(true);
	});

	test("undo after the moved note was edited moves nothing, keeps the edit, and saves the earlier text beside the old path; the links are restored", async () => {
		const source = read("Notes/Source.md");
		await callOk(client, "rename_note", { path: "Plan", new_path: "Archive/Plan.md" });
		await fs.appendFile(nodePath.join(vault, "Archive/Plan.md"), "edited later\n");
		for (
			let tries = 0;
			tries < 100 && (await running.host.vault.read(running.host.vault.getFileByPath("Archive/Plan.md")!)).indexOf("edited later") === -1;
			tries++
		)
			await new Promise((resolve) => setTimeout(resolve, 20));
		const [entry] = running.journal.list(1);
		const outcome = await undoCall(running.host, running.journal, entry?.id ?? "");
		expect(outcome.ok).toBe(true);
		expect(read("Archive/Plan.md")).toBe("# Plan\n\n## Goals\n\nGrow beans ^goal\nedited later\n");
		expect(read("Notes/Source.md")).toBe(source);
		expect(await exists("Plan.md")).toBe(false);
		const copies = (await fs.readdir(vault)).filter((name) => name.startsWith("Plan (before rename_note "));
		expect(copies).toHaveLength(1);
		expect(read(copies[0] ?? "")).toBe("# Plan\n\n## Goals\n\nGrow beans ^goal\n");
	});
});

describe("rename_note set to Ask: the preview shows every change the rename will make", () => {
	test("the move, the links kept on their notes and the links to the note, each note once with its whole change; nothing is written", async () => {
		const vault = await makeVault({
			"Plan.md": "# Plan\n",
			"Notes/Taken.md": "taken\n",
			"Notes/Linker.md": "[[Taken]] and [[Plan]]\n",
		});
		const requests: ApprovalRequest[] = [];
		const approver: Approver = {
			decide: (request) => {
				requests.push(request);
				return Promise.resolve("decline");
			},
		};
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true }, approver, rights: { write: { rename_note: "ask" } } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const before = await fileHashes(vault);
			expect(await callError(client, "rename_note", { path: "Plan", new_path: "Taken.md" })).toMatch(/declined/);
			expect(requests[0]?.changes).toEqual([
				{ path: "Notes/Linker.md", before: "[[Taken]] and [[Plan]]\n", after: "[[Notes/Taken]] and [[Taken]]\n" },
				{ path: "Taken.md", movedFrom: "Plan.md", before: "# Plan\n", after: "# Plan\n" },
			]);
			expect(await fileHashes(vault)).toEqual(before);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});
});

describe("rename_note of a note that a note over MAX_READ_NOTE_BYTES links to, over real HTTP", () => {
	test("the note the server does not read is named in the answer (its link still names the old path) and left byte for byte as it was; the notes it reads are rewritten", async () => {
		// Its link at the top, then plain words past the bound: the headless server reads none of it, so it has no links there.
		const huge = `See [[Target]].\n\n${"word ".repeat(Math.ceil(MAX_READ_NOTE_BYTES / 5) + 100)}\n`;
		const vault = await makeVault({ "Hub.md": "See [[Target]].\n", "Target.md": "# Target\n", "Huge.md": huge, "Private/Huge too.md": huge });
		const running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, rateLimitPerMinute: 100_000, excludedFolders: ["Private"] },
		});
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const renamed = await callOk<Renamed & { notes_not_read?: string[] }>(client, "rename_note", { path: "Target", new_path: "Target2" });
			expect(renamed).toMatchObject({ new_path: "Target2.md", notes_updated: 1, links_updated: 1 });
			// Named, so the caller can tell the person; the one in the excluded folder is never named.
			expect(renamed.notes_not_read).toEqual(["Huge.md"]);
			expect(readFileSync(nodePath.join(vault, "Hub.md"), "utf8")).toBe("See [[Target2]].\n");
			expect(readFileSync(nodePath.join(vault, "Huge.md"), "utf8") === huge).toBe(true);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	}, 60_000);
});
