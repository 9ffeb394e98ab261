import { run } from "./cli/run";
import type { CliIo } from "./cli/io";

/**
 * A program reading our output may stop early (`vault-mcp history | head`, or `2>&1 | head`): writes to its closed
 * pipe then fail with EPIPE, which would end the command with a stack trace. Like other Unix
 * tools, the rest of the output is dropped and the command finishes with its own exit code; any
 * other stream error still ends the process.
 */
const readerGone = new Set<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr])
	stream.on("error", (error: NodeJS.ErrnoException) => {
		if (error.code !== "EPIPE") throw error;
		readerGone.add(stream);
	});

/** Writes `text` unless the program reading `stream` has stopped reading. */
function writeWhileRead(stream: NodeJS.WriteStream, text: string): void {
	if (!readerGone.has(stream)) stream.write(text);
}

/** The real process's streams and signals. */
const processIo: CliIo = {
	stdout: (text) => writeWhileRead(process.stdout, text),
	stderr: (text) => writeWhileRead(process.stderr, text),
	terminal: process.stdin.isTTY ? { input: process.stdin, fd: process.stdin.fd } : null,
	stopRequested: () =>
		new Promise<void>((resolve) => {
			process.once("SIGINT", resolve);
			process.once("SIGTERM", resolve);
		}),
};

/**
 * Ends the process with `code` once everything written to stdout and stderr has left the process.
 * On a pipe Node writes asynchronously, so `process.exit` straight after a large write cuts the
 * output (a `history --json` of a few hundred KiB piped to another program arrived cut at 64 KiB).
 * A write's callback runs after every write before it, so an empty write per stream marks the end.
 */
async function exitAfterOutput(code: number): Promise<never> {
	const flushed = (stream: NodeJS.WriteStream) =>
		new Promise<void>((resolve) => (stream.writableEnded || stream.destroyed ? resolve() : stream.write("", () => resolve())));
	await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
	process.exit(code);
}

// The bin entry (dist/cli.js): the commands live in ./cli/, one module each, behind run().
void run(process.argv.slice(2), processIo).then(exitAfterOutput);
