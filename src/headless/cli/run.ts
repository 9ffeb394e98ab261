import { VERSION } from "../../version";
import { helpFor, usageHint } from "../cliHelp";
import { visibleInTerminal } from "../terminalText";
import { history } from "./history";
import { inspect } from "./inspect";
import { loggerFor, UsageError, type CliIo } from "./io";
import { serve } from "./serve";
import { token, TOKEN_ACTIONS } from "./token";
import { undo } from "./undo";

/** The commands, each a module of this folder: the arguments after the command's name. */
const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number>> = { serve, token, inspect, history, undo };

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
	const runCommand = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
	try {
		if (!runCommand) throw new UsageError(command === undefined ? "A command is required." : `Unknown command: ${command}`);
		return await runCommand(rest, io);
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
	return action !== undefined && Object.hasOwn(TOKEN_ACTIONS, action) ? `token ${action}` : "token";
}

function printHelp(topic: string, io: CliIo): number {
	const text = helpFor(topic);
	if (text === undefined) throw new UsageError(`No help for "${topic}": there is no such command.`, undefined);
	io.stdout(`${text}\n`);
	return 0;
}
