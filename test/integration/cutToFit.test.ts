/**
 * A planted string of megabytes in what a tool answers (a link's subpath, a canvas card, a task)
 * put the whole answer over MAX_RESPONSE_BYTES, so the note or canvas could never be looked at
 * through the server: the answer is now cut to fit, its longest strings cut short and named in
 * `cut_to_fit`. And text cut at MAX_NOTE_CONTENT_BYTES says so wherever it goes out (resources, prompts).
 * The real SDK client over real HTTP.
 */
import { existsSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { MAX_NOTE_CONTENT_BYTES, MAX_RESPONSE_BYTES, MAX_TASK_TEXT_LENGTH } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const HEADING = "heading ".repeat(400_000);
const CARD = "card text ".repeat(440_000);
/** A task text just under the longest list_tasks sends whole (MAX_TASK_TEXT_LENGTH): as JSON each backslash takes 2 bytes, and 6 in the answer's text. */
const TASK = "\\".repeat(MAX_TASK_TEXT_LENGTH - 100);
const PLANTED_TASKS = 300;

const FILES = {
	"Target.md": "# Target\n",
	"Planted.md": `See [[Target#${HEADING}]] and [[Target]].\n`,
	"Board.canvas": JSON.stringify({
		nodes: [
			{ id: "big", type: "text", text: CARD, x: 0, y: 0, width: 10, height: 10 },
			{ id: "small", type: "text", text: "Ask about [[Target]]", x: 20, y: 0, width: 10, height: 10 },
		],
		edges: [{ id: "e", fromNode: "small", toNode: "big" }],
	}),
	"Tasks.md": `${`- [ ] ${TASK}\n`.repeat(PLANTED_TASKS)}- [ ] water the herbs\n`,
	"Breaks.md": `# Breaks\n${"\n".repeat(1_000_000)}end\n`,
	"Prompts/Long.md": `Summarise this:${"\n".repeat(1_000_000)}end\n`,
	"Prompts/Short.md": "Summarise {{topic}}.\n",
};

interface CutToFit {
	strings: string[];
	total: number;
}

describe("answers carrying a planted string of megabytes", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault(FILES);
		running = await startService(vault, { settings: { rateLimitPerMinute: 1_000_000, promptsFolder: "Prompts" } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 60_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	/** The raw result (the size checked as it came), and its structured content. */
	async function answered<T>(name: string, args: Record<string, unknown>): Promise<T & { cut_to_fit?: CutToFit }> {
		const result = (await client.callTool({ name, arguments: args })) as {
			isError?: boolean;
			content: Array<{ text: string }>;
			structuredContent: unknown;
		};
		expect(result.isError ?? false).toBe(false);
		expect(Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }))).toBeLessThanOrEqual(
			MAX_RESPONSE_BYTES,
		);
		// The text is the structured content, cut the same.
		expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
		return result.structuredContent as T & { cut_to_fit?: CutToFit };
	}

	test("get_note_links of a note linking to a heading of 3 MB lists its links, the long one cut and named (it answered 'over 2 MiB')", async () => {
		const links = await answered<{ outgoing: Array<{ link: string; target: string | null }> }>("get_note_links", { path: "Planted" });
		expect(links.outgoing).toHaveLength(2);
		const [long, short] = links.outgoing;
		expect(`Target#${HEADING}`.startsWith(long!.link)).toBe(true);
		expect(long!.link.length).toBeGreaterThan(100_000);
		expect(long!.target).toBe("Target.md");
		expect(short).toEqual({ link: "Target", target: "Target.md", line: 0 });
		expect(links.cut_to_fit).toEqual({ strings: ["/outgoing/0/link"], total: 1 });
		// An answer that fits is sent whole, with no such field.
		expect(await answered<Record<string, unknown>>("get_note_links", { path: "Target" })).not.toHaveProperty("cut_to_fit");
	}, 60_000);

	test("read_canvas of a canvas with a text card of 4.4 MB gives every card and edge, the long text cut and named (it answered 'over 2 MiB')", async () => {
		const canvas = await answered<{ nodes: Array<{ id: string; text?: string }>; edges: Array<{ id: string }> }>("read_canvas", { path: "Board.canvas" });
		expect(canvas.nodes.map((node) => node.id)).toEqual(["big", "small"]);
		expect(CARD.startsWith(canvas.nodes[0]!.text!)).toBe(true);
		expect(canvas.nodes[0]!.text!.length).toBeGreaterThan(100_000);
		expect(canvas.nodes[1]!.text).toBe("Ask about [[Target]]");
		expect(canvas.edges.map((edge) => edge.id)).toEqual(["e"]);
		expect(canvas.cut_to_fit).toEqual({ strings: ["/nodes/0/text"], total: 1 });
	}, 60_000);

	test("list_tasks of 300 planted tasks, each under the longest task text sent whole, lists every task, the long ones cut and named", async () => {
		const tasks = await answered<{ tasks: Array<{ path: string; text: string }> }>("list_tasks", { path: "Tasks", limit: PLANTED_TASKS + 1 });
		expect(tasks.tasks).toHaveLength(PLANTED_TASKS + 1);
		for (const task of tasks.tasks.slice(0, PLANTED_TASKS)) expect(TASK.startsWith(task.text) && task.text.length < TASK.length).toBe(true);
		expect(tasks.tasks[PLANTED_TASKS]!.text).toBe("water the herbs");
		expect(tasks.cut_to_fit?.total).toBe(PLANTED_TASKS);
	}, 60_000);

	test("the instructions a client gets at initialize say what cut_to_fit is and how to read the rest (no client was told)", () => {
		const instructions = client.getInstructions() ?? "";
		expect(instructions).toMatch(/cut short, listed in cut_to_fit as JSON Pointers: read that note with read_note/);
	});

	test("resources/read of a note cut at the bound says so, in its text and in _meta (it was cut silently)", async () => {
		const read = await client.readResource({ uri: "vault-mcp://note/Breaks.md" });
		const content = read.contents[0] as { text: string; _meta?: Record<string, unknown> };
		expect(content._meta).toEqual({ truncated: true });
		const notice = content.text.slice(content.text.lastIndexOf("\n\n[Vault MCP:"));
		expect(notice).toContain("the note is cut here");
		expect(FILES["Breaks.md"].startsWith(content.text.slice(0, -notice.length))).toBe(true);
		expect(Buffer.byteLength(JSON.stringify(content.text.slice(0, -notice.length))) - 2).toBeLessThanOrEqual(MAX_NOTE_CONTENT_BYTES);
		const whole = await client.readResource({ uri: "vault-mcp://note/Target.md" });
		expect(whole.contents[0]).toEqual({ uri: "vault-mcp://note/Target.md", mimeType: "text/markdown", text: "# Target\n" });
	}, 60_000);

	test("prompts/get of a prompt note cut at the bound says so at its end (it was cut silently); a short one is unchanged", async () => {
		const long = await client.getPrompt({ name: "Long" });
		const text = (long.messages[0]!.content as { text: string }).text;
		expect(text.startsWith("Summarise this:\n")).toBe(true);
		expect(text).toMatch(/\n\n\[Vault MCP: this prompt's note is cut here, at 512 KiB as JSON\.\]$/);
		const short = await client.getPrompt({ name: "Short", arguments: { topic: "the garden" } });
		expect((short.messages[0]!.content as { text: string }).text).toBe("Summarise the garden.\n");
	}, 60_000);
});

/** The value a JSON Pointer (RFC 6901) names, or undefined when it names nothing. */
function at(value: unknown, pointer: string): unknown {
	return pointer
		.split("/")
		.slice(1)
		.map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
		.reduce<unknown>(
			(inside, part) =>
				inside !== null && typeof inside === "object" && Object.hasOwn(inside, part) ? (inside as Record<string, unknown>)[part] : undefined,
			value,
		);
}

describe("answers cut to fit whose keys are hostile", () => {
	/** Two keys of a property, alike for their first 25,000 characters: cut to one length, they were one key, and the second was dropped. */
	const LONG_KEY = "k".repeat(25_000);
	const ROWS = 40;
	const rowNote = (index: number) =>
		`---\nobj:\n  ? ${LONG_KEY}1\n  : one\n  ? ${LONG_KEY}2\n  : two\n  __proto__: proto\n  a/b~c: slash\n---\nRow ${index}.\n`;
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		const rows = Object.fromEntries(Array.from({ length: ROWS }, (_, index) => [`Rows/Row ${String(index).padStart(2, "0")}.md`, rowNote(index)]));
		vault = await makeVault({
			...rows,
			"Wide.base": `filters: 'file.inFolder("Rows")'\nviews:\n  - type: table\n    name: Objects\n    order:\n      - file.name\n      - note.obj\n  - type: table\n    name: Columns\n    order:\n      - file.name\n      - note.${LONG_KEY}1\n      - note.${LONG_KEY}2\n`,
		});
		running = await startService(vault, { settings: { rateLimitPerMinute: 1_000_000 } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 60_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	/** The answer as its JSON text says it (a parsed `__proto__` stays a key), and its size checked. */
	async function answeredText(name: string, args: Record<string, unknown>): Promise<Record<string, unknown> & { cut_to_fit: CutToFit }> {
		const result = (await client.callTool({ name, arguments: args })) as {
			isError?: boolean;
			content: Array<{ text: string }>;
			structuredContent: unknown;
		};
		expect(result.isError ?? false).toBe(false);
		expect(Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }))).toBeLessThanOrEqual(
			MAX_RESPONSE_BYTES,
		);
		return JSON.parse(result.content[0]!.text) as Record<string, unknown> & { cut_to_fit: CutToFit };
	}

	/** Every pointer listed names a value of the answer, no two alike (a pointer holds its keys as sent: one of a key cut to 12,000 characters may not fit in the list). */
	function expectPointersResolve(answer: Record<string, unknown>, cut: CutToFit): void {
		expect(new Set(cut.strings).size).toBe(cut.strings.length);
		for (const pointer of cut.strings) expect(at(answer, pointer)).toBeDefined();
	}

	test("query_base of properties whose keys are alike for their first 25,000 characters keeps both keys, each cut and named apart (the second was dropped)", async () => {
		const answer = await answeredText("query_base", { path: "Wide.base", view: "Objects", limit: ROWS });
		const rows = answer.rows as Array<{ values: Record<string, Record<string, string>> }>;
		expect(rows).toHaveLength(ROWS);
		for (const row of rows) {
			const obj = row.values["note.obj"]!;
			const keys = Object.keys(obj);
			expect(keys.length).toBe(4);
			expect(Object.values(obj)).toEqual(["one", "two", "proto", "slash"]);
			expect(Object.hasOwn(obj, "__proto__") && Object.hasOwn(obj, "a/b~c")).toBe(true);
			for (const key of keys.slice(0, 2)) expect(key.startsWith("k".repeat(1000)) && key.length < LONG_KEY.length).toBe(true);
		}
		expect(answer.cut_to_fit.total).toBe(2 * ROWS);
		expectPointersResolve(answer, answer.cut_to_fit);
	}, 60_000);

	test("query_base of two columns whose ids are alike for their first 25,000 characters answers both in every row, cut and named apart", async () => {
		const answer = await answeredText("query_base", { path: "Wide.base", view: "Columns", limit: ROWS });
		const rows = answer.rows as Array<{ values: Record<string, unknown> }>;
		expect(rows).toHaveLength(ROWS);
		for (const row of rows) expect(Object.keys(row.values).length).toBe(3);
		expect(answer.cut_to_fit.strings.length).toBeGreaterThan(0);
		expectPointersResolve(answer, answer.cut_to_fit);
	}, 60_000);
});

describe("answers cut to fit never cut a path they give", () => {
	/** A note of 984 characters of path (under MAX_PATH_LENGTH), most of them of 3 UTF-8 bytes, in folders of 238 bytes. */
	const LONG_PATH = `${Array.from({ length: 12 }, (_, index) => `${index % 10}${"語".repeat(79)}`).join("/")}/Task list.md`;
	/** Tasks of long texts (each backslash is 6 bytes of the result): 220 of them and their paths fit only with the texts cut. */
	const TASKS = 400;
	const taskText = (index: number) => `${index} ${"\\".repeat(MAX_TASK_TEXT_LENGTH - 100)}`;
	/** A planted note at every prefix of the long path a cut could leave (read_note of `A/B/Lon` reads `A/B/Lon.md`). */
	const planted = Object.fromEntries(
		Array.from({ length: LONG_PATH.length - 1 }, (_, end) => LONG_PATH.slice(0, end + 1))
			.filter((prefix) => prefix.length > 300 && !prefix.endsWith("/"))
			.map((prefix) => [`${prefix}.md`, "Planted.\n"]),
	);
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ ...planted, [LONG_PATH]: Array.from({ length: TASKS }, (_, index) => `- [ ] ${taskText(index)}\n`).join("") });
		running = await startService(vault, { settings: { rateLimitPerMinute: 1_000_000 } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 120_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	async function call(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; text: string; structured: Record<string, unknown> }> {
		const result = (await client.callTool({ name, arguments: args })) as {
			isError?: boolean;
			content: Array<{ text: string }>;
			structuredContent: unknown;
		};
		expect(Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }))).toBeLessThanOrEqual(
			MAX_RESPONSE_BYTES,
		);
		return { isError: result.isError, text: result.content[0]!.text, structured: result.structuredContent as Record<string, unknown> };
	}

	test("list_tasks of 220 long tasks in a note of a long path names that note, not a planted one at a prefix of its path (its path was cut to one)", async () => {
		const listed = await call("list_tasks", { path: LONG_PATH, limit: 220 });
		expect(listed.isError ?? false).toBe(false);
		const tasks = listed.structured.tasks as Array<{ path: string; text: string }>;
		expect(tasks).toHaveLength(220);
		// What a client that reads the path, not cut_to_fit, does next: the note it reads is the one holding the tasks.
		const read = await call("read_note", { path: tasks[0]!.path });
		expect(read.isError ?? false).toBe(false);
		expect(read.structured.content).not.toBe("Planted.\n");
		expect((read.structured.content as string).startsWith(`- [ ] ${taskText(0).slice(0, 100)}`)).toBe(true);
		for (const [index, task] of tasks.entries()) {
			expect(task.path).toBe(LONG_PATH);
			expect(taskText(index).startsWith(task.text)).toBe(true);
		}
		const cut = listed.structured.cut_to_fit as CutToFit;
		expect(cut.total).toBe(220);
		expect(cut.strings.every((pointer) => /^\/tasks\/\d+\/text$/.test(pointer))).toBe(true);
	}, 60_000);

	test("list_tasks of 400, whose paths alone leave too little room, sends those paths empty and named, never a part of one (it was refused)", async () => {
		const listed = await call("list_tasks", { path: LONG_PATH, limit: TASKS });
		expect(listed.isError ?? false).toBe(false);
		const tasks = listed.structured.tasks as Array<{ path: string; text: string }>;
		expect(tasks).toHaveLength(TASKS);
		for (const task of tasks) expect([LONG_PATH, ""]).toContain(task.path);
		const emptied = tasks.flatMap((task, index) => (task.path === "" ? [`/tasks/${index}/path`] : []));
		expect(emptied.length).toBeGreaterThan(0);
		const named = (listed.structured.cut_to_fit as CutToFit).strings.filter((pointer) => pointer.endsWith("/path"));
		expect(named).toEqual(emptied.slice(0, named.length));
		// What a client that reads the path, not cut_to_fit, does next: no note, never a planted one.
		expect((await call("read_note", { path: "" })).isError).toBe(true);
	}, 60_000);
});

describe("a tool with no limit to ask less with, whose paths alone do not fit", () => {
	/** A file card's path as its author wrote it: 60,000 characters (under MAX_VAULT_PATH_CHARS), 40 of them 4.8 MB of answer. */
	const cardFile = (index: number) => `Planted/${"x".repeat(60_000)}${index}.md`;
	const FILE_CARDS = 40;
	/** 300 notes, each 3,700 characters of path deep, whose frontmatter is too deeply nested to rewrite and links to Target. */
	const DEEP = Array.from({ length: 15 }, (_, index) => `${index}${"d".repeat(240)}`).join("/");
	const STALE = 300;
	const NESTED = `---\nx: ${"[".repeat(80)}"[[Target]]"${"]".repeat(80)}\n---\n[[Target]]\n`;
	/** A note of a thousand short links to a note in DEEP: 7 MB of targets, which get_note_links' limit (of backlinks) does not shorten. */
	const HUB = `${Array.from({ length: 1000 }, (_, index) => `[[n0#h${index}]]`).join("\n")}\n`;
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		const cards = Array.from({ length: FILE_CARDS }, (_, index) => ({
			id: `f${index}`,
			type: "file",
			file: cardFile(index),
			x: 0,
			y: 0,
			width: 1,
			height: 1,
		}));
		vault = await makeVault({
			"Target.md": "# Target\n",
			"Hub.md": HUB,
			"Linking.md": "[[Hub]]\n",
			"Cards.canvas": JSON.stringify({
				nodes: [...cards, { id: "mine", type: "text", text: "The person's own card", x: 0, y: 0, width: 1, height: 1 }],
				edges: [],
			}),
			...Object.fromEntries(Array.from({ length: STALE }, (_, index) => [`${DEEP}/n${index}.md`, NESTED])),
		});
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 1_000_000 } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.write ?? "");
	}, 120_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	async function answered(name: string, args: Record<string, unknown>): Promise<Record<string, unknown> & { cut_to_fit: CutToFit }> {
		const result = (await client.callTool({ name, arguments: args })) as {
			isError?: boolean;
			content: Array<{ text: string }>;
			structuredContent: unknown;
		};
		expect(result.isError ? result.content[0]!.text.slice(0, 300) : "answered").toBe("answered");
		expect(Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }))).toBeLessThanOrEqual(
			MAX_RESPONSE_BYTES,
		);
		expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
		return result.structuredContent as Record<string, unknown> & { cut_to_fit: CutToFit };
	}

	test("read_canvas of 40 file cards of 60,000-character paths gives every card, the paths sent empty and named (the canvas was refused: 'ask for less', and it has no limit)", async () => {
		const canvas = await answered("read_canvas", { path: "Cards.canvas" });
		const nodes = canvas.nodes as Array<{ id: string; file?: string; text?: string; exists?: boolean }>;
		expect(nodes).toHaveLength(FILE_CARDS + 1);
		expect(nodes[FILE_CARDS]).toMatchObject({ id: "mine", text: "The person's own card" });
		// Never a part of a path (a prefix can name another note): the whole of it, or nothing.
		for (const [index, node] of nodes.slice(0, FILE_CARDS).entries())
			expect([node.id, node.exists, ["", cardFile(index)].includes(node.file!)]).toEqual([`f${index}`, false, true]);
		const emptied = nodes.flatMap((node, index) => (node.file === "" ? [`/nodes/${index}/file`] : []));
		expect(emptied.length).toBeGreaterThan(0);
		expect(canvas.cut_to_fit).toEqual({ strings: emptied, total: emptied.length });
	}, 60_000);

	test("get_note_links of a note of a thousand links into a deep folder lists them and its backlinks, the targets sent empty and named (it was refused: its limit, of backlinks, cannot shorten them)", async () => {
		const links = await answered("get_note_links", { path: "Hub", limit: 1 });
		expect(links.backlinks).toEqual([{ path: "Linking.md", count: 1 }]);
		const outgoing = links.outgoing as Array<{ link: string; target: string | null }>;
		expect(outgoing).toHaveLength(1000);
		for (const link of outgoing) expect([`${DEEP}/n0.md`, ""]).toContain(link.target);
		expect(outgoing.filter((link) => link.target === "").length).toBeGreaterThan(0);
	}, 60_000);

	test("rename_note whose list of notes not rewritten is megabytes of paths answers the rename it made (it answered 'ask for less' after moving the note)", async () => {
		const renamed = await answered("rename_note", { path: "Target.md", new_path: "Moved.md" });
		expect(renamed).toMatchObject({ path: "Target.md", new_path: "Moved.md", notes_updated: STALE });
		const stale = renamed.frontmatter_not_rewritten as string[];
		expect(stale).toHaveLength(STALE);
		for (const path of stale) expect(path === "" || (path.startsWith(`${DEEP}/n`) && path.endsWith(".md"))).toBe(true);
		// The last ones are sent empty, as many as must be: the first stay whole.
		expect(stale[0]).not.toBe("");
		expect(stale.indexOf("")).toBe(STALE - renamed.cut_to_fit.total);
		expect(renamed.cut_to_fit.total).toBe(stale.filter((path) => path === "").length);
		expect(renamed.cut_to_fit.total).toBeGreaterThan(0);
		expect(existsSync(nodePath.join(vault, "Moved.md"))).toBe(true);
	}, 120_000);
});

describe("answers cut to fit never cut a link's note or a base's file cell into a prefix naming another note", () => {
	/** Folders of 237 bytes each (the most a name holds is 255), and notes of about 970 characters of path, most of them of 3 UTF-8 bytes. */
	const DIR = Array.from({ length: 11 }, (_, index) => `${index}${"語".repeat(79)}`).join("/");
	const ROWS = 130;
	const rowPath = (index: number) => `${DIR}/${String(index).padStart(3, "0")} ${"語".repeat(75)}.md`;
	/** Long enough to be cut: the answers go over MAX_RESPONSE_BYTES only with them. */
	const TAIL = 3_000;
	const LONG_LINKS = 5;
	const SHORT_LINKS = 495;
	const linkPath = rowPath(0).slice(0, -".md".length);
	/** A planted note at every prefix of the first row's path a cut could leave. */
	const planted = Object.fromEntries(
		Array.from({ length: linkPath.length - 1 }, (_, end) => linkPath.slice(0, end + 1))
			.filter((prefix) => prefix.length > 300 && !prefix.endsWith("/"))
			.map((prefix) => [`${prefix}.md`, "Planted.\n"]),
	);
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		const rows = Object.fromEntries(
			Array.from({ length: ROWS }, (_, index) => [rowPath(index), `---\ntags: [row]\nlong: ${"x".repeat(TAIL)}\n---\nRow ${index}.\n`]),
		);
		vault = await makeVault({
			...planted,
			...rows,
			"Short.md": "# Short\n",
			"Links.md": `${`[[${linkPath}#${"h".repeat(TAIL)}]]\n`.repeat(LONG_LINKS)}${`[[Short#${"h".repeat(TAIL)}]]\n`.repeat(SHORT_LINKS)}`,
			"Rows.base": `filters: 'file.hasTag("row")'\nformulas:\n  me: 'file'\n  p: 'file.path'\n  named: 'file.folder + "/" + file.basename'\nviews:\n  - type: table\n    name: Rows\n    order:\n      - formula.me\n      - note.long\n  - type: table\n    name: Paths\n    order:\n      - file.path\n      - file.basename\n      - note.long\n  - type: table\n    name: Formula\n    order:\n      - formula.p\n      - note.long\n  - type: table\n    name: Formulas\n    order:\n      - formula.named\n      - note.long\n  - type: table\n    name: Folders\n    order:\n      - file.folder\n      - note.long\n  - type: table\n    name: Grouped\n    groupBy:\n      property: file.path\n      direction: ASC\n    order:\n      - note.long\n`,
		});
		running = await startService(vault, { settings: { rateLimitPerMinute: 1_000_000 } });
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	}, 120_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	async function answered(name: string, args: Record<string, unknown>): Promise<Record<string, unknown> & { cut_to_fit?: CutToFit }> {
		const result = (await client.callTool({ name, arguments: args })) as {
			isError?: boolean;
			content: Array<{ text: string }>;
			structuredContent: unknown;
		};
		expect(Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }))).toBeLessThanOrEqual(
			MAX_RESPONSE_BYTES,
		);
		expect(result.isError ?? false).toBe(false);
		return result.structuredContent as Record<string, unknown> & { cut_to_fit?: CutToFit };
	}

	test("get_note_links of 500 links with long headings keeps each link's note whole, cutting only the heading (the text was cut inside the note's path)", async () => {
		const links = await answered("get_note_links", { path: "Links" });
		const outgoing = links.outgoing as Array<{ link: string; target: string | null }>;
		expect(outgoing).toHaveLength(LONG_LINKS + SHORT_LINKS);
		for (const link of outgoing.slice(0, LONG_LINKS)) {
			expect(link.link.startsWith(`${linkPath}#h`)).toBe(true);
			expect(link.link.length).toBeLessThan(linkPath.length + 1 + TAIL);
			expect(link.target).toBe(rowPath(0));
		}
		for (const link of outgoing.slice(LONG_LINKS)) expect(link.link.startsWith("Short#h") && link.link.length < 7 + TAIL).toBe(true);
		expect(links.cut_to_fit?.total).toBe(LONG_LINKS + SHORT_LINKS);
		// What a client that reads the link's note, not cut_to_fit, does next: the note it reads is the one linked.
		const read = await answered("read_note", { path: outgoing[0]!.link.split("#")[0]! });
		expect(read.content).toBe("---\ntags: [row]\nlong: " + "x".repeat(TAIL) + "\n---\nRow 0.\n");
	}, 60_000);

	test(`query_base of ${ROWS} rows keeps each cell that is a file whole, cutting the text beside it (the cell was cut to a prefix of the path)`, async () => {
		const answer = await answered("query_base", { path: "Rows.base", limit: ROWS });
		const rows = answer.rows as Array<{ path: string; values: Record<string, string> }>;
		expect(rows).toHaveLength(ROWS);
		for (const [index, row] of rows.entries()) {
			expect(row.path).toBe(rowPath(index));
			expect(row.values["formula.me"]).toBe(row.path);
			expect(row.values["note.long"]!.length).toBeLessThan(TAIL);
		}
		expect(answer.cut_to_fit?.total).toBe(ROWS);
		expect(answer.cut_to_fit?.strings.every((pointer) => pointer.endsWith("/note.long"))).toBe(true);
	}, 60_000);

	test.each<[string, string[]]>([
		["Paths", ["file.path", "file.basename"]],
		["Formula", ["formula.p"]],
		["Formulas", ["formula.named"]],
	])(
		`query_base of ${ROWS} rows (view %s) keeps each cell that is a path only as text (file.path, a name, a formula making a path) whole, cutting the text beside it (it was cut to a prefix naming a planted note)`,
		async (view, columns) => {
			const answer = await answered("query_base", { path: "Rows.base", view, limit: ROWS });
			const rows = answer.rows as Array<{ path: string; values: Record<string, string> }>;
			expect(rows).toHaveLength(ROWS);
			const whole = (path: string): Record<string, string> => ({
				"file.path": path,
				"file.basename": nodePath.posix.basename(path, ".md"),
				"formula.p": path,
				"formula.named": path.slice(0, -".md".length),
			});
			for (const [index, row] of rows.entries()) {
				expect(row.path).toBe(rowPath(index));
				for (const column of columns) expect([column, row.values[column]]).toEqual([column, whole(row.path)[column]]);
				expect(row.values["note.long"]!.length).toBeLessThan(TAIL);
			}
			expect(answer.cut_to_fit?.total).toBe(ROWS);
			expect(answer.cut_to_fit?.strings.every((pointer) => pointer.endsWith("/note.long"))).toBe(true);
			// What a client that reads the cell, not cut_to_fit, does next: the note it reads is the row's.
			const read = await answered("read_note", { path: rows[0]!.values[columns[0]!]! });
			expect(read.content).toBe("---\ntags: [row]\nlong: " + "x".repeat(TAIL) + "\n---\nRow 0.\n");
		},
		60_000,
	);

	test(`query_base of ${ROWS} rows keeps each file.folder cell, a folder's path given as text, whole (it was cut to a prefix naming another folder)`, async () => {
		const answer = await answered("query_base", { path: "Rows.base", view: "Folders", limit: ROWS });
		const rows = answer.rows as Array<{ path: string; values: Record<string, string> }>;
		expect(rows).toHaveLength(ROWS);
		for (const row of rows) {
			expect(row.values["file.folder"]).toBe(DIR);
			expect(row.values["note.long"]!.length).toBeLessThan(TAIL);
		}
		expect(answer.cut_to_fit?.strings.every((pointer) => pointer.endsWith("/note.long"))).toBe(true);
	}, 60_000);

	test(`query_base of ${ROWS} rows grouped by file.path keeps each group, a path given as text, whole (it was cut to a prefix naming a planted note)`, async () => {
		const answer = await answered("query_base", { path: "Rows.base", view: "Grouped", limit: ROWS });
		const rows = answer.rows as Array<{ path: string; group: string; values: Record<string, string> }>;
		expect(rows).toHaveLength(ROWS);
		for (const [index, row] of rows.entries()) {
			expect(row.path).toBe(rowPath(index));
			expect(row.group).toBe(row.path);
			expect(row.values["note.long"]!.length).toBeLessThan(TAIL);
		}
		expect(answer.cut_to_fit?.strings.every((pointer) => pointer.endsWith("/note.long"))).toBe(true);
	}, 60_000);
});
