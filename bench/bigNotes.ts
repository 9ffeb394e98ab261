/**
 * One call on the biggest notes the server edits or reads (`npm run bench -- --only bignotes`):
 * for each tool, how long the call took and the longest stretch it held the event loop in one
 * piece (the server's, measured in its own process with `monitorEventLoopDelay`). Inside Obsidian
 * that loop is the interface thread, and another client's request waits behind the longest hold.
 */
import { benchSettings } from "./benchSettings";
import { Agent } from "node:http";
import { promises as fs } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import * as os from "node:os";
import * as nodePath from "node:path";
import { addToken } from "../src/auth/tokenList";
import { MAX_EDITED_NOTE_CHARS, MAX_EDITED_NOTE_LINES } from "../src/config/limits";
import { NodeHost } from "../src/headless/NodeHost";
import { JournalFile } from "../src/journal/JournalFile";
import { McpService } from "../src/service";
import { call } from "./vaultWide";

/** Calls of each tool; the rows are their medians. */
const ROUNDS = Number(process.env.BENCH_BIGNOTES_ROUNDS ?? "3");
/** `BENCH_BIGNOTES_TOOLS=read_note,add_task` runs only the calls of those tools. */
const ONLY_TOOLS = process.env.BENCH_BIGNOTES_TOOLS?.split(",") ?? null;
/** Lines in the big edited note: just under the edit bound, as a hostile author would make it. */
const BIG_LINES = MAX_EDITED_NOTE_LINES - 2_000;
/** Links in the note that links to Hub (rename_note rewrites each). */
const HUB_LINKS = 30_000;
/** The read-only note: five times the edit bound, at the search bound. */
const HUGE_BYTES = 5 * 1024 * 1024;

export interface BigNoteRow {
	metric: string;
	value: number;
	unit: string;
}

/** The big edited note: headings, bullets and tasks, BIG_LINES lines, under MAX_EDITED_NOTE_CHARS. */
function bigNoteText(): { text: string; taskLines: Array<{ line: number; text: string }> } {
	const lines = ["---", "mode: outliner", "tags: [big]", "---", "# Big"];
	const taskLines: Array<{ line: number; text: string }> = [];
	for (let index = 0; lines.length < BIG_LINES; index++) {
		if (index % 100 === 0) lines.push(`## Part ${index / 100}`);
		else if (index % 4 === 1) {
			taskLines.push({ line: lines.length, text: `task ${index} #t 📅 2026-01-0${1 + (index % 9)}` });
			lines.push(`- [ ] ${taskLines[taskLines.length - 1]?.text ?? ""}`);
		} else if (index % 4 === 2) lines.push(`- bullet ${index} [[N${index % 50}]]`);
		else lines.push(`text ${index}`);
	}
	const text = lines.join("\n") + "\n";
	if (text.length > MAX_EDITED_NOTE_CHARS) throw new Error(`the big note is ${text.length} characters, over the edit bound`);
	return { text, taskLines };
}

/** The server over `root` as `serve` runs it (the journal on disk), with one write token every tool is allowed to. */
async function startWriteServer(root: string): Promise<{ host: NodeHost; port: number; token: string; stop: () => Promise<void> }> {
	const host = await NodeHost.open(root);
	const journal = JournalFile.forVault(root, ".obsidian");
	const base = benchSettings(true);
	const write = addToken(base, "bench-write", "write");
	if ("error" in write) throw new Error(write.error);
	const service = new McpService({ host, serverVersion: "bench", logger: { info: () => undefined, warn: () => undefined, error: () => undefined }, journal });
	const status = await service.apply(write.settings);
	if (status.state !== "listening") throw new Error("service did not start");
	await service.search?.whenReady();
	const stop = async () => {
		await service.stop();
		journal.close();
		await host.close();
		await fs.rm(root, { recursive: true, force: true });
	};
	return { host, port: status.port, token: write.token, stop };
}

function median(samples: readonly number[]): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Times one call: wall time and the longest the event loop was held while it ran. */
async function measured(run: () => Promise<string>): Promise<{ wallMs: number; holdMs: number; text: string }> {
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	histogram.enable();
	const started = performance.now();
	const text = await run();
	const wallMs = performance.now() - started;
	histogram.disable();
	return { wallMs, holdMs: histogram.max / 1e6, text };
}

/** The rows: each tool's call on the big notes, wall time and longest hold (medians of ROUNDS). */
export async function benchBigNotes(): Promise<BigNoteRow[]> {
	const rows: BigNoteRow[] = [];
	const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), "vault-mcp-bench-bignotes-"));
	const big = bigNoteText();
	await fs.writeFile(nodePath.join(root, "Big.md"), big.text);
	const hugeLine = "lorem ipsum dolor sit amet consectetur adipiscing\n";
	await fs.writeFile(nodePath.join(root, "Huge.md"), hugeLine.repeat(Math.floor(HUGE_BYTES / hugeLine.length)));
	await fs.writeFile(nodePath.join(root, "Hub.md"), "# Hub\n");
	await fs.writeFile(
		nodePath.join(root, "Links.md"),
		Array.from({ length: HUB_LINKS }, (_, index) => `- [[Hub]] and [[Elsewhere ${index}]]`).join("\n") + "\n",
	);
	for (let index = 0; index < 50; index++) await fs.writeFile(nodePath.join(root, `N${index}.md`), `# N${index}\n\n- [ ] small task ${index}\n`);
	const { host, port, token, stop } = await startWriteServer(root);
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	const calls: Array<[string, (round: number) => Record<string, unknown>]> = [
		["read_note", () => ({ path: "Big.md" })],
		["read_note", () => ({ path: "Huge.md" })],
		["read_note", () => ({ path: "Big.md#Part 400" })],
		["get_note_links", () => ({ path: "Links.md" })],
		["search_notes", () => ({ query: "task bullet", limit: 50 })],
		["list_tasks", () => ({ status: "any", limit: 1000 })],
		["list_tags", () => ({})],
		["get_graph_stats", () => ({})],
		["append_to_note", (round) => ({ path: "Big.md", content: `appended ${round}` })],
		["append_to_note", (round) => ({ path: "Big.md", heading: "Part 200", content: `under a heading ${round}` })],
		["insert_under_bullet", (round) => ({ path: "Big.md", bullet: "bullet 20002 [[N2]]", content: `inserted ${round}` })],
		["add_task", (round) => ({ path: "Big.md", text: `added ${round}` })],
		["add_task", (round) => ({ path: "Big.md", heading: "Part 300", text: `added under ${round}` })],
		["set_property", (round) => ({ path: "Big.md", name: "round", value: round })],
		["create_note", (round) => ({ path: `Created ${round}.md`, content: big.text.slice(0, 900_000) })],
		["rename_note", (round) => (round % 2 === 0 ? { path: "Hub.md", new_path: "Centre.md" } : { path: "Centre.md", new_path: "Hub.md" })],
	];
	try {
		for (const [tool, args] of calls) {
			if (ONLY_TOOLS !== null && !ONLY_TOOLS.includes(tool)) continue;
			const walls: number[] = [];
			const holds: number[] = [];
			let label = "";
			for (let round = 0; round < ROUNDS; round++) {
				const given = args(round);
				label = JSON.stringify({
					...given,
					content: typeof given.content === "string" && given.content.length > 40 ? `${given.content.length} chars` : given.content,
				});
				const { wallMs, holdMs, text } = await measured(() => call(port, token, tool, given, agent));
				if (text.includes('"isError":true')) console.error(`${tool} failed: ${text.slice(0, 300)}`);
				walls.push(wallMs);
				holds.push(holdMs);
				await host.metadataCache.settled();
			}
			rows.push({ metric: `${tool} ${label}: call`, value: median(walls), unit: "ms" });
			rows.push({ metric: `${tool} ${label}: longest hold`, value: median(holds), unit: "ms" });
		}
		// complete_task takes a task line that is still open each round.
		if (ONLY_TOOLS === null || ONLY_TOOLS.includes("complete_task")) {
			const walls: number[] = [];
			const holds: number[] = [];
			for (let round = 0; round < ROUNDS; round++) {
				const current = (await fs.readFile(nodePath.join(root, "Big.md"), "utf8")).split("\n");
				const task = big.taskLines[big.taskLines.length - 1 - round * 7] ?? { text: "", line: 0 };
				const line = current.findIndex((text) => text === `- [ ] ${task.text}`);
				const { wallMs, holdMs, text } = await measured(() => call(port, token, "complete_task", { path: "Big.md", line, text: task.text }, agent));
				if (text.includes('"isError":true')) console.error(`complete_task failed: ${text.slice(0, 300)}`);
				walls.push(wallMs);
				holds.push(holdMs);
				await host.metadataCache.settled();
			}
			rows.push({ metric: "complete_task on Big.md: call", value: median(walls), unit: "ms" });
			rows.push({ metric: "complete_task on Big.md: longest hold", value: median(holds), unit: "ms" });
		}
	} finally {
		agent.destroy();
		await stop();
	}
	return rows;
}

/** Notes a hostile author could plant, each within the edit bounds (a megabyte, 50,000 lines). */
function hostileNotes(): Record<string, string> {
	const lines = (count: number, line: (index: number) => string) => Array.from({ length: count }, (_, index) => line(index)).join("\n") + "\n";
	const dependsOn = Array.from({ length: 100 }, (_, index) => `id${index}`).join(", ");
	const rules = [
		"every hour on the 31st in February",
		"every year on February 30",
		"every 2 weeks on Monday, Tuesday, Wednesday when done",
		"every month on the last Friday",
		"every 999999 days",
		"every weekday",
		"every month on the 1st, 2nd, 3rd, 4th, 5th, 6th, 7th, 8th, 9th, 10th",
	];
	return {
		"Hostile/Nested list.md": lines(990, (index) => `${"  ".repeat(index % 495)}- item ${index}`),
		"Hostile/Deep quotes.md": lines(1400, (index) => `${"> ".repeat(index % 700)}quote ${index} #q`),
		"Hostile/Callouts.md": lines(1400, (index) => `${"> ".repeat(index % 700)}[!note]- callout ${index}`),
		"Hostile/Table.md": `| a | b | c |\n|---|---|---|\n${lines(40_000, (index) => `|${index}|[[N${index % 50}]]|#t${index % 7}|`)}`,
		"Hostile/One line.md": `${"word [[N1]] #tag `code` **bold** $x$ ".repeat(26_000)}\n`,
		"Hostile/Embeds.md": lines(40_000, (index) => `![[N${index % 50}#P${index}]]`),
		"Hostile/Headings.md": lines(45_000, (index) => `${"#".repeat(1 + (index % 6))} Heading ${index % 100}`),
		"Hostile/Task lines.md": lines(
			1_200,
			(index) =>
				`- [ ] task ${index} ⛔ ${dependsOn} 🔁 ${rules[index % rules.length] ?? ""} 📅 2026-01-01 ⏳ 2026-01-01 🛫 2026-01-01 ➕ 2026-01-01 🆔 t${index}`,
		),
		"Hostile/Regexy tasks.md": lines(
			5_000,
			(index) => `- [ ] ${"a, ".repeat(index % 40)}⛔${" ,".repeat(index % 50)}📅 2026-${"0".repeat(index % 30)}1-01 #${"x/".repeat(index % 30)}y`,
		),
		"Hostile/Yaml keys.md": `---\n${lines(5_000, (index) => `key${index}: [${"a, ".repeat(3)}b]`)}---\n- body\n`,
		"Hostile/Yaml anchors.md": `---\nbase: &a [x, y, z]\n${lines(900, (index) => `k${index}: *a`)}---\n- body\n`,
		"Hostile/Yaml deep.md": `---\n${lines(60, (index) => `${"  ".repeat(index)}l${index}:`)}${"  ".repeat(60)}leaf: 1\n---\n- body\n`,
		"Hostile/Html comments.md": lines(20_000, (index) => (index % 2 === 0 ? `<!-- open ${index}` : `%% ${index} -->`)),
		"Hostile/Footnotes.md": lines(20_000, (index) => `t[^${index}] [^${index}]: n`),
		"Hostile/Links.md": lines(15_000, (index) => `[[N${index % 50}|a]] [md](N${index % 50}.md) [[#H ${index}]] [[^b${index}]]`),
		// Found by the red27 sweep: a megabyte of one nested tag (list_tags ran out of memory), headings six
		// deep (a heading path looked up in 0.3-0.6 s), a !!binary property (set_property failed), text the
		// search index takes in one piece at its end (zero-width spaces, an unclosed math block).
		"Hostile/Tag nested.md": `#${"a/".repeat(499_000)}a\n`,
		"Hostile/Headings nest.md": lines(48_000, (index) => `${"#".repeat(1 + (index % 6))} h`),
		"Hostile/Yaml binary.md": `---\nicon: !!binary ${"QUJD".repeat(15_000)}\n---\n- body\n`,
		"Hostile/Zero width.md": `${"a\u200B".repeat(400_000)}\n`,
		"Hostile/Math open.md": `$$\n${lines(35_000, (index) => `x_${index} = \\frac{a}{b}`)}`,
		// Found by hostile28: text the search index read in one piece because no ASCII stood between its
		// words (CJK, one long accented word), and 49,000 short quoted lines whose every write was counted for
		// the journal through a string of its line ends.
		"Hostile/CJK.md": `${"漢字かなカナ한국".repeat(60_000)}\n`,
		"Hostile/Long word.md": `${"é".repeat(500_000)}\n`,
		"Hostile/Short lines.md": lines(49_000, (index) => `"${index % 10}"`),
		// Found by hold29: one word of 500,000 marks of two alternating classes, which ICU's decomposition put in
		// order in quadratic time when search folded the word (155 s in one piece).
		"Hostile/Marks.md": `e${"\u0301\u0316".repeat(250_000)}\n`,
		// Left by hold29 (see its notes): a table inside a quote is still parsed in one piece; a note linking
		// 90,000 names is resolved again whole when a file of one of them is created (the row "Names.md T7.md").
		"Hostile/Quote table.md": `> | a | b | c |\n> |---|---|---|\n${lines(20_000, (index) => `> |${index}|[[N${index % 50}]]|#t${index % 7}|`)}`,
		"Hostile/Names.md": lines(45_000, (index) => `[[T${2 * index}]] [[T${2 * index + 1}]]`),
		// Left by quote30: a table inside a list item was parsed in one piece (its list item by item since hold31).
		"Hostile/List table.md": `- | a | b | c |\n  |---|---|---|\n${lines(20_000, (index) => `  |${index}|[[N${index % 50}]]|#t${index % 7}|`)}`,
		// Found by cpu31: one 56 KB text of links repeated through 99 YAML aliases (5.6 MB and 800,000 property
		// links once expanded, 1.5–2.4 s in one piece on each parse), and one 1,800-item list through 99 (0.5 s).
		"Hostile/Yaml alias links.md": `---\na: &a "${"[[N1]] ".repeat(8_000)}"\n${lines(99, (index) => `b${index}: *a`)}---\n- body\n`,
		// Found by cpu31: one line of 250,000 tags, whose tag entries (1.2 million objects) the search index,
		// list_tags and read_note built in one piece of about 0.5–0.7 s.
		"Hostile/Tags line.md": `${Array.from({ length: 250_000 }, (_, index) => `#t${index % 10}`).join(" ")}\n`,
		// Found by cpu31: task lines of emoji priorities, whose fields list_tasks encoded as UTF-8 (and read back) in
		// one piece (1.8 MB of them: 1 s and 0.3 s).
		"Hostile/Priorities.md": lines(10_000, (index) => `- [ ] t${index} ${"⏫🔼🔽🔺⏬".repeat(5)} 📅 2026-01-01 ✅ 2026-01-02`),
		"Hostile/Yaml alias list.md": `---\na: &a [${Array.from({ length: 1_800 }, () => "'[[N2]] x'").join(", ")}]\n${lines(99, (index) => `b${index}: *a`)}---\n- body\n`,
	};
}

/** Each hostile note through each tool that reads or writes a note: the call's time and its longest hold. */
export async function benchHostileNotes(): Promise<BigNoteRow[]> {
	const rows: BigNoteRow[] = [];
	const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), "vault-mcp-bench-hostile-"));
	/** `BENCH_HOSTILE_NOTES=Table,One line` plants only the notes whose names start so. */
	const only = process.env.BENCH_HOSTILE_NOTES?.split(",") ?? null;
	const notes = Object.fromEntries(
		Object.entries(hostileNotes()).filter(([path]) => only === null || only.some((name) => path.startsWith(`Hostile/${name}`))),
	);
	await fs.mkdir(nodePath.join(root, "Hostile"), { recursive: true });
	for (const [path, text] of Object.entries(notes)) {
		if (text.length > MAX_EDITED_NOTE_CHARS) throw new Error(`${path} is over the edit bound`);
		await fs.writeFile(nodePath.join(root, path), text);
	}
	for (let index = 0; index < 50; index++)
		await fs.writeFile(nodePath.join(root, `N${index}.md`), `---\nrank: ${index}\n---\n# N${index}\n\n- [ ] small task ${index}\n`);
	const canvasNodes = Array.from({ length: 25_000 }, (_, index) => ({
		id: `n${index}`,
		type: "text",
		text: `[[N${index % 50}]] card ${index}`,
		x: index,
		y: index,
		width: 10,
		height: 10,
	}));
	await fs.writeFile(nodePath.join(root, "Hostile/Board.canvas"), JSON.stringify({ nodes: canvasNodes, edges: [] }));
	const formulas = Array.from(
		{ length: 150 },
		(_, index) => `  f${index}: 'file.name.repeat(50).split("").map(value + "x").join("").length + ${index}'`,
	).join("\n");
	// Each formula adds up the next twenty: nested 2,800 expressions deep through their references.
	const wide = Array.from({ length: 190 }, (_, index) => {
		const next = Array.from({ length: 20 }, (_, step) => index + 1 + step).filter((other) => other < 190);
		return `  w${index}: '${next.map((other) => `formula.w${other}`).join(" + ") || "1"}'`;
	}).join("\n");
	await fs.writeFile(
		nodePath.join(root, "Hostile/Wide.base"),
		`formulas:\n${wide}\nviews:\n  - type: table\n    name: All\n    order: [file.name, formula.w0]\n`,
	);
	await fs.writeFile(
		nodePath.join(root, "Hostile/Heavy.base"),
		`formulas:\n${formulas}\nviews:\n  - type: table\n    name: All\n    order: [file.name, formula.f0, formula.f149]\n`,
	);
	// Found by cpu32: a canvas of 5 MB of nested brackets (its JSON parsed in one piece at start and on
	// every backlinks call: 2.4 s), a base of 22,000 keys (compared pairwise: 10 s) and one printing
	// 300 references to a 50,000-item list (1.6 s in one step).
	const deep = 2_400_000;
	await fs.writeFile(
		nodePath.join(root, "Hostile/Deep.canvas"),
		`{"nodes":[{"id":"a","type":"text","text":"[[N1]]","x":0,"y":0,"width":1,"height":1,"deep":${"[".repeat(deep)}${"]".repeat(deep)}}],"edges":[]}`,
	);
	await fs.writeFile(nodePath.join(root, "Hostile/Keys.base"), `properties: {${Array.from({ length: 22_000 }, (_, index) => `k${index}: 1`).join(", ")}}\n`);
	const references = Array.from({ length: 300 }, () => "formula.l").join(", ");
	await fs.writeFile(
		nodePath.join(root, "Hostile/Nested lists.base"),
		`formulas:\n  l: '"a,".repeat(50000).split(",")'\n  n: '[${references}].toString().length'\nviews:\n  - type: table\n    name: All\n    order: [formula.n]\n    limit: 3\n`,
	);
	const { host, port, token, stop } = await startWriteServer(root);
	await host.metadataCache.settled();
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	const time = async (label: string, tool: string, args: Record<string, unknown>) => {
		if (ONLY_TOOLS !== null && !ONLY_TOOLS.includes(tool)) return;
		const { wallMs, holdMs, text } = await measured(() => call(port, token, tool, args, agent));
		const failed = text.includes('"isError":true') ? " (error)" : "";
		rows.push({ metric: `${label}: ${tool}${failed} call / longest hold`, value: wallMs, unit: `ms / ${holdMs.toFixed(0)} ms` });
		await host.metadataCache.settled();
	};
	try {
		await time("vault", "list_tasks", { status: "any", limit: 1000 });
		await time("vault", "list_tags", {});
		await time("vault", "get_graph_stats", {});
		await time("vault", "search_notes", { query: "task callout quote heading", limit: 50 });
		await time("Board.canvas", "read_canvas", { path: "Hostile/Board.canvas" });
		await time("Heavy.base", "query_base", { path: "Hostile/Heavy.base" });
		await time("Wide.base", "query_base", { path: "Hostile/Wide.base" });
		await time("Keys.base", "query_base", { path: "Hostile/Keys.base" });
		await time("Nested lists.base", "query_base", { path: "Hostile/Nested lists.base" });
		await time("N1.md beside Deep.canvas", "get_note_links", { path: "N1.md" });
		// A small note renamed beside the hostile ones: the rename looks through every note's links.
		await time("N0.md", "rename_note", { path: "N0.md", new_path: "N0 moved.md" });
		if (notes["Hostile/Headings nest.md"] !== undefined)
			await time("Headings nest.md h > h > h > h > h > h", "append_to_note", {
				path: "Hostile/Headings nest.md",
				heading: "h > h > h > h > h > h",
				content: "x",
			});
		if (notes["Hostile/Names.md"] !== undefined) await time("Names.md T7.md", "create_note", { path: "T7.md", content: "created" });
		for (const path of Object.keys(notes)) {
			const name = path.slice("Hostile/".length);
			await time(name, "read_note", { path });
			await time(name, "get_note_links", { path });
			await time(name, "list_tasks", { path, status: "any", limit: 1000 });
			await time(name, "append_to_note", { path, content: "- appended" });
			await time(name, "add_task", { path, text: "added" });
			await time(name, "set_property", { path, name: "seen", value: true });
			const firstTask = (await fs.readFile(nodePath.join(root, path), "utf8")).split("\n").findIndex((line) => line.startsWith("- [ ] "));
			if (firstTask !== -1) {
				const line = (await fs.readFile(nodePath.join(root, path), "utf8")).split("\n")[firstTask] ?? "";
				await time(name, "complete_task", { path, line: firstTask, text: line.slice("- [ ] ".length, "- [ ] ".length + 1900) });
			}
			await time(name, "rename_note", { path, new_path: `${path.slice(0, -3)} moved.md` });
		}
	} finally {
		agent.destroy();
		await stop();
	}
	return rows;
}
