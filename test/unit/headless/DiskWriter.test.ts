import * as nodeFs from "node:fs";
import { appendFileSync, linkSync, promises as fs, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { LATE_APPEND_RECHECK_MS } from "../../../src/config/limits";
import { DiskWriter } from "../../../src/headless/DiskWriter";
import { FolderJail } from "../../../src/host/FolderJail";
import { makeTempDir, makeVault, removeDir } from "../../helpers/vault";

/** The headless vault's edit on disk: what it writes, and where it never writes. */
describe("DiskWriter.editOnce", () => {
	let root: string;
	let outside: string;
	let writer: DiskWriter;

	beforeEach(async () => {
		root = await makeVault({ "Notes/Plan.md": "# Plan\n\n- one\n" });
		outside = await makeTempDir("writer-outside-");
		writer = new DiskWriter(await FolderJail.open(root));
	});
	afterEach(async () => {
		await removeDir(root);
		await removeDir(outside);
	});

	test("an append adds the new lines at the end of the note", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		expect(writer.editOnce(note, (text) => `${text}- two\n`)).not.toBeNull();
		expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one\n- two\n");
	});

	test("a hard link made to the note while the edit is computed (another name, outside the vault) is not appended through", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		const elsewhere = nodePath.join(outside, "copy.md");
		// Another program links the note elsewhere after it was read, before it is written.
		const result = writer.editOnce(note, (text) => {
			linkSync(note, elsewhere);
			return `${text}- two\n`;
		});
		// Either tried again (null) or written as a new file of its own: the other name keeps the bytes it had.
		if (result !== null) expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one\n- two\n");
		expect(await fs.readFile(elsewhere, "utf8")).toBe("# Plan\n\n- one\n");
	});

	test("an edit before the end, while another program adds whole lines at the end, goes in with those lines after it", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		// A logger appends after the note was read, before it is written: before, the edit was only tried again (and lost every race against a 2 ms logger).
		const result = writer.editOnce(note, (text) => {
			appendFileSync(note, "- logged 1\n- logged 2\n");
			return text.replace("# Plan", "# Plan for May");
		});
		expect(result).toMatchObject({ exact: false });
		expect(await fs.readFile(note, "utf8")).toBe("# Plan for May\n\n- one\n- logged 1\n- logged 2\n");
	});

	test("a line another program writes to the note's old file a moment after the edit replaced it (opened before, descheduled before writing) is carried to the new file", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		// Another program opened the note for appending before the edit's rename, and writes after it: before, that line went to a file no name leads to.
		const logger = nodeFs.openSync(note, "a");
		try {
			expect(writer.editOnce(note, (text) => text.replace("# Plan", "# Plan for May"))).not.toBeNull();
			nodeFs.writeSync(logger, "- logged late\n");
		} finally {
			nodeFs.closeSync(logger);
		}
		await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_RECHECK_MS + 100));
		expect(await fs.readFile(note, "utf8")).toBe("# Plan for May\n\n- one\n- logged late\n");
	});

	test("a line another program is still writing at the end, or any other change, and the edit is tried again on the fresh text, writing nothing", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		const halfLine = writer.editOnce(note, (text) => {
			appendFileSync(note, "- half a li");
			return text.replace("# Plan", "# Plan for May");
		});
		expect(halfLine).toBeNull();
		expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one\n- half a li");
		await fs.writeFile(note, "# Plan\n\n- one\n");
		const rewritten = writer.editOnce(note, (text) => {
			writeFileSync(note, "# Plan\n\n- one, changed\n- two\n");
			return text.replace("# Plan", "# Plan for May");
		});
		expect(rewritten).toBeNull();
		expect(await fs.readFile(note, "utf8")).toBe("# Plan\n\n- one, changed\n- two\n");
	});
	test("lines another program added at the end are written after the edit as they were checked, never as the file holds them a moment later", async () => {
		const note = nodePath.join(root, "Notes/Plan.md");
		const before = "# Plan\n\n- one\n";
		const logged = "- log 1\n";
		// Another program rewrites the note in place (truncate, write) just after its added lines were checked
		// as whole lines: its new text ends in half a line at the same place.
		const rewrite = `# PLAN\n\n- one\n${"half lin".slice(0, logged.length)}`;
		const realRead = nodeFs.readSync;
		let checked = 0;
		// The module object itself (the namespace import's properties cannot be redefined).
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest can spy only on the CommonJS module object
		const fsModule = require("node:fs") as typeof nodeFs;
		const spy = jest.spyOn(fsModule, "readSync").mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number, position: number) => {
			if (length === Buffer.byteLength(before) + Buffer.byteLength(logged) && position === 0) checked++;
			else if (checked > 0 && position === Buffer.byteLength(before)) writeFileSync(note, rewrite);
			return realRead(fd, buffer, offset, length, position);
		}) as typeof nodeFs.readSync);
		let result;
		try {
			result = writer.editOnce(note, (text) => {
				appendFileSync(note, logged);
				return text.replace("# Plan", "# Plan!");
			});
		} finally {
			spy.mockRestore();
		}
		const text = await fs.readFile(note, "utf8");
		// Never half a line of the other program's new text glued after the edit.
		expect(text).not.toContain("half lin");
		if (result !== null) expect(text).toBe(`# Plan!\n\n- one\n${logged}`);
	});
});
