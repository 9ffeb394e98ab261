import { connect, type Socket } from "node:net";

/** One JSON-RPC tools/call message. */
export const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
	jsonrpc: "2.0",
	id,
	method: "tools/call",
	params: { name, arguments: args },
});

/** A JSON-RPC batch of `count` calls of one tool, as a request body. */
export const batchOf = (count: number, name: string, args: Record<string, unknown>) =>
	JSON.stringify(Array.from({ length: count }, (_, id) => toolCall(id + 1, name, args)));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An HTTP/1.1 request head, as a raw client writes it (no Authorization header for a null token). */
export function requestHead(port: number, token: string | null, length: number): string {
	const auth = token === null ? [] : [`Authorization: Bearer ${token}`];
	return [
		`POST /mcp HTTP/1.1`,
		`Host: 127.0.0.1:${port}`,
		...auth,
		"Content-Type: application/json",
		"Accept: application/json, text/event-stream",
		`Content-Length: ${length}`,
		"",
		"",
	].join("\r\n");
}

/** A raw socket that sends `data` once connected; errors are expected (the server drops these) and ignored. */
export function openSocket(port: number, data?: string): Promise<Socket> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, "127.0.0.1", () => {
			if (data !== undefined) socket.write(data);
			resolve(socket);
		});
		socket.on("error", () => undefined);
		socket.once("error", reject);
	});
}
