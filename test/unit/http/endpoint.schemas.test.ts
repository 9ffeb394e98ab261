import { mcpHeaders, rawRequest } from "../../helpers/http";
import { startEndpoint } from "../../helpers/endpoint";
import { toolCall } from "../../helpers/sockets";

/** The SDK's module as the endpoint reads it: its exports are plain properties, so a spy on one is seen there. */
const sdk = jest.requireActual<typeof import("@modelcontextprotocol/server")>("@modelcontextprotocol/server");

/**
 * The SDK builds its wire schemas on the first message that needs them: 25-60 ms of CPU in one
 * piece, which landed in the first write call of a running server (a `create_note` flood's first
 * call held every other client that long). The endpoint builds them before it takes a request.
 */
test("the SDK's wire schemas are built when the endpoint is made, before its first request", async () => {
	const built = jest.spyOn(sdk, "preloadSchemas");
	const running = await startEndpoint();
	try {
		expect(built).toHaveBeenCalled();
		const before = built.mock.calls.length;
		const response = await rawRequest(running.port, {
			body: JSON.stringify(toolCall(1, "shout", { text: "hi" })),
			headers: mcpHeaders(running.port, running.writeToken),
		});
		expect(JSON.parse(response.body)).toMatchObject({ id: 1, result: { content: [{ text: "HI" }] } });
		// Nothing is built again per request.
		expect(built.mock.calls.length).toBe(before);
	} finally {
		built.mockRestore();
		await running.close();
	}
});
