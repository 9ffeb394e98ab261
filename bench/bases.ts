import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import { parseBaseFile } from "../src/bases/baseFile";
import { runBaseQuery } from "../src/bases/query";
import { VAULT_WIDE_SLICE_MS } from "../src/config/limits";
import { SliceClock } from "../src/markdown/steps";
import { NodeHost } from "../src/headless/NodeHost";
import { baseVault } from "../src/vault/bases";
import { visibleNotes } from "../src/vault/notes";
import { getAllTags } from "../src/markdown/tags";
import { writeSyntheticVault } from "./syntheticVault";

const SCOPE = { configDir: ".obsidian", excludedFolders: [] };
const ROUNDS = 5;

/** Bases a person writes: a tag filter sorted by name, a formula over links sorted by it, backlinks counted for every note. */
const BASES: Array<{ label: string; text: string }> = [
	{
		label: "tag filter, sort by name",
		text: "filters: 'file.hasTag(\"project\")'\nviews:\n  - type: table\n    name: T\n    order: [file.name, status]\n    sort:\n      - property: file.name\n        direction: ASC\n",
	},
	{
		label: "formula over links, sorted",
		text: "filters: 'file.ext == \"md\"'\nformulas:\n  n: 'file.links.length * 2 + file.tags.length'\nviews:\n  - type: table\n    name: T\n    order: [file.name, formula.n]\n    sort:\n      - property: formula.n\n        direction: DESC\n",
	},
	{
		label: "backlinks of every note",
		text: "formulas:\n  n: 'file.backlinks.length'\nviews:\n  - type: table\n    name: T\n    order: [file.name, formula.n]\n    sort:\n      - property: formula.n\n        direction: DESC\n",
	},
];

function median(samples: number[]): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * query_base's evaluation over a synthetic vault, with the cost of the same tag filter written
 * directly in code beside it: the ratio is what evaluating a base costs over the plainest filter.
 */
export async function benchBases(size: number, record: (vault: string, metric: string, value: number, unit: string) => void): Promise<void> {
	const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), "vault-mcp-bench-bases-"));
	try {
		await writeSyntheticVault(root, size);
		const host = await NodeHost.open(root);
		try {
			const label = `synthetic-${size}`;
			const direct: number[] = [];
			for (let round = 0; round < ROUNDS; round++) {
				const started = performance.now();
				visibleNotes(host, SCOPE).filter((file) =>
					getAllTags(host.metadataCache.getFileCache(file) ?? {}).some(
						(tag) => tag.toLowerCase() === "#project" || tag.toLowerCase().startsWith("#project/"),
					),
				);
				direct.push(performance.now() - started);
			}
			record(label, "bases: tag filter in code (baseline)", median(direct), "ms");
			for (const base of BASES) {
				const config = parseBaseFile(base.text);
				if (!config.ok) throw new Error(config.error);
				const samples: number[] = [];
				for (let round = 0; round < ROUNDS; round++) {
					const started = performance.now();
					const { vault, files } = await baseVault(host, SCOPE);
					const self = files[0];
					if (!self) throw new Error("empty vault");
					// Slices as query_base makes them (its budget's CPU clock read where each ends); the pause itself is free here.
					const clock = new SliceClock(VAULT_WIDE_SLICE_MS, () => Promise.resolve());
					const result = await runBaseQuery(config.value, vault, files, self, {
						limit: 100,
						now: Date.now(),
						pause: () => clock.checkpoint(),
						due: () => clock.due(),
					});
					if (!result.ok) throw new Error(result.error);
					samples.push(performance.now() - started);
				}
				record(label, `bases: ${base.label}`, median(samples), "ms");
				record(label, `bases: ${base.label} / baseline`, median(samples) / Math.max(median(direct), 0.001), "×");
			}
		} finally {
			await host.close();
		}
	} finally {
		await fs.rm(root, { recursive: true, force: true });
	}
}
