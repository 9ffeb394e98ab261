import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Logger } from "../../activity";
import { MAX_CLI_INTEGER } from "../../config/limits";
import { visibleInTerminal } from "../terminalText";

/**
 * What a command reads and writes besides the vault: the process's streams and signals in the
 * real CLI, plain functions in tests, so every command runs through `run(argv, io)` unchanged.
 */
export interface CliIo {
	stdout(text: string): void;
	stderr(text: string): void;
	/** The terminal a person answers approvals in (its stream and file descriptor); null when there is none (a pipe, a service). */
	terminal: { input: NodeJS.ReadableStream; fd: number } | null;
	/** Settles when the person asks a running server to stop (Ctrl-C, SIGTERM). */
	stopRequested(): Promise<void>;
}

/**
 * A mistake in how the command was called: exit 2, with one line and a pointer to the help for
 * `helpTopic` (filled in by run from the command line when the thrower leaves it out). A message
 * that already says what to do sets `withHint` false and stays one line.
 */
export class UsageError extends Error {
	constructor(
		message: string,
		public helpTopic?: string,
		readonly withHint = true,
	) {
		super(message);
	}
}

/**
 * Log lines carry file, folder and token names, and error messages that quote them: each is printed
 * with the characters a terminal acts on made visible (line breaks the message itself makes stay).
 */
export function loggerFor(io: CliIo): Logger {
	return {
		info: (message) => io.stderr(`${visibleInTerminal(message, "\n")}\n`),
		warn: (message) => io.stderr(`warning: ${visibleInTerminal(message, "\n")}\n`),
		error: (message) => io.stderr(`error: ${visibleInTerminal(message, "\n")}\n`),
	};
}

/** Runs node's argument parser, turning its complaints into usage errors. */
export function asUsage<T>(parseArguments: () => T): T {
	try {
		return parseArguments();
	} catch (error) {
		throw new UsageError(error instanceof Error ? error.message : String(error));
	}
}

/** The vault folder argument, checked to be a folder. */
export async function vaultRootFrom(positionals: string[], index: number): Promise<string> {
	const given = positionals[index];
	if (given === undefined) throw new UsageError("The vault folder is required.");
	const root = nodePath.resolve(given);
	const stat = await fs.stat(root).catch(() => null);
	if (!stat?.isDirectory()) throw new UsageError(`Not a folder: ${root}`);
	return root;
}

/** A flag's value as a whole number from `min` to `max`, or a usage error naming the flag and both ends. */
export function positiveInteger(value: string | undefined, flag: string, min: number, max: number = MAX_CLI_INTEGER): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number < min || number > max) throw new UsageError(`${flag} needs a whole number from ${min} to ${max}.`);
	return number;
}

/** The path as a shell argument that works in sh and PowerShell alike. */
export function quoted(path: string): string {
	return /^[\w./:\\-]+$/.test(path) ? path : `"${path}"`;
}
