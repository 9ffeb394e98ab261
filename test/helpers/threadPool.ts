import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, promises as fs } from "node:fs";
import * as nodePath from "node:path";

/** libuv's thread pool, every thread held by an open of a named pipe no program writes to. */
export interface HeldThreadPool {
	/** Frees `count` more threads (opens a writer on their pipes). */
	release(count: number): void;
	/** Frees every thread still held. */
	releaseAll(): Promise<void>;
}

/** Holds every thread of the pool (named pipes made in `folder`): work handed to it waits until `release`. */
export async function holdThreadPool(folder: string): Promise<HeldThreadPool> {
	const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
	const pipes = Array.from({ length: threads }, (_, index) => nodePath.join(folder, `pipe${index}`));
	for (const pipe of pipes) execFileSync("mkfifo", [pipe]);
	const opens = pipes.map((pipe) => fs.open(pipe, "r").then(async (handle) => await handle.close()));
	// Each open is taken by a thread, which then waits for a writer.
	await new Promise((resolve) => setTimeout(resolve, 50));
	const released = new Set<string>();
	const release = (count: number): void => {
		for (const pipe of pipes.filter((candidate) => !released.has(candidate)).slice(0, count)) {
			released.add(pipe);
			closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK));
		}
	};
	return {
		release,
		releaseAll: async () => {
			release(pipes.length);
			await Promise.all(opens);
		},
	};
}
