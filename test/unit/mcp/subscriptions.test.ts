import type { ServerEvent } from "@modelcontextprotocol/server";
import type { EventRef } from "obsidian";
import type { Host, HostAbstractFile } from "../../../src/host/Host";
import type { ToolContext } from "../../../src/mcp/context";
import { notePathOfUri, VaultChangeNotifier } from "../../../src/mcp/subscriptions";
import { noteUri } from "../../../src/mcp/resources";

/** The vault's change events, fired by the test: all the notifier listens to. */
class VaultEvents {
	private readonly handlers = new Map<string, Array<(file: HostAbstractFile, oldPath?: string) => unknown>>();
	readonly host = {
		vault: {
			on: (name: string, callback: (file: HostAbstractFile, oldPath?: string) => unknown): EventRef => {
				this.handlers.set(name, [...(this.handlers.get(name) ?? []), callback]);
				return { name };
			},
			offref: () => this.handlers.clear(),
		},
	} as unknown as Host;
	fire(name: "create" | "modify" | "delete", path: string): void;
	fire(name: "rename", path: string, oldPath: string): void;
	fire(name: string, path: string, oldPath?: string): void {
		for (const handler of this.handlers.get(name) ?? []) handler({ path, name: path.slice(path.lastIndexOf("/") + 1) }, oldPath);
	}
}

/** A caller's context as the notifier reads it: its scope, its prompts folder, its read right. */
function contextWith(readRight: "allow" | "deny" = "allow"): ToolContext {
	return {
		scope: { configDir: ".obsidian", excludedFolders: ["Private"] },
		promptsFolder: "Prompts",
		writes: { currentRight: () => readRight },
	} as unknown as ToolContext;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("VaultChangeNotifier", () => {
	let events: VaultEvents;
	let notifier: VaultChangeNotifier;
	beforeEach(() => {
		events = new VaultEvents();
		notifier = new VaultChangeNotifier(events.host, { debounceMs: 40, rightsCheckMs: 40 });
		notifier.start();
	});
	afterEach(() => notifier.stop());

	function listen(uris: string[], context: () => ToolContext | null = () => contextWith()): { seen: ServerEvent[]; ended: () => boolean } {
		let ended = false;
		const seen: ServerEvent[] = [];
		const { bus } = notifier.open(context, uris, () => (ended = true));
		bus.subscribe((event) => seen.push(event));
		return { seen, ended: () => ended };
	}

	test("25,000 changes in one window are one message per kind and per watched note, whatever the pending bound", async () => {
		const { seen } = listen([noteUri("Watched.md"), noteUri("Other.md")]);
		for (let index = 0; index < 25_000; index++) events.fire("create", `Flood/${index}.md`);
		for (let index = 0; index < 100; index++) events.fire("modify", "Watched.md");
		events.fire("modify", "Prompts/Daily.md");
		await sleep(150);
		expect(seen).toEqual([{ kind: "resources_list_changed" }, { kind: "prompts_list_changed" }, { kind: "resource_updated", uri: noteUri("Watched.md") }]);
	});

	test("changes only where the caller cannot see (excluded, hidden, config folder) send nothing", async () => {
		const { seen } = listen([noteUri("Private/Plan.md"), noteUri(".hidden/Note.md")]);
		events.fire("create", "Private/New.md");
		events.fire("modify", "Private/Plan.md");
		events.fire("modify", ".hidden/Note.md");
		events.fire("create", ".obsidian/plugins/x/data.md");
		events.fire("rename", "Private/b.md", "Private/a.md");
		await sleep(150);
		expect(seen).toEqual([]);
		// A note moved out of sight changes the visible list (a visible path is gone), and says nothing of where it went.
		events.fire("rename", "Private/Moved.md", "Moved.md");
		await sleep(150);
		expect(seen).toEqual([{ kind: "resources_list_changed" }]);
	});

	test("a caller whose token is revoked, or that may no longer read notes, has its stream ended and is told nothing", async () => {
		let current: ToolContext | null = contextWith();
		const revoked = listen([noteUri("Watched.md")], () => current);
		let right: "allow" | "deny" = "allow";
		const denied = listen([noteUri("Watched.md")], () => contextWith(right));
		current = null;
		right = "deny";
		events.fire("modify", "Watched.md");
		await sleep(150);
		expect(revoked.ended()).toBe(true);
		expect(denied.ended()).toBe(true);
		expect([...revoked.seen, ...denied.seen]).toEqual([]);
		expect(notifier.openCount).toBe(0);
	});

	test("note URIs name vault paths; anything else names none", () => {
		expect(notePathOfUri(noteUri("Folder/A note #1.md"))).toBe("Folder/A note #1.md");
		expect(notePathOfUri("vault-mcp://note/%E0%A4%A")).toBeNull();
		expect(notePathOfUri("file:///etc/passwd")).toBeNull();
	});
});
