import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { makeVault, removeDir } from "./vault";

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

/** The settings file the plugin and the CLI share, in `vault`. */
const settingsFileOf = (vault: string): string => nodePath.join(vault, ".obsidian", "plugins", "vault-mcp", "data.json");

/** A token `token new` made once, for the tests of a file that only need one to serve with. */
export interface MadeToken {
	token: string;
	/** Puts the token's data.json into `vault`, as `token new` left it (folder and file owner-only); returns the token. */
	putInto(vault: string): Promise<string>;
}

/**
 * Runs `token new <scratch vault> FLAGS --json` once and keeps the data.json it wrote (which names no
 * vault), to be put into each test's vault: a `token new` start is about half a second of CPU, and
 * tests that only serve with a token made one each.
 */
export async function makeTokenOnce(tokenNewFlags: string[]): Promise<MadeToken> {
	const scratch = await makeVault();
	try {
		const made = await runCli(["token", "new", scratch, ...tokenNewFlags, "--json"]);
		if (made.code !== 0) throw new Error(`token new failed: ${made.stderr}`);
		const { token } = JSON.parse(made.stdout) as { token: string };
		const settings = await fs.readFile(settingsFileOf(scratch), "utf8");
		return {
			token,
			putInto: async (vault) => {
				await fs.mkdir(nodePath.dirname(settingsFileOf(vault)), { recursive: true, mode: 0o700 });
				await fs.writeFile(settingsFileOf(vault), settings, { mode: 0o600 });
				return token;
			},
		};
	} finally {
		await removeDir(scratch);
	}
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

/**
 * How long a serve may take to print its listening line before the test gives up on it: a stop for a
 * start that hangs, not a speed check (15 s ran out for settingsRaces' serve in a run beside a second
 * suite and two busy loops: load 25-45 on 2 cores).
 */
const SERVE_START_TIMEOUT_MS = 60_000;

/** Starts `vault-mcp serve`; `node` adds flags for Node (a `--require` of a fault to inject) and `env` replaces the environment. */
export function startServe(args: string[], timeoutMs = SERVE_START_TIMEOUT_MS, node: { flags?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<ServingCli> {
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
