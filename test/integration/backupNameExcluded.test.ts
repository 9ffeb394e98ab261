import { existsSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

// create_note's overwrite keeps the replaced text at `<note>.bak`; a person may have excluded a folder of exactly
// that name (or of the next one). The backup must go to a name the caller may write, and the overwrite go through.
test.each([
	["the backup's name", ["Notes/Plan.md.bak"], "Notes/Plan.md.2.bak"],
	["the backup's name spelt in another case, and the next name", ["notes/PLAN.md.bak", "Notes/Plan.md.2.bak"], "Notes/Plan.md.3.bak"],
])(
	"an excluded folder of %s: the overwrite is written and its backup goes to the next name, never to the excluded one",
	async (_kind, excludedFolders, backup) => {
		const vault = await makeVault({ "Notes/Plan.md": "the person's plan\n" });
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, excludedFolders } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const answer = await callOk(client, "create_note", { path: "Notes/Plan.md", content: "the new plan", overwrite: true });
			expect(answer).toMatchObject({ path: "Notes/Plan.md", created: false, backup });
			expect(readFileSync(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("the new plan\n");
			expect(readFileSync(nodePath.join(vault, backup), "utf8")).toBe("the person's plan\n");
			for (const excluded of excludedFolders) expect(existsSync(nodePath.join(vault, excluded))).toBe(false);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	},
);
