import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "./http";
import { replaceMethod } from "./replaceMethod";
import { startService, type RunningService } from "./service";
import { makeVault, removeDir } from "./vault";

/** A served vault whose vault-wide calls have a tiny budget, a client, and a count of one note's link paths resolved. */
export interface BudgetedLinksService {
	running: RunningService;
	client: Client;
	/** Link paths of the counted note resolved since the service started (each `getFirstLinkpathDest` asked from it). */
	resolved(): number;
	close(): Promise<void>;
}

/**
 * A real service over a temp vault of `files`, settled and its search index built, whose vault-wide calls work in slices
 * of 1 ms and 5 ms in all (or `callWorkMs`) (a note of 10,000 link paths then needs several calls), with a client of one `level` token; it
 * counts the link paths `countedNote` has the host resolve, so a test bounds get_note_links' work by a count, not a clock.
 */
export async function startBudgetedLinksService(
	files: Record<string, string>,
	options: {
		level: "read" | "write";
		countedNote: string;
		excludedFolders?: string[];
		/** The whole work budget of a call, when not 5 ms (a walk that must take several calls, yet fit in one budget of 5 ms on a fast run). */
		callWorkMs?: number;
	},
): Promise<BudgetedLinksService> {
	const vault = await makeVault(files);
	const running = await startService(vault, {
		levels: [options.level],
		settings: { rateLimitPerMinute: 1_000_000, writeEnabled: options.level === "write", excludedFolders: options.excludedFolders ?? [] },
		callBudget: { sliceMs: 1, callWorkMs: options.callWorkMs ?? 5 },
	});
	await running.host.metadataCache.settled();
	await running.service.search?.whenReady();
	const client = await connectClient(running.url, running.tokens[options.level] ?? "");
	const cache = running.host.metadataCache;
	const first = cache.getFirstLinkpathDest.bind(cache);
	let resolved = 0;
	const counting = replaceMethod(cache, "getFirstLinkpathDest", (linkpath: string, source: string) => {
		if (source === options.countedNote) resolved++;
		return first(linkpath, source);
	});
	return {
		running,
		client,
		resolved: () => resolved,
		close: async () => {
			counting.restore();
			await client.close();
			await running.stop();
			await removeDir(vault);
		},
	};
}
