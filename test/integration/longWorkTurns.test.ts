import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SliceClock, type Steps } from "../../src/markdown/steps";
import { connectClient } from "../helpers/http";
import { MemoryJournal } from "../helpers/memoryJournal";
import { startService, type RunningService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Task lines of each created note: over 256K characters, so both its parse and its search indexing run in slices. */
const LINES = 7_000;
const NOTES = 3;

/**
 * Counts the event loop's check phases (where immediates run, and so where long work resumes after a
 * pause). Started while no immediate waits, this immediate runs first in every check phase: it
 * queues its next run before any immediate queued later in the same phase. So its count, read by
 * work running in an immediate, is the check phase that work runs in.
 */
function countCheckPhases(): { phase: () => number; stop: () => void } {
	let phase = 0;
	let running = true;
	const tick = () => {
		phase += 1;
		if (running) setImmediate(tick);
	};
	setImmediate(tick);
	return {
		phase: () => phase,
		stop: () => {
			running = false;
		},
	};
}

describe("long work takes turns", () => {
	let root: string;
	let running: RunningService;
	const clients: Client[] = [];
	beforeAll(async () => {
		root = await makeVault({ "Inbox/Start.md": "# Start\n\nA note.\n" });
		running = await startService(root, {
			levels: ["write", "read"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
			journal: new MemoryJournal(),
		});
		await running.service.search?.whenWarmedUp();
	});
	afterAll(async () => {
		for (const client of clients) await client.close();
		await running.stop();
		await removeDir(root);
	});

	test("notes created at once are parsed and indexed one slice per turn of the event loop: never a parse's slice and an indexing's slice in one, nor two notes' indexing", async () => {
		const writer = await connectClient(running.url, running.tokens.write as string);
		const reader = await connectClient(running.url, running.tokens.read as string);
		clients.push(writer, reader);
		const checkPhases = countCheckPhases();
		// Which clocks (the metadata cache's, each note's indexing) ran a step in each check phase.
		const clocksByPhase = new Map<number, Set<SliceClock>>();
		const originalRun = Object.getOwnPropertyDescriptor(SliceClock.prototype, "run")?.value as (
			this: SliceClock,
			steps: Steps<unknown>,
		) => Promise<unknown>;
		const spy = jest.spyOn(SliceClock.prototype, "run").mockImplementation(function (this: SliceClock, steps: Steps<unknown>): Promise<unknown> {
			const recorded = recordedSteps(steps, this);
			return originalRun.call(this, recorded);
		});
		function* recordedSteps(steps: Steps<unknown>, clock: SliceClock): Steps<unknown> {
			for (;;) {
				const phase = checkPhases.phase();
				clocksByPhase.set(phase, (clocksByPhase.get(phase) ?? new Set()).add(clock));
				const next = steps.next();
				if (next.done) return next.value;
				yield;
			}
		}
		// Every step ends its slice, whatever the machine's speed: the turns are counted, not timed.
		let now = performance.now();
		const clockSpy = jest.spyOn(performance, "now").mockImplementation(() => (now += 1_000));
		try {
			const content = `#made [[Start]]\n${"- [ ] a task with a few words to index 📅 2026-01-01\n".repeat(LINES)}`;
			expect(content.length).toBeGreaterThan(256 * 1024);
			await Promise.all(
				Array.from({ length: NOTES }, (_, index) => callOk(writer, "create_note", { path: `Made/Note ${index}`, content: `${content}note${index}\n` })),
			);
			await running.host.metadataCache.settled();
			// Each created note is found once its indexing is done.
			for (let tries = 0; ; tries++) {
				const found = await callOk<{ total: number }>(reader, "search_notes", { query: "note2", limit: 10 });
				if (found.total === 1) break;
				if (tries > 200) throw new Error("the last created note was never indexed");
				await new Promise((resolve) => setTimeout(resolve, 10));
			}
		} finally {
			clockSpy.mockRestore();
			spy.mockRestore();
			checkPhases.stop();
		}
		const phases = [...clocksByPhase.values()];
		// Work was done in many turns: the metadata cache's, and three notes' indexing.
		expect(phases.length).toBeGreaterThan(NOTES * 10);
		expect(new Set(phases.flatMap((clocks) => [...clocks])).size).toBeGreaterThanOrEqual(NOTES + 1);
		const crowded = phases.filter((clocks) => clocks.size > 1).length;
		expect(crowded).toBe(0);
	});
});
