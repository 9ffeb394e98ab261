import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { CLI_PATH, CLI_PRELOADS } from "./cli";

/** A `serve` running behind a pseudo-terminal. */
export interface ServingInTerminal {
	child: ChildProcessWithoutNullStreams;
	url: string;
	/** Everything the terminal showed so far (stdout and stderr, and the echo of what was typed). */
	output(): string;
	/** Types on the terminal: written in one go, as a paste. */
	type(text: string): void;
	stop(): Promise<void>;
}

/**
 * `serve` behind a pseudo-terminal (util-linux `script`), as a person runs it: stdin is a TTY, and what we write is typed.
 * With the other starts' preloads (CLI_PRELOADS): the bundle from the code cache, not parsed again.
 */
export function startServeInTerminal(vault: string, extraArgs: string[] = []): Promise<ServingInTerminal> {
	const command = [process.execPath, ...CLI_PRELOADS, CLI_PATH, "serve", vault, "--port", "0", "--allow-write", ...extraArgs]
		.map((part) => `'${part.replace(/'/g, "'\\''")}'`)
		.join(" ");
	const child = spawn("script", ["-qfec", command, "/dev/null"]);
	let output = "";
	child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			clearInterval(check);
			reject(new Error(`serve did not start; output: ${output}`));
		}, 15_000);
		const check = setInterval(() => {
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
			if (!match?.[1]) return;
			clearInterval(check);
			clearTimeout(timer);
			resolve({
				child,
				url: match[1],
				output: () => output,
				type: (text) => child.stdin.write(text),
				stop: async () => {
					child.kill("SIGTERM");
					await exited;
				},
			});
		}, 20);
	});
}

/** Waits until `text` has appeared `count` times in the output. */
export async function waitForOutput(output: () => string, text: string, count = 1, timeoutMs = 10_000): Promise<void> {
	for (let waited = 0; waited < timeoutMs; waited += 20) {
		if (output().split(text).length - 1 >= count) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	throw new Error(`waited for ${JSON.stringify(text)}; output: ${output()}`);
}
