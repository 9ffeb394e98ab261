import { execFileSync, spawn } from "node:child_process";
import * as nodePath from "node:path";
import { syncFolder } from "../../../src/journal/journalLines";
import { makeTempDir, removeDir } from "../../helpers/vault";

/** How long before another program opens the pipe for writing, which frees an open that waits for one. */
const WRITER_AFTER_S = 6;

test("syncFolder: a named pipe where the journal's folder was (another program swapped it) is skipped at once, not waited on", async () => {
	const dir = await makeTempDir("sync-folder-");
	const pipe = nodePath.join(dir, "journal");
	execFileSync("sh", ["-c", 'mkfifo "$0"', pipe]);
	// Frees a blocked open in the end, so the test finishes either way.
	const writer = spawn("sh", ["-c", `sleep ${WRITER_AFTER_S}; exec 3>"$0"`, pipe], { stdio: "ignore" });
	try {
		const started = Date.now();
		syncFolder(pipe);
		expect(Date.now() - started).toBeLessThan((WRITER_AFTER_S * 1000) / 2);
		// A real folder is still synced without error.
		syncFolder(dir);
	} finally {
		writer.kill();
		await removeDir(dir);
	}
});
