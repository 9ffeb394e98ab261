import { existsSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk, callTool } from "../helpers/tools";
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

// What the backup's number tells a caller is only what the person's settings say of a name it gives, as create_note
// at a path under that name tells it ("not accessible"): nothing of what is on disk there. A name the caller cannot
// predict would tell nothing, but create_note would still tell it, and every overwrite's backup would change name.
test("whether an excluded folder named like the backup exists, and what it holds, changes no answer of create_note", async () => {
	const answers: unknown[] = [];
	for (const onDisk of [false, true]) {
		const vault = await makeVault({ "Notes/Plan.md": "the person's plan\n", ...(onDisk ? { "Notes/Plan.md.bak/Diary.md": "private\n" } : {}) });
		const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, excludedFolders: ["Notes/Plan.md.bak"] } });
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const overwrite = await callOk(client, "create_note", { path: "Notes/Plan.md", content: "the new plan", overwrite: true });
			const under = await callTool(client, "create_note", { path: "Notes/Plan.md.bak/Diary.md", content: "x" });
			const beside = await callTool(client, "create_note", { path: "Notes/Plan.md.bak", content: "x", overwrite: true });
			answers.push({ backup: overwrite.backup, under, beside });
			if (onDisk) expect(readFileSync(nodePath.join(vault, "Notes/Plan.md.bak/Diary.md"), "utf8")).toBe("private\n");
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	}
	expect(answers[0]).toMatchObject({ backup: "Notes/Plan.md.2.bak", under: { ok: false } });
	expect(answers[1]).toEqual(answers[0]);
});
