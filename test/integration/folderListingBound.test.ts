/**
 * A path making a new folder, or naming a folder of a Windows short name's shape, is judged by the names listed in the folder
 * above it (another folder's name in other letter case is the same folder on macOS and Windows). Headless, that listing was
 * read whole at each such call: a root of 200,000 entries was 95-120 ms of a create_note's CPU, with no end but the folder's.
 * Now a listing reads FOLDER_LISTING_MAX_ENTRIES entries at most, and past them the call is refused, saying why and what to do;
 * a note into a folder already holding notes lists nothing and is written as before. The real SDK client over real HTTP, the
 * bound set to a few dozen entries (the limit's 100,000 files took 40 s to make on a loaded machine).
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Entries one listing reads here; the root holds this many hidden files and five more entries. */
const BOUND = 40;

describe("a folder holding more entries than one listing reads", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ "Notes/n.md": "n\n", "Public.md": "public\n", "Old~1/o.md": "o\n" });
		// Hidden names: never part of the vault (nothing to index), but entries a listing of the root reads all the same.
		for (let index = 0; index < BOUND; index++) closeSync(openSync(nodePath.join(vault, `.entry${index}`), "w"));
		mkdirSync(nodePath.join(vault, "Notes", "Empty"));
		// An empty folder in the folder over the bound: there by exactly its name, so used, not made.
		mkdirSync(nodePath.join(vault, "Top empty"));
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, rateLimitPerMinute: 100_000 },
			host: { folderListingMaxEntries: BOUND },
		});
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.write ?? "");
	}, 60_000);
	afterAll(async () => {
		await client?.close();
		await running?.stop();
		await removeDir(vault);
	});

	test("a new folder there, or a short-shaped one, is refused saying why; nothing is made", async () => {
		const reason = `The vault's top folder holds more than ${BOUND} entries, more than this server reads to check a folder's name against those already there`;
		// On the base: each listing read to its end, and the folder made.
		expect(await callError(client, "create_note", { path: "New/x.md", content: "c" })).toContain(`Nothing was written. ${reason}`);
		expect(await callError(client, "rename_note", { path: "Public.md", new_path: "Fresh/Public.md" })).toContain(`Nothing was changed. ${reason}`);
		// The shape's refusal, with why the folder was not looked for (on the base: written into the listed `Old~1`).
		expect(await callError(client, "create_note", { path: "Old~1/x.md", content: "c" })).toContain(
			`Nothing was changed. Choose another name: '-' or a space in place of the '~' will do (Draft-2.md). ${reason}`,
		);
		expect(existsSync(nodePath.join(vault, "New"))).toBe(false);
		expect(existsSync(nodePath.join(vault, "Fresh"))).toBe(false);
		expect(readdirSync(nodePath.join(vault, "Old~1"))).toEqual(["o.md"]);
	});

	test("a note into a folder holding notes, or a new folder inside one, is written as before", async () => {
		await callOk(client, "create_note", { path: "Notes/x.md", content: "c" });
		await callOk(client, "create_note", { path: "Notes/Sub/x.md", content: "c" });
		await callOk(client, "create_note", { path: "Notes/Empty/x.md", content: "c" });
		// Refused on names204 (its listing over the bound, no file holding it): an existing folder needs no name check.
		await callOk(client, "create_note", { path: "Top empty/x.md", content: "c" });
		expect(readdirSync(nodePath.join(vault, "Top empty"))).toEqual(["x.md"]);
		await callOk(client, "rename_note", { path: "Public.md", new_path: "Notes/Sub/Public.md" });
		expect(readdirSync(nodePath.join(vault, "Notes")).sort()).toEqual(["Empty", "Sub", "n.md", "x.md"]);
		expect(readdirSync(nodePath.join(vault, "Notes", "Sub")).sort()).toEqual(["Public.md", "x.md"]);
	});
});
