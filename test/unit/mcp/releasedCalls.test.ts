import { WritesBeforeReleased } from "../../../src/mcp/releasedCalls";

/** A promise and the function that resolves it: an approved call's write, tried when the test says. */
function heldWrite(): { tried: Promise<void>; tryIt: () => void } {
	let tryIt = () => undefined as void;
	const tried = new Promise<void>((resolve) => (tryIt = resolve));
	return { tried, tryIt };
}

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => (done = true));
	await new Promise((resolve) => setImmediate(resolve));
	return done;
}

describe("WritesBeforeReleased: a token's released calls wait for its approved writes, and nothing else's", () => {
	test("every held write of the token, not another token's nor another service's (on the base one map served the whole process)", async () => {
		const order = new WritesBeforeReleased();
		const first = heldWrite();
		const second = heldWrite();
		order.hold("token-a", first.tried);
		order.hold("token-a", second.tried);
		const released = order.tried("token-a");
		expect(await settled(order.tried("token-b"))).toBe(true);
		expect(await settled(new WritesBeforeReleased().tried("token-a"))).toBe(true);
		first.tryIt();
		expect(await settled(released)).toBe(false);
		second.tryIt();
		expect(await settled(released)).toBe(true);
		// Once tried, nothing is held for the token any more.
		expect(await settled(order.tried("token-a"))).toBe(true);
	});
});
