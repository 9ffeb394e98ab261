/**
 * A denied tool over real HTTP: nothing about it may tell a client it exists. Calling it must not
 * even spend the token's write budget, or a 429 would give it away where an unknown name never gets one.
 */
import { ALL_TOOLS } from "../../src/mcp/tools";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const WRITE_TOOLS = ALL_TOOLS.filter((tool) => tool.access === "write");

describe("a denied write tool over HTTP", () => {
	let vault: string;
	let running: RunningService | null = null;
	beforeEach(async () => {
		vault = await makeVault({ "Home.md": "# Home\n" });
	});
	afterEach(async () => {
		await running?.stop();
		running = null;
		await removeDir(vault);
	});

	test.each(WRITE_TOOLS.map((tool) => [tool.name, tool] as const))(
		"%s: calls of it spend no write budget, so the answer stays that of an unknown tool",
		async (name, tool) => {
			running = await startService(vault, {
				levels: ["write"],
				rights: { write: { [name]: "deny" } },
				settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000, writeCallsPerMinute: 1 },
			});
			const client = await connectClient(running.url, running.tokens.write!);
			try {
				const unknownName = "z".repeat(name.length);
				const answers: string[] = [];
				for (let attempt = 0; attempt < 3; attempt++) {
					const denied = await client.callTool({ name, arguments: tool.examples[0] ?? {} }).catch((error: unknown) => ({ thrown: String(error) }));
					const unknown = await client
						.callTool({ name: unknownName, arguments: tool.examples[0] ?? {} })
						.catch((error: unknown) => ({ thrown: String(error) }));
					answers.push(JSON.stringify(denied).split(name).join("TOOL"), JSON.stringify(unknown).split(unknownName).join("TOOL"));
				}
				expect([...new Set(answers)]).toEqual([answers[0]]);
				expect(answers[0]).not.toMatch(/429|Too much writing/);
			} finally {
				await client.close();
			}
		},
	);
});
