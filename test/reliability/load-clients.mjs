// Load driver for test/reliability/load.test.ts, in its own process so that the test process's
// heap holds only the server. Input (JSON on argv[2]): url, tokens, count, prefix, targets, readCalls.
// Output: one JSON line {accepted, refused, failures, designed}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

async function main() {
	const { url, tokens, count, prefix, targets, readCalls } = JSON.parse(process.argv[2]);
	const accepted = [];
	const refused = [];
	const failures = [];
	const designed = [];
	await Promise.all(
		tokens.map(async (token, clientIndex) => {
			const client = new Client({ name: `load-${clientIndex}`, version: "1" });
			await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
			for (let index = clientIndex; index < count; index += tokens.length) {
				const kind = index % 10;
				const marker = `${prefix}-${index}`;
				try {
					if (kind < 2) await client.listTools();
					else if (kind < 4) {
						const result = await client.callTool({ name: "append_to_note", arguments: { path: targets[index % targets.length], content: marker } });
						(result.isError ? refused : accepted).push(marker);
					} else await client.callTool(readCalls[index % readCalls.length]);
				} catch (error) {
					const status = typeof error.code === "number" && error.code >= 400 ? error.code : null;
					if (status === 429 || status === 503) {
						designed.push(status);
						if (kind >= 2 && kind < 4) refused.push(marker);
					} else failures.push(`${index}: ${error.message}`);
				}
			}
			await client.close();
		}),
	);
	process.stdout.write(`${JSON.stringify({ accepted, refused, failures, designed })}\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});
