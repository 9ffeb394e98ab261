/**
 * One token's appends to one note, as many at once as its places allow: each is planned on the text
 * before the one ahead of it wrote, so each is made again on newer text. The journal's records of those
 * edits were flushed to disk with `fsyncSync` on the event loop (twice a call: the planned record's drop,
 * then the new record), which no CPU measure sees: on this shared machine one flush held the loop up to
 * 0.78 s, and another token's reads waited 0.65-0.83 s (at most 0.28 s beside appends to separate notes).
 * Now every flush of these edits goes through the thread pool; nothing is lost and each call stays undoable.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { connectClient } from "../helpers/http";
import { countLoopFlushes, type LoopFlushCount } from "../helpers/loopFlushes";
import { settingsWithWriteTokens, startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const ROUNDS = 6;
const AT_ONCE = 4;

test("appends made again on newer text flush the journal off the event loop, and every one is kept and undoable", async () => {
	const vault = await makeVault({ "log.md": "# Log\n" });
	const running = await startService(vault, { levels: ["write"], settings: settingsWithWriteTokens([]).settings });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	let flushes: LoopFlushCount | undefined;
	try {
		// The journal's first record makes its file and flushes its folder: not counted.
		await callOk(client, "append_to_note", { path: "log.md", content: "first\n" });
		flushes = countLoopFlushes();
		for (let round = 0; round < ROUNDS; round++) {
			await Promise.all(
				Array.from({ length: AT_ONCE }, (_, index) => callOk(client, "append_to_note", { path: "log.md", content: `line ${round}-${index}\n` })),
			);
		}
		flushes.restore();
		const text = await fs.readFile(nodePath.join(vault, "log.md"), "utf8");
		const lines = text.split("\n").filter((line) => line.startsWith("line "));
		expect(lines.sort()).toEqual(Array.from({ length: ROUNDS * AT_ONCE }, (_, n) => `line ${Math.floor(n / AT_ONCE)}-${n % AT_ONCE}`).sort());
		// Each call's record says what it really replaced and wrote: its line added to the text it found.
		const appends = running.journal.list().filter((entry) => entry.tool === "append_to_note");
		expect(appends).toHaveLength(ROUNDS * AT_ONCE + 1);
		for (const entry of appends) {
			expect(entry.changes).toHaveLength(1);
			const [change] = entry.changes;
			expect(change?.after?.startsWith(change.before ?? "")).toBe(true);
			expect(change?.after?.slice((change.before ?? "").length)).toMatch(/^\n?(first|line \d-\d)\n$/);
		}
		expect(appends.some((entry) => entry.changes[0]?.after === text)).toBe(true);
		expect(flushes.count()).toBe(0);
	} finally {
		flushes?.restore();
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
