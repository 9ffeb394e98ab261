import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";

/** Files a running server or Obsidian leaves in a vault: never part of the demo vault as shipped. */
const RUNTIME_LEFTOVERS = [".trash", ".obsidian/plugins", ".obsidian/workspace.json"];

/**
 * Copies `demo-vault` into `target` as it is committed at HEAD, not as the working tree holds it:
 * trying writes on the demo vault (the README's first command serves it) leaves a journal, a
 * `.trash` folder and settings behind, and tests or screenshots that copied them would see another
 * vault than everyone else's. Outside a git checkout (a release tarball), the working tree is
 * copied without those leftovers.
 */
export async function copyCommittedDemoVault(projectRoot: string, target: string): Promise<void> {
	await fs.mkdir(target, { recursive: true });
	const archived = await extractFromGit(projectRoot, target);
	if (archived) return;
	await fs.cp(nodePath.join(projectRoot, "demo-vault"), target, {
		recursive: true,
		filter: (source) => !RUNTIME_LEFTOVERS.some((leftover) => isAtOrUnder(nodePath.relative(nodePath.join(projectRoot, "demo-vault"), source), leftover)),
	});
}

function isAtOrUnder(relative: string, folder: string): boolean {
	const posix = relative.split(nodePath.sep).join("/");
	return posix === folder || posix.startsWith(`${folder}/`);
}

/** `git archive HEAD demo-vault`, unpacked into `target`; false when this is not a git checkout. */
function extractFromGit(projectRoot: string, target: string): Promise<boolean> {
	return new Promise((resolve, reject) => {
		const archive = execFile(
			"git",
			["archive", "--format=tar", "HEAD", "demo-vault"],
			{ cwd: projectRoot, encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
			(error, tarBytes) => {
				if (error) {
					resolve(false);
					return;
				}
				const untar = execFile("tar", ["-x", "-C", target, "--strip-components=1"], (untarError) =>
					untarError ? reject(new Error(`Could not unpack the demo vault: ${untarError.message}`)) : resolve(true),
				);
				untar.stdin?.end(tarBytes);
			},
		);
		archive.stdin?.end();
	});
}
