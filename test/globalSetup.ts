import * as nodePath from "node:path";
import { locateFixtures } from "./helpers/fixtures";

/**
 * Stops the whole run at once, with one line saying how to get the golden data, when it is
 * nowhere to be found: otherwise every suite that reads it fails on its own, each with a stack.
 */
export default function checkFixtures(): void {
	const found = locateFixtures(nodePath.resolve(__dirname, ".."));
	if ("problem" in found) {
		process.stderr.write(`${found.problem}\n`);
		// Exiting here, rather than throwing, keeps jest from adding a stack trace to the one line.
		process.exit(1);
	}
}
