import { MAX_SERVER_NAME_LENGTH } from "../../../src/config/limits";
import { connectionSnippets, serverNameFor, SNIPPET_CLIENTS, TOKEN_PLACEHOLDER } from "../../../src/http/clientSnippets";

describe("serverNameFor", () => {
	test.each([
		["demo-vault", "vault-demo-vault"],
		["My Notes", "vault-my-notes"],
		["Café Über", "vault-cafe-uber"],
		["work: 2026 / Q1", "vault-work-2026-q1"],
		["__private__", "vault-__private__"],
		["日本語", "vault"],
		["", "vault"],
		["!!!", "vault"],
	])("%j is served as %j (letters, digits, - and _ only, as Claude Code requires)", (vaultName, expected) => {
		expect(serverNameFor(vaultName)).toBe(expected);
	});

	test("a long vault name is cut to the limit without a trailing dash", () => {
		const name = serverNameFor(`${"a".repeat(40)} ${"b".repeat(40)}`);
		expect(name.length).toBeLessThanOrEqual(MAX_SERVER_NAME_LENGTH);
		expect(name).toMatch(/^vault-a+(-b+)?$/);
	});

	test("two vaults give two server names in every snippet, so adding the second does not clash with the first", () => {
		const first = connectionSnippets({ port: 27150, vaultName: "Work" });
		const second = connectionSnippets({ port: 27151, vaultName: "Home" });
		expect(first.map((snippet) => snippet.id)).toEqual([...SNIPPET_CLIENTS]);
		expect(first.find((snippet) => snippet.id === "claude-code")?.text).toBe(
			`claude mcp add --transport http vault-work http://127.0.0.1:27150/mcp --header "Authorization: Bearer ${TOKEN_PLACEHOLDER}"`,
		);
		expect(second.find((snippet) => snippet.id === "claude-code")?.text).toContain("claude mcp add --transport http vault-home ");
		for (const id of ["claude-desktop", "cursor"] as const) {
			expect(Object.keys((JSON.parse(first.find((snippet) => snippet.id === id)?.text ?? "{}") as { mcpServers: object }).mcpServers)).toEqual([
				"vault-work",
			]);
		}
	});
});
