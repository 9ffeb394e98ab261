import { eventLoopTurns } from "../../src/turns";
import { SplitStringSet } from "../../src/markdown/splitStringMap";

/** Work counted between two turns of the event loop, piece by piece (see `countWorkPerPiece`). */
export interface WorkPieces {
	/** The work counted in each piece so far, the current piece last. */
	readonly perPiece: number[];
	/** Adds `amount` to the current piece. */
	count(amount?: number): void;
	/** Puts the clock and the event loop's turns back. */
	restore(): void;
}

/**
 * Counts work between pauses instead of timing it (these machines are shared and noisy): every
 * look at the clock finds the slice used up, so sliced code pauses wherever it may, and each turn
 * it takes (`eventLoopTurns.take`) starts a new piece. The test counts its own unit of work with
 * `count` (calls of a method it spies on, characters parsed…).
 */
export function countWorkPerPiece(): WorkPieces {
	let now = performance.now();
	const clock = jest.spyOn(performance, "now").mockImplementation(() => (now += 1_000));
	const perPiece = [0];
	const take = eventLoopTurns.take;
	const turns = jest.spyOn(eventLoopTurns, "take").mockImplementation(() => {
		perPiece.push(0);
		return take();
	});
	return {
		perPiece,
		count: (amount = 1) => {
			perPiece[perPiece.length - 1] = (perPiece.at(-1) ?? 0) + amount;
		},
		restore: () => {
			turns.mockRestore();
			clock.mockRestore();
		},
	};
}

/**
 * Counts, in `pieces`, every text added to a set: the built-in `Set`'s (a Set made from a list adds
 * each through `Set.prototype.add` once it is not the built-in one) and `SplitStringSet`'s, which
 * keeps a big note's tags in parts. Returns what puts both back.
 */
export function countSetAdds(pieces: WorkPieces): () => void {
	const setAdd = Object.getOwnPropertyDescriptor(Set.prototype, "add")?.value as (this: Set<unknown>, value: unknown) => Set<unknown>;
	const builtIn = jest.spyOn(Set.prototype, "add").mockImplementation(function (this: Set<unknown>, value: unknown) {
		pieces.count();
		return setAdd.call(this, value);
	});
	const splitAdd = Object.getOwnPropertyDescriptor(SplitStringSet.prototype, "add")?.value as (this: SplitStringSet, value: string) => boolean;
	const split = jest.spyOn(SplitStringSet.prototype, "add").mockImplementation(function (this: SplitStringSet, value: string) {
		pieces.count();
		return splitAdd.call(this, value);
	});
	return () => {
		split.mockRestore();
		builtIn.mockRestore();
	};
}
