import type { Host } from "../src/host/Host";
import { BacklinksWalk } from "../src/vault/links";
import { mainThreadCpu } from "../test/helpers/threadCpu";

/** Linking notes of the hub (`BENCH_BACKLINKS=N` for another number). */
const LINKING_NOTES = Number(process.env.BENCH_BACKLINKS ?? 100_000);
/** Calls measured after one linking note's count changed, and with nothing changed: their median is recorded. */
const ROUNDS = 9;
const PAGE = 100;

/**
 * get_note_links' backlinks walk over a hub linked from LINKING_NOTES notes (`--only backlinks`), alone: a host of the
 * metadata cache's `resolvedLinks` and the vault's lookups by path only, so the numbers are the walk's work, not the
 * cache's. The main thread's CPU of the first answer (every count, the sort), of a page after one linking note's count
 * changed (it moves in the kept order; it sorted all again before links190), and of a page with nothing changed.
 */
export async function benchBacklinks(record: (vault: string, metric: string, value: number, unit: string) => void): Promise<void> {
	const resolvedLinks: Record<string, Record<string, number>> = {};
	// Names in an order that is not the answer's, counts of 1–3.
	for (let note = 0; note < LINKING_NOTES; note++)
		resolvedLinks[`L/${((note * 7919) % LINKING_NOTES).toString(36)}${note % 2 ? "B" : "a"}${note}.md`] = { "Hub.md": 1 + (note % 3) };
	const host = {
		metadataCache: { resolvedLinks, getCache: () => null, getFirstLinkpathDest: () => null },
		vault: { getFileByPath: (path: string) => (path in resolvedLinks ? { path } : null), getFiles: () => [] },
	} as unknown as Host;
	const scope = { configDir: ".obsidian", excludedFolders: [] };
	const cpu = mainThreadCpu() ?? (() => performance.now());
	const label = `hub of ${LINKING_NOTES.toLocaleString("en-US")} linking notes`;
	const walk = new BacklinksWalk(host, "Hub.md");
	let start = cpu();
	await walk.page(host, scope, PAGE, undefined);
	record(label, "first page (every count, the sort), main thread's CPU", cpu() - start, "ms");
	const sources = Object.keys(resolvedLinks);
	const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[samples.length >> 1] as number;
	const edited: number[] = [];
	const still: number[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		const source = sources[(round * 104_729) % sources.length] as string;
		resolvedLinks[source] = { "Hub.md": (resolvedLinks[source]?.["Hub.md"] ?? 1) + 1 };
		walk.recount(source);
		start = cpu();
		await walk.page(host, scope, PAGE, undefined);
		edited.push(cpu() - start);
		start = cpu();
		await walk.page(host, scope, PAGE, undefined);
		still.push(cpu() - start);
	}
	record(label, "a page after one linking note's count changed, main thread's CPU, median", median(edited), "ms");
	record(label, "a page, nothing changed, main thread's CPU, median", median(still), "ms");
}
