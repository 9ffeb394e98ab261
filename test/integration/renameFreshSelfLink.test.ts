import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** A rename right after another program gave the note a link to itself: the link follows the note. */
describe("rename_note just after an outside edit of the moved note, over real HTTP", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeEach(async () => {
		vault = await makeVault({ "Old.md": "hello\n", "Other.md": "x\n" });
		running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, rateLimitPerMinute: 100_000 } });
		client = await connectClient(running.url, running.tokens.write ?? "");
		await running.host.metadataCache.settled();
	});
	afterEach(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("a self-link another program added a moment before the rename is rewritten to the new name", async () => {
		await fs.writeFile(nodePath.join(vault, "Old.md"), "see [[Old]] and [[Old#Top]]\n");
		await callOk(client, "rename_note", { path: "Old.md", new_path: "New.md" });
		expect(await fs.readFile(nodePath.join(vault, "New.md"), "utf8")).toBe("see [[New]] and [[New#Top]]\n");
	});
});
