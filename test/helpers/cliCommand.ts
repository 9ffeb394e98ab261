import type { CliIo } from "../../src/headless/cli/io";
import type { JournalLine } from "../../src/journal/journalLines";
import { hashText } from "../../src/vault/writes";

/** What a CLI command run in this process printed, and its exit code. */
export interface CommandOutput {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs a CLI command (`history`, `undo`) in this process, with no terminal, collecting what it prints. */
export async function runCommand(command: (args: string[], io: CliIo) => Promise<number>, args: string[]): Promise<CommandOutput> {
	let stdout = "";
	let stderr = "";
	const io: CliIo = {
		stdout: (text) => (stdout += text),
		stderr: (text) => (stderr += text),
		terminal: null,
		stopRequested: () => new Promise(() => undefined),
	};
	const code = await command(args, io);
	return { code, stdout, stderr };
}

/** A journal's record of one append by the token "Laptop", at `time`. */
export function appendRecorded(id: string, path: string, before: string | null, after: string, time: string): JournalLine {
	return {
		kind: "change",
		id,
		time,
		tokenName: "Laptop",
		tool: "append_to_note",
		path,
		before,
		beforeHash: before === null ? null : hashText(before),
		after,
		afterHash: hashText(after),
	};
}
