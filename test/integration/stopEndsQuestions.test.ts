/**
 * A stop keeps the connection of a request that wrote until its answer is sent (it says what was
 * written). A batch that wrote and also holds a question to the person: the stop ends the question,
 * so the batch's answer goes out at once, not when the stop's bound runs out (and then never, its
 * connection closed). The real service over real HTTP, a raw keep-alive socket, a real temp vault.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Socket } from "node:net";
import type { ApprovalAnswer, ApprovalRequest, Approver } from "../../src/mcp/approval";
import { startService, type RunningService } from "../helpers/service";
import { openSocket, requestHead, toolCall } from "../helpers/sockets";
import { makeVault, removeDir } from "../helpers/vault";

/** A person who never answers: each question stays open until its signal aborts. */
class SilentPerson implements Approver {
	asked = 0;
	decide(_request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
		this.asked++;
		return new Promise((resolve) => signal.addEventListener("abort", () => resolve("decline"), { once: true }));
	}
}

async function until(condition: () => boolean, what: string): Promise<void> {
	for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 10)))
		if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
}

describe("a stop while a batch that wrote waits for the person", () => {
	let vault: string;
	let running: RunningService;
	let person: SilentPerson;
	let socket: Socket | null = null;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n" });
		person = new SilentPerson();
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true },
			approver: person,
			rights: { write: { append_to_note: "allow", set_property: "ask" } },
		});
	});
	afterEach(async () => {
		socket?.destroy();
		await running.stop();
		await removeDir(vault);
	});

	test.each([
		["the service stopped", (running: RunningService) => running.service.stop()],
		// The plugin's "Stop server" command and the settings' switch: it stopped the server, not the token's rights, which the answer said had changed.
		["the server switched off in the settings", (running: RunningService) => running.service.apply({ ...running.settings, serverEnabled: false })],
	])("%s ends the question: the batch's answer names what was written and says the other call was not, before the connection closes", async (_how, stop) => {
		const body = JSON.stringify([
			toolCall(1, "append_to_note", { path: "Notes/Plan.md", content: "- from the batch\n" }),
			toolCall(2, "set_property", { path: "Notes/Plan.md", name: "status", value: "open" }),
		]);
		socket = await openSocket(running.port, requestHead(running.port, running.tokens.write ?? "", Buffer.byteLength(body)) + body);
		let got = "";
		socket.on("data", (chunk: Buffer) => (got += chunk.toString("utf8")));
		const closed = new Promise<void>((resolve) => socket?.on("close", () => resolve()));
		await until(() => person.asked === 1, "the batch's question");
		await stop(running);
		await closed;
		expect(got).toContain("200 OK");
		const answers = JSON.parse(got.slice(got.indexOf("\r\n\r\n") + 4)) as Array<{
			id: number;
			result: { isError?: boolean; content: Array<{ text: string }> };
		}>;
		const byId = new Map(answers.map((answer) => [answer.id, answer.result]));
		expect(byId.get(1)?.isError).not.toBe(true);
		expect(byId.get(1)?.content[0]?.text).toContain("Notes/Plan.md");
		expect(byId.get(2)?.isError).toBe(true);
		expect(byId.get(2)?.content[0]?.text).toContain("The server stopped before the person decided. Nothing was written.");
		expect(await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("# Plan\n\n- from the batch\n");
	});
});
