import { parseArgs } from "node:util";
import { NoteTooLargeError } from "../../host/NoteTooLargeError";
import { INSPECT_COMMAND } from "../cliHelp";
import { parseMetadata } from "../../markdown/metadata";
import { NodeHost } from "../NodeHost";
import { NodeMetadataCache } from "../NodeMetadataCache";
import { NodeVault } from "../NodeVault";
import { jsonForTerminal } from "../terminalText";
import { asUsage, loggerFor, UsageError, vaultRootFrom, type CliIo } from "./io";

/**
 * `vault-mcp inspect`: prints Obsidian-shaped metadata, one note's CachedMetadata, the vault's link
 * maps, or one note's entries of them; as JSON whose note text a terminal cannot act on (a note's
 * author is not the person at the terminal).
 */
export async function inspect(args: string[], io: CliIo): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: INSPECT_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const notePath = positionals[1];
	if (!values.links && notePath === undefined) throw new UsageError("inspect needs a note path, --links, or both.");
	if (notePath !== undefined) return inspectNote(root, notePath, values.links, io);
	const host = await NodeHost.open(root);
	try {
		await host.metadataCache.settled();
		const { resolvedLinks, unresolvedLinks } = host.metadataCache;
		io.stdout(`${jsonForTerminal({ resolvedLinks, unresolvedLinks }, 2)}\n`);
		return 0;
	} finally {
		await host.close();
	}
}

/**
 * One note's metadata, as the cache holds it (the cache's compact form prints the same JSON), or with
 * `links` its entries of the two link maps, read from that note alone (and the vault's list of
 * files): parsing the whole vault first took 50 s beside 60 hostile notes.
 */
async function inspectNote(root: string, notePath: string, links: boolean, io: CliIo): Promise<number> {
	const vault = await NodeVault.open(root);
	try {
		const file = vault.getFileByPath(notePath) ?? vault.getFileByPath(`${notePath}.md`);
		const read: unknown = file?.extension === "md" ? await vault.cachedRead(file).catch((error: unknown) => error) : null;
		if (read instanceof NoteTooLargeError) {
			loggerFor(io).error(read.message);
			return 1;
		}
		const text = typeof read === "string" ? read : null;
		if (file === null || text === null) {
			loggerFor(io).error(`No Markdown note at "${notePath}" in ${root}.`);
			return 1;
		}
		if (links) {
			const { resolvedLinks, unresolvedLinks } = await NodeMetadataCache.ofOne(vault, file);
			io.stdout(`${jsonForTerminal({ resolvedLinks, unresolvedLinks }, 2)}\n`);
		} else io.stdout(`${jsonForTerminal(parseMetadata(text), 2)}\n`);
		return 0;
	} finally {
		await vault.close();
	}
}
