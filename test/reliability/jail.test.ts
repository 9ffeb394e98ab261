import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import dayjs from "dayjs";
import { NodeHost } from "../../src/headless/NodeHost";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { findNote } from "../../src/vault/notes";
import { pathMatchKey } from "../../src/paths/spelling";
import { isExcludedPath, isHiddenPath } from "../../src/vault/scope";
import { checkNewNotePath, createNoteFile } from "../../src/vault/writes";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool, type CallOutcome } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/** JSON-RPC's invalid-params code: how the SDK answers arguments its schemas refuse. */
const INVALID_PARAMS = -32602;

/**
 * The jail's promises, attacked over real HTTP: symbolic links (to a folder outside the vault, to
 * an excluded folder, to the config folder, to a file; made before start, after start, swapped in
 * for a note) are refused by every tool, nothing is written outside the visible vault, and no
 * answer differs between "something is behind the link / in the excluded folder" and "nothing is".
 */

const EXCLUDED = "Private";
/** Words that live only outside the vault or in the excluded folder: no answer may carry them. */
const SECRET_WORDS = ["outsidesecret", "outsidetag", "zebracorn", "excludedtag"];
const WAIT_STEP_MS = 25;

/** A file tree as lstat sees it (links not followed): path → kind, bytes' hash, mtime. */
async function snapshot(root: string, skip: (relative: string) => boolean = () => false): Promise<Record<string, string>> {
	const seen: Record<string, string> = {};
	const walk = async (folder: string, depth: number): Promise<void> => {
		if (depth > 20) return;
		let entries: string[];
		try {
			entries = await fs.readdir(folder);
		} catch {
			return;
		}
		for (const name of entries) {
			const full = nodePath.join(folder, name);
			const relative = nodePath.relative(root, full);
			if (skip(relative)) continue;
			const stats = await fs.lstat(full);
			if (stats.isSymbolicLink()) seen[relative] = `link→${await fs.readlink(full)}`;
			else if (stats.isDirectory()) {
				seen[relative] = "dir";
				await walk(full, depth + 1);
			} else
				seen[relative] = `file ${createHash("sha256")
					.update(await fs.readFile(full))
					.digest("hex")} ${stats.mtimeMs}`;
		}
	};
	await walk(root, 0);
	withoutOwnJournal(seen);
	return seen;
}

/**
 * The server's own write journal (in the config folder's plugins/vault-mcp, where the plugin keeps
 * data.json) is expected to appear when writes are tried; the folders made for it count only if
 * something else is in them.
 */
function withoutOwnJournal(seen: Record<string, string>): void {
	const journal = nodePath.join("plugins", "vault-mcp", "journal.jsonl");
	if (!(journal in seen)) return;
	delete seen[journal];
	for (const folder of [nodePath.join("plugins", "vault-mcp"), "plugins"]) {
		if (seen[folder] === "dir" && !Object.keys(seen).some((key) => key.startsWith(folder + nodePath.sep))) delete seen[folder];
	}
}

/** Waits until `done` holds, at most `limitMs`; says whether it did. */
async function waitFor(done: () => boolean, limitMs = 3000): Promise<boolean> {
	for (let waited = 0; waited < limitMs; waited += WAIT_STEP_MS) {
		if (done()) return true;
		await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
	}
	return done();
}

type Step = { label: string; run: (client: Client) => Promise<CallOutcome> };
/** A refusal as a JSON-RPC error (invalid params, such as a path the SDK's schema rejects) counts like any other; anything else, a crash included, fails the test. */
const call = (name: string, args: Record<string, unknown>): Step => ({
	label: `${name} ${JSON.stringify(args)}`,
	run: (client) =>
		callTool(client, name, args).catch((error: Error & { code?: number }): CallOutcome => {
			if (error.code !== INVALID_PARAMS) throw error;
			return { ok: false, error: error.message };
		}),
});
const readResource = (path: string): Step => ({
	label: `resources/read ${path}`,
	run: async (client) => {
		try {
			const result = await client.readResource({ uri: `vault-mcp://note/${path.split("/").map(encodeURIComponent).join("/")}` });
			return { ok: true, value: result as unknown as Record<string, unknown> };
		} catch (error) {
			return { ok: false, error: (error as Error).message };
		}
	},
});
/** The notes resources/list names, by name: its order is by modification time, which two vaults made a millisecond apart need not share. */
const listResources: Step = {
	label: "resources/list",
	run: async (client) => {
		const { resources } = await client.listResources();
		return { ok: true, value: { resources: [...resources].sort((a, b) => a.name.localeCompare(b.name)) } as unknown as Record<string, unknown> };
	},
};

/** What differs between runs but says nothing about the vault: temp folder names and file times. */
function normalized(value: unknown, world: World): string {
	return JSON.stringify(value, (key, field: unknown) => (key === "modified" ? "<time>" : field))
		.split(world.outside)
		.join("<outside>")
		.split(world.root)
		.join("<vault>")
		.split(nodePath.basename(world.root))
		.join("<vault-name>");
}

interface World {
	root: string;
	outside: string;
	/** Where the outside links point: present in the "exists" world, absent in the "missing" one. */
	target: string;
}

const TODAY = () => dayjs(new Date()).format("YYYY-MM-DD");

/** Two vaults, alike except for what is behind the links and inside the excluded folder. */
async function makeWorld(kind: "exists" | "missing"): Promise<World> {
	const root = await makeVault({
		"Public.md": "# Public\n\nSee [[LinkNote]], [[LinkDir/secret]], [[secret]], [[Diary]], [[Template]] and [[LateNote]]. #public\n\n- [ ] public task\n",
		"Outline.md": "- a\n\t- b\n",
		"Swap1.md": "- swap one\n",
		"Swap2.md": "- swap two\n",
		"Swap3.md": "- swap three\n",
		"Archive/Old/Diary.md": "# An old visible diary\n",
		// A base and a canvas whose formulas and cards reach through the links and into the excluded folder.
		"Public.base":
			"formulas:\n  through_link: 'file(\"LinkDir/secret.md\")'\n  link_note: 'link(\"LinkNote\").asFile()'\n  excluded: 'file(\"Private/Diary.md\")'\n  links_there: 'file.hasLink(\"LinkDir/secret\") || file.hasLink(\"Diary\")'\n  linked_from: 'file.backlinks.length'\nviews:\n  - type: table\n    name: All\n    order: [file.path, file.tags, formula.through_link, formula.link_note, formula.excluded, formula.links_there, formula.linked_from]\n    sort:\n      - property: file.path\n        direction: ASC\n",
		"Public.canvas": JSON.stringify({
			nodes: ["LinkDir/secret.md", "LinkNote.md", "Private/Diary.md", "ToPrivate/Diary.md", "ToConfig/app.json", "Public.md"].map((file, index) => ({
				id: `n${index}`,
				type: "file",
				file,
				x: index,
				y: 0,
				width: 1,
				height: 1,
			})),
			edges: [{ id: "e", fromNode: "n0", toNode: "n5" }],
		}),
		".obsidian/app.json": "{}",
		[`${EXCLUDED}/.keep`]: "",
	});
	const outside = await makeTempDir("vault-mcp-outside-");
	const target = nodePath.join(outside, "target");
	if (kind === "exists") {
		await fs.mkdir(nodePath.join(target, "sub"), { recursive: true });
		const secret = "- a\n- outsidesecret #outsidetag\n- [ ] outside task outsidesecret\n";
		for (const name of ["secret.md", "new.md", "LinkNote.md", `${TODAY()}.md`, "sub/deeper.md", "Template.md"])
			await fs.writeFile(nodePath.join(target, name), secret);
		await fs.writeFile(nodePath.join(root, EXCLUDED, "Diary.md"), "- zebracorn diary #excludedtag\n- [ ] zebracorn task\n[[Public]]\n");
		await fs.writeFile(nodePath.join(root, EXCLUDED, "Template.md"), "zebracorn template\n");
		await fs.writeFile(nodePath.join(root, EXCLUDED, "new.md"), "zebracorn\n");
		await fs.writeFile(nodePath.join(root, EXCLUDED, "photo.png"), "zebracorn");
		for (const folder of [target, nodePath.join(root, EXCLUDED)]) {
			await fs.writeFile(nodePath.join(folder, "query.base"), "views:\n  - type: table\n    name: zebracorn view\n");
			await fs.writeFile(
				nodePath.join(folder, "board.canvas"),
				JSON.stringify({ nodes: [{ id: "zebracorn", type: "text", text: "zebracorn", x: 0, y: 0, width: 1, height: 1 }] }),
			);
		}
	}
	// Made before the server starts: found by the first scan.
	await fs.symlink(target, nodePath.join(root, "LinkDir"));
	await fs.symlink(nodePath.join(target, "secret.md"), nodePath.join(root, "LinkNote.md"));
	await fs.symlink(nodePath.join(root, EXCLUDED), nodePath.join(root, "ToPrivate"));
	await fs.symlink(nodePath.join(root, ".obsidian"), nodePath.join(root, "ToConfig"));
	await fs.symlink(target, nodePath.join(root, "DailyLink"));
	return { root, outside, target };
}

async function removeWorld(world: World): Promise<void> {
	await removeDir(world.root);
	await removeDir(world.outside);
}

/** The daily-notes settings `add_task` will follow: a config file anyone may have written. */
async function dailyNotes(world: World, settings: Record<string, string>): Promise<void> {
	await fs.writeFile(nodePath.join(world.root, ".obsidian", "daily-notes.json"), JSON.stringify(settings));
}

/** Calls naming a path that leads through a link or into the excluded folder: each must be refused. */
function refusedSteps(prefix: { dir: string; note: string }): Step[] {
	const { dir, note } = prefix;
	return [
		call("read_note", { path: note }),
		call("read_note", { path: `${note}.md` }),
		call("read_note", { path: `${dir}/secret` }),
		call("read_note", { path: `${dir}/sub/deeper.md` }),
		call("read_note", { path: "ToPrivate/Diary" }),
		call("read_note", { path: `${EXCLUDED}/Diary` }),
		call("read_note", { path: "private/diary.md" }),
		// An excluded attachment is not "not a Markdown note": that would confirm it exists.
		call("read_note", { path: `${EXCLUDED}/photo.png` }),
		call("read_note", { path: "Private\u00a0/Diary" }),
		call("read_note", { path: "ToConfig/app.json" }),
		call("get_note_links", { path: note }),
		call("get_note_links", { path: `${EXCLUDED}/Diary` }),
		// A linked folder lists like a folder that does not exist: no notes (checked below), never an error that tells it apart.
		call("list_notes", { folder: dir }),
		readResource(`${note}.md`),
		readResource(`${dir}/secret.md`),
		readResource(`${EXCLUDED}/Diary.md`),
		readResource("ToPrivate/Diary.md"),
		call("create_note", { path: `${dir}/new.md`, content: "x" }),
		call("create_note", { path: `${dir}/secret.md`, content: "x" }),
		call("create_note", { path: `${dir}/sub/deeper.md`, content: "x" }),
		call("create_note", { path: `${dir}/fresh/deeper.md`, content: "x" }),
		call("create_note", { path: `${note}.md`, content: "x" }),
		call("create_note", { path: `${note}.md`, content: "x", overwrite: true }),
		call("create_note", { path: "ToPrivate/new.md", content: "x" }),
		call("create_note", { path: "ToPrivate/new.md", content: "x", overwrite: true }),
		call("create_note", { path: `${EXCLUDED}/new.md`, content: "x", overwrite: true }),
		call("create_note", { path: "Private\u00a0/new.md", content: "x" }),
		call("create_note", { path: "ToConfig/new.md", content: "x" }),
		call("append_to_note", { path: note, content: "appended" }),
		call("append_to_note", { path: `${dir}/secret`, content: "appended" }),
		call("append_to_note", { path: "ToPrivate/Diary", content: "appended" }),
		call("append_to_note", { path: `${EXCLUDED}/Diary`, content: "appended" }),
		call("insert_under_bullet", { path: note, bullet: "a", content: "inserted" }),
		call("insert_under_bullet", { path: `${dir}/secret`, bullet: "a", content: "inserted" }),
		call("insert_under_bullet", { path: `${EXCLUDED}/Diary`, bullet: "zebracorn", content: "inserted" }),
		call("add_task", { text: "t", path: note }),
		call("add_task", { text: "t", path: `${dir}/secret` }),
		call("add_task", { text: "t", path: `${EXCLUDED}/Diary` }),
		call("complete_task", { path: note, line: 0, text: "t" }),
		call("complete_task", { path: `${EXCLUDED}/Diary`, line: 0, text: "t" }),
		call("set_property", { path: note, name: "status", value: "x" }),
		call("set_property", { path: `${dir}/secret`, name: "status", value: "x" }),
		call("set_property", { path: `${EXCLUDED}/Diary`, name: "status", value: "x" }),
		call("create_note", { path: "FromTemplate.md", content: "x", template: `${EXCLUDED}/Diary` }),
		call("create_note", { path: "FromTemplate.md", content: "x", template: `${dir}/secret` }),
		call("read_note", { path: `${EXCLUDED}/Diary#Heading` }),
		call("rename_note", { path: note, new_path: "Moved.md" }),
		call("rename_note", { path: `${dir}/secret`, new_path: "Moved.md" }),
		call("rename_note", { path: `${EXCLUDED}/Diary`, new_path: "Moved.md" }),
		call("rename_note", { path: "ToPrivate/Diary", new_path: "Moved.md" }),
		call("rename_note", { path: "Outline", new_path: `${dir}/moved.md` }),
		call("rename_note", { path: "Outline", new_path: `${dir}/secret.md` }),
		call("rename_note", { path: "Outline", new_path: `${note}.md` }),
		call("rename_note", { path: "Outline", new_path: `${EXCLUDED}/moved.md` }),
		call("rename_note", { path: "Outline", new_path: `${EXCLUDED}/Diary.md` }),
		call("rename_note", { path: "Outline", new_path: "private/moved.md" }),
		call("rename_note", { path: "Outline", new_path: "Private\u00a0/moved.md" }),
		call("rename_note", { path: "Outline", new_path: "ToPrivate/moved.md" }),
		call("rename_note", { path: "Outline", new_path: "ToConfig/moved.md" }),
		call("rename_note", { path: "Outline", new_path: "../moved.md" }),
		call("query_base", { path: `${dir}/query.base` }),
		call("query_base", { path: `${EXCLUDED}/query` }),
		call("query_base", { path: "ToPrivate/query.base" }),
		call("query_base", { path: "ToConfig/app" }),
		call("read_canvas", { path: `${dir}/board` }),
		call("read_canvas", { path: `${EXCLUDED}/board.canvas` }),
		call("read_canvas", { path: "ToPrivate/board" }),
		// Inside Obsidian only: headless it answers like an unknown tool.
	];
}

/** Calls over the whole visible vault: they succeed, and must carry nothing from behind a link or the excluded folder. */
const LISTING_STEPS: Step[] = [
	call("get_vault_status", {}),
	call("list_notes", { limit: 1000 }),
	call("search_notes", { query: "outsidesecret" }),
	call("search_notes", { query: "zebracorn" }),
	call("search_notes", { query: "task", limit: 50 }),
	call("get_note_links", { path: "Public" }),
	call("get_note_links", { path: "Archive/Old/Diary" }),
	call("read_note", { path: "Diary" }),
	call("read_note", { path: "Template" }),
	call("list_tags", { limit: 1000 }),
	call("find_notes_by_tag", { tag: "outsidetag" }),
	call("find_notes_by_tag", { tag: "excludedtag" }),
	call("list_tasks", { status: "any", limit: 1000 }),
	call("get_graph_stats", {}),
	call("list_templates", {}),
	call("list_bases", {}),
	call("query_base", { path: "Public.base", limit: 1000 }),
	call("read_canvas", { path: "Public.canvas" }),
	listResources,
];

/** Every tool of ALL_TOOLS appears in the steps: a new tool cannot skip this test. */
function toolsCovered(steps: Step[]): Set<string> {
	return new Set(steps.map((step) => step.label.split(" ")[0] ?? ""));
}

interface Transcript {
	lines: string[];
	outcomes: Array<{ label: string; outcome: CallOutcome }>;
}

async function runSteps(client: Client, steps: Step[], world: World, transcript: Transcript, phase: string): Promise<void> {
	for (const step of steps) {
		const outcome = await step.run(client);
		transcript.outcomes.push({ label: `${phase}: ${step.label}`, outcome });
		transcript.lines.push(`${phase}: ${step.label} → ${normalized(outcome, world)}`);
	}
}

/** The add_task calls against hostile daily-notes settings; returns the daily notes' texts they made. */
async function addTaskSteps(client: Client, world: World, transcript: Transcript): Promise<void> {
	const configs: Array<Record<string, string>> = [
		{ folder: "DailyLink" },
		{ folder: "ToPrivate" },
		{ folder: "ToConfig" },
		{ folder: "Daily1", template: `${EXCLUDED}/Template` },
		{ folder: "Daily2", template: "Template" },
		{ folder: "Daily3", template: "LinkDir/Template" },
		{ folder: "Daily4", template: "ToPrivate/Template" },
		{ folder: "Daily5", template: "LinkNote" },
		{ folder: "Daily6", template: "private\u00a0/template" },
		{ folder: "Daily7", format: "[../]YYYY-MM-DD" },
		{ folder: "Daily8", format: "[LinkDir/]YYYY-MM-DD" },
		{ folder: "../escape" },
		{ folder: "/etc" },
	];
	for (const config of configs) {
		await dailyNotes(world, config);
		const outcome = await callTool(client, "add_task", { text: "daily task" });
		transcript.outcomes.push({ label: `add_task daily ${JSON.stringify(config)}`, outcome });
		transcript.lines.push(`add_task daily ${JSON.stringify(config)} → ${normalized(outcome, world)}`);
	}
	await fs.rm(nodePath.join(world.root, ".obsidian", "daily-notes.json"));
}

/** Runs every phase against one world, returning what a client saw, with the world's files checked as it goes. */
async function attack(kind: "exists" | "missing"): Promise<{ transcript: Transcript; created: Record<string, string> }> {
	const world = await makeWorld(kind);
	const transcript: Transcript = { lines: [], outcomes: [] };
	const settings = { writeEnabled: true, excludedFolders: [EXCLUDED], rateLimitPerMinute: 1_000_000, writeCallsPerMinute: 1_000_000 };
	const watching = await startService(world.root, { levels: ["write"], settings, host: { watch: true } });
	const still = await startService(world.root, { levels: ["write"], settings });
	const watchingClient = await connectClient(watching.url, watching.tokens.write ?? "");
	const stillClient = await connectClient(still.url, still.tokens.write ?? "");
	try {
		// The search index is built in the background: wait for it, so search answers are complete.
		expect(await waitFor(() => watching.service.search?.status().state === "ready" && still.service.search?.status().state === "ready")).toBe(true);
		const outsideBefore = await snapshot(world.outside);
		const excludedBefore = await snapshot(nodePath.join(world.root, EXCLUDED));
		const configBefore = await snapshot(nodePath.join(world.root, ".obsidian"), (relative) => relative === "daily-notes.json");

		// Links made before start.
		for (const [phase, client] of [
			["before start, watching", watchingClient],
			["before start, not watching", stillClient],
		] as const) {
			await runSteps(client, refusedSteps({ dir: "LinkDir", note: "LinkNote" }), world, transcript, phase);
			await runSteps(client, LISTING_STEPS, world, transcript, phase);
		}
		await addTaskSteps(watchingClient, world, transcript);

		// Links made while serving: the watcher's service learns of them; the other meets them where bytes move.
		await fs.symlink(world.target, nodePath.join(world.root, "LateDir"));
		await fs.symlink(nodePath.join(world.target, "secret.md"), nodePath.join(world.root, "LateNote.md"));
		await waitFor(() => watching.host.hiddenLinks().includes("LateDir") && watching.host.hiddenLinks().includes("LateNote.md"));
		for (const [phase, client] of [
			["after start, watching", watchingClient],
			["after start, not watching", stillClient],
		] as const) {
			await runSteps(client, refusedSteps({ dir: "LateDir", note: "LateNote" }), world, transcript, phase);
			await runSteps(client, LISTING_STEPS, world, transcript, phase);
		}

		// Notes swapped for links while serving: rm + symlink, and a link renamed over the note.
		await fs.rm(nodePath.join(world.root, "Swap1.md"));
		await fs.symlink(nodePath.join(world.target, "secret.md"), nodePath.join(world.root, "Swap1.md"));
		await fs.symlink(nodePath.join(world.target, "secret.md"), nodePath.join(world.root, ".swap2.tmp"));
		await fs.rename(nodePath.join(world.root, ".swap2.tmp"), nodePath.join(world.root, "Swap2.md"));
		await fs.symlink(nodePath.join(world.target, "secret.md"), nodePath.join(world.root, ".swap3.tmp"));
		await fs.rename(nodePath.join(world.root, ".swap3.tmp"), nodePath.join(world.root, "Swap3.md"));
		const swapSteps = (): Step[] => [
			call("read_note", { path: "Swap1" }),
			readResource("Swap1.md"),
			call("append_to_note", { path: "Swap1", content: "appended" }),
			call("read_note", { path: "Swap2" }),
			call("create_note", { path: "Swap2.md", content: "x", overwrite: true }),
			call("insert_under_bullet", { path: "Swap2", bullet: "a", content: "inserted" }),
			call("add_task", { text: "t", path: "Swap3" }),
			call("append_to_note", { path: "Swap3", content: "appended" }),
			call("read_note", { path: "Swap3" }),
		];
		// The service without a watcher still holds the notes as plain files: the checks where bytes move must refuse.
		await runSteps(stillClient, swapSteps(), world, transcript, "swapped, not watching");
		await waitFor(() => ["Swap1.md", "Swap2.md", "Swap3.md"].every((path) => watching.host.vault.getFileByPath(path) === null));
		await runSteps(watchingClient, swapSteps(), world, transcript, "swapped, watching");
		for (const [phase, client] of [
			["after swaps, watching", watchingClient],
			["after swaps, not watching", stillClient],
		] as const) {
			await runSteps(client, LISTING_STEPS, world, transcript, phase);
		}

		expect(await snapshot(world.outside)).toEqual(outsideBefore);
		expect(await snapshot(nodePath.join(world.root, EXCLUDED))).toEqual(excludedBefore);
		expect(await snapshot(nodePath.join(world.root, ".obsidian"), (relative) => relative === "daily-notes.json")).toEqual(configBefore);
		// The links themselves are where they were: a refused write never replaced a link with a file.
		for (const link of ["LinkDir", "LinkNote.md", "ToPrivate", "ToConfig", "DailyLink", "LateDir", "LateNote.md", "Swap1.md", "Swap2.md", "Swap3.md"]) {
			expect((await fs.lstat(nodePath.join(world.root, link))).isSymbolicLink()).toBe(true);
		}
		const created: Record<string, string> = {};
		for (const entry of await fs.readdir(world.root, { recursive: true, withFileTypes: true })) {
			if (entry.isFile() && /^Daily\d/.test(nodePath.relative(world.root, entry.parentPath)))
				created[nodePath.relative(world.root, nodePath.join(entry.parentPath, entry.name))] = await fs.readFile(
					nodePath.join(entry.parentPath, entry.name),
					"utf8",
				);
		}
		return { transcript, created };
	} finally {
		await watchingClient.close();
		await stillClient.close();
		await watching.stop();
		await still.stop();
		await removeWorld(world);
	}
}

describe("the jail over real HTTP, with real symbolic links", () => {
	let exists: Awaited<ReturnType<typeof attack>>;
	let missing: Awaited<ReturnType<typeof attack>>;

	beforeAll(async () => {
		exists = await attack("exists");
		missing = await attack("missing");
	}, 60_000);

	test("the steps cover every tool the server has, and the resources", () => {
		const covered = toolsCovered([...refusedSteps({ dir: "d", note: "n" }), ...LISTING_STEPS]);
		// Tools of Obsidian's window do not exist headless; workspaceTools.test.ts refuses an excluded note through open_note in the plugin.
		for (const tool of ALL_TOOLS.filter((each) => each.needs !== "workspace")) expect([tool.name, covered.has(tool.name)]).toEqual([tool.name, true]);
		expect(covered.has("resources/read")).toBe(true);
	});

	test("every call through a link, into the excluded folder or the config folder is refused", () => {
		const refusals = exists.transcript.outcomes.filter(
			({ label }) => !LISTING_STEPS.some((step) => label.endsWith(`: ${step.label}`)) && !label.startsWith("add_task daily"),
		);
		expect(refusals.length).toBeGreaterThan(100);
		for (const { label, outcome } of refusals) {
			if (label.includes("list_notes")) expect([label, outcome]).toEqual([label, { ok: true, value: { notes: [], total: 0 } }]);
			else expect([label, outcome.ok]).toEqual([label, false]);
		}
	});

	test("no answer carries a word from behind a link or from the excluded folder", () => {
		for (const { label, outcome } of exists.transcript.outcomes) {
			// find_notes_by_tag echoes the tag it was asked for; what it must not do is find anything.
			const shown = JSON.stringify(outcome).replace(/"tag":"#(outsidetag|excludedtag)"/, "");
			for (const word of SECRET_WORDS) expect([label, shown.includes(word)]).toEqual([label, false]);
		}
	});

	test("daily notes made by add_task hold nothing of an excluded or linked template", () => {
		expect(Object.keys(exists.created).length).toBeGreaterThan(0);
		for (const [path, text] of Object.entries(exists.created)) {
			for (const word of SECRET_WORDS) expect([path, text.includes(word)]).toEqual([path, false]);
		}
		expect(exists.created).toEqual(missing.created);
	});

	test("every answer is the same whether something is behind the link and in the excluded folder or not", () => {
		expect(exists.transcript.lines.length).toBe(missing.transcript.lines.length);
		for (let index = 0; index < exists.transcript.lines.length; index++) expect(exists.transcript.lines[index]).toBe(missing.transcript.lines[index]);
	});
});

/** Characters that change a path's meaning or look: spaces and dots that look plain, combining marks, NFC/NFD pairs, case, separators. */
const UNICODE_PIECES = [
	"Private",
	"private",
	"PRIVATE",
	"Pr\u0131vate",
	"Priv\u0430te",
	"Private\u00a0",
	"Private\u2007",
	"Private\u200b",
	"\u200bPrivate",
	"Private\u3000",
	"Private.",
	"Private\uff0e",
	"Caf\u00e9",
	"Cafe\u0301",
	"CAF\u00c9",
	"Link",
	"LinkDir",
	"LinkNote",
	"LinkNote.md",
	"ToPrivate",
	"ToConfig",
	".obsidian",
	".Obsidian",
	"\uff0eobsidian",
	"\u2024obsidian",
	"obsidian",
	"..",
	".",
	"\u2025",
	"\u2024\u2024",
	"note",
	"Note.md",
	"note.MD",
	"x\u0301",
	"\u00a0",
	"\u202f",
	" ",
	"\u3000",
	"\u2800",
	"\u2215",
	"\u2044",
	"\uff0f",
	"a",
	"Journal",
	"Private Journal",
	"Private\u00a0Journal",
];
const unicodePath = fc
	.tuple(
		fc.array(fc.constantFrom(...UNICODE_PIECES), { minLength: 1, maxLength: 4 }),
		fc.array(fc.constantFrom("/", "", " ", "\u00a0", "."), { minLength: 3, maxLength: 3 }),
	)
	.map(([pieces, glue]) => pieces.map((piece, index) => piece + (index < pieces.length - 1 ? (glue[index % glue.length] ?? "/") : "")).join(""));

describe("generated Unicode paths and hostile config files never reach outside the visible vault", () => {
	let world: World;
	let host: NodeHost;
	let running: RunningService;
	let client: Client;
	const scope = { configDir: ".obsidian", excludedFolders: [EXCLUDED, "Private Journal", "Caf\u00e9"] };
	const visibleOnDisk = async (): Promise<string[]> => {
		const paths: string[] = [];
		for (const entry of await fs.readdir(world.root, { recursive: true, withFileTypes: true })) {
			if (entry.isFile()) paths.push(nodePath.relative(world.root, nodePath.join(entry.parentPath, entry.name)));
		}
		// The server's own write journal, beside data.json, is not a note a tool wrote.
		return paths.filter((path) => path !== nodePath.join(".obsidian", "plugins", "vault-mcp", "journal.jsonl"));
	};

	beforeAll(async () => {
		world = await makeWorld("exists");
		await fs.mkdir(nodePath.join(world.root, "Private Journal"));
		await fs.writeFile(nodePath.join(world.root, "Private Journal", "j.md"), "zebracorn journal\n");
		await fs.mkdir(nodePath.join(world.root, "Cafe\u0301"));
		await fs.writeFile(nodePath.join(world.root, "Cafe\u0301", "c.md"), "zebracorn cafe\n");
		host = await NodeHost.open(world.root);
		running = await startService(world.root, {
			levels: ["write"],
			settings: { writeEnabled: true, excludedFolders: scope.excludedFolders, rateLimitPerMinute: 1_000_000, writeCallsPerMinute: 1_000_000 },
		});
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await host.close();
		await removeWorld(world);
	});

	/** True when a file the server made lies in the visible part of the vault: no link, hidden or excluded folder on its way. */
	const isVisibleWrite = async (relative: string): Promise<boolean> => {
		const real = await fs.realpath(nodePath.join(world.root, relative));
		return (
			real === nodePath.join(world.root, relative) &&
			!isHiddenPath(relative) &&
			!isHiddenPath(pathMatchKey(relative)) &&
			!isExcludedPath(relative.normalize("NFC"), scope)
		);
	};

	test("checkNewNotePath, findNote and NodeVault: 600 generated paths", async () => {
		const protectedBefore = [
			await snapshot(world.outside),
			await snapshot(nodePath.join(world.root, EXCLUDED)),
			await snapshot(nodePath.join(world.root, ".obsidian")),
			await snapshot(nodePath.join(world.root, "Private Journal")),
			await snapshot(nodePath.join(world.root, "Cafe\u0301")),
		];
		const before = new Set(await visibleOnDisk());
		await fc.assert(
			fc.asyncProperty(unicodePath, async (input) => {
				const found = findNote(host, scope, input);
				if (found.ok) {
					expect(isExcludedPath(found.value.path, scope) || isHiddenPath(found.value.path)).toBe(false);
					expect(SECRET_WORDS.some((word) => host.vault.readSync(found.value).includes(word))).toBe(false);
				}
				const checked = checkNewNotePath(input, scope);
				if (checked.ok && !host.vault.getFileByPath(checked.value)) {
					await createNoteFile(host, checked.value, "generated\n").catch(() => undefined);
				}
			}),
			{ numRuns: 600, seed: 20261201 },
		);
		const protectedAfter = [
			await snapshot(world.outside),
			await snapshot(nodePath.join(world.root, EXCLUDED)),
			await snapshot(nodePath.join(world.root, ".obsidian")),
			await snapshot(nodePath.join(world.root, "Private Journal")),
			await snapshot(nodePath.join(world.root, "Cafe\u0301")),
		];
		expect(protectedAfter).toEqual(protectedBefore);
		const made = (await visibleOnDisk()).filter((path) => !before.has(path));
		expect(made.length).toBeGreaterThan(0);
		for (const path of made) expect([path, await isVisibleWrite(path)]).toEqual([path, true]);
	}, 30_000);

	test("over HTTP: 150 generated paths through create_note, read_note, append_to_note, and 60 hostile daily-notes.json files through add_task", async () => {
		const protectedBefore = [
			await snapshot(world.outside),
			await snapshot(nodePath.join(world.root, EXCLUDED)),
			await snapshot(nodePath.join(world.root, ".obsidian")),
			await snapshot(nodePath.join(world.root, "Private Journal")),
			await snapshot(nodePath.join(world.root, "Cafe\u0301")),
		];
		const before = new Set(await visibleOnDisk());
		await fc.assert(
			fc.asyncProperty(unicodePath, fc.boolean(), async (input, overwrite) => {
				for (const outcome of [
					await callTool(client, "create_note", { path: input, content: "http\n", overwrite }),
					await callTool(client, "read_note", { path: input }),
					await callTool(client, "append_to_note", { path: input, content: "more" }),
				]) {
					const shown = JSON.stringify(outcome);
					for (const word of SECRET_WORDS) expect([input, shown.includes(word)]).toEqual([input, false]);
				}
			}),
			{ numRuns: 150, seed: 11 },
		);
		const hostileConfig = fc.record({
			folder: fc.oneof(unicodePath, fc.constantFrom("", "/", "../x", "/etc", "LinkDir", "ToPrivate", "ToConfig", ".obsidian")),
			format: fc.constantFrom("YYYY-MM-DD", "[../]YYYY", "[LinkDir/]YYYY", "[/]YYYY", "[Private/]YYYY", "[.obsidian/]YYYY", "[Private\u00a0/]YYYY"),
			template: fc.oneof(
				unicodePath,
				fc.constantFrom("", "Private/Template", "LinkDir/Template", "LinkNote", "ToPrivate/Template", "../x", "/etc/passwd"),
			),
		});
		await fc.assert(
			fc.asyncProperty(hostileConfig, async (config) => {
				await dailyNotes(world, config);
				const shown = JSON.stringify(await callTool(client, "add_task", { text: "from config" }));
				for (const word of SECRET_WORDS) expect([config, shown.includes(word)]).toEqual([config, false]);
			}),
			{ numRuns: 60, seed: 12 },
		);
		await fs.rm(nodePath.join(world.root, ".obsidian", "daily-notes.json"));
		const protectedAfter = [
			await snapshot(world.outside),
			await snapshot(nodePath.join(world.root, EXCLUDED)),
			await snapshot(nodePath.join(world.root, ".obsidian")),
			await snapshot(nodePath.join(world.root, "Private Journal")),
			await snapshot(nodePath.join(world.root, "Cafe\u0301")),
		];
		expect(protectedAfter).toEqual(protectedBefore);
		const made = (await visibleOnDisk()).filter((path) => !before.has(path));
		for (const path of made) {
			expect([path, await isVisibleWrite(path)]).toEqual([path, true]);
			for (const word of SECRET_WORDS) expect([path, (await fs.readFile(nodePath.join(world.root, path), "utf8")).includes(word)]).toEqual([path, false]);
		}
	}, 40_000);
});
