import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import { copyCommittedDemoVault } from "../../scripts/committedDemoVault";
import { findProjectRoot, fixturesDir } from "./fixtures";

/** The real vault captured from Obsidian, read-only (see fixtures.ts for where it is found). */
export const TASKS_DEMO_VAULT = nodePath.join(fixturesDir(), "vaults/tasks-demo");
/** The captures of Obsidian's metadata cache. */
export const OBSIDIAN_CACHE_DIR = nodePath.join(fixturesDir(), "obsidian-cache");

/** A new empty folder under the system temp folder. */
export async function makeTempDir(prefix = "vault-mcp-test-"): Promise<string> {
	return fs.mkdtemp(nodePath.join(os.tmpdir(), prefix));
}

/** A temp vault holding `files` (vault path → text), plus a `.obsidian` folder. */
export async function makeVault(files: Record<string, string> = {}): Promise<string> {
	const root = await makeTempDir();
	await fs.mkdir(nodePath.join(root, ".obsidian"), { recursive: true });
	for (const [path, text] of Object.entries(files)) {
		const diskPath = nodePath.join(root, path);
		await fs.mkdir(nodePath.dirname(diskPath), { recursive: true });
		await fs.writeFile(diskPath, text);
	}
	return root;
}

/** A writable copy of a read-only vault (the shared ones must never be written). */
export async function copyVault(source: string): Promise<string> {
	const root = await makeTempDir();
	await fs.cp(source, root, { recursive: true });
	await makeWritable(root);
	return root;
}

/**
 * A writable copy of the project's demo vault as committed, so what a person's tries left in the
 * working tree (a journal, a `.trash` folder, settings) never reaches a test.
 */
export async function copyDemoVault(): Promise<string> {
	const root = await makeTempDir();
	await copyCommittedDemoVault(findProjectRoot(), root);
	await makeWritable(root);
	return root;
}

async function makeWritable(path: string): Promise<void> {
	const stat = await fs.stat(path);
	await fs.chmod(path, stat.mode | 0o200);
	if (stat.isDirectory()) {
		for (const entry of await fs.readdir(path)) await makeWritable(nodePath.join(path, entry));
	}
}

export async function removeDir(path: string): Promise<void> {
	// A save still landing (a settings file written beside its temporary copy) can put a file back
	// into a folder being removed: Node then retries on ENOTEMPTY rather than failing the test.
	await fs.rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/** Every file under a folder, with its text, for "is the token anywhere on disk" checks. */
export async function readAllFiles(root: string): Promise<Array<{ path: string; text: string }>> {
	const found: Array<{ path: string; text: string }> = [];
	for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
		if (!entry.isFile()) continue;
		const path = nodePath.join(entry.parentPath, entry.name);
		found.push({ path, text: await fs.readFile(path, "utf8") });
	}
	return found;
}

/**
 * The vault Obsidian saw held six binary attachments (PNG screenshots and a PDF) that the shared
 * copy leaves out. Links to them resolve in the capture, so the test puts empty files at those
 * paths: the link maps depend on a file existing, never on its bytes.
 */
export async function restoreLeftOutAttachments(root: string): Promise<string[]> {
	const capturedResolved = JSON.parse(await fs.readFile(nodePath.join(OBSIDIAN_CACHE_DIR, "metadataCache/resolvedLinks.json"), "utf8")) as Record<
		string,
		Record<string, number>
	>;
	const targets = new Set(Object.values(capturedResolved).flatMap((targets) => Object.keys(targets)));
	const restored: string[] = [];
	for (const target of targets) {
		const diskPath = nodePath.join(root, target);
		if (await fs.stat(diskPath).catch(() => null)) continue;
		await fs.mkdir(nodePath.dirname(diskPath), { recursive: true });
		await fs.writeFile(diskPath, "");
		restored.push(target);
	}
	return restored.sort();
}
