import type { HostVault } from "../../../src/host/Host";
import { HostEvents } from "../../../src/headless/events";
import type { WriteJournal } from "../../../src/journal/entry";
import { followMoves } from "../../../src/journal/followMoves";

/** The journal hears every rename the host reports, and nothing once the server stops following. */
describe("followMoves", () => {
	test("tells the journal each rename's old and new path, and stops when asked", () => {
		const events = new HostEvents();
		const vault = events as unknown as Pick<HostVault, "on" | "offref">;
		const moves: [string, string][] = [];
		const journal = { noteMoved: (from: string, to: string) => moves.push([from, to]) } as unknown as WriteJournal;

		const stop = followMoves(vault, journal);
		events.trigger("rename", { path: "Archive/A.md" }, "Notes/A.md");
		events.trigger("modify", { path: "Archive/A.md" });
		events.trigger("rename", { path: "Private/A.md" }, "Archive/A.md");
		expect(moves).toEqual([
			["Notes/A.md", "Archive/A.md"],
			["Archive/A.md", "Private/A.md"],
		]);

		stop();
		expect(events.listenerCount).toBe(0);
		events.trigger("rename", { path: "Notes/A.md" }, "Private/A.md");
		expect(moves).toHaveLength(2);
	});

	test("a journal that does not record moves is left alone", () => {
		const events = new HostEvents();
		const stop = followMoves(events, {} as WriteJournal);
		expect(() => events.trigger("rename", { path: "B.md" }, "A.md")).not.toThrow();
		stop();
	});
});
