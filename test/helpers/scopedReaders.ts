/**
 * A vault served headless with `Private/` excluded and two read clients over HTTP, one of a token for every folder and one
 * of a token limited to `L/` (named "scoped"): the set-up of the suites that page while notes change.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import type { HostFile } from "../../src/host/Host";
import { connectClient } from "./http";
import { startService, type RunningService } from "./service";
import { makeVault, removeDir } from "./vault";

export interface ScopedReaders {
	running: RunningService;
	everyFolder: Client;
	inL: Client;
	/** Rewrites the note at `path` as another client would, and waits for the metadata cache. */
	rewrite(path: string, text: string): Promise<void>;
	stop(): Promise<void>;
}

export async function startScopedReaders(files: Record<string, string>): Promise<ScopedReaders> {
	const vault = await makeVault(files);
	const scoped = addToken({ ...defaultSettings(), excludedFolders: ["Private"] }, "scoped", "read", undefined, ["L"]);
	if ("error" in scoped) throw new Error(scoped.error);
	const running = await startService(vault, { settings: { rateLimitPerMinute: 100_000, excludedFolders: ["Private"], tokens: scoped.settings.tokens } });
	await running.host.metadataCache.settled();
	const everyFolder = await connectClient(running.url, running.tokens.read ?? "");
	const inL = await connectClient(running.url, scoped.token);
	return {
		running,
		everyFolder,
		inL,
		rewrite: async (path, text) => {
			await running.host.vault.process(running.host.vault.getFileByPath(path) as HostFile, () => text);
			await running.host.metadataCache.settled();
		},
		stop: async () => {
			await everyFolder.close();
			await inL.close();
			await running.stop();
			await removeDir(vault);
		},
	};
}
