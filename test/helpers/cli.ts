import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";

/** The built CLI, as `npm run build` makes it and the package's bin points to it. */
export const CLI_PATH = nodePath.resolve(__dirname, "../../dist/cli.js");

/**
 * Node flags for every CLI the tests start. A stack trace from the bundle names the src/ line it came
 * from: the first preload reads the map only when a stack is printed; `--enable-source-maps` would parse
 * it at every start: about 0.3 s of CPU, a third of a `help` start's, in each of the few hundred starts
 * the tests make. The second compiles the bundle from V8's code cache of an earlier start rather than
 * parsing it again (scripts/cli-code-cache.cjs): about 0.06 s of a `help` start's 0.48 s of CPU.
 */
export const CLI_PRELOADS = [
	"--require",
	nodePath.resolve(__dirname, "../../scripts/lazy-source-maps.cjs"),
	"--require",
	nodePath.resolve(__dirname, "../../scripts/cli-code-cache.cjs"),
];

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs a program to completion, collecting its output. */
export function runProcess(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
		child.on("error", reject);
		child.on("close", (code) => resolve({ code, stdout, stderr }));
	});
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
	return runProcess(process.execPath, [...CLI_PRELOADS, CLI_PATH, ...args], { env });
}

/** A running `vault-mcp serve`, once it has printed its listening line. */
export interface ServingCli {
	child: ChildProcessWithoutNullStreams;
	url: string;
	port: number;
	stdout(): string;
	stderr(): string;
	/** Sends a signal and waits for the exit code. */
	stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `vault-mcp serve`; `node` adds flags for Node (a `--require` of a fault to inject) and `env` replaces the environment. */
export function startServe(args: string[], timeoutMs = 15_000, node: { flags?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<ServingCli> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...CLI_PRELOADS, ...(node.flags ?? []), CLI_PATH, "serve", ...args], { env: node.env ?? process.env });
		let stdout = "";
		let stderr = "";
		const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`serve did not start in time; stderr: ${stderr}`));
		}, timeoutMs);
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
			const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)\n/m.exec(stdout);
			if (match?.[1] && match[2]) {
				clearTimeout(timer);
				resolve({
					child,
					url: match[1],
					port: Number(match[2]),
					stdout: () => stdout,
					stderr: () => stderr,
					stop: (signal = "SIGTERM") => {
						child.kill(signal);
						return exited;
					},
				});
			}
		});
		void exited.then((code) => {
			clearTimeout(timer);
			reject(new Error(`serve exited with ${code}; stderr: ${stderr}`));
		});
	});
}

/** A running `serve`'s main-thread CPU time in ms, from Linux's schedstat (its main thread's id is its process id). */
export function serveCpuMs(serving: ServingCli): number {
	const pid = serving.child.pid ?? 0;
	return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "latin1").split(" ")[0]) / 1e6;
}
