import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { setTokenFolders } from "../../src/auth/tokenList";
import { until } from "../helpers/dom";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk, callTool } from "../helpers/tools";
import { makeVault, readAllFiles, removeDir } from "../helpers/vault";

/**
 * Hidden notes must not change the order or the scores of what a caller sees: every statistic a
 * ranking uses (how many notes hold a word, the average length, which titles name a word, the
 * templates' words, the word forms and joined words in the dictionary) is over the visible notes
 * only. A server over a vault with an excluded folder (or a token limited to some folders) answers
 * as a server over a copy holding the visible notes alone: the same hits, scores, order and counts.
 */

/** Notes a caller sees: titles and words the hidden notes repeat, 60 notes made from one template (a template's words need 50). */
function visibleFiles(): Record<string, string> {
	const files: Record<string, string> = {
		"Logging.md": "# Logging\n\nturn on logging from the settings. #ops\n",
		"Setup guide.md": "How to set up things: turn the switch on, logging follows. widget #ops/setup\n",
		"Notes/Run.md": "running runs ran run #sport\n",
		// Named for `logging` among the notes a token limited to Notes sees, not among all (Logging.md, Secret/Logging.md).
		"Notes/Logging.md": "# Logging\n\nlogging levels, turn them up\n",
		"Notes/Note book.md": "a note in a book, set up notes #paper\n",
		"Turn signals.md": "turn left turn right #car\n",
		"Widget.md": "widget widget widget\n",
		// Words of one group (search/expansions.ts): `config` finds `configuration`, `repo` finds `repository`.
		"Notes/Config.md": "# Config\n\nthe config of the repo, see the docs #ops\n",
		"Setup params.md": "params for the setup, and the configuration file\n",
	};
	for (let index = 0; index < 60; index++)
		files[`Filler/F${index}.md`] = `filler ${index} widget widget footer text ${index % 3 === 0 ? "logging" : "run"} #filler\n`;
	return files;
}

/** Excluded notes: the same titles (`Logging`), joined words (`setup`, `notebook`), word forms (`runner`), and 80 notes saying `widget` three times. */
function hiddenFiles(): Record<string, string> {
	const files: Record<string, string> = {
		"Secret/Logging.md": "# Logging\n\nlogging logging #ops #secrettag\n",
		"Secret/Turn.md": "turn on\n",
		"Secret/Setup.md": "setup setup setup notebook widget\n",
		"Secret/Runner.md": "runner runnable runs running\n",
		"Secret/Widget footer.md": "widget footer\n",
		"Secret/Archive/Old logging.md": "old logging widget widget #ops/old\n",
		// The other words of the same groups, only where the caller cannot look.
		"Secret/Configuration.md": "# Configuration\n\nconfiguration repository documentation parameters prohibit\n",
		"Secret/Repository docs.md": "repository repositories documentation parameters configured\n",
	};
	for (let index = 0; index < 80; index++) files[`Secret/S${index}.md`] = `widget widget widget logging ${index} runs #ops\n`;
	return files;
}

const QUERIES = [
	"turn on logging",
	"logging",
	"set up logging",
	"setup",
	"widget",
	"run",
	"runs",
	"log",
	"footer widget",
	"turn",
	"note book",
	"notebook",
	"ru",
	"config",
	"configuration",
	"repo",
	"repository docs",
	"parameters",
	"params setup",
	"forbid",
	"conf",
];
const CALLS: Array<[string, Record<string, unknown>]> = [
	...QUERIES.map((query): [string, Record<string, unknown>] => ["search_notes", { query, limit: 50 }]),
	["find_notes_by_tag", { tag: "ops" }],
	["list_tags", { limit: 200 }],
	["get_graph_stats", {}],
];

async function answersOf(client: Client): Promise<unknown[]> {
	const answers: unknown[] = [];
	for (const [tool, args] of CALLS) {
		const outcome = await callTool(client, tool, args);
		answers.push({ tool, args, answer: outcome.ok ? outcome.value : outcome.error });
	}
	return answers;
}

/** Every file the same modification time: ties in score are broken by it, and two copies are written at different moments. */
async function sameTimes(root: string): Promise<void> {
	for (const file of await readAllFiles(root)) await fs.utimes(file.path, new Date(2020, 0, 1), new Date(2020, 0, 1));
}

/** Resolves once the search index is built (an answer without the index's progress). */
async function searchReady(client: Client): Promise<void> {
	await until(async () => (await callOk(client, "search_notes", { query: "anything" })).index === undefined, 20000);
}

async function served(
	files: Record<string, string>,
	use: (running: RunningService, client: Client, vault: string) => Promise<void>,
	settings = {},
): Promise<void> {
	const vault = await makeVault(files);
	await sameTimes(vault);
	// Many searches while waiting for a move to show: more than the default rate limit allows a minute.
	const running = await startService(vault, { settings: { rateLimitPerMinute: 100_000, ...settings }, host: { watch: true } });
	const client = await connectClient(running.url, running.tokens.read ?? "");
	try {
		await searchReady(client);
		await use(running, client, vault);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}

async function referenceAnswers(files: Record<string, string>): Promise<unknown[]> {
	let answers: unknown[] = [];
	await served(files, async (_running, client) => void (answers = await answersOf(client)));
	return answers;
}

describe("hidden notes change nothing in what a caller is answered, order and scores included", () => {
	test("a vault with an excluded folder answers as a copy without it", async () => {
		const reference = await referenceAnswers(visibleFiles());
		await served({ ...visibleFiles(), ...hiddenFiles() }, async (_running, client) => expect(await answersOf(client)).toEqual(reference), {
			excludedFolders: ["Secret"],
		});
	}, 120000);

	test("a token limited to two folders answers as a copy holding those folders alone", async () => {
		const inside = Object.fromEntries(Object.entries(visibleFiles()).filter(([path]) => path.startsWith("Filler/") || path.startsWith("Notes/")));
		const reference = await referenceAnswers(inside);
		await served(
			{ ...visibleFiles(), ...hiddenFiles() },
			async (running, client) => {
				const limited = setTokenFolders(running.settings, "read", ["Filler", "Notes"]);
				if ("error" in limited) throw new Error(limited.error);
				await running.service.apply(limited.settings);
				expect(await answersOf(client)).toEqual(reference);
			},
			{ excludedFolders: ["Secret"] },
		);
	}, 120000);

	test("after notes and a folder move into and out of the excluded folder while serving, as a fresh server on a copy", async () => {
		let seen: unknown[] = [];
		const left: Record<string, string> = {};
		await served(
			{ ...visibleFiles(), ...hiddenFiles() },
			async (_running, client, vault) => {
				await answersOf(client);
				await fs.rename(nodePath.join(vault, "Logging.md"), nodePath.join(vault, "Secret/Logging2.md"));
				await fs.rename(nodePath.join(vault, "Secret/Runner.md"), nodePath.join(vault, "Notes/Runner.md"));
				await fs.rename(nodePath.join(vault, "Filler"), nodePath.join(vault, "Secret/Filler"));
				await fs.rm(nodePath.join(vault, "Widget.md"));
				await fs.rename(nodePath.join(vault, "Secret/Archive"), nodePath.join(vault, "Archive"));
				const expected = [
					"Archive/Old logging.md",
					"Notes/Config.md",
					"Notes/Logging.md",
					"Notes/Note book.md",
					"Notes/Run.md",
					"Notes/Runner.md",
					"Setup guide.md",
					"Setup params.md",
					"Turn signals.md",
				];
				await until(async () => {
					const listed = await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", { limit: 100 });
					return JSON.stringify(listed.notes.map((note) => note.path).sort()) === JSON.stringify(expected);
				}, 20000);
				await searchReady(client);
				seen = await answersOf(client);
				for (const file of await readAllFiles(vault)) {
					const path = nodePath.relative(vault, file.path).split(nodePath.sep).join("/");
					if (!path.startsWith("Secret/") && !path.startsWith(".")) left[path] = file.text;
				}
			},
			{ excludedFolders: ["Secret"] },
		);
		expect(seen).toEqual(await referenceAnswers(left));
	}, 120000);
});
