/**
 * `npm run bench`: a benchmark, not a test. Prints a table and writes bench/results.json.
 * Timings on a shared machine are noisy: compare rows of one run as ratios, not across runs.
 */
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import { NodeHost } from "../src/headless/NodeHost";
import { writeSyntheticVault } from "./syntheticVault";

const SHARED_VAULT = nodePath.resolve(__dirname, "../../shared/data/vaults/tasks-demo");
const SYNTHETIC_SIZES = (process.env.BENCH_SIZES ?? "1000,10000").split(",").map(Number);

interface Row {
	vault: string;
	notes: number;
	corpusBytes: number;
	metric: string;
	value: number;
	unit: string;
}

const rows: Row[] = [];

function gc(): void {
	(globalThis as { gc?: () => void }).gc?.();
}

async function corpusBytes(root: string): Promise<number> {
	let total = 0;
	for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
		if (entry.isFile() && entry.name.endsWith(".md") && !entry.parentPath.includes(`${nodePath.sep}.`)) total += (await fs.stat(nodePath.join(entry.parentPath, entry.name))).size;
	}
	return total;
}

/** Opens the vault (listing + metadata cache build) and records time and heap growth. */
async function benchMetadataCache(label: string, root: string): Promise<void> {
	const bytes = await corpusBytes(root);
	gc();
	const heapBefore = process.memoryUsage().heapUsed;
	const started = performance.now();
	const host = await NodeHost.open(root);
	const elapsed = performance.now() - started;
	gc();
	const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
	const notes = host.vault.getMarkdownFiles().length;
	const add = (metric: string, value: number, unit: string) => rows.push({ vault: label, notes, corpusBytes: bytes, metric, value, unit });
	add("metadata cache build (list + read + parse + resolve)", elapsed, "ms");
	add("metadata cache build per note", (elapsed / notes) * 1000, "µs");
	add("heap growth after build", heapGrowth / (1024 * 1024), "MiB");
	add("heap growth ÷ corpus bytes", heapGrowth / bytes, "×");
	await host.close();
}

async function main(): Promise<void> {
	if (!(globalThis as { gc?: unknown }).gc) throw new Error("run with node --expose-gc (npm run bench does)");
	await benchMetadataCache("tasks-demo", SHARED_VAULT);
	for (const size of SYNTHETIC_SIZES) {
		const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), `vault-mcp-bench-${size}-`));
		try {
			await writeSyntheticVault(root, size);
			await benchMetadataCache(`synthetic ${size}`, root);
		} finally {
			await fs.rm(root, { recursive: true, force: true });
		}
	}
	const table = rows.map((row) => ({ vault: row.vault, notes: row.notes, "corpus MiB": (row.corpusBytes / 1048576).toFixed(2), metric: row.metric, value: row.value.toFixed(2), unit: row.unit }));
	console.table(table);
	const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "unknown", memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, date: new Date().toISOString() };
	console.log(`machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}`);
	await fs.writeFile(nodePath.join(__dirname, "results.json"), JSON.stringify({ machine, rows }, null, 2) + "\n");
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
