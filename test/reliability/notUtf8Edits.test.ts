import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** A note another program saved in Latin-1: `é` is the one byte E9, which is not UTF-8. */
const LATIN1 = Buffer.from("- caf\xe9 au lait\n- tea\n- [ ] order cr\xe8me\n", "latin1");

/**
 * Notes are UTF-8; a note another program wrote in another encoding reads with replacement
 * characters. An edit must not write those back in place of the other program's bytes: they would
 * be lost, in the note and in the undo journal (which holds the text as read).
 */
describe("an edit of a note that is not valid UTF-8 keeps the other program's bytes", () => {
	let vault: string;
	let running: Awaited<ReturnType<typeof startService>>;
	let client: Awaited<ReturnType<typeof connectClient>>;
	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plain.md": "plain\n" });
		await fs.writeFile(nodePath.join(vault, "Notes", "Menu.md"), LATIN1);
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
		client = await connectClient(running.url, running.tokens.write ?? "");
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("append_to_note adds its line after the bytes that were there", async () => {
		const answer = await callTool(client, "append_to_note", { path: "Notes/Menu.md", content: "- tea" });
		const bytes = await fs.readFile(nodePath.join(vault, "Notes", "Menu.md"));
		expect(bytes.subarray(0, LATIN1.length).equals(LATIN1)).toBe(true);
		expect(answer.ok).toBe(true);
		expect(bytes.subarray(LATIN1.length).toString("utf8")).toBe("- tea\n");
	});

	test.each([
		["set_property", { path: "Notes/Menu.md", name: "status", value: "done" }],
		["insert_under_bullet", { path: "Notes/Menu.md", bullet: "tea", content: "with milk" }],
		["complete_task", { path: "Notes/Menu.md", line: 2, text: "order cr\ufffdme" }],
	])("%s leaves the note's bytes as they were and says why", async (tool, args) => {
		const answer = await callTool(client, tool, args);
		expect((await fs.readFile(nodePath.join(vault, "Notes", "Menu.md"))).equals(LATIN1)).toBe(true);
		expect(answer.ok ? "" : answer.error).toMatch(/not valid UTF-8/);
	});
});
