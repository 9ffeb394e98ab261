/**
 * Runs `work` counting every `Array.prototype.push` made meanwhile (V8 copies an array as it grows
 * a push at a time: a test counts pushes, not time, to show a one-piece growth is gone).
 */
export function countPushes<T>(work: () => T): { result: T; pushes: number } {
	let pushes = 0;
	const push = Array.prototype.push;
	Array.prototype.push = function (this: unknown[], ...items: unknown[]) {
		pushes++;
		return push.apply(this, items);
	};
	try {
		const result = work();
		return { result, pushes };
	} finally {
		Array.prototype.push = push;
	}
}
