import { closeSync, openSync, readSync } from "node:fs";

/**
 * This thread's CPU time in ms, from Linux's `/proc/thread-self/schedstat` (nanoseconds on a core;
 * `field` 1 is the time it waited for a core instead), or null where there is none. Unlike
 * `process.cpuUsage` it leaves out V8's GC helper threads and the thread pool, which run beside the
 * main thread: under load the process's longest "piece" read 110-145 ms where the main thread's was
 * 48-59 (flood39). Call it on the thread to be measured.
 */
export function threadCpuClock(field = 0): (() => number) | null {
	let fd: number;
	try {
		fd = openSync("/proc/thread-self/schedstat", "r");
	} catch {
		return null;
	}
	const buffer = Buffer.alloc(64);
	const read = (): number => {
		// The file gives the running thread's time as of the scheduler's last update of it (its last tick: ~1 ms
		// steps, so a 0.3 ms piece read 0 or 1.06 ms); getrusage, under process.cpuUsage, brings it up to date first.
		process.cpuUsage();
		const length = readSync(fd, buffer, 0, buffer.length, 0);
		return Number(buffer.toString("latin1", 0, length).split(" ")[field]) / 1e6;
	};
	if (!Number.isFinite(read())) {
		closeSync(fd);
		return null;
	}
	return read;
}

let mainThreadClock: (() => number) | null | undefined;
/** The main thread's CPU clock, opened once (the file names the thread that opens it). */
export function mainThreadCpu(): (() => number) | null {
	if (mainThreadClock === undefined) mainThreadClock = threadCpuClock();
	return mainThreadClock;
}

/**
 * A clock in ms for a test that bounds the work a call does: the main thread's CPU time where the
 * system gives it, else wall time. A busy machine that takes the core away lengthens wall time only:
 * a 500 KB scan of 126-132 ms quiet took 1.26 s of wall time at a load of 18, and 150 ms of CPU.
 */
export function workClock(): () => number {
	return mainThreadCpu() ?? (() => performance.now());
}

/**
 * Until `stop()`: the main thread's CPU over the whole span, and the most of it used between two ticks
 * of a 1 ms timer — the longest piece the event loop ran, counted in CPU time, so a busy machine taking
 * the core away mid-piece does not lengthen it as it lengthens a wall-time hold. Null where the system
 * has no per-thread clock.
 */
export function mainThreadPieces(): { stop: () => { totalMs: number; longestMs: number } } | null {
	const clock = mainThreadCpu();
	if (!clock) return null;
	const first = clock();
	let last = first;
	let longest = 0;
	const tick = () => {
		const now = clock();
		longest = Math.max(longest, now - last);
		last = now;
	};
	const timer = setInterval(tick, 1);
	return {
		stop: () => {
			clearInterval(timer);
			tick();
			return { totalMs: last - first, longestMs: longest };
		},
	};
}
