import { MAX_READ_NOTE_BYTES } from "../../../../src/config/limits";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { run } from "../../../../src/headless/cli/run";
import { NodeVault } from "../../../../src/headless/NodeVault";
import { JournalFile } from "../../../../src/journal/JournalFile";
import { hashText } from "../../../../src/vault/writes";
import { parseMetadata } from "../../../../src/markdown/metadata";
import type { CliIo } from "../../../../src/headless/cli/io";
import { helpFor } from "../../../../src/headless/cliHelp";
import { VERSION } from "../../../../src/version";
import { makeTempDir, removeDir } from "../../../helpers/vault";

/** A CLI io that keeps what was printed; a server asked to run stops at once. */
function fakeIo(): CliIo & { out: string; err: string } {
	const io = {
		out: "",
		err: "",
		stdout: (text: string) => {
			io.out += text;
		},
		stderr: (text: string) => {
			io.err += text;
		},
		terminal: null,
		stopRequested: () => Promise.resolve(),
	};
	return io;
}

/** Every file under a folder, relative, sorted: to show a refused command changed nothing. */
async function filesUnder(root: string): Promise<string[]> {
	const entries = await fs.readdir(root, { recursive: true });
	return entries.map((entry) => entry.split(nodePath.sep).join("/")).sort();
}

describe("run(argv, io): the CLI without a process", () => {
	let vault: string;
	let notAVault: string;
	beforeEach(async () => {
		vault = await makeTempDir("vault-mcp-cli-run-");
		await fs.mkdir(nodePath.join(vault, ".obsidian"));
		await fs.writeFile(nodePath.join(vault, "Note.md"), "# Note\n");
		notAVault = await makeTempDir("vault-mcp-cli-plain-");
	});
	afterEach(async () => {
		await removeDir(vault);
		await removeDir(notAVault);
	});

	test("importing the CLI runs nothing: only run() prints, and never through the process", async () => {
		const exit = jest.spyOn(process, "exit").mockImplementation(() => undefined as never);
		const write = jest.spyOn(process.stdout, "write");
		try {
			const io = fakeIo();
			expect(await run(["--version"], io)).toBe(0);
			expect(io.out).toBe(`${VERSION}\n`);
			expect(exit).not.toHaveBeenCalled();
			expect(write).not.toHaveBeenCalled();
		} finally {
			exit.mockRestore();
			write.mockRestore();
		}
	});

	test.each([
		[["help"], ""],
		[["--help"], ""],
		[["help", "token", "new"], "token new"],
		[["serve", "--help"], "serve"],
		[["token", "rights", "-h"], "token rights"],
		[["history", "--help"], "history"],
	])("%j prints the help for %j on stdout, exit 0", async (argv, topic) => {
		const io = fakeIo();
		expect(await run(argv, io)).toBe(0);
		expect(io.out).toBe(`${helpFor(topic) ?? "no such help"}\n`);
		expect(io.err).toBe("");
	});

	test.each([
		[[], "A command is required.", 'Run "vault-mcp help" for the commands.'],
		[["sevre"], "Unknown command: sevre", 'Run "vault-mcp help" for the commands.'],
		[["help", "nothing"], 'No help for "nothing": there is no such command.', 'Run "vault-mcp help" for the commands.'],
		[["token"], "token needs new, list, rights, folders or revoke.", 'Run "vault-mcp help token" for the flags.'],
		[["token", "forget"], "Unknown token action: forget", 'Run "vault-mcp help token" for the flags.'],
	])("%j is a usage error: exit 2, one line and where the help is", async (argv, message, hint) => {
		const io = fakeIo();
		expect(await run(argv, io)).toBe(2);
		expect(io.err).toBe(`error: ${message}\n${hint}\n`);
		expect(io.out).toBe("");
	});

	test("a missing or wrong vault folder is a usage error naming it", async () => {
		const missing = nodePath.join(notAVault, "missing");
		for (const [argv, message] of [
			[["serve"], "The vault folder is required."],
			[["serve", missing], `Not a folder: ${missing}`],
			[["history", missing], `Not a folder: ${missing}`],
		] as const) {
			const io = fakeIo();
			expect(await run([...argv], io)).toBe(2);
			expect(io.err.split("\n")[0]).toBe(`error: ${message}`);
		}
	});

	test("argument errors name the flag and change nothing in the vault", async () => {
		const before = await filesUnder(vault);
		for (const [argv, message, topic] of [
			[["token", "new", vault], "token new needs --name NAME.", "token new"],
			[["token", "new", vault, "--name", "x", "--level", "admin"], "--level must be read or write.", "token new"],
			[["token", "new", vault, "--name", "x", "--allow-all-writes"], "--allow-all-writes is for write tokens: add --level write.", "token new"],
			[["token", "list", vault, "--colour"], "Unknown option '--colour'.", "token list"],
			[["token", "revoke", vault], "token revoke needs the token's name.", "token revoke"],
			[["token", "rights", vault], "token rights needs the token's name.", "token rights"],
			[["serve", vault, "--port", "70000"], "--port needs a whole number from 0 to 65535.", "serve"],
			[["serve", vault, "--port", "many"], "--port needs a whole number from 0 to 65535.", "serve"],
			[["serve", vault, "--language", "klingon"], "--language needs one of:", "serve"],
			[["serve", vault, "--exclude", "../outside"], '--exclude "../outside" names no folder inside the vault', "serve"],
			[["serve", vault, "--print-config", "emacs"], "--print-config must be one of", "serve"],
			[["inspect", vault], "inspect needs a note path, --links, or both.", "inspect"],
			[["history", vault, "extra"], "history takes one vault folder; unexpected: extra", "history"],
			[["history", vault, "--limit", "0"], "--limit needs a whole number from 1 to 65535000.", "history"],
			[["serve", vault, "--rate-limit", "100000000"], "--rate-limit needs a whole number from 1 to 65535000.", "serve"],
			[["undo", vault], "undo needs the id of a change;", "undo"],
			[["undo", vault, "a", "b"], "undo takes one id; unexpected: b", "undo"],
		] as const) {
			const io = fakeIo();
			expect(await run([...argv], io)).toBe(2);
			const [line, hint, rest] = io.err.split("\n");
			expect(line?.startsWith("error: ")).toBe(true);
			expect({ argv, line }).toEqual({ argv, line: expect.stringContaining(message) });
			expect(hint).toBe(`Run "vault-mcp help ${topic}" for the flags.`);
			expect(rest).toBe("");
			expect(io.out).toBe("");
		}
		expect(await filesUnder(vault)).toEqual(before);
	});

	test("serving a folder with no .obsidian is refused in one line with no hint, and makes nothing", async () => {
		const io = fakeIo();
		expect(await run(["serve", notAVault], io)).toBe(2);
		expect(io.err).toBe(`error: ${notAVault} has no .obsidian folder, so it is not an Obsidian vault yet: check the path, or add --init to make it one.\n`);
		expect(await filesUnder(notAVault)).toEqual([]);
	});

	test("a command that runs prints through io: token new then token list", async () => {
		const made = fakeIo();
		expect(await run(["token", "new", vault, "--name", "laptop", "--json"], made)).toBe(0);
		const { name, level, token } = JSON.parse(made.out) as { name: string; level: string; token: string };
		expect({ name, level }).toEqual({ name: "laptop", level: "read" });
		const listed = fakeIo();
		expect(await run(["token", "list", vault], listed)).toBe(0);
		expect(listed.out).toMatch(new RegExp(`^laptop\\tread\\t${token.slice(0, 4)}`, "u"));
		expect(listed.out).not.toContain(token);
	});

	test("inspect of one note reads that note alone and prints its metadata (the whole vault took 50 s beside hostile notes)", async () => {
		const text = "# Note\n[[Other]] #tag\n- [ ] task\n";
		await fs.writeFile(nodePath.join(vault, "Note.md"), text);
		await fs.writeFile(nodePath.join(vault, "Other.md"), "# Other\n");
		const read = jest.spyOn(NodeVault.prototype, "readSync");
		try {
			const io = fakeIo();
			expect(await run(["inspect", vault, "Note"], io)).toBe(0);
			expect(JSON.parse(io.out)).toEqual(parseMetadata(text));
			expect(read.mock.calls.map(([file]) => file.path)).toEqual(["Note.md"]);
			const missing = fakeIo();
			expect(await run(["inspect", vault, "Nowhere.md"], missing)).toBe(1);
			expect(missing.err).toContain('No Markdown note at "Nowhere.md"');
			// A note over MAX_READ_NOTE_BYTES is there, but not read: said so, not called missing.
			await fs.writeFile(nodePath.join(vault, "Huge.md"), "a".repeat(MAX_READ_NOTE_BYTES + 1));
			const huge = fakeIo();
			expect(await run(["inspect", vault, "Huge"], huge)).toBe(1);
			expect(huge.err).toContain("That note is 8.0 MiB, over the 8 MiB of text this server reads from one note");
		} finally {
			read.mockRestore();
		}
	});

	test("inspect prints what a note holds that a terminal would act on as its JSON escape: the same JSON, nothing reordered or run", async () => {
		// A heading built to read "pay Bob to $100" under a bidi override, a C1 control sequence introducer (U+009B) and a zero-width joiner.
		const text = "# pay \u202E001$ ot boB\n\n[[X\u009B2J]] and a\u200Db\n";
		await fs.writeFile(nodePath.join(vault, "Note.md"), text);
		for (const argv of [
			["inspect", vault, "Note"],
			["inspect", vault, "Note", "--links"],
			["inspect", vault, "--links"],
		]) {
			const io = fakeIo();
			expect(await run(argv, io)).toBe(0);
			expect({ argv, acting: io.out.match(/[\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/gu) }).toEqual({ argv, acting: null });
			if (!argv.includes("--links")) expect(JSON.parse(io.out)).toEqual(parseMetadata(text));
			else expect(io.out).toContain("X\\u009b2J");
		}
	});

	test("history --json prints a path a client named with a bidi override as its JSON escape: the same JSON, nothing reordered", async () => {
		const path = "Pay\u202Egpj.md";
		const journal = JournalFile.forVault(vault, ".obsidian");
		journal.recordChange(
			{ id: "a1b2c3d4e5f6", time: new Date().toISOString(), tokenName: "laptop", tool: "create_note" },
			{ path, before: null, beforeHash: null, after: "x", afterHash: hashText("x") },
		);
		journal.close();
		const io = fakeIo();
		expect(await run(["history", vault, "--json"], io)).toBe(0);
		expect(io.out).not.toMatch(/\u202E/u);
		expect((JSON.parse(io.out) as Array<{ changes: Array<{ path: string }> }>)[0]?.changes[0]?.path).toBe(path);
	});

	test("token new, list and rights with --json print a name holding a bidi override as its JSON escape, as the plain lines draw it", async () => {
		const name = "lap\u202Epot";
		const made = fakeIo();
		expect(await run(["token", "new", vault, "--name", name, "--json"], made)).toBe(0);
		const listed = fakeIo();
		expect(await run(["token", "list", vault, "--json"], listed)).toBe(0);
		const rights = fakeIo();
		expect(await run(["token", "rights", vault, name, "--json"], rights)).toBe(0);
		for (const io of [made, listed, rights]) expect(io.out).not.toMatch(/\u202E/u);
		expect((JSON.parse(made.out) as { name: string }).name).toBe(name);
		expect((JSON.parse(listed.out) as Array<{ name: string }>).map((token) => token.name)).toContain(name);
		expect((JSON.parse(rights.out) as { name: string }).name).toBe(name);
	});

	test("a failure that is not a usage error exits 1 with one error line", async () => {
		const io = fakeIo();
		expect(await run(["undo", vault, "no-such-id"], io)).toBe(1);
		expect(io.err.startsWith("error: ")).toBe(true);
		expect(io.err.trimEnd().split("\n")).toHaveLength(1);
	});
});
