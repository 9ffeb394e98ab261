import { parseArgs, type ParseArgsConfig } from "node:util";
import { applyRightChanges, rightsTable, type RightChanges, type ToolRight } from "../../auth/rights";
import { addToken, revokeToken, setTokenRights, tokenFoldersText, tokenNamed } from "../../auth/tokenList";
import { TOOL_RIGHT_SUBJECTS } from "../../mcp/toolRightSubjects";
import { TOKEN_FOLDERS_COMMAND, TOKEN_LIST_COMMAND, TOKEN_NEW_COMMAND, TOKEN_REVOKE_COMMAND, TOKEN_RIGHTS_COMMAND } from "../cliHelp";
import { foldersFromFlags, missingFolderWarnings, runTokenFolders } from "../tokenFoldersCommand";
import { jsonForTerminal, visibleInTerminal } from "../terminalText";
import { asUsage, loggerFor, quoted, UsageError, vaultRootFrom, type CliIo } from "./io";
import { connectHint, loadSettings, newTokenRights, settingsStoreOf } from "./vaultSettings";

/** One `vault-mcp token ACTION` handler: the arguments after the action. */
type TokenAction = (args: string[], io: CliIo) => Promise<number>;

/**
 * `vault-mcp token ACTION …`: each action parses its own flags (its spec in cliHelp.ts) in its own
 * function. A new action is one function and one entry here (and its spec and help in cliHelp.ts).
 */
const TOKEN_ACTIONS: Record<string, TokenAction> = {
	new: tokenNew,
	list: tokenList,
	rights: tokenRights,
	folders: tokenFolders,
	revoke: tokenRevoke,
};

/** The action names as help and errors list them: "new, list, rights or revoke". */
function actionList(): string {
	const names = Object.keys(TOKEN_ACTIONS);
	return `${names.slice(0, -1).join(", ")} or ${names.at(-1) ?? ""}`;
}

export async function token(args: string[], io: CliIo): Promise<number> {
	const [action, ...rest] = args;
	const run = action !== undefined && Object.hasOwn(TOKEN_ACTIONS, action) ? TOKEN_ACTIONS[action] : undefined;
	if (!run) throw new UsageError(action === undefined ? `token needs ${actionList()}.` : `Unknown token action: ${action}`);
	return run(rest, io);
}

/** --allow/--ask/--deny values: tool names, comma-separated or the flag repeated. */
function rightChangesFrom(values: { allow?: string[]; ask?: string[]; deny?: string[] }): RightChanges {
	const names = (list: string[] | undefined) =>
		(list ?? [])
			.flatMap((item) => item.split(","))
			.map((name) => name.trim())
			.filter((name) => name !== "");
	return { allow: names(values.allow), ask: names(values.ask), deny: names(values.deny) };
}

/** A token's rights as one line per tool. */
function rightsText(rights: Record<string, ToolRight>): string {
	const width = Math.max(...Object.keys(rights).map((name) => name.length));
	return Object.entries(rights)
		.map(([name, right]) => `  ${name.padEnd(width)}  ${right}`)
		.join("\n");
}

async function tokenNew(args: string[], io: CliIo): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: TOKEN_NEW_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const store = settingsStoreOf(root);
	const settings = await loadSettings(store, loggerFor(io));
	const name = values.name;
	if (name === undefined) throw new UsageError("token new needs --name NAME.");
	const level = values.level;
	if (level !== "read" && level !== "write") throw new UsageError("--level must be read or write.");
	if (values["allow-all-writes"] === true && level !== "write") throw new UsageError("--allow-all-writes is for write tokens: add --level write.");
	const rights = applyRightChanges(
		{ level, rights: newTokenRights(level, values["allow-all-writes"] === true) },
		rightChangesFrom(values),
		TOOL_RIGHT_SUBJECTS,
	);
	if ("error" in rights) throw new UsageError(rights.error, undefined, false);
	const folders = foldersFromFlags(values.folders ?? [], root);
	if ("error" in folders) throw new UsageError(folders.error, undefined, false);
	for (const warning of await missingFolderWarnings(root, folders.folders)) loggerFor(io).warn(warning);
	const made = { token: "" };
	await store.update((current) => {
		const added = addToken(current, name, level, rights.rights, folders.folders);
		if ("error" in added) throw new UsageError(added.error, undefined, false);
		made.token = added.token;
		return added.settings;
	});
	const shown = rightsTable({ level, rights: rights.rights }, TOOL_RIGHT_SUBJECTS);
	if (values.json === true) {
		io.stdout(
			`${jsonForTerminal({ name: name.trim(), level, token: made.token, rights: shown, ...(folders.folders.length > 0 ? { folders: folders.folders } : {}) })}\n`,
		);
	} else {
		io.stdout(`Token "${visibleInTerminal(name.trim())}" (${level}). It is shown this once; only its hash is kept:\n\n  ${made.token}\n\n`);
		io.stdout(`Rights:\n${rightsText(shown)}\n\nFolders: ${visibleInTerminal(tokenFoldersText({ folders: folders.folders }))}\n\n`);
		if (Object.values(rights.rights).includes("ask")) {
			io.stdout(
				`Write tools set to ask wait for your yes in Obsidian, or in \`vault-mcp serve\` run in a terminal. To let some run without asking: vault-mcp token rights ${quoted(root)} ${quoted(name.trim())} --allow TOOL,…\n\n`,
			);
		}
		io.stdout(connectHint(root, settings.port, settings.port, made.token));
	}
	return 0;
}

async function tokenList(args: string[], io: CliIo): Promise<number> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: TOKEN_LIST_COMMAND.options }));
	const root = await vaultRootFrom(positionals, 0);
	const logger = loggerFor(io);
	const settings = await loadSettings(settingsStoreOf(root), logger);
	if (values.json === true) {
		const listed = settings.tokens.map((record) => ({
			name: record.name,
			level: record.level,
			created: record.created,
			lastUsed: record.lastUsed,
			rights: rightsTable(record, TOOL_RIGHT_SUBJECTS),
			...(record.folders?.length ? { folders: record.folders } : {}),
		}));
		io.stdout(`${jsonForTerminal(listed)}\n`);
		return 0;
	}
	if (settings.tokens.length === 0) logger.info(`No tokens yet. Make one: vault-mcp token new ${quoted(root)} --name NAME`);
	for (const record of settings.tokens) {
		io.stdout(
			`${visibleInTerminal(record.name)}\t${record.level}\t${record.displayPrefix}…\tcreated ${record.created}\tlast used ${record.lastUsed ?? "never"}${record.folders?.length ? `\tfolders ${visibleInTerminal(tokenFoldersText(record))}` : ""}\n`,
		);
	}
	return 0;
}

/**
 * A `token ACTION <vault> NAME …` command's arguments: its flags, the vault folder, the token's name or short id (as
 * `tokenNamed` reads it), and what follows it.
 */
async function tokenCommandArgs<O extends NonNullable<ParseArgsConfig["options"]>>(
	args: string[],
	command: { name: string; options: O },
): Promise<{
	values: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: O }>>["values"];
	root: string;
	name: string;
	rest: string[];
}> {
	const { values, positionals } = asUsage(() => parseArgs({ args, allowPositionals: true, options: command.options }));
	const root = await vaultRootFrom(positionals, 0);
	const name = positionals[1];
	if (name === undefined) throw new UsageError(`${command.name} needs the token's name.`);
	return { values, root, name, rest: positionals.slice(2) };
}

async function tokenRevoke(args: string[], io: CliIo): Promise<number> {
	const { root, name } = await tokenCommandArgs(args, TOKEN_REVOKE_COMMAND);
	const logger = loggerFor(io);
	const store = settingsStoreOf(root);
	const found = tokenNamed(await loadSettings(store, logger), name);
	if ("error" in found) {
		logger.error(found.error);
		return 1;
	}
	await store.update((current) => {
		const again = revokeToken(current, found.token.name, found.token.hash);
		return "error" in again ? current : again.settings;
	});
	io.stdout(`Revoked "${visibleInTerminal(found.token.name)}".\n`);
	return 0;
}

async function tokenRights(args: string[], io: CliIo): Promise<number> {
	const { values, root, name } = await tokenCommandArgs(args, TOKEN_RIGHTS_COMMAND);
	const store = settingsStoreOf(root);
	const changes = rightChangesFrom(values);
	const unchanged = Object.values(changes).every((list) => list.length === 0);
	// Only asking what the rights are reads data.json and leaves it as it is.
	const settings = unchanged
		? await loadSettings(store, loggerFor(io))
		: await store.update((current) => {
				const found = tokenNamed(current, name);
				if ("error" in found) throw new UsageError(found.error, undefined, false);
				const next = applyRightChanges(found.token, changes, TOOL_RIGHT_SUBJECTS);
				if ("error" in next) throw new UsageError(next.error, undefined, false);
				const saved = setTokenRights(current, found.token.name, next.rights, found.token.hash);
				if ("error" in saved) throw new UsageError(saved.error, undefined, false);
				return saved.settings;
			});
	// Two of the name: whose rights to show is as unclear as whose to change.
	const found = tokenNamed(settings, name);
	if ("error" in found) throw new UsageError(found.error, undefined, false);
	const record = found.token;
	const shown = rightsTable(record, TOOL_RIGHT_SUBJECTS);
	if (values.json === true) io.stdout(`${jsonForTerminal({ name: record.name, level: record.level, rights: shown })}\n`);
	else io.stdout(`Rights of "${visibleInTerminal(record.name)}" (${record.level}):\n${rightsText(shown)}\n`);
	return 0;
}

/** `token folders`: the logic lives in tokenFoldersCommand.ts; this parses and prints. */
async function tokenFolders(args: string[], io: CliIo): Promise<number> {
	const { values, root, name, rest: given } = await tokenCommandArgs(args, TOKEN_FOLDERS_COMMAND);
	const logger = loggerFor(io);
	const outcome = await runTokenFolders(settingsStoreOf(root), {
		root,
		name,
		folders: given.length > 0 ? given : undefined,
		wholeVault: values["whole-vault"],
		json: values.json,
	});
	if ("error" in outcome && outcome.usage) throw new UsageError(outcome.error, undefined, false);
	if ("error" in outcome) {
		logger.error(outcome.error);
		return 1;
	}
	for (const warning of outcome.warnings) logger.warn(warning);
	io.stdout(visibleInTerminal(outcome.out, "\n"));
	return 0;
}
