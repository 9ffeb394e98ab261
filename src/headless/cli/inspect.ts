import { parseArgs } from "node:util";
import { INSPECT_COMMAND } from "../cliHelp";
import { NodeHost } from "../NodeHost";
import { asUsage, loggerFor, UsageError, vaultRootFrom, type CliIo } from "./io";

/** `vault-mcp inspect`: prints Obsidian-shaped metadata, one note's CachedMetadata or the vault's link maps. */
export async function inspect(args: string[], io: CliIo): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: INSPECT_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const notePath = positionals[1];
	if (values.links === (notePath !== undefined)) throw new UsageError("inspect needs either a note path or --links.");
	const host = await NodeHost.open(root);
	await host.metadataCache.settled();
	try {
		if (values.links) {
			const { resolvedLinks, unresolvedLinks } = host.metadataCache;
			io.stdout(`${JSON.stringify({ resolvedLinks, unresolvedLinks }, null, 2)}\n`);
			return 0;
		}
		const file = host.vault.getFileByPath(notePath ?? "") ?? host.vault.getFileByPath(`${notePath ?? ""}.md`);
		const cache = file ? host.metadataCache.getFileCache(file) : null;
		if (!file || !cache) {
			loggerFor(io).error(`No Markdown note at "${notePath ?? ""}" in ${root}.`);
			return 1;
		}
		io.stdout(`${JSON.stringify(cache, null, 2)}\n`);
		return 0;
	} finally {
		await host.close();
	}
}
