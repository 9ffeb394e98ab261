import { eventLoopTurns, TurnLane } from "../../src/turns";

describe("TurnLane", () => {
	test("callers waiting together get their turns one at a time, in the order they asked, one turn of the host each", async () => {
		let turns = 0;
		const lane = new TurnLane(
			() =>
				new Promise((resolve) =>
					setImmediate(() => {
						turns += 1;
						resolve();
					}),
				),
		);
		const order: Array<[string, number]> = [];
		await Promise.all(["a", "b", "c"].map((name) => lane.take().then(() => void order.push([name, turns]))));
		expect(order).toEqual([
			["a", 1],
			["b", 2],
			["c", 3],
		]);
		// Idle, the lane asks the host for nothing more.
		await new Promise((resolve) => setImmediate(resolve));
		expect(turns).toBe(3);
	});

	test("the process's lane lets one caller go per turn of the event loop: each work asking in the same turn resumes in a later turn of its own", async () => {
		let turn = 0;
		let counting = true;
		const tick = () => {
			turn += 1;
			if (counting) setImmediate(tick);
		};
		setImmediate(tick);
		// Three long works paused in the same turn (a parse, an indexing, a body), and each pauses again once resumed.
		const resumed: number[][] = [[], [], []];
		await Promise.all(
			resumed.map(async (turnsOfWork) => {
				for (let slice = 0; slice < 3; slice++) {
					await eventLoopTurns.take();
					turnsOfWork.push(turn);
				}
			}),
		);
		counting = false;
		const all = resumed.flat();
		expect(new Set(all).size).toBe(all.length);
	});
});
