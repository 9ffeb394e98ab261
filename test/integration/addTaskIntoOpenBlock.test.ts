import { existsSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

// add_task answers with the line of the task it added; a line added after a block the note never closes is part
// of that block (code, a comment, math), so no task is there: neither list_tasks nor the Tasks plugin sees it.
const NOTES: Record<string, string> = {
	"Fence.md": "# Snippets\n\n```js\nconst open = true;\n",
	"Tilde.md": "~~~\nno closing fence",
	"Comment.md": "Visible.\n\n%%\nhidden thoughts\n",
	"Html.md": "<!--\ndraft\n",
	"Math.md": "$$\nx^2\n",
	"Section.md": "## Tasks\n\n```\nunclosed\n## Later\n",
	"Closed.md": "```\ncode\n```\n\n%% note %%\n",
};
const DAILY_FOLDER = "Daily";

let vault: string;
let running: RunningService;
let client: Client;
beforeAll(async () => {
	vault = await makeVault({
		...NOTES,
		"Templates/Day.md": "# {{title}}\n\n```\nlog\n",
		".obsidian/daily-notes.json": JSON.stringify({ folder: DAILY_FOLDER, format: "YYYY-MM-DD", template: "Templates/Day" }),
	});
	running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true } });
	client = await connectClient(running.url, running.tokens.write ?? "");
});
afterAll(async () => {
	await client.close();
	await running.stop();
	await removeDir(vault);
});

test.each([
	["a code fence", "Fence.md", undefined],
	["a ~~~ fence, no newline at the end", "Tilde.md", undefined],
	["a %% comment", "Comment.md", undefined],
	["an HTML comment", "Html.md", undefined],
	["$$ math", "Math.md", undefined],
	["a code fence in the heading's section (the next heading is code too)", "Section.md", "Tasks"],
])("a note that leaves %s open: add_task says so and changes nothing", async (_kind, path, heading) => {
	const error = await callError(client, "add_task", { path, text: "Water the herbs", ...(heading === undefined ? {} : { heading }) });
	expect(error).toMatch(/would not be a task .*Nothing was changed/);
	expect(readFileSync(nodePath.join(vault, path), "utf8")).toBe(NOTES[path]);
});

test("a note whose blocks are closed gets the task, and list_tasks finds it at the line add_task gave", async () => {
	const added = await callOk<{ line: number }>(client, "add_task", { path: "Closed.md", text: "Water the herbs" });
	const listed = await callOk<{ tasks: Array<{ line: number; text: string }> }>(client, "list_tasks", { path: "Closed.md" });
	expect(listed.tasks).toEqual([expect.objectContaining({ line: added.line, text: "Water the herbs" })]);
});

test("today's daily note made from a template that leaves a code block open: refused, no daily note made", async () => {
	const error = await callError(client, "add_task", { text: "Water the herbs" });
	expect(error).toMatch(/would not be a task .*Nothing was changed/);
	expect(existsSync(nodePath.join(vault, DAILY_FOLDER))).toBe(false);
});
