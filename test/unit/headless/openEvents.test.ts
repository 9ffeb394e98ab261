import fc from "fast-check";
import { WATCH_QUEUE_COMPACTED_AT } from "../../../src/config/limits";
import { OpenEvents, type OpenEvent } from "../../../src/headless/openEvents";

/** What the watcher does to its queues: events come (one more, or one more for a look under way), looks answer them, unlinks wait, waits run out of time. */
type Step = { kind: "event"; sameNumber: boolean } | { kind: "answer"; pick: number } | { kind: "wait" } | { kind: "timeOut"; pick: number };

const STEP: fc.Arbitrary<Step> = fc.oneof(
	fc.record({ kind: fc.constant("event" as const), sameNumber: fc.boolean() }),
	fc.record({ kind: fc.constant("answer" as const), pick: fc.nat() }),
	// Waits and their running out weigh more, so that ended ones are often most of a queue with some under way.
	{ arbitrary: fc.record({ kind: fc.constant("wait" as const) }), weight: 2 },
	{ arbitrary: fc.record({ kind: fc.constant("timeOut" as const), pick: fc.nat() }), weight: 2 },
);

/** One queue the steps are played on: the events it opened, and each wait's ends so far. */
interface Played {
	queue: OpenEvents;
	events: OpenEvent[];
	ends: number[];
	endSooner: Array<(() => void) | null>;
}

function played(compactedAt: number): Played {
	return { queue: new OpenEvents(compactedAt), events: [], ends: [], endSooner: [] };
}

describe("the watcher's open events and the unlinks waiting for them", () => {
	test("cut down past their bound, they answer as the queue never cut: each wait ends once, when its events are answered or its time is up", () => {
		fc.assert(
			fc.property(fc.array(STEP, { minLength: 20, maxLength: 200, size: "max" }), fc.integer({ min: 1, max: 8 }), (steps, compactedAt) => {
				// The same steps on a queue that cuts past `compactedAt` and one that never cuts.
				const cut = played(compactedAt);
				const whole = played(Number.POSITIVE_INFINITY);
				const waitsUpTo: number[] = [];
				// Waits run out of time, or saw every event up to them answered (an event opened after with the same number does not start them again).
				const timedOut = new Set<number>();
				const reached = new Set<number>();
				const answeredAsBegun: boolean[] = [];
				const wrong: string[] = [];
				// Every event up to a number is answered when none open is numbered that or less.
				let lowestOpen = Number.POSITIVE_INFINITY;
				const answeredUpTo = (upTo: number) => upTo < lowestOpen;
				let number = 0;
				for (const step of steps) {
					if (step.kind === "event" && !(step.sameNumber && number > 0)) number++;
					if (step.kind === "wait") answeredAsBegun.push(answeredUpTo(waitsUpTo[waitsUpTo.push(number) - 1] as number));
					if (step.kind === "timeOut" && waitsUpTo.length > 0) timedOut.add(step.pick % waitsUpTo.length);
					for (const one of [cut, whole]) {
						if (step.kind === "event") one.events.push(one.queue.opened(number));
						else if (step.kind === "answer") one.queue.answered(one.events[step.pick % Math.max(one.events.length, 1)] ?? null);
						else if (step.kind === "wait") {
							const at = one.ends.push(0) - 1;
							one.endSooner.push(one.queue.waitFor(number, () => (one.ends[at] = (one.ends[at] ?? 0) + 1)));
						} else one.endSooner[step.pick % Math.max(one.endSooner.length, 1)]?.();
					}
					lowestOpen = Math.min(...whole.events.filter((event) => !event.answered).map((event) => event.number), Number.POSITIVE_INFINITY);
					// A wait ends once: when every event up to it is answered, or sooner when its time ran out (none when all were answered as it began).
					waitsUpTo.forEach((upTo, at) => answeredUpTo(upTo) && reached.add(at));
					const expectedEnds = waitsUpTo.map((_, at) => (answeredAsBegun[at] === true ? 0 : reached.has(at) || timedOut.has(at) ? 1 : 0));
					const stillOpen = whole.events.filter((event) => !event.answered).length;
					const stillWaiting = expectedEnds.filter((ends, at) => ends === 0 && answeredAsBegun[at] === false).length;
					const { held } = cut.queue;
					// What goes wrong at a step is noted, and all of it checked once (an expect each step cost seconds over the runs).
					if (`${cut.ends.join()}/${whole.ends.join()}` !== `${expectedEnds.join()}/${expectedEnds.join()}`)
						wrong.push(`step ${step.kind}: ends ${cut.ends.join()} / ${whole.ends.join()}, not ${expectedEnds.join()}`);
					if (cut.endSooner.map((end) => end === null).join() !== answeredAsBegun.join())
						wrong.push(`step ${step.kind}: a wait begun on answered events`);
					for (let upTo = 0; upTo <= number; upTo++)
						if (cut.queue.answeredUpTo(upTo) !== answeredUpTo(upTo)) wrong.push(`step ${step.kind}: answered up to ${upTo}`);
					// What is kept beside the open events and waits under way: at most the bound, or as many as those.
					if (held.events - stillOpen > Math.max(compactedAt, stillOpen))
						wrong.push(`step ${step.kind}: ${held.events} events held, ${stillOpen} open`);
					if (held.waits - stillWaiting > Math.max(compactedAt, stillWaiting))
						wrong.push(`step ${step.kind}: ${held.waits} waits held, ${stillWaiting} under way`);
				}
				expect(wrong).toEqual([]);
				// Closing ends the waits still under way, each once.
				cut.queue.endAll();
				expect(cut.ends).toEqual(cut.endSooner.map((end) => (end === null ? 0 : 1)));
			}),
			{
				numRuns: 300,
				examples: [
					// Waits cut out after one at the front ended: the one left still ends when its event is answered.
					[
						[
							{ kind: "event", sameNumber: false },
							{ kind: "wait" },
							{ kind: "answer", pick: 0 },
							{ kind: "event", sameNumber: false },
							{ kind: "wait" },
							{ kind: "wait" },
							{ kind: "timeOut", pick: 2 },
							{ kind: "answer", pick: 1 },
						],
						2,
					],
				],
			},
		);
	});

	test("a look that never ends holds the front: 20,000 events answered after it are cut out, and a wait behind it ends only with it", () => {
		const queue = new OpenEvents();
		const hung = queue.opened(1);
		let ended = 0;
		for (let number = 2; number <= 20_001; number++) queue.answered(queue.opened(number));
		queue.waitFor(20_001, () => ended++);
		// 20,001 on hole108's parent (d567b216): only answered events at the front were cut out.
		expect(queue.held.events).toBeLessThanOrEqual(WATCH_QUEUE_COMPACTED_AT);
		expect([ended, queue.answeredUpTo(20_001), queue.answeredUpTo(0)]).toEqual([0, false, true]);
		queue.answered(hung);
		expect([ended, queue.answeredUpTo(20_001)]).toEqual([1, true]);
	});

	test("20,000 waits that ran out of time behind a look that never ends are cut out; those under way, before and after them, still end once answered", () => {
		const queue = new OpenEvents();
		const hung = queue.opened(1);
		let [first, last] = [0, 0];
		queue.waitFor(1, () => first++);
		for (let wait = 0; wait < 20_000; wait++) queue.waitFor(1, () => undefined)?.();
		queue.waitFor(1, () => last++);
		expect(queue.held.waits).toBeLessThanOrEqual(WATCH_QUEUE_COMPACTED_AT);
		expect([first, last]).toEqual([0, 0]);
		queue.answered(hung);
		expect([first, last]).toEqual([1, 1]);
	});
});
