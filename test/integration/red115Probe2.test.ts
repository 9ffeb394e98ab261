import { existsSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import type { Approver } from "../../src/mcp/approval";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

for (const tool of ["append_to_note", "set_property", "add_task"] as const)
	test(`S5 ${tool} asked for a token limited to Keep; another token moves the note to Other while the question is open`, async () => {
		const vault = await makeVault({ "Keep/A.md": "---\nstatus: x\n---\n# A\nline\n", "Keep/L.md": "[[A]]\n" });
		const made = addToken({ ...defaultSettings(), writeEnabled: true, writeDisclosureAccepted: true }, "limited", "write", { [tool]: "ask" }, ["Keep"]);
		if ("error" in made) throw new Error(made.error);
		let full: Client | undefined;
		let asked = 0;
		const approver: Approver = {
			decide: async () => {
				asked++;
				if (asked === 1) console.log("S5 rename", JSON.stringify(await callOk(full!, "rename_note", { path: "Keep/A.md", new_path: "Other/A.md" })));
				return "approve";
			},
		};
		const running: RunningService = await startService(vault, {
			levels: ["write"],
			settings: { ...made.settings, serverEnabled: true, port: 0, rateLimitPerMinute: 1_000_000 },
			approver,
			rights: { write: { rename_note: "allow" } },
			host: { watch: true },
		});
		full = await connectClient(running.url, running.tokens.write ?? "");
		const limited = await connectClient(running.url, made.token);
		try {
			const args =
				tool === "append_to_note"
					? { path: "Keep/A.md", content: "APPENDED" }
					: tool === "set_property"
						? { path: "Keep/A.md", name: "status", value: "CHANGED" }
						: { path: "Keep/A.md", text: "APPENDED task" };
			const answer = await callTool(limited, tool, args);
			console.log("S5", tool, asked, JSON.stringify(answer).slice(0, 500));
			const other = existsSync(nodePath.join(vault, "Other/A.md")) ? readFileSync(nodePath.join(vault, "Other/A.md"), "utf8") : null;
			console.log("S5 Other/A.md", JSON.stringify(other));
			expect(JSON.stringify(answer)).not.toContain("Other");
			expect(other).not.toContain("APPENDED");
			expect(other).not.toContain("CHANGED");
		} finally {
			await full.close();
			await limited.close();
			await running.stop();
			await removeDir(vault);
		}
	});
