/**
 * `npm test`'s pretest: the build, the type check, the lint, the import checks and the test tools
 * (scripts/test-tools.mjs), each as its `npm run` script runs it, in three lanes at once: the test
 * tools' installs wait on the network and the disk, and the type check and the lint each keep one
 * core busy, so on two cores the three together take about as long as the longest. Within a lane
 * the stages run in order and a lane stops at its first failure; each stage's output is printed
 * whole when it ends (never interleaved with another's). Exits 1 when any stage failed, naming it.
 *
 * `VAULT_MCP_PRETEST_CHECKS=elsewhere` in the environment leaves out every check no test needs (the
 * lint lane, the type check, check:imports and check:folder-rules), leaving the test tools and the
 * build, for a caller that runs the checks itself beside the tiers that need the build and still
 * calls `npm test` (.ci/run: the tiers leave part of the two cores idle, and no longer wait for the
 * lint's 85 s of one core, nor the type check's 25 s, after the build; nor for the two import
 * checks, 3.4 s of CPU alone that took 16 s of CI's wall time after the build, one after the other,
 * loading eslint and TypeScript beside the lint, the type check and the bench starting).
 *
 * `VAULT_MCP_PRETEST_BUILD=elsewhere` leaves out the build too, for a caller that has built the
 * sources as they are and checked that it passed (.ci/run builds beside the unit tier, which needs no
 * build: in ci26 the pretest's build held the tiers' start 7.7 s).
 */
import { spawn } from "node:child_process";
import process from "node:process";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const checksElsewhere = process.env.VAULT_MCP_PRETEST_CHECKS === "elsewhere";
const buildElsewhere = process.env.VAULT_MCP_PRETEST_BUILD === "elsewhere";

/** Each lane's stages, in order: [what it is called, command, arguments]. */
const LANES = [
	[["test tools", process.execPath, ["scripts/test-tools.mjs"]]],
	[
		...(buildElsewhere ? [] : [["build", npm, ["run", "build"]]]),
		...(checksElsewhere
			? []
			: [
					["check:imports", npm, ["run", "check:imports"]],
					["check:folder-rules", npm, ["run", "check:folder-rules"]],
					["typecheck", npm, ["run", "typecheck"]],
				]),
	],
	...(checksElsewhere ? [] : [[["lint", npm, ["run", "lint"]]]]),
];

/** Runs one stage with its output held back, then prints it whole; resolves to whether it passed. */
function runStage([name, command, args]) {
	const started = performance.now();
	return new Promise((resolve) => {
		const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
		const output = [];
		child.stdout.on("data", (chunk) => output.push(chunk));
		child.stderr.on("data", (chunk) => output.push(chunk));
		let finished = false;
		const finish = (passed, why) => {
			// A command that cannot start reports an error and then closes: reported once.
			if (finished) return;
			finished = true;
			const seconds = ((performance.now() - started) / 1000).toFixed(1);
			process.stdout.write(`pretest: ${name} ${passed ? "passed" : `FAILED (${why})`} in ${seconds} s\n`);
			process.stdout.write(Buffer.concat(output));
			resolve(passed);
		};
		child.on("error", (error) => finish(false, error.message));
		child.on("close", (code, signal) => finish(code === 0, signal ? `killed by ${signal}` : `exit code ${code}`));
	});
}

async function runLane(stages) {
	for (const stage of stages) {
		if (!(await runStage(stage))) return [stage[0]];
	}
	return [];
}

const failed = (await Promise.all(LANES.map(runLane))).flat();
if (failed.length > 0) {
	process.stderr.write(`pretest: failed: ${failed.join(", ")}\n`);
	process.exit(1);
}
