/**
 * What a person approves at serve's terminal is what is written: a text hidden in variation selectors (a byte each,
 * U+FE00–U+FE0F and U+E0100–U+E01EF, after one visible character) was printed raw in the question, which a terminal
 * draws as nothing, so "See 😀 here" was approved and the hidden bytes written with it. A TerminalApprover reading a
 * stream the test types into, the real SDK client over real HTTP, generated messages.
 */
import { PassThrough } from "node:stream";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { TerminalApprover } from "../../src/headless/TerminalApprover";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** `message`'s UTF-8 bytes as variation selectors, one each. */
function asSelectors(message: string): string {
	return [...Buffer.from(message, "utf8")].map((byte) => String.fromCodePoint(byte < 16 ? 0xfe00 + byte : 0xe0100 + byte - 16)).join("");
}

/** Two or more variation selectors in a row: drawn as nothing by a terminal. */
const SELECTOR_RUN = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]{2,}/u;

async function until(check: () => boolean): Promise<void> {
	for (let tries = 0; !check(); tries++) {
		if (tries > 2_000) throw new Error("the question was never shown");
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

describe("a question at the terminal shows text hidden in variation selectors as codes", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const input = new PassThrough();
	let shown = "";
	let approver: TerminalApprover;

	beforeAll(async () => {
		vault = await makeVault({ "Home.md": "# Home \u2615\ufe0f\n" });
		approver = new TerminalApprover(input, (text) => (shown += text));
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, rateLimitPerMinute: 100_000 },
			approver,
			rights: { write: { create_note: "ask", append_to_note: "ask" } },
		});
		client = await connectClient(running.url, running.tokens.write ?? "");
	}, 60_000);
	afterAll(async () => {
		await client.close();
		approver.close();
		input.end();
		await running.stop();
		await removeDir(vault);
	});

	test("create_note's and append_to_note's questions hold no run of selectors, and name each one", async () => {
		let note = 0;
		await fc.assert(
			fc.asyncProperty(fc.string({ minLength: 2, maxLength: 30 }), fc.boolean(), async (message, append) => {
				const hidden = asSelectors(message);
				const content = `See \ud83d\ude00${hidden} here`;
				shown = "";
				const call = append
					? callTool(client, "append_to_note", { path: "Home.md", content })
					: callTool(client, "create_note", { path: `New ${note++}.md`, content });
				await until(() => shown.includes("Approve? "));
				input.write("n\n");
				expect((await call).ok).toBe(false);
				expect(shown).toContain("See \ud83d\ude00");
				expect(SELECTOR_RUN.test(shown)).toBe(false);
				// Each selector is there as its code, in order.
				expect(shown).toContain([...hidden].map((selector) => `\\u{${(selector.codePointAt(0) ?? 0).toString(16)}}`).join(""));
			}),
			{ numRuns: 12 },
		);
	}, 60_000);
});
