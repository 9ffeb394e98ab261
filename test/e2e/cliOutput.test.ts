/**
 * The CLI's output arrives whole when it is piped to another program: Node writes to a pipe
 * asynchronously, and an exit that does not wait for stdout to drain cuts it.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { journalPathFor } from "../../src/journal/JournalFile";
import { CLI_PATH, runProcess } from "../helpers/cli";
import { makeVault, removeDir } from "../helpers/vault";

const CALLS = 1_000;
const CHANGES_PER_CALL = 5;
const HASH = "a".repeat(64);

/** A journal of `CALLS` calls of `CHANGES_PER_CALL` notes each with long paths, written as the journal writes its lines. */
function journalLines(): string {
	const lines: string[] = [];
	for (let call = 0; call < CALLS; call++) {
		const id = `call-${String(call).padStart(5, "0")}`;
		const time = new Date(Date.UTC(2026, 0, 1, 0, 0, call)).toISOString();
		for (let note = 0; note < CHANGES_PER_CALL; note++) {
			const path = `Projects/${"Long folder name ".repeat(8).trim()}/Note ${call}-${note}.md`;
			lines.push(
				JSON.stringify({
					kind: "change",
					id,
					time,
					tokenName: "laptop",
					tool: "append_to_note",
					path,
					before: "x",
					beforeHash: HASH,
					after: "xy",
					afterHash: HASH,
				}),
			);
		}
	}
	return `${lines.join("\n")}\n`;
}

describe("CLI output on a pipe", () => {
	let root: string;
	beforeAll(async () => {
		root = await makeVault({ "Home.md": "# Home\n" });
		const journal = journalPathFor(root, ".obsidian");
		await fs.mkdir(nodePath.dirname(journal), { recursive: true });
		await fs.writeFile(journal, journalLines(), { mode: 0o600 });
	});
	afterAll(async () => removeDir(root));

	test("history --json of over 1 MB piped into a program that parses it is whole JSON, and the exit code is the CLI's", async () => {
		const parse = `const text = require("fs").readFileSync(0, "utf8"); const calls = JSON.parse(text); process.stdout.write(String(calls.length) + " " + Buffer.byteLength(text));`;
		const pipeline = `"${process.execPath}" "${CLI_PATH}" history "${root}" --json --limit ${CALLS} | "${process.execPath}" -e '${parse}'; echo " exit $\{PIPESTATUS[0]}"`;
		const result = await runProcess("bash", ["-c", pipeline]);
		expect(result.stderr).toBe("");
		const [count, bytes, , code] = result.stdout.trim().split(" ");
		expect(Number(count)).toBe(CALLS);
		expect(Number(bytes)).toBeGreaterThan(1024 * 1024);
		expect(code).toBe("0");
	});

	test("history without --json on a pipe lists every call, the last line included", async () => {
		const pipeline = `"${process.execPath}" "${CLI_PATH}" history "${root}" --limit ${CALLS} | "${process.execPath}" -e 'const lines = require("fs").readFileSync(0, "utf8").split("\\n"); process.stdout.write(lines.length + " " + lines.at(-2).split("\\t")[0])'`;
		const result = await runProcess("bash", ["-c", pipeline]);
		expect(result.stdout).toBe(`${CALLS + 1} call-00000`);
	});

	test("history piped into a program that stops reading after one line ends quietly, with the CLI's exit code", async () => {
		const pipeline = `"${process.execPath}" "${CLI_PATH}" history "${root}" --limit ${CALLS} | head -n 1 > /dev/null; echo "exit $\{PIPESTATUS[0]}"`;
		const result = await runProcess("bash", ["-c", pipeline]);
		expect(result.stderr).toBe("");
		expect(result.stdout.trim()).toBe("exit 0");
	});
});
