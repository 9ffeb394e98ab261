/**
 * A rename shows the new name in links that showed the old one (`withShownNameRenamed`). Attacked
 * over real HTTP with the SDK client: what the person approves in Ask mode is what is written, shown
 * text included, and a new path a Markdown link's text cannot hold as it is (a folder with a bracket,
 * a name with a backtick) leaves the text as it was rather than breaking the link.
 */
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { ApprovalRequest, Approver } from "../../src/mcp/approval";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

interface Links {
	outgoing: Array<{ link: string; target?: string }>;
}

describe("rename_note rewriting the text a link shows, over real HTTP", () => {
	test("in Ask mode the preview holds each linking note's new text, shown names included, and exactly that is written", async () => {
		const vault = await makeVault({
			"Old/Plan.md": "# Plan\n",
			"A.md": "[Plan](Old/Plan.md) and [[Old/Plan|Plan]] and [[Old/Plan|my plan]]\n",
			"B.md": "[Old/Plan](Old/Plan.md)\n",
			".obsidian/app.json": JSON.stringify({ newLinkFormat: "absolute" }),
		});
		const requests: ApprovalRequest[] = [];
		const approver: Approver = {
			decide: (request) => {
				requests.push(request);
				return Promise.resolve("approve");
			},
		};
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true }, approver, rights: { write: { rename_note: "ask" } } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			await callOk(client, "rename_note", { path: "Old/Plan.md", new_path: "Garden/Beans.md" });
			const shown = Object.fromEntries((requests[0]?.changes ?? []).map((change) => [change.path, change.after]));
			expect(shown["A.md"]).toBe("[Beans](Garden/Beans.md) and [[Garden/Beans|Beans]] and [[Garden/Beans|my plan]]\n");
			expect(shown["B.md"]).toBe("[Garden/Beans](Garden/Beans.md)\n");
			for (const path of ["A.md", "B.md"]) expect(readFileSync(nodePath.join(vault, path), "utf8")).toBe(shown[path]);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});

	test("moved into a folder named with a bracket, or to a name with a backtick, the linking notes still link to it (the rewritten text ended the link)", async () => {
		const vault = await makeVault({
			"Old/Plan.md": "# Plan\n",
			"Old/Other.md": "# Other\n",
			// A folder the person named with a bracket (a new one is refused: folderLinkCharacters).
			"Gar]den/Keep.md": "# Keep\n",
			"A.md": "[Old/Plan](Old/Plan.md)\n",
			"B.md": "[Other](Old/Other.md) then `code`\n",
			// Paths written whole, so a link's text showing the path shows the folder.
			".obsidian/app.json": JSON.stringify({ newLinkFormat: "absolute" }),
		});
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000 } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			await callOk(client, "rename_note", { path: "Old/Plan.md", new_path: "Gar]den/Plan.md" });
			await callOk(client, "rename_note", { path: "Old/Other.md", new_path: "Garden/a`b.md" });
			expect(readFileSync(nodePath.join(vault, "A.md"), "utf8")).toBe("[Old/Plan](Gar%5Dden/Plan.md)\n");
			expect(readFileSync(nodePath.join(vault, "B.md"), "utf8")).toBe("[Other](Garden/a%60b.md) then `code`\n");
			const links = await callOk<Links>(client, "get_note_links", { path: "A.md" });
			expect(links.outgoing.map((link) => link.target)).toEqual(["Gar]den/Plan.md"]);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	});
});
