import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose_gc");
const collect = runInNewContext("gc") as () => void;

/**
 * Heap in use after full garbage collections, for "memory came back" checks: the smallest of a
 * few readings taken a moment apart, so that sockets and timers still closing do not count.
 */
export async function heapAfterGc(): Promise<number> {
	let smallest = Infinity;
	for (let reading = 0; reading < 5; reading++) {
		await new Promise((resolve) => setTimeout(resolve, 20));
		collect();
		collect();
		smallest = Math.min(smallest, process.memoryUsage().heapUsed);
	}
	return smallest;
}

/** A full garbage collection once the current job has ended: a WeakRef made in a job keeps its target until the job ends. */
export async function collectGarbage(): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, 0));
	collect();
}

/**
 * What the process holds after full collections: the heap and the typed arrays' buffers, which V8
 * keeps outside it and frees on a background thread after a collection (the smallest of a few
 * readings taken a moment apart).
 */
export async function heapAndBuffersAfterGc(): Promise<number> {
	let smallest = Infinity;
	for (let reading = 0; reading < 5; reading++) {
		await new Promise((resolve) => setTimeout(resolve, 20));
		collect();
		collect();
		const usage = process.memoryUsage();
		smallest = Math.min(smallest, usage.heapUsed + usage.arrayBuffers);
	}
	return smallest;
}
