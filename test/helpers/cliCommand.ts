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

/** Bytes of the journal each read of a file took, while `work` runs. */
export async function readSizes<T>(work: () => Promise<T>): Promise<{ result: T; reads: number[] }> {
	const reads: number[] = [];
	const nodeFs = jest.requireActual<typeof import("node:fs")>("node:fs");
	const readSync = nodeFs.readSync;
	const readFileSync = nodeFs.readFileSync;
	const spies = [
		jest.spyOn(nodeFs, "readSync").mockImplementation((...args: Parameters<typeof readSync>) => {
			const count = readSync(...args);
			reads.push(count);
			return count;
		}),
		jest.spyOn(nodeFs, "readFileSync").mockImplementation((...args: Parameters<typeof readFileSync>) => {
			const read = readFileSync(...args);
			reads.push(read.length);
			return read;
		}),
	];
	try {
		return { result: await work(), reads };
	} finally {
		for (const spy of spies) spy.mockRestore();
	}
}
