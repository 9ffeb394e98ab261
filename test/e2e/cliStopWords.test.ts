import { connectClient } from "../helpers/http";
import { runCli, startServe } from "../helpers/cli";
import { makeVault, removeDir } from "../helpers/vault";

/** `serve --stop-words` (issue 16): the run's stop words replace the ones in data.json for that run only. */
describe("vault-mcp serve --stop-words", () => {
	let vault: string;

	beforeEach(async () => {
		vault = await makeVault({ "Templates.md": "Use templates for meetings.", "Newsletter.md": "How to use the templates of others." });
	});
	afterEach(async () => removeDir(vault));

	test("by default a stop word need not match; --stop-words \"\" makes every word required; --stop-words LIST uses that list", async () => {
		const { token } = JSON.parse((await runCli(["token", "new", vault, "--name", "a", "--json"])).stdout) as { token: string };
		const foundWith = async (flags: string[]) => {
			const serving = await startServe([vault, "--port", "0", ...flags]);
			try {
				const client = await connectClient(serving.url, token);
				const answer = await client.callTool({ name: "search_notes", arguments: { query: "how to use templates" } });
				await client.close();
				return ((answer.structuredContent as { results: Array<{ path: string }> }).results ?? []).map((hit) => hit.path).sort();
			} finally {
				await serving.stop();
			}
		};
		expect(await foundWith([])).toEqual(["Newsletter.md", "Templates.md"]);
		expect(await foundWith(["--stop-words", ""])).toEqual(["Newsletter.md"]);
		expect(await foundWith(["--stop-words", "how, to"])).toEqual(["Newsletter.md", "Templates.md"]);
		expect(await foundWith(["--stop-words", "how"])).toEqual(["Newsletter.md"]);
	}, 60_000);
});
