/**
 * A stop waits for subscription streams to end, for the answers of calls that wrote to be sent and
 * for running calls to finish, one after another: one bound for all of them (the service's
 * `stopMs`), not one each. Here a batch that wrote holds its answer and its call open (its second
 * call's read never returns until the test lets it): the stop ends when that one bound runs out.
 * The bound's timer is taken by the test (spied on `node:timers`), so nothing waits on the clock:
 * the test counts the bound's timers and fires the one the stop sets. The real service over real HTTP.
 */
import type * as nodeTimers from "node:timers";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Socket } from "node:net";
import type { HostFile } from "../../src/host/Host";
import { startService, type RunningService } from "../helpers/service";
import { openSocket, requestHead, toolCall } from "../helpers/sockets";
import { makeVault, removeDir } from "../helpers/vault";

/** The stop's bound in this test: a number no other timer of the service uses. */
const STOP_MS = 43_210;

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
	for (const started = Date.now(); !(await condition()); await new Promise((resolve) => setImmediate(resolve)))
		if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
}

describe("a stop beside a call that wrote and still runs", () => {
	let vault: string;
	let running: RunningService;
	let socket: Socket | null = null;
	let release: () => void = () => undefined;

	beforeEach(async () => {
		vault = await makeVault({ "Notes/Plan.md": "# Plan\n", "Notes/Held.md": "# Held\n" });
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true },
			rights: { write: { append_to_note: "allow", read_note: "allow" } },
			httpDeadlines: { stopMs: STOP_MS },
		});
		await running.service.search?.whenWarmedUp();
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		release();
		socket?.destroy();
		await running.stop();
		await removeDir(vault);
	});

	test("ends once its one bound runs out: one timer of the bound set, and the stop over when it fires", async () => {
		// Reading Held.md waits until the test lets it: the batch's answer (it wrote Plan.md) and its call stay open.
		let heldReads = 0;
		const vaultRead = running.host.vault.cachedRead.bind(running.host.vault);
		jest.spyOn(running.host.vault, "cachedRead").mockImplementation(async (file: HostFile) => {
			if (file.path === "Notes/Held.md") {
				heldReads++;
				await new Promise<void>((resolve) => (release = resolve));
			}
			return await vaultRead(file);
		});
		const body = JSON.stringify([
			toolCall(1, "append_to_note", { path: "Notes/Plan.md", content: "- from the batch\n" }),
			toolCall(2, "read_note", { path: "Notes/Held.md" }),
		]);
		socket = await openSocket(running.port, requestHead(running.port, running.tokens.write ?? "", Buffer.byteLength(body)) + body);
		const planWritten = async () => (await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).includes("from the batch");
		await until(async () => heldReads === 1 && (await planWritten()), "the write and the held read");

		// The bound's timers, taken: fired only when the test says.
		const bounds: Array<() => void> = [];
		const timers = jest.requireActual<typeof nodeTimers>("node:timers");
		const realSetTimeout = timers.setTimeout;
		jest.spyOn(timers, "setTimeout").mockImplementation(((run: () => void, ms?: number, ...rest: unknown[]) => {
			if (ms !== STOP_MS) return realSetTimeout(run, ms, ...rest);
			bounds.push(run);
			return { unref: () => undefined, ref: () => undefined, hasRef: () => false, refresh: () => undefined } as unknown as NodeJS.Timeout;
		}) as typeof timers.setTimeout);

		let stopped = false;
		const stopping = running.service.stop().then(() => (stopped = true));
		await until(() => bounds.length === 1, "the stop's bound");
		// The written answer and the running call hold the stop until the bound runs out.
		for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
		expect(stopped).toBe(false);
		bounds[0]?.();
		// Over without a second bound: before, each of the stop's three waits set its own (a stop of up to three bounds).
		await until(() => stopped || bounds.length > 1, "the stop to end");
		expect(bounds).toHaveLength(1);
		expect(stopped).toBe(true);
		await stopping;
	});
});
