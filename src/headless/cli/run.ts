import { VERSION } from "../../version";
import { commandNamed, helpFor, usageHint } from "../cliHelp";
import { visibleInTerminal } from "../terminalText";
import { loggerFor, UsageError, type CliIo } from "./io";

/** One command: the arguments after the command's name. */
type Command = (args: string[], io: CliIo) => Promise<number>;

/**
 * The commands, each a module of this folder, loaded when its command runs: `help`, `--version` and
 * a command line refused before a command runs load none of them. They import the tools, the server
 * and the settings store, whose module bodies were about a third of a `help` start's CPU.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
	serve: async () => (await import("./serve")).serve,
	token: async () => (await import("./token")).token,
	inspect: async () => (await import("./inspect")).inspect,
	history: async () => (await import("./history")).history,
	undo: async () => (await import("./undo")).undo,
};

/**
 * Runs one `vault-mcp` command line (without `vault-mcp` itself) and gives its exit code: 0 done,
 * 1 failed (said on stderr), 2 called wrongly (one line, and where the help is). Reads and writes
 * only through `io` and the vault, and never exits the process.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
	try {
		return await dispatch(argv, io);
	} catch (error) {
		if (error instanceof UsageError) {
			io.stderr(`error: ${visibleInTerminal(error.message, "\n")}\n${error.withHint ? `${usageHint(error.helpTopic)}\n` : ""}`);
			return 2;
		}
		loggerFor(io).error(error instanceof Error ? error.message : String(error));
		return 1;
	}
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
	const [command, ...rest] = argv;
	const topic = helpTopicOf(argv);
	if (command === "help" || command === "--help" || command === "-h") return printHelp(command === "help" ? rest.join(" ") : "", io);
	if (topic !== undefined && (rest.includes("--help") || rest.includes("-h"))) return printHelp(topic, io);
	if (command === "--version") {
		io.stdout(`${VERSION}\n`);
		return 0;
	}
	const loadCommand = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
	try {
		if (!loadCommand) throw new UsageError(command === undefined ? "A command is required." : `Unknown command: ${command}`);
		return await (
			await loadCommand()
		)(rest, io);
	} catch (error) {
		if (error instanceof UsageError) error.helpTopic ??= topic;
		throw error;
	}
}

/** The help topic a command line is about: "serve", "token new", "token" (action unknown), or none. */
function helpTopicOf(argv: string[]): string | undefined {
	const [command, action] = argv;
	if (command === undefined || !Object.hasOwn(COMMANDS, command)) return undefined;
	if (command !== "token") return command;
	return action !== undefined && commandNamed(`token ${action}`) !== undefined ? `token ${action}` : "token";
}

function printHelp(topic: string, io: CliIo): number {
	const text = helpFor(topic);
	if (text === undefined) throw new UsageError(`No help for "${topic}": there is no such command.`, undefined);
	io.stdout(`${text}\n`);
	return 0;
}
