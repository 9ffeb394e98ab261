import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { LinkMap } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A note's record of unresolved links is enumerated whole before a `for … in` takes its first key,
 * so pausing inside the loop does not split it: a planted note of 700,000 links to names no file has
 * held the server 0.2 s in one piece after it was read (the search index added the record up), and
 * again on every rename of any other note (the rename looked through it for the new name). Here
 * 20,000 such links stand for 700,000, and each listing of a record's keys is counted: none may list
 * the planted note's record.
 */
const PLANTED_LINKS = 20_000;

/** The most keys one listing of a single note's record gave (one listing is one piece, whatever the pauses). */
const listed = { most: 0 };

/** Wraps each note's record as it is set, so each listing of its keys is counted. */
function countListings(map: LinkMap): LinkMap {
	const wrapped = new WeakMap<object, Record<string, number>>();
	const wrap = (record: Record<string, number>) => {
		let proxy = wrapped.get(record);
		if (!proxy) {
			proxy = new Proxy(record, {
				ownKeys(target) {
					const keys = Reflect.ownKeys(target);
					listed.most = Math.max(listed.most, keys.length);
					return keys;
				},
			});
			wrapped.set(record, proxy);
		}
		return proxy;
	};
	const target: LinkMap = {};
	for (const source of Object.keys(map)) target[source] = wrap(map[source] as Record<string, number>);
	return new Proxy(target, {
		set: (into, source, record: Record<string, number>) => Reflect.set(into, source, wrap(record)),
	});
}

describe("a note of 20,000 links to names no file has, planted while the server runs", () => {
	let vault = "";
	let running: RunningService;
	let client: Client;
	beforeAll(async () => {
		vault = await makeVault({ "Small.md": "A small note.\n", "Linker.md": "See [[Small]].\n", "Other.md": "Nothing here.\n" });
		running = await startService(vault, {
			levels: ["write"],
			settings: { rateLimitPerMinute: 1_000_000, writeEnabled: true },
			host: { watch: true },
			rights: { write: { rename_note: "allow" } },
		});
		const cache = running.host.metadataCache;
		await cache.settled();
		await running.service.search?.whenReady();
		Object.defineProperty(cache, "resolvedLinks", { value: countListings(cache.resolvedLinks) });
		Object.defineProperty(cache, "unresolvedLinks", { value: countListings(cache.unresolvedLinks) });
		client = await connectClient(running.url, running.tokens.write ?? "");
		const links = Array.from({ length: PLANTED_LINKS }, (_, index) => `[[n${index}]]`).join("");
		await fs.writeFile(nodePath.join(vault, "Planted.md"), `${links}\n`);
		await cache.caughtUpWithDisk();
		await running.service.search?.whenReady();
	}, 60_000);
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("once read and indexed, its record was never listed whole; its links count as pointing nowhere", async () => {
		const graph = await callOk<{ unresolved_links: number }>(client, "get_graph_stats", {});
		const links = await callOk<{ unresolved_total: number }>(client, "get_note_links", { path: "Planted" });
		expect([graph.unresolved_links, links.unresolved_total]).toEqual([PLANTED_LINKS, PLANTED_LINKS]);
		// 20,000 on lead6: the search index added the record up, listing every key first.
		expect(listed.most).toBeLessThan(100);
		// Held in parts (one plain object of 650,000 keys grew in a piece of 45–130 ms), read as Obsidian's plain object.
		const record = running.host.metadataCache.unresolvedLinks["Planted.md"] ?? {};
		const keys = Object.keys(record);
		expect([keys.length, keys[0], keys[PLANTED_LINKS - 1], record.n7, "n7" in record, "n" in record]).toEqual([
			PLANTED_LINKS,
			"n0",
			`n${PLANTED_LINKS - 1}`,
			1,
			true,
			false,
		]);
		listed.most = 0;
	}, 60_000);

	test("a rename of another note does not list it, and still rewrites the link to the renamed note", async () => {
		listed.most = 0;
		await callOk(client, "rename_note", { path: "Small", new_path: "Tiny" });
		expect(await fs.readFile(nodePath.join(vault, "Linker.md"), "utf8")).toBe("See [[Tiny]].\n");
		// 20,000 on lead6: the rename looked through each note's unresolved record for the new name.
		expect(listed.most).toBeLessThan(100);
	}, 60_000);
});
