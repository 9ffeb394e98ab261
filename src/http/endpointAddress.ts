/*
 * Where the MCP endpoint is, apart from the server and the guard (which import the MCP SDK): the CLI's
 * `token new` prints a snippet with this URL and loads no server to do it.
 */

/** The path the MCP endpoint answers on. */
export const MCP_PATH = "/mcp";

/** Only this address is ever bound: nothing off this computer can connect. */
export const LOOPBACK_ADDRESS = "127.0.0.1";

/** The MCP endpoint's URL on a port: what every client (and every snippet, the CLI's included) connects to. */
export function endpointUrl(port: number): string {
	return `http://${LOOPBACK_ADDRESS}:${port}${MCP_PATH}`;
}
