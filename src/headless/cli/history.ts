import { parseArgs } from "node:util";
import { HISTORY_DEFAULT_LIMIT } from "../../config/limits";
import { HISTORY_COMMAND } from "../cliHelp";
import { jsonForTerminal, visibleInTerminal } from "../terminalText";
import { asUsage, loggerFor, positiveInteger, UsageError, vaultRootFrom, type CliIo } from "./io";
import { listJournal } from "./journal";

/** `vault-mcp history`: lists journalled tool calls, newest first; --json without note text. */
export async function history(args: string[], io: CliIo): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: HISTORY_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	if (positionals.length > 1) throw new UsageError(`history takes one vault folder; unexpected: ${positionals.slice(1).join(" ")}`);
	const limit = positiveInteger(values.limit, "--limit", 1) ?? HISTORY_DEFAULT_LIMIT;
	const logger = loggerFor(io);
	const entries = listJournal(root, limit, logger);
	if (values.json) {
		const withoutText = entries.map(({ changes, ...call }) => ({
			...call,
			changes: changes.map(({ path, movedFrom, beforeHash, afterHash }) => ({
				path,
				...(movedFrom === undefined ? {} : { movedFrom }),
				beforeHash,
				afterHash,
			})),
		}));
		// Paths are a client's choice: a bidi override in one would reorder the terminal's line.
		io.stdout(`${jsonForTerminal(withoutText)}\n`);
		return 0;
	}
	if (entries.length === 0) logger.info(`No changes made through Vault MCP are recorded in ${root}.`);
	for (const entry of entries) {
		// Every field is escaped whole, tabs and line breaks included: a name cannot add a column or a line.
		const shown = (text: string) => visibleInTerminal(text);
		const paths = [
			...new Set(
				entry.changes.map((change) => (change.movedFrom === undefined ? shown(change.path) : `${shown(change.movedFrom)} → ${shown(change.path)}`)),
			),
		].join(", ");
		io.stdout(
			`${shown(entry.id)}\t${shown(entry.time)}\t${shown(entry.tokenName)}\t${shown(entry.tool)}\t${paths}${entry.undone ? `\tundone by ${shown(entry.undone.by)}` : ""}\n`,
		);
	}
	return 0;
}
