import { connectClient } from "../helpers/http";
import { runCli, startServe } from "../helpers/cli";
import { makeVault, removeDir } from "../helpers/vault";

/** `serve --stop-words` and `--language`: the run's stop words and word forms replace the ones in data.json for that run only. */
describe("vault-mcp serve --stop-words", () => {
	let vault: string;

	beforeEach(async () => {
		vault = await makeVault({ "Templates.md": "Use templates for meetings.", "Newsletter.md": "How to use the templates of others." });
	});
	afterEach(async () => removeDir(vault));

	test('by default a stop word need not match; --stop-words "" makes every word count; --stop-words LIST uses that list', async () => {
		const { token } = JSON.parse((await runCli(["token", "new", vault, "--name", "a", "--json"])).stdout) as { token: string };
		/** Each query's hits on one start with `flags` (a start is about half a second of CPU: queries with the same flags share one). */
		const foundWith = async (flags: string[], queries = ["how to use templates"]) => {
			const serving = await startServe([vault, "--port", "0", ...flags]);
			try {
				const client = await connectClient(serving.url, token);
				const found = [];
				for (const query of queries) {
					const answer = await client.callTool({ name: "search_notes", arguments: { query } });
					// Which notes and which of their words matched is what the flags change; the order is ranking's, tested elsewhere.
					found.push(
						((answer.structuredContent as { results: Array<{ path: string; matched_words: string[] }> }).results ?? [])
							.map((hit) => [hit.path, hit.matched_words] as const)
							.sort(([a], [b]) => a.localeCompare(b)),
					);
				}
				await client.close();
				return found;
			} finally {
				await serving.stop();
			}
		};
		const withoutStopWords = [
			["Newsletter.md", ["use", "templates"]],
			["Templates.md", ["use", "templates"]],
		];
		// With no flags, the stop words and the word forms (english) of data.json's defaults.
		expect(await foundWith([], ["how to use templates", "meets"])).toEqual([withoutStopWords, [["Templates.md", ["meets"]]]]);
		expect(await foundWith(["--stop-words", ""])).toEqual([
			[
				["Newsletter.md", ["how", "to", "use", "templates"]],
				["Templates.md", ["use", "templates"]],
			],
		]);
		expect(await foundWith(["--stop-words", "how, to"])).toEqual([withoutStopWords]);
		expect(await foundWith(["--stop-words", "how"])).toEqual([
			[
				["Newsletter.md", ["to", "use", "templates"]],
				["Templates.md", ["use", "templates"]],
			],
		]);
		// --language: whose word forms match, for this run; an unknown language is refused with the list.
		expect(await foundWith(["--language", "none"], ["meets"])).toEqual([[]]);
		const refused = await runCli(["serve", vault, "--port", "0", "--language", "klingon"]);
		expect(refused.code).not.toBe(0);
		expect(refused.stderr).toContain("--language needs one of: none, arabic");
	}, 90_000);
});
