import { createServer, type Server } from "node:net";
import * as nodePath from "node:path";
import { DEFAULT_PORT } from "../src/config/limits";
import { locateFixtures } from "./helpers/fixtures";

/** The listener that holds the default port for the run, closed by globalTeardown. */
export const DEFAULT_PORT_HOLDER = Symbol.for("vault-mcp.test.defaultPortHolder");

/**
 * Stops the whole run at once, with one line saying how to get the golden data, when it is
 * nowhere to be found: otherwise every suite that reads it fails on its own, each with a stack.
 * Then takes the default port for the whole run, unless another program (a person's `npm start`)
 * already has it: either way every suite runs as it would beside a running server, so a test that
 * leaned on the default port fails every time, not only on the machines where it is taken.
 */
export default async function globalSetup(): Promise<void> {
	const found = locateFixtures(nodePath.resolve(__dirname, ".."));
	if ("problem" in found) {
		process.stderr.write(`${found.problem}\n`);
		// Exiting here, rather than throwing, keeps jest from adding a stack trace to the one line.
		process.exit(1);
	}
	const holder = await holdPort(DEFAULT_PORT);
	if (holder) (globalThis as Record<symbol, unknown>)[DEFAULT_PORT_HOLDER] = holder;
}

/** A listener on 127.0.0.1:port that accepts and drops connections; null when the port is taken already. */
function holdPort(port: number): Promise<Server | null> {
	return new Promise((resolve) => {
		const server = createServer((socket) => socket.destroy());
		server.once("error", () => resolve(null));
		server.listen(port, "127.0.0.1", () => {
			server.unref();
			resolve(server);
		});
	});
}
