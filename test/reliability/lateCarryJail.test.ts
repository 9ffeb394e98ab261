import * as nodeFs from "node:fs";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { LATE_APPEND_RECHECK_MS } from "../../src/config/limits";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

/**
 * A headless edit replaces the note (a new file renamed over it) and carries bytes another program
 * appends to the old file in the instant after, and once more LATE_APPEND_RECHECK_MS later. The old
 * file may still have another name: a hard link outside the vault, or an excluded note. After the
 * edit that file is no longer the note, and what is appended to it must never reach the note.
 */
describe.each([
	["a file outside the vault", "outside"],
	["an excluded note", "excluded"],
] as const)("set_property on a note hard-linked to %s", (_label, where) => {
	test.each([
		["in the instant after the edit's rename", "now"],
		["a moment later, before the late re-check", "late"],
	] as const)("what that file gets %s never shows in the note", async (_when, when) => {
		const vault = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n", "Private/Diary.md": "dear diary\n" });
		const outside = await makeTempDir("late-carry-outside-");
		const otherName = where === "outside" ? nodePath.join(outside, "log.txt") : nodePath.join(vault, "Private/Diary.md");
		const note = nodePath.join(vault, "Notes/Plan.md");
		await fs.rm(otherName, { force: true });
		nodeFs.linkSync(note, otherName);
		const running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, writeDisclosureAccepted: true, excludedFolders: ["Private"] },
		});
		const client = await connectClient(running.url, running.tokens.write ?? "");
		const diskNote = nodePath.join(running.host.vault.root, "Notes/Plan.md");
		// The other name's own program writes to it right after the server's rename (the note is now a file of its own).
		const originalRename = nodeFs.renameSync;
		let appended = false;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		const spy = jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
			originalRename(from, to);
			if (!appended && to === diskNote) {
				appended = true;
				if (when === "now") nodeFs.appendFileSync(otherName, "SECRET from the other name\n");
				else setTimeout(() => nodeFs.appendFileSync(otherName, "SECRET from the other name\n"), LATE_APPEND_RECHECK_MS / 5);
			}
		});
		try {
			const answer = await callTool(client, "set_property", { path: "Notes/Plan.md", name: "status", value: "done" });
			expect(answer.ok).toBe(true);
			expect(appended).toBe(true);
			await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS * 3));
			expect(await fs.readFile(note, "utf8")).toBe("---\nstatus: done\n---\n# Plan\n\n- one\n");
			const read = await callTool(client, "read_note", { path: "Notes/Plan.md" });
			expect(JSON.stringify(read)).not.toContain("SECRET");
			expect(await fs.readFile(otherName, "utf8")).toBe("# Plan\n\n- one\nSECRET from the other name\n");
		} finally {
			spy.mockRestore();
			await client.close();
			await running.stop();
			await removeDir(vault);
			await removeDir(outside);
		}
	});
});

/** The server's own helpers for the two tests below: a vault, a write token, and a program holding the note open for appending. */
async function withLogger(
	run: (parts: { vault: string; outside: string; logger: number; call: (tool: string, args: object) => Promise<{ ok: boolean }> }) => Promise<void>,
): Promise<void> {
	const vault = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n" });
	const outside = await makeTempDir("late-carry-outside-");
	const running = await startService(vault, { levels: ["write"], settings: { writeEnabled: true, writeDisclosureAccepted: true } });
	const client = await connectClient(running.url, running.tokens.write ?? "");
	// Another program opened the note for appending before the edit, and writes after the edit replaced it.
	const logger = nodeFs.openSync(nodePath.join(vault, "Notes/Plan.md"), "a");
	try {
		await run({ vault: running.host.vault.root, outside, logger, call: (tool, args) => callTool(client, tool, args as Record<string, unknown>) });
	} finally {
		nodeFs.closeSync(logger);
		await client.close();
		await running.stop();
		await removeDir(vault);
		await removeDir(outside);
	}
}

test("set_property: a late line for the replaced note is not written through a hard link to a file outside the vault put at the note's name", async () => {
	await withLogger(async ({ vault, outside, logger, call }) => {
		const target = nodePath.join(outside, "profile.txt");
		await fs.writeFile(target, "outside file\n");
		const diskNote = nodePath.join(vault, "Notes/Plan.md");
		const originalRename = nodeFs.renameSync;
		let swapped = false;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		// Right after the edit's rename: the note's name is made a hard link to the outside file, and the logger writes its line.
		const spy = jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
			originalRename(from, to);
			if (!swapped && to === diskNote) {
				swapped = true;
				const linked = nodePath.join(vault, "Notes/.linked");
				nodeFs.linkSync(target, linked);
				originalRename(linked, diskNote);
				nodeFs.writeSync(logger, "- logged late\n");
			}
		});
		try {
			expect((await call("set_property", { path: "Notes/Plan.md", name: "status", value: "done" })).ok).toBe(true);
			expect(swapped).toBe(true);
			await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS * 3));
			expect(await fs.readFile(target, "utf8")).toBe("outside file\n");
		} finally {
			spy.mockRestore();
		}
	});
});

test("rename_note and create_note in the moment after an edit: a late line for the replaced note goes to the note where it now is, not to the new note at its old path", async () => {
	await withLogger(async ({ vault, logger, call }) => {
		const realSetTimeout = global.setTimeout;
		let recheck: (() => void) | null = null;
		// The late re-check is held until the test lets it run, so the calls below surely come first.
		const spy = jest.spyOn(global, "setTimeout").mockImplementation(((fn: () => void, ms?: number, ...args: unknown[]) => {
			if (ms === LATE_APPEND_RECHECK_MS && recheck === null && (new Error().stack ?? "").includes("lateRecheckDelay")) {
				recheck = fn;
				return { unref: () => undefined, ref: () => undefined, hasRef: () => false, refresh: () => undefined };
			}
			return realSetTimeout(fn, ms, ...args);
		}) as typeof setTimeout);
		try {
			expect((await call("set_property", { path: "Notes/Plan.md", name: "status", value: "done" })).ok).toBe(true);
			expect(recheck).not.toBeNull();
			expect((await call("rename_note", { path: "Notes/Plan.md", new_path: "Archive/Plan.md" })).ok).toBe(true);
			expect((await call("create_note", { path: "Notes/Plan.md", content: "# Someone else's plan\n" })).ok).toBe(true);
			nodeFs.writeSync(logger, "- logged late\n");
			(recheck as unknown as () => void)();
		} finally {
			spy.mockRestore();
		}
		expect(await fs.readFile(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("# Someone else's plan\n");
		expect(await fs.readFile(nodePath.join(vault, "Archive/Plan.md"), "utf8")).toBe("---\nstatus: done\n---\n# Plan\n\n- one\n- logged late\n");
	});
});

test("set_property: the note's folder swapped for an outside link in the instant after the edit, with a late line to carry: the edit made is answered as made, and nothing goes outside", async () => {
	await withLogger(async ({ vault, outside, logger, call }) => {
		await fs.writeFile(nodePath.join(outside, "Plan.md"), "outside file\n");
		const notes = nodePath.join(vault, "Notes");
		const diskNote = nodePath.join(notes, "Plan.md");
		const originalRename = nodeFs.renameSync;
		let swapped = false;
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		const spy = jest.spyOn(fsModule, "renameSync").mockImplementation((from, to) => {
			originalRename(from, to);
			if (!swapped && to === diskNote) {
				swapped = true;
				nodeFs.writeSync(logger, "- logged late\n");
				originalRename(notes, `${notes}-moved`);
				nodeFs.symlinkSync(outside, notes);
			}
		});
		try {
			const answer = await call("set_property", { path: "Notes/Plan.md", name: "status", value: "done" });
			expect(swapped).toBe(true);
			expect(JSON.stringify(answer)).not.toContain("not part of the vault");
			expect(answer.ok).toBe(true);
			await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS * 3));
			expect(await fs.readFile(nodePath.join(outside, "Plan.md"), "utf8")).toBe("outside file\n");
			expect(await fs.readFile(nodePath.join(`${notes}-moved`, "Plan.md"), "utf8")).toBe("---\nstatus: done\n---\n# Plan\n\n- one\n");
		} finally {
			spy.mockRestore();
		}
	});
});
