import type { ParseArgsConfig } from "node:util";
import { DEFAULT_PORT, DEFAULT_RATE_LIMIT_PER_MINUTE, HISTORY_DEFAULT_LIMIT, MAX_JOURNAL_ENTRIES } from "../config/limits";
import { VERSION } from "../version";

/**
 * The CLI's commands and flags, described once: the argument parser's options and every help
 * screen come from these definitions, so a flag cannot be accepted without being explained.
 */

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** What help says about one flag. */
interface FlagHelp {
	/** The value's name, for flags that take one. */
	valueName?: string;
	what: string;
	/** The default in words: it may say more than the parser's own default (data.json's value, say). */
	defaultText: string;
}

export interface CommandSpec<Options extends OptionsConfig = OptionsConfig> {
	/** As typed after `vault-mcp`: "serve", "token new", … */
	name: string;
	arguments: string;
	summary: string;
	/** Lines shown under the usage line in the command's own help. */
	details: string[];
	/** node:util parseArgs options, --help included. */
	options: Options & typeof HELP_OPTION;
	flags: Record<string, FlagHelp>;
}

const HELP_OPTION = { help: { type: "boolean", short: "h", default: false } } as const;
const HELP_FLAG: FlagHelp = { what: "show this help and exit", defaultText: "off" };

/**
 * A command whose every parser option has a help entry: the mapped type makes a flag without one
 * a compile error, and the literal option types reach parseArgs, so values stay typed.
 */
function defineCommand<const Options extends OptionsConfig>(spec: {
	name: string;
	arguments: string;
	summary: string;
	details: string[];
	options: Options;
	flags: { [Name in keyof Options]: FlagHelp };
}): CommandSpec<Options> {
	return { ...spec, options: { ...spec.options, ...HELP_OPTION }, flags: { ...(spec.flags as Record<string, FlagHelp>), help: HELP_FLAG } };
}

export const SERVE_COMMAND = defineCommand({
	name: "serve",
	arguments: "<vault>",
	summary: "serve the vault to MCP clients on this computer until Ctrl-C",
	details: [
		"Prints one line, `listening on http://127.0.0.1:<port>/mcp`, on stdout once it listens;",
		"everything else (a new token, how to connect) goes to stderr. Flags apply to this run only:",
		"data.json keeps what the plugin set. The first run on a vault without tokens makes one.",
	],
	options: {
		port: { type: "string" },
		"allow-write": { type: "boolean", default: false },
		exclude: { type: "string", multiple: true },
		prompts: { type: "string" },
		"stop-words": { type: "string" },
		language: { type: "string" },
		"rate-limit": { type: "string" },
		init: { type: "boolean", default: false },
		"print-config": { type: "string" },
	},
	flags: {
		port: { valueName: "N", what: "port on 127.0.0.1; 0 picks a free one", defaultText: `the port in data.json (${DEFAULT_PORT} unless changed)` },
		"allow-write": { what: "let write tokens use the write tools", defaultText: "off (read-only)" },
		exclude: { valueName: "FOLDER", what: "hide a folder from every tool; repeat for more", defaultText: "only the folders excluded in data.json" },
		prompts: {
			valueName: "FOLDER",
			what: 'offer the notes in FOLDER as MCP prompts; "" for none',
			defaultText: "the folder in data.json (Prompts unless changed)",
		},
		"stop-words": {
			valueName: "WORD,…",
			what: 'words a search need not match (they still rank); "" for none',
			defaultText: "the list in data.json (short English list unless changed)",
		},
		language: {
			valueName: "NAME",
			what: "whose word forms search matches (english, french, …), or none",
			defaultText: "the language in data.json (english unless changed)",
		},
		"rate-limit": {
			valueName: "N",
			what: "requests a minute per token",
			defaultText: `the limit in data.json (${DEFAULT_RATE_LIMIT_PER_MINUTE} unless changed)`,
		},
		init: { what: "create the .obsidian folder when <vault> has none", defaultText: "off (a folder without one is refused)" },
		"print-config": {
			valueName: "CLIENT",
			what: "print the connection snippet for claude-code, claude-desktop, cursor or curl, and exit",
			defaultText: "off (serve)",
		},
	},
});

/** --allow, --ask and --deny: tool names, comma-separated or repeated. */
const RIGHT_FLAGS = {
	allow: { valueName: "TOOL,…", what: "tools that run at once", defaultText: "every read tool, write tools ask (token new); unchanged (token rights)" },
	ask: {
		valueName: "TOOL,…",
		what: "write tools that wait for your y/n in an interactive `serve` (or in Obsidian)",
		defaultText: "every write tool of a write token (token new); unchanged (token rights)",
	},
	deny: { valueName: "TOOL,…", what: "tools this token does not see at all", defaultText: "none" },
} as const satisfies Record<string, FlagHelp>;

export const TOKEN_NEW_COMMAND = defineCommand({
	name: "token new",
	arguments: "<vault>",
	summary: "make a token; it is shown once and only its hash is kept in data.json",
	details: ["Tokens live in the vault's data.json, which the plugin and `serve` share."],
	options: {
		name: { type: "string" },
		level: { type: "string", default: "read" },
		allow: { type: "string", multiple: true },
		ask: { type: "string", multiple: true },
		deny: { type: "string", multiple: true },
		"allow-all-writes": { type: "boolean", default: false },
		folders: { type: "string", multiple: true },
		json: { type: "boolean", default: false },
	},
	flags: {
		name: { valueName: "NAME", what: "what the token is for, e.g. the app's name", defaultText: "none; required" },
		folders: { valueName: "FOLDER,…", what: "the only folders the token sees; everything else is as if it did not exist", defaultText: "the whole vault" },
		level: { valueName: "read|write", what: "write tokens may also use the write tools while writing is on", defaultText: "read" },
		...RIGHT_FLAGS,
		"allow-all-writes": { what: "let every write tool run without asking (a write token)", defaultText: "off: write tools ask" },
		json: { what: 'print {"name","level","token","rights"} as one JSON line instead of text', defaultText: "off" },
	},
});

/** How a command that takes a token's NAME tells apart two tokens of one name (data.json edited by hand). */
const SHORT_ID_DETAIL = "NAME may be the token's short id as `token list` shows it (vmcp_Ab3d…): two tokens of one name are told apart by it.";

export const TOKEN_RIGHTS_COMMAND = defineCommand({
	name: "token rights",
	arguments: "<vault> NAME",
	summary: "change which tools a token may use at once (allow), only after you approve (ask), or not at all (deny)",
	details: ["Without flags, prints the token's rights. A running `serve` follows the change within a second.", SHORT_ID_DETAIL],
	options: {
		allow: { type: "string", multiple: true },
		ask: { type: "string", multiple: true },
		deny: { type: "string", multiple: true },
		json: { type: "boolean", default: false },
	},
	flags: { ...RIGHT_FLAGS, json: { what: 'print {"name","level","rights"} as one JSON line instead of text', defaultText: "off" } },
});

export const TOKEN_FOLDERS_COMMAND = defineCommand({
	name: "token folders",
	arguments: "<vault> NAME [FOLDER,…]",
	summary: "limit a token to some folders (the rest of the vault does not exist for it), or give it the whole vault again",
	details: [
		"Without folders, prints the token's folders. A running `serve` follows the change within a second, from the token's next call.",
		SHORT_ID_DETAIL,
	],
	options: {
		"whole-vault": { type: "boolean", default: false },
		json: { type: "boolean", default: false },
	},
	flags: {
		"whole-vault": { what: "let the token see the whole vault again", defaultText: "off" },
		json: { what: 'print {"name","folders"} as one JSON line instead of text', defaultText: "off" },
	},
});

export const TOKEN_LIST_COMMAND = defineCommand({
	name: "token list",
	arguments: "<vault>",
	summary: "list tokens: name, level, first characters, created, last used",
	details: ["A token itself cannot be shown again; make a new one if it is lost."],
	options: { json: { type: "boolean", default: false } },
	flags: { json: { what: 'print a JSON list: name, level, created, lastUsed and {"rights": {"<tool>": "allow"|"ask"|"deny"}}', defaultText: "off" } },
});

export const TOKEN_REVOKE_COMMAND = defineCommand({
	name: "token revoke",
	arguments: "<vault> NAME",
	summary: "revoke the token with that name; it stops working on the next request",
	details: [SHORT_ID_DETAIL],
	options: {},
	flags: {},
});

export const INSPECT_COMMAND = defineCommand({
	name: "inspect",
	arguments: "<vault> <note-path> | <vault> [<note-path>] --links",
	summary: "print a note's metadata, or the vault's link maps, as Obsidian shapes them",
	details: [
		"With a note path: its CachedMetadata. With --links: resolvedLinks and unresolvedLinks.",
		"With both: that note's entries of the two maps, read from that note alone.",
	],
	options: { links: { type: "boolean", default: false } },
	flags: { links: { what: "print the link maps (of the vault, or of the note given) instead of a note's metadata", defaultText: "off" } },
});

export const HISTORY_COMMAND = defineCommand({
	name: "history",
	arguments: "<vault>",
	summary: "list the changes tools made to notes, newest first: id, time, token, tool, notes",
	details: [
		"One line per tool call, tab-separated; an undone call ends with `undone by <id>`.",
		`The journal keeps the last ${MAX_JOURNAL_ENTRIES} calls, in the plugin's folder; pass an id to \`undo\`.`,
	],
	options: {
		json: { type: "boolean", default: false },
		limit: { type: "string" },
	},
	flags: {
		json: { what: "print the calls as one JSON array: ids, times, tokens, tools, paths and hashes, never note text", defaultText: "off" },
		limit: { valueName: "N", what: "list at most N calls", defaultText: `${HISTORY_DEFAULT_LIMIT}` },
	},
});

export const UNDO_COMMAND = defineCommand({
	name: "undo",
	arguments: "<vault> <id>",
	summary: "undo one change from `history`: each note gets its earlier bytes back",
	details: [
		"A note changed since is never written over: its earlier text is saved beside it as",
		"`<name> (before <tool> <YYYY-MM-DD HH-mm>).md`. A note the change created goes to the vault's .trash.",
		"Prints one line saying what it did (exit 0), or one line saying why not (exit 1).",
	],
	options: {},
	flags: {},
});

const HELP_COMMAND = defineCommand({
	name: "help",
	arguments: "[command]",
	summary: "show the commands, or one command's flags with their defaults",
	details: [],
	options: {},
	flags: {},
});

export const COMMANDS: CommandSpec[] = [
	SERVE_COMMAND,
	TOKEN_NEW_COMMAND,
	TOKEN_LIST_COMMAND,
	TOKEN_RIGHTS_COMMAND,
	TOKEN_FOLDERS_COMMAND,
	TOKEN_REVOKE_COMMAND,
	INSPECT_COMMAND,
	HISTORY_COMMAND,
	UNDO_COMMAND,
	HELP_COMMAND,
];

/** The command a help topic names ("serve", "token new"), if any. */
export function commandNamed(topic: string): CommandSpec | undefined {
	return COMMANDS.find((command) => command.name === topic);
}

function flagLabel(name: string, flag: FlagHelp): string {
	return `${name === "help" ? "-h, " : ""}--${name}${flag.valueName ? ` ${flag.valueName}` : ""}`;
}

/** One command's help: usage, what it does, and each flag with its default. */
export function commandHelp(command: CommandSpec): string {
	const flags = Object.entries(command.flags);
	const width = Math.max(...flags.map(([name, flag]) => flagLabel(name, flag).length));
	const lines = [`Usage: vault-mcp ${command.name} ${command.arguments} [flags]`, "", `${capitalize(command.summary)}.`, ...command.details, "", "Flags:"];
	for (const [name, flag] of flags) {
		lines.push(`  ${flagLabel(name, flag).padEnd(width)}  ${flag.what}`);
		lines.push(`  ${"".padEnd(width)}  default: ${flag.defaultText}`);
	}
	return lines.join("\n");
}

/** `vault-mcp help`: every command in one screen. */
export function overviewHelp(): string {
	const width = Math.max(...COMMANDS.map((command) => `${command.name} ${command.arguments}`.length));
	return [
		`vault-mcp ${VERSION}: an MCP server over an Obsidian vault folder`,
		"",
		"Usage: vault-mcp <command> [arguments] [flags]",
		"",
		"Commands:",
		...COMMANDS.map((command) => `  ${`${command.name} ${command.arguments}`.padEnd(width)}  ${command.summary}`),
		"",
		'Run "vault-mcp help <command>" (or add --help to any command) for its flags and their defaults.',
		'"vault-mcp --version" prints the version.',
	].join("\n");
}

/** Help for a topic: "" for the overview, a command, or "token" for its actions. */
export function helpFor(topic: string): string | undefined {
	if (topic === "") return overviewHelp();
	const command = commandNamed(topic);
	if (command) return commandHelp(command);
	const group = COMMANDS.filter((candidate) => candidate.name.startsWith(`${topic} `));
	return group.length > 0 ? group.map(commandHelp).join("\n\n") : undefined;
}

/** The line that follows a usage error, pointing at the help that would have avoided it. */
export function usageHint(topic: string | undefined): string {
	return topic ? `Run "vault-mcp help ${topic}" for the flags.` : 'Run "vault-mcp help" for the commands.';
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
