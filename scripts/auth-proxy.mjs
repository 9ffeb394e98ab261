// A loopback proxy for the MCP conformance suite, which cannot send an Authorization header:
// it listens on 127.0.0.1 and forwards every request to the server's endpoint with
// `Authorization: Bearer $VAULT_MCP_TOKEN` and the server's own Host added; everything else
// (Origin included) passes unchanged. Usage: node scripts/auth-proxy.mjs <server url>;
// it prints `listening on http://127.0.0.1:<port>/mcp` once it listens.
import { createServer, request } from "node:http";

const target = new URL(process.argv[2] ?? "");
const token = process.env.VAULT_MCP_TOKEN;
if (!token) {
	process.stderr.write("Set VAULT_MCP_TOKEN to the token the proxy adds.\n");
	process.exit(2);
}

const proxy = createServer((incoming, outgoing) => {
	const headers = { ...incoming.headers, host: target.host, authorization: `Bearer ${token}` };
	const forwarded = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
		outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
		answer.pipe(outgoing);
	});
	forwarded.on("error", () => {
		if (!outgoing.headersSent) outgoing.writeHead(502);
		outgoing.end();
	});
	incoming.pipe(forwarded);
});
proxy.listen(0, "127.0.0.1", () => {
	const { port } = proxy.address();
	process.stdout.write(`listening on http://127.0.0.1:${port}${target.pathname}\n`);
});
