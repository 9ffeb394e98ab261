import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from "@modelcontextprotocol/client";
import { MAX_PENDING_CHANGED_PATHS } from "../../src/config/limits";
import type { HostEvents } from "../../src/headless/events";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const noteUri = (path: string) => `vault-mcp://note/${path.split("/").map(encodeURIComponent).join("/")}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A watched note's change must not be told once the note is out of the caller's sight: past
 * MAX_PENDING_CHANGED_PATHS changes the server works out what each stream is owed early, and the
 * owner may narrow the folders in the time left before the notification goes.
 */
describe("a subscription whose folders are narrowed while changes wait to be told", () => {
	let vault: string;
	let running: RunningService;

	beforeAll(async () => {
		vault = await makeVault({ "Shared/Plan.md": "plan\n", "Notes/Watched.md": "watched\n" });
		running = await startService(vault, {
			host: { watch: true },
			levels: ["read"],
			settings: { excludedFolders: ["Private"], rateLimitPerMinute: 100_000 },
		});
	});
	afterAll(async () => {
		await running.stop();
		await removeDir(vault);
	});

	test("a note in a folder excluded after a flood of changes is never named in resources/updated", async () => {
		const client = new ClientV2({ name: "subscriber", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
		await client.connect(new HttpTransportV2(new URL(running.url), { requestInit: { headers: { Authorization: `Bearer ${running.tokens.read ?? ""}` } } }));
		const updated: string[] = [];
		client.setNotificationHandler("notifications/resources/updated", (notification) => {
			updated.push(String((notification.params as { uri?: string }).uri));
		});
		const subscription = await client.listen({ resourceSubscriptions: [noteUri("Shared/Plan.md"), noteUri("Notes/Watched.md")] });
		// Another program (a sync tool) rewrites the watched notes and more files than the server holds
		// between two notifications; the watcher reports them as these events.
		await fs.writeFile(nodePath.join(vault, "Shared", "Plan.md"), "plan, new secret line\n");
		await fs.writeFile(nodePath.join(vault, "Notes", "Watched.md"), "watched again\n");
		const events = (running.host.vault as unknown as { events: HostEvents }).events;
		const plan = running.host.vault.getFileByPath("Shared/Plan.md");
		const watched = running.host.vault.getFileByPath("Notes/Watched.md");
		events.trigger("modify", plan);
		events.trigger("modify", watched);
		for (let index = 0; index < MAX_PENDING_CHANGED_PATHS; index++) events.trigger("modify", { path: `Elsewhere/${index}.md` });
		// The owner excludes Shared before the notification goes.
		await running.service.apply({ ...running.settings, excludedFolders: ["Private", "Shared"] });
		const deadline = Date.now() + 5000;
		while (updated.length === 0 && Date.now() < deadline) await sleep(25);
		await sleep(800);
		// The watcher may report the disk writes again later: Watched.md once or twice, the excluded note never.
		expect(updated).toContain(noteUri("Notes/Watched.md"));
		expect(updated.filter((uri) => uri !== noteUri("Notes/Watched.md"))).toEqual([]);
		await subscription.close();
		await client.close();
	});
});
