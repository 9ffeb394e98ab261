import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { BASES_MAX_PER_CHARACTER_INPUT_CHARS, BASES_MAX_VALUE_CHARS } from "../../src/config/limits";
import { runCli, startServe, serveCpuMs, type ServingCli } from "../helpers/cli";
import { connectClient } from "../helpers/http";
import { callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A base whose formulas print lists of a megabyte text: a list of 100 references to one text is a
 * hundred megabytes as text, and a list of 100 such lists ten gigabytes, from a few hundred
 * characters of formulas. Printing them (`+ "x"`, `join()`) or sorting them (lists compare as text)
 * built those texts in one piece: 0.3 s for the first, 4.4 s for a sort of eight, and the join and
 * the sum of the second ended `serve` for want of memory (SIGABRT, every client cut off). Now a
 * list's text is refused before it is built, and walking a list counts its characters. So is a
 * text that `join`, `replace` or `escapeHTML` would make too long.
 */
const TEXT = `"a".repeat(${BASES_MAX_VALUE_CHARS})`;
const HUNDRED = (name: string) => `[${Array.from({ length: 100 }, () => `formula.${name}`).join(", ")}]`;

function base(formula: string): string {
	return [
		`filters: 'file.name == "Row.md"'`,
		"formulas:",
		`  text: '${TEXT}'`,
		`  list: '${HUNDRED("text")}'`,
		`  lists: '${HUNDRED("list")}'`,
		`  out: '${formula}'`,
		"views:",
		"  - type: table",
		"    name: All",
		"    order: [formula.out]",
		"",
	].join("\n");
}

/** A formula's cell as query_base answers it: its value, or the error it carries. */
interface Answer {
	rows: { values: Record<string, unknown>; errors?: Record<string, string> }[];
}

describe("a base printing or sorting lists of a megabyte text", () => {
	let vault = "";
	let serving: ServingCli;
	let client: Client;
	beforeAll(async () => {
		vault = await makeVault({
			"Row.md": "# Row\n",
			"Plain.md": "plain text\n",
			"Plus.base": base('formula.list + "x"'),
			"PlusOfLists.base": base('formula.lists + "x"'),
			"Join.base": base('formula.lists.join(",")'),
			"Sort.base": base("[formula.list, formula.list, formula.list, formula.list, formula.list, formula.list, formula.list, formula.list].sort()"),
			"ToString.base": base("formula.lists.toString()"),
			"LinkShown.base": base('link("Plain", formula.lists)'),
			"Escape.base": base(`escapeHTML("<".repeat(${BASES_MAX_VALUE_CHARS}))`),
			"JoinBy.base": base('"a".repeat(20000).split("").join("x".repeat(5000))'),
			"Replace.base": base('"a".repeat(20000).replace("a", "x".repeat(5000))'),
			"RegexReplace.base": base('"a".repeat(2000).replace(/b*/g, formula.text)'),
		});
		const { token } = JSON.parse((await runCli(["token", "new", vault, "--name", "r", "--json"])).stdout) as { token: string };
		serving = await startServe([vault, "--port", "0"]);
		client = await connectClient(serving.url, token);
	}, 60_000);
	afterAll(async () => {
		await client.close();
		await serving.stop();
		await removeDir(vault);
	});

	/** query_base of `path`: what it says (its error, or the cell's), with the serve process's main-thread CPU the call took. */
	async function query(path: string): Promise<{ said: string; cpuMs: number }> {
		const before = serveCpuMs(serving);
		const outcome = await callTool(client, "query_base", { path });
		const cpuMs = serveCpuMs(serving) - before;
		if (!outcome.ok) return { said: outcome.error, cpuMs };
		const answer = outcome.value as unknown as Answer;
		return { said: answer.rows[0]?.errors?.["formula.out"] ?? JSON.stringify(answer).slice(0, 300), cpuMs };
	}

	/**
	 * The call ends with the text bound or the step budget, never running: well under the 100 ms a
	 * base's piece may take (0.3–4.4 s before, or the process gone), and the server still answers.
	 */
	async function expectRefused(path: string, refusal: RegExp): Promise<void> {
		const { said, cpuMs } = await query(path);
		expect(said).toMatch(refusal);
		expect(cpuMs).toBeLessThan(100);
		expect((await callOk<{ content: string }>(client, "read_note", { path: "Plain.md" })).content).toContain("plain text");
	}

	const overText = new RegExp(`A text value would be longer than ${BASES_MAX_VALUE_CHARS} characters`);
	const overSteps = /The base needs more than \d+ evaluation steps/;

	test("a list of a hundred megabyte texts plus a text: the cell says the text would be too long", async () => {
		await expectRefused("Plus.base", overText);
	}, 60_000);

	test("a sort of eight such lists is refused for the steps its comparisons would take", async () => {
		await expectRefused("Sort.base", overSteps);
	}, 60_000);

	test("a text made five thousand times longer (joined, replaced, escaped) is refused before it is built, naming the bound", async () => {
		await expectRefused(
			"Escape.base",
			new RegExp(`escapeHTML\\(\\) was given a text of ${BASES_MAX_VALUE_CHARS} characters; it works on at most ${BASES_MAX_PER_CHARACTER_INPUT_CHARS}`),
		);
		await expectRefused("JoinBy.base", overText);
		await expectRefused("Replace.base", overText);
		// Past the longest string JavaScript makes: it was "failed inside the server".
		await expectRefused("RegexReplace.base", overText);
	}, 120_000);

	test("a list of those lists plus a text, joined, as text, or as a link's shown text: refused, and serve keeps answering", async () => {
		await expectRefused("PlusOfLists.base", overSteps);
		await expectRefused("Join.base", overSteps);
		await expectRefused("ToString.base", overSteps);
		await expectRefused("LinkShown.base", overText);
	}, 120_000);
});
