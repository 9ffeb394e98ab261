import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { addToken, setTokenFolders } from "../../src/auth/tokenList";
import { MAX_WORD_FORM_CANDIDATES, PREFIX_MAX_WORDS } from "../../src/config/limits";
import { defaultSettings, type VaultMcpSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { JournalFile } from "../../src/journal/JournalFile";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { RecordingLogger } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, removeDir } from "../helpers/vault";

/**
 * A token limited to `Projects` must meet a vault that holds nothing else: through every tool the
 * server lists, the resources and the prompts, it gets exactly what an unlimited token gets from a
 * copy of the vault holding only `Projects` (the reference), and nothing written outside it, ever.
 */

const INSIDE_FOLDERS = ["Projects", "Projects/Sub"];
/** Outside the token's folders: the vault root, a folder whose name starts like the allowed one, and deeper folders. */
const OUTSIDE_FOLDERS = ["", "Secret", "Projectsx", "Archive/Deep"];
const NAMES = ["Plan", "Index", "Ideas", "Log"];
/** Every word, tag, heading, property, alias and task of an outside note carries this: it must never reach the client. */
const OUTSIDE_MARK = "hush";
/** Outside folder names: never part of an inside note's text or path. */
const OUTSIDE_FOLDER_NAMES = ["Secret", "Projectsx", "Archive"];

interface GeneratedNote {
	folder: string;
	name: string;
	links: string[];
}

const noteArb: fc.Arbitrary<GeneratedNote> = fc.record({
	folder: fc.constantFrom(...INSIDE_FOLDERS, ...OUTSIDE_FOLDERS),
	name: fc.constantFrom(...NAMES),
	links: fc.array(fc.constantFrom(...NAMES, "Sub/Plan", "Sub/Log", "Missing"), { maxLength: 3 }),
});

function pathOf(note: GeneratedNote): string {
	return note.folder === "" ? `${note.name}.md` : `${note.folder}/${note.name}.md`;
}

function isInside(path: string): boolean {
	return path.startsWith("Projects/");
}

/** A note's text: inside notes use only inside words; outside ones mark everything they hold. */
function textOf(note: GeneratedNote, index: number): string {
	const links = note.links.map((link) => `[[${link}]]`).join(" ");
	if (isInside(pathOf(note))) {
		return `---\nstatus: open\n---\n# ${note.name} heading\n\nalpha beta ${note.name.toLowerCase()} ${links} #inner #shared/deep\n\n- [ ] inner task ${index} 📅 2030-01-01\n`;
	}
	const mark = `${OUTSIDE_MARK}${index}`;
	return `---\naliases: [${mark}alias]\n${mark}prop: ${mark}value\ntags: [${mark}tag]\n---\n# ${mark} heading\n\nalpha ${mark}word ${links} #${mark}tag #shared/${mark}\n\n- [ ] ${mark} task 📅 2030-01-01\n`;
}

/** Files besides notes: a base and a canvas on each side, prompts in and out, and the daily notes folder inside. */
function extraFiles(notes: readonly string[]): Record<string, string> {
	const fileNodes = notes.map((path, index) => ({ id: `n${index}`, type: "file", file: path, x: index * 10, y: 0, width: 100, height: 50 }));
	const canvas = JSON.stringify({
		nodes: [...fileNodes, { id: "t", type: "text", text: "alpha [[Plan]]", x: 0, y: 100, width: 100, height: 50 }],
		edges: [],
	});
	const base = "views:\n  - type: table\n    name: All\n    order:\n      - file.name\n      - file.path\n      - status\n";
	return {
		"Projects/Board.canvas": canvas,
		"Projects/All.base": base,
		"Projects/Prompts/Review.md": "Review the plan.\n",
		"Secret/Board.canvas": canvas.replace(/alpha/gu, `${OUTSIDE_MARK}canvas`),
		"Secret/All.base": base,
		"Prompts/Leak.md": `${OUTSIDE_MARK}prompt\n`,
		".obsidian/daily-notes.json": JSON.stringify({ folder: "Projects/Daily" }),
	};
}

/** A canvas without its file cards of notes outside Projects (and the edges that touch them). */
function withoutOutsideCards(text: string): string {
	const canvas = JSON.parse(text) as { nodes: Array<{ id: string; file?: string }>; edges: Array<{ fromNode: string; toNode: string }> };
	const nodes = canvas.nodes.filter((node) => node.file === undefined || isInside(node.file));
	const kept = new Set(nodes.map((node) => node.id));
	return JSON.stringify({ nodes, edges: canvas.edges.filter((edge) => kept.has(edge.fromNode) && kept.has(edge.toNode)) });
}

const FIXED_TIME = new Date("2026-01-01T00:00:00Z");

/** Writes `files` into `<parent>/vault` (the same folder name for both vaults: the vault's name is part of some answers). */
async function writeVault(files: Record<string, string>): Promise<{ parent: string; root: string }> {
	const parent = await makeTempDir("vault-mcp-folders-");
	const root = nodePath.join(parent, "vault");
	await fs.mkdir(nodePath.join(root, ".obsidian"), { recursive: true });
	for (const [path, text] of Object.entries(files)) {
		const disk = nodePath.join(root, path);
		await fs.mkdir(nodePath.dirname(disk), { recursive: true });
		await fs.writeFile(disk, text);
		// The same modification time for a path in both vaults, so lists ordered by them agree.
		const time = new Date(FIXED_TIME.getTime() + [...path].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 100_000, 0) * 1000);
		await fs.utimes(disk, time, time);
	}
	return { parent, root };
}

interface Server {
	client: Client;
	service: McpService;
	settings: VaultMcpSettings;
	stop(): Promise<void>;
}

async function serve(
	root: string,
	folders: readonly string[],
	promptsFolder: string,
	options: { excludedFolders?: string[]; watch?: boolean } = {},
): Promise<Server> {
	const host = await NodeHost.open(root, { watch: options.watch ?? false });
	let settings: VaultMcpSettings = {
		...defaultSettings(),
		excludedFolders: options.excludedFolders ?? [],
		serverEnabled: true,
		port: 0,
		writeEnabled: true,
		writeDisclosureAccepted: true,
		rateLimitPerMinute: 1_000_000,
		promptsFolder,
	};
	const made = addToken(settings, "limited", "write", undefined, folders);
	if ("error" in made) throw new Error(made.error);
	settings = made.settings;
	const service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: JournalFile.forVault(root, ".obsidian") });
	const status = await service.apply(settings);
	if (status.state !== "listening") throw new Error(JSON.stringify(status));
	await service.search?.whenReady();
	const client = await connectClient(status.url, made.token);
	return {
		client,
		service,
		settings,
		stop: async () => {
			await client.close();
			await service.stop();
			await host.close();
		},
	};
}

/** Strings for any string argument: paths and names on both sides, folders, tags, words, the base and canvas paths. */
function stringPool(paths: readonly string[]): string[] {
	const withoutExtension = paths.map((path) => path.replace(/\.md$/u, ""));
	return [
		...new Set([
			...paths,
			...withoutExtension,
			...NAMES,
			...INSIDE_FOLDERS,
			...OUTSIDE_FOLDERS.filter(Boolean),
			"Projects/All.base",
			"Secret/All.base",
			"Projects/Board.canvas",
			"Secret/Board.canvas",
			"inner",
			"#shared",
			"shared/deep",
			`${OUTSIDE_MARK}0tag`,
			"alpha",
			`${OUTSIDE_MARK}0word`,
			"status",
			"Projects/Sub/New.md",
			"Secret/New.md",
			"New.md",
			"open",
			"- [ ] inner task 0",
		]),
	];
}

interface JsonSchema {
	type?: string | string[];
	enum?: unknown[];
	minimum?: number;
	maximum?: number;
	items?: JsonSchema;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	anyOf?: JsonSchema[];
}

/** Arguments for one property of a tool's input schema, from its JSON Schema alone: a tool added later is generated for too. */
function valueFor(schema: JsonSchema, pool: readonly string[]): fc.Arbitrary<unknown> {
	if (schema.enum) return fc.constantFrom(...schema.enum);
	if (schema.anyOf && schema.anyOf.length > 0) return fc.oneof(...schema.anyOf.map((option) => valueFor(option, pool)));
	const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
	switch (type) {
		case "string":
			return fc.constantFrom(...pool);
		case "integer":
		case "number": {
			const min = schema.minimum ?? 0;
			return fc.integer({ min, max: Math.max(min, Math.min(schema.maximum ?? 50, 50)) });
		}
		case "boolean":
			return fc.boolean();
		case "array":
			return fc.array(valueFor(schema.items ?? { type: "string" }, pool), { maxLength: 3 });
		case "object":
			return argsFor(schema, pool);
		default:
			return fc.constant(null);
	}
}

function argsFor(schema: JsonSchema, pool: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
	const properties = Object.entries(schema.properties ?? {});
	const required = new Set(schema.required ?? []);
	const entries = properties.map(([name, property]) =>
		required.has(name)
			? valueFor(property, pool).map((value) => [name, value] as const)
			: fc.option(valueFor(property, pool), { nil: undefined }).map((value) => [name, value] as const),
	);
	return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter(([, value]) => value !== undefined)));
}

/** The strings of an argument value, to tell an echo of what the client asked from a leak. */
function stringsIn(value: unknown): string[] {
	if (typeof value === "string") return [value];
	if (Array.isArray(value)) return value.flatMap(stringsIn);
	if (value && typeof value === "object") return Object.values(value).flatMap(stringsIn);
	return [];
}

/** Fails when `answer` names anything outside the token's folders that the client did not itself send. */
function expectNothingFromOutside(answer: unknown, outsidePaths: readonly string[], sent: unknown, what: string): void {
	const text = JSON.stringify(answer);
	// A path the client gave comes back in its one spelling, `.md` added.
	const echoed = stringsIn(sent)
		.flatMap((value) => [value, `${value}.md`])
		.join("\n")
		.toLowerCase();
	const problems: string[] = [];
	if (text.toLowerCase().includes(OUTSIDE_MARK) && !echoed.includes(OUTSIDE_MARK)) problems.push(`text of an outside note (${OUTSIDE_MARK}…)`);
	for (const folder of OUTSIDE_FOLDER_NAMES) if (text.includes(folder) && !echoed.includes(folder.toLowerCase())) problems.push(`the folder ${folder}`);
	for (const path of outsidePaths) {
		// A root note's path is its name: only a match not preceded by a folder is that note.
		const named = new RegExp(`(?<![\\w/])${path.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")}`, "u");
		if (named.test(text) && !echoed.includes(path.toLowerCase())) problems.push(`the path ${path}`);
	}
	if (problems.length > 0) throw new Error(`${what} revealed ${problems.join(", ")}: ${text.slice(0, 600)}`);
}

/** Every file outside the token's folders, with its text (the config folder, where the journal lives, aside). */
async function outsideSnapshot(root: string): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	async function walk(folder: string): Promise<void> {
		for (const entry of await fs.readdir(nodePath.join(root, folder), { withFileTypes: true })) {
			const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
			if (path === ".obsidian" || path === "Projects") continue;
			if (entry.isDirectory()) await walk(path);
			else files[path] = await fs.readFile(nodePath.join(root, path), "utf8");
		}
	}
	await walk("");
	return files;
}

/** What a client gets from a call, tool result or protocol error alike. */
async function answerOf(work: () => Promise<unknown>): Promise<unknown> {
	try {
		return { result: await work() };
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}

interface Call {
	tool: string;
	args: Record<string, unknown>;
}

const scenarioArb = fc.record({
	notes: fc.uniqueArray(noteArb, { minLength: 2, maxLength: 10, selector: pathOf }),
	promptsInside: fc.boolean(),
	/** Picks among the listed tools, per call; resolved once tools/list is known. */
	picks: fc.array(fc.nat(), { minLength: 6, maxLength: 14 }),
	seed: fc.integer(),
});

describe("a token limited to Projects meets a vault that holds nothing else", () => {
	test("every listed tool, the resources and the prompts answer as over a vault of Projects alone; writes outside change nothing", async () => {
		await fc.assert(
			fc.asyncProperty(scenarioArb, async (scenario) => {
				const notes = scenario.notes.map((note, index) => [pathOf(note), textOf(note, index)] as const);
				const files = { ...Object.fromEntries(notes), ...extraFiles(notes.map(([path]) => path)) };
				const full = await writeVault(files);
				// The reference vault holds what the limited token may see: Projects alone, and its canvas
				// without the cards of notes outside it (a card of an outside note is dropped, never shown
				// as a missing file, so the canvas tells nothing of what lies outside).
				const reference = await writeVault(
					Object.fromEntries(
						Object.entries(files)
							.filter(([path]) => isInside(path) || path.startsWith(".obsidian/"))
							.map(([path, text]) => [path, path.endsWith(".canvas") ? withoutOutsideCards(text) : text]),
					),
				);
				const promptsFolder = scenario.promptsInside ? "Projects/Prompts" : "Prompts";
				const limited = await serve(full.root, ["Projects"], promptsFolder);
				const whole = await serve(reference.root, [], promptsFolder);
				try {
					const outsidePaths = Object.keys(files).filter((path) => !isInside(path) && !path.startsWith(".obsidian/"));
					const pool = stringPool(Object.keys(files));
					const { tools } = await limited.client.listTools();
					expect((await whole.client.listTools()).tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
					const reads = tools.filter((tool) => tool.annotations?.readOnlyHint === true);
					const writes = tools.filter((tool) => tool.annotations?.readOnlyHint !== true);
					// Each read tool at least once, then the generated picks; writes last, so reads compare on equal vaults.
					const calls = (list: Tool[], picks: readonly number[]): Call[] => {
						const chosen = [...list, ...picks.map((pick) => list[pick % list.length]!)];
						return chosen.map((tool, index) => ({
							tool: tool.name,
							args: fc.sample(argsFor(tool.inputSchema as JsonSchema, pool), { numRuns: 1, seed: scenario.seed + index })[0]!,
						}));
					};
					for (const call of calls(reads, scenario.picks)) {
						const seen = await callTool(limited.client, call.tool, call.args);
						expectNothingFromOutside(seen, outsidePaths, call.args, `${call.tool} ${JSON.stringify(call.args)}`);
						expect({ call, answer: seen }).toEqual({ call, answer: await callTool(whole.client, call.tool, call.args) });
					}
					// Resources: the list, the templates, each listed note, and every path by URI.
					const listed = await limited.client.listResources();
					expect(listed).toEqual(await whole.client.listResources());
					expect(await limited.client.listResourceTemplates()).toEqual(await whole.client.listResourceTemplates());
					for (const path of pool) {
						const uri = `vault-mcp://note/${path.split("/").map(encodeURIComponent).join("/")}`;
						const seen = await answerOf(() => limited.client.readResource({ uri }));
						expectNothingFromOutside(seen, outsidePaths, path, `resources/read ${uri}`);
						expect({ uri, seen }).toEqual({ uri, seen: await answerOf(() => whole.client.readResource({ uri })) });
					}
					// Prompts: the list and each prompt.
					const prompts = await answerOf(() => limited.client.listPrompts());
					expectNothingFromOutside(prompts, outsidePaths, "", "prompts/list");
					expect(prompts).toEqual(await answerOf(() => whole.client.listPrompts()));
					for (const name of ["Review", "Leak"]) {
						const seen = await answerOf(() => limited.client.getPrompt({ name }));
						expectNothingFromOutside(seen, outsidePaths, name, `prompts/get ${name}`);
						expect(seen).toEqual(await answerOf(() => whole.client.getPrompt({ name })));
					}
					// Writes: whatever they do inside, nothing outside changes and no answer names it.
					const before = await outsideSnapshot(full.root);
					for (const call of calls(writes, scenario.picks.slice(0, 6))) {
						const seen = await callTool(limited.client, call.tool, call.args);
						expectNothingFromOutside(seen, outsidePaths, call.args, `${call.tool} ${JSON.stringify(call.args)}`);
					}
					expect(await outsideSnapshot(full.root)).toEqual(before);
				} finally {
					await limited.stop();
					await whole.stop();
					await removeDir(full.parent);
					await removeDir(reference.parent);
				}
			}),
			{ numRuns: 6 },
		);
	}, 600_000);
});

describe("a token's folders are read at each call", () => {
	const files = { "Projects/Plan.md": "# Plan\n", "Archive/Old.md": "# Old\n\nold words\n", "Secret/Keep.md": "kept\n" };
	let vault: { parent: string; root: string };
	let host: NodeHost;
	let service: McpService;
	let settings: VaultMcpSettings;
	let token: string;
	/** Run when the person is asked; answers yes. */
	let whenAsked: () => Promise<void> = () => Promise.resolve();

	beforeEach(async () => {
		vault = await writeVault(files);
		host = await NodeHost.open(vault.root);
		settings = { ...defaultSettings(), serverEnabled: true, port: 0, writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 1_000_000 };
		const made = addToken(settings, "limited", "write", { append_to_note: "ask", create_note: "allow", rename_note: "allow" }, ["Projects", "Archive"]);
		if ("error" in made) throw new Error(made.error);
		settings = made.settings;
		token = made.token;
		whenAsked = () => Promise.resolve();
		service = new McpService({
			host,
			serverVersion: "test",
			logger: new RecordingLogger(),
			journal: JournalFile.forVault(vault.root, ".obsidian"),
			approver: {
				decide: async (_request, _signal, shown) => {
					shown();
					await whenAsked();
					return "approve";
				},
			},
		});
		await service.apply(settings);
	});
	afterEach(async () => {
		await service.stop();
		await host.close();
		await removeDir(vault.parent);
	});

	const url = () => (service.status.state === "listening" ? service.status.url : "");
	const narrowTo = async (folders: string[]) => {
		const changed = setTokenFolders(settings, "limited", folders);
		if ("error" in changed) throw new Error(changed.error);
		settings = changed.settings;
		await service.apply(settings);
	};

	test("narrowed while a write waits for the person: the approved write is refused and nothing is written", async () => {
		const client = await connectClient(url(), token);
		whenAsked = () => narrowTo(["Projects"]);
		const outcome = await callTool(client, "append_to_note", { path: "Archive/Old.md", content: "late line" });
		expect(outcome.ok).toBe(false);
		expect(outcome.ok ? "" : outcome.error).toMatch(/no longer allowed.*folders/u);
		expect(await fs.readFile(nodePath.join(vault.root, "Archive/Old.md"), "utf8")).toBe(files["Archive/Old.md"]);
		// The same connection's next call sees only Projects: Archive is as missing as Secret.
		const listed = await callTool(client, "list_notes", { limit: 100 });
		expect(listed.ok && (listed.value.notes as Array<{ path: string }>).map((note) => note.path)).toEqual(["Projects/Plan.md"]);
		const archive = await callTool(client, "read_note", { path: "Archive/Old.md" });
		const secret = await callTool(client, "read_note", { path: "Secret/Keep.md" });
		expect(archive.ok ? "" : archive.error.replace("Archive/Old.md", "X")).toBe(secret.ok ? "" : secret.error.replace("Secret/Keep.md", "X"));
		await client.close();
	});

	test("a folder excluded for everyone while a write waits for the person: the approved write is refused and nothing is written", async () => {
		const client = await connectClient(url(), token);
		whenAsked = async () => {
			settings = { ...settings, excludedFolders: ["Archive"] };
			await service.apply(settings);
		};
		const outcome = await callTool(client, "append_to_note", { path: "Archive/Old.md", content: "late line" });
		expect(outcome.ok ? "" : outcome.error).toMatch(/no longer allowed.*folders/u);
		expect(await fs.readFile(nodePath.join(vault.root, "Archive/Old.md"), "utf8")).toBe(files["Archive/Old.md"]);
		await client.close();
	});

	test("writes and moves outside its folders are refused as excluded folders are, and change nothing", async () => {
		await narrowTo(["Projects"]);
		const client = await connectClient(url(), token);
		const created = await callTool(client, "create_note", { path: "Secret/New.md", content: "x" });
		const moved = await callTool(client, "rename_note", { path: "Projects/Plan.md", new_path: "Secret/Plan.md" });
		const appended = await callTool(client, "create_note", { path: "Secret/Keep.md", content: "y", overwrite: true });
		for (const outcome of [created, moved, appended])
			expect(outcome.ok ? "" : outcome.error).toMatch(/is in a folder this server does not give access to/u);
		// The same answer whether the note exists or not: the refusal tells nothing of what is there.
		expect(appended.ok ? "" : appended.error.replace("Keep", "New")).toBe(created.ok ? "" : created.error);
		expect(await outsideSnapshot(vault.root)).toEqual({ "Archive/Old.md": files["Archive/Old.md"], "Secret/Keep.md": files["Secret/Keep.md"] });
		expect(await fs.readFile(nodePath.join(vault.root, "Projects/Plan.md"), "utf8")).toBe(files["Projects/Plan.md"]);
		// The same refusal as a folder excluded for everyone.
		await service.apply({ ...settings, excludedFolders: ["Secret"], tokens: settings.tokens.map(({ folders: _folders, ...record }) => record) });
		const excluded = await callTool(client, "create_note", { path: "Secret/New.md", content: "x" });
		expect(excluded).toEqual(created);
		await client.close();
	});
});

describe("a token's search ranks as over its folders alone", () => {
	test("more words outside its folders than a word's forms are looked for among change no score it sees", async () => {
		// "ru0000"… sort before "running": counted against the bound on the words looked at for the
		// forms of "run", they kept "running" from counting as a form, which lowered its note's score.
		const outside = Array.from({ length: MAX_WORD_FORM_CANDIDATES + 1 }, (_, index) => `ru${String(index).padStart(4, "0")}`).join(" ");
		const inside = { "Projects/Fast.md": "running fast today\n", "Projects/Daily.md": "we run daily\n", "Projects/Gem.md": "ruby\n" };
		const full = await writeVault({ ...inside, "Secret/Words.md": `${outside}\n` });
		const reference = await writeVault(inside);
		const limited = await serve(full.root, ["Projects"], "Prompts");
		const whole = await serve(reference.root, [], "Prompts");
		try {
			for (const query of ["run", "runs", "running fast"]) {
				const seen = await callTool(limited.client, "search_notes", { query });
				expect({ query, seen }).toEqual({ query, seen: await callTool(whole.client, "search_notes", { query }) });
			}
		} finally {
			await limited.stop();
			await whole.stop();
			await removeDir(full.parent);
			await removeDir(reference.parent);
		}
	});

	test("the words of a note moved into an excluded folder while serving change no score either", async () => {
		// The dictionary keeps a word once no note holds it: "ru0000"… of a note moved into Private
		// still took the places of the words looked at for the forms of "run", on every search.
		const words = Array.from({ length: MAX_WORD_FORM_CANDIDATES + 1 }, (_, index) => `ru${String(index).padStart(4, "0")}`).join(" ");
		const inside = { "Projects/Fast.md": "running fast today\n", "Projects/Daily.md": "we run daily\n", "Projects/Gem.md": "ruby\n" };
		const moving = await writeVault({ ...inside, "Notes/Words.md": `${words}\n` });
		const reference = await writeVault({ ...inside, "Private/Words.md": `${words}\n` });
		const served = await serve(moving.root, [], "Prompts", { excludedFolders: ["Private"], watch: true });
		const whole = await serve(reference.root, [], "Prompts", { excludedFolders: ["Private"] });
		try {
			await fs.mkdir(nodePath.join(moving.root, "Private"));
			await fs.rename(nodePath.join(moving.root, "Notes/Words.md"), nodePath.join(moving.root, "Private/Words.md"));
			const deadline = Date.now() + 10_000;
			while (JSON.stringify(await callTool(served.client, "list_notes", {})).includes("Words")) {
				if (Date.now() > deadline) throw new Error("the moved note was still found");
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			for (const query of ["run", "runs", "running fast"]) {
				const seen = await callTool(served.client, "search_notes", { query });
				expect({ query, seen }).toEqual({ query, seen: await callTool(whole.client, "search_notes", { query }) });
			}
		} finally {
			await served.stop();
			await whole.stop();
			await removeDir(moving.parent);
			await removeDir(reference.parent);
		}
	});

	test("more words outside its folders than a prefix stands for change no answer it sees", async () => {
		// A prefix stands for its PREFIX_MAX_WORDS shortest words: "ru0000"… (6 letters) of a note outside the token's
		// folders took all the places before "running" (7), so its note was not found by "ru" for the token only.
		const outside = Array.from({ length: PREFIX_MAX_WORDS + 1 }, (_, index) => `ru${String(index).padStart(4, "0")}`).join(" ");
		const inside = { "Projects/Fast.md": "running fast today\n", "Projects/Daily.md": "we run daily\n", "Projects/Gem.md": "ruby\n" };
		const full = await writeVault({ ...inside, "Secret/Words.md": `${outside}\n` });
		const reference = await writeVault(inside);
		const limited = await serve(full.root, ["Projects"], "Prompts");
		const whole = await serve(reference.root, [], "Prompts");
		try {
			for (const query of ["ru", "ru fast", "fast ru"]) {
				const seen = await callTool(limited.client, "search_notes", { query });
				expect({ query, seen }).toEqual({ query, seen: await callTool(whole.client, "search_notes", { query }) });
			}
		} finally {
			await limited.stop();
			await whole.stop();
			await removeDir(full.parent);
			await removeDir(reference.parent);
		}
	});

	test("the words of a note moved into an excluded folder take no place of a prefix's words", async () => {
		// The dictionary keeps a word once no note holds it: "ru0000"… of a note moved into Private still filled the
		// PREFIX_MAX_WORDS places of "ru" before "running".
		const words = Array.from({ length: PREFIX_MAX_WORDS + 1 }, (_, index) => `ru${String(index).padStart(4, "0")}`).join(" ");
		const inside = { "Projects/Fast.md": "running fast today\n", "Projects/Daily.md": "we run daily\n", "Projects/Gem.md": "ruby\n" };
		const moving = await writeVault({ ...inside, "Notes/Words.md": `${words}\n` });
		const reference = await writeVault({ ...inside, "Private/Words.md": `${words}\n` });
		const served = await serve(moving.root, [], "Prompts", { excludedFolders: ["Private"], watch: true });
		const whole = await serve(reference.root, [], "Prompts", { excludedFolders: ["Private"] });
		try {
			await fs.mkdir(nodePath.join(moving.root, "Private"));
			await fs.rename(nodePath.join(moving.root, "Notes/Words.md"), nodePath.join(moving.root, "Private/Words.md"));
			const deadline = Date.now() + 10_000;
			while (JSON.stringify(await callTool(served.client, "list_notes", {})).includes("Words")) {
				if (Date.now() > deadline) throw new Error("the moved note was still found");
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			for (const query of ["ru", "ru fast"]) {
				const seen = await callTool(served.client, "search_notes", { query });
				expect({ query, seen }).toEqual({ query, seen: await callTool(whole.client, "search_notes", { query }) });
			}
		} finally {
			await served.stop();
			await whole.stop();
			await removeDir(moving.parent);
			await removeDir(reference.parent);
		}
	});
});
