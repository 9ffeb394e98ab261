/*
 * Loaded with --require into a CLI a test starts (a real process): makes the next write to a file
 * whose name matches VAULT_MCP_FAULT_NOTE (a regular expression) fail with EMFILE once
 * `<VAULT_MCP_FAULT_DIR>/fail-note` exists, and from then on every append to the write journal too,
 * until `<VAULT_MCP_FAULT_DIR>/journal-back` exists or VAULT_MCP_FAULT_JOURNAL_FAILS appends have
 * failed: a process out of file descriptors, whose write and then the write's `drop` line fail.
 */
const fs = require("node:fs");
const nodePath = require("node:path");

const folder = process.env.VAULT_MCP_FAULT_DIR ?? "";
const note = new RegExp(process.env.VAULT_MCP_FAULT_NOTE ?? "^$");
let journalFailsLeft = Number(process.env.VAULT_MCP_FAULT_JOURNAL_FAILS ?? Infinity);
const writing = fs.constants.O_WRONLY | fs.constants.O_RDWR;
const openSync = fs.openSync;
let journalFailing = false;

function tooManyOpenFiles(path) {
	return Object.assign(new Error(`EMFILE: too many open files, open '${path}'`), { code: "EMFILE", errno: -24, syscall: "open", path });
}

fs.openSync = function (path, flags, mode) {
	const name = nodePath.basename(String(path));
	const writes = typeof flags === "number" && (flags & writing) !== 0;
	if (writes && note.test(name) && fs.existsSync(nodePath.join(folder, "fail-note"))) {
		fs.rmSync(nodePath.join(folder, "fail-note"));
		journalFailing = true;
		throw tooManyOpenFiles(path);
	}
	if (writes && journalFailing && name === "journal.jsonl") {
		if (!fs.existsSync(nodePath.join(folder, "journal-back")) && journalFailsLeft > 0) {
			journalFailsLeft--;
			throw tooManyOpenFiles(path);
		}
		journalFailing = false;
	}
	return openSync.call(this, path, flags, mode);
};
