import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { HostFile } from "../../../src/host/Host";
import type { ToolContext } from "../../../src/mcp/context";
import { fixableMessageFor, readNoteForAnswer } from "../../../src/mcp/vaultErrors";
import { NoteExistsError } from "../../../src/vault/writes";

const errno = (code: string, message = `${code}: open '/home/ann/Vault/Secret/Diary.md'`) => Object.assign(new Error(message), { code });

describe("fixableMessageFor: vault errors the model can act on", () => {
	test("a note gone, a path outside the vault, a name too long: what to do, never the disk path", () => {
		for (const code of ["ENOENT", "EOUTSIDEVAULT", "ENAMETOOLONG", "EOWNFILELINK"]) {
			const message = fixableMessageFor(errno(code));
			expect(message).toMatch(/Nothing was (read or )?written/);
			expect(message).not.toContain("/home/ann");
		}
		expect(fixableMessageFor(errno("ENOENT"))).toMatch(/Call list_notes or search_notes/);
	});

	test("an EEXIST is answered only in our own words (a raw one names the absolute path)", () => {
		expect(fixableMessageFor(new NoteExistsError("Plan.md"))).toMatch(/^A note already exists at "Plan.md"/);
		expect(fixableMessageFor(errno("EEXIST"))).toBeNull();
	});

	test("write conflicts pass their own message; anything else is not fixable (a bug, answered as a failure)", () => {
		expect(fixableMessageFor(errno("EWRITECONFLICT", "The note changed; read it again."))).toBe("The note changed; read it again.");
		expect(fixableMessageFor(errno("EACCES"))).toBeNull();
		expect(fixableMessageFor(new TypeError("x"))).toBeNull();
		expect(fixableMessageFor("thrown text")).toBeNull();
	});
});

describe("readNoteForAnswer: a note's text for a resource or prompt", () => {
	const file = { path: "Diary.md" } as HostFile;
	// A token allowed to read every note: what is checked again once the disk has answered.
	const contextReading = (read: () => Promise<string>) =>
		({
			host: { vault: { cachedRead: read } },
			writes: { currentRight: () => "allow" },
			scope: { configDir: ".obsidian", excludedFolders: [] },
		}) as unknown as ToolContext;

	test("the text, when it reads", async () => {
		expect(
			await readNoteForAnswer(
				contextReading(() => Promise.resolve("text\n")),
				file,
			),
		).toBe("text\n");
	});

	test("a fixable failure is invalid params in our words; any other is an internal error; neither quotes the raw message", async () => {
		const gone = await readNoteForAnswer(
			contextReading(() => Promise.reject(errno("ENOENT"))),
			file,
		).catch((error: unknown) => error);
		expect(gone).toBeInstanceOf(ProtocolError);
		expect((gone as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
		expect((gone as Error).message).not.toContain("/home/ann");
		const broken = await readNoteForAnswer(
			contextReading(() => Promise.reject(errno("EIO"))),
			file,
		).catch((error: unknown) => error);
		expect((broken as ProtocolError).code).toBe(ProtocolErrorCode.InternalError);
		expect((broken as Error).message).toMatch(/failed inside the server.*read_note/);
		expect((broken as Error).message).not.toContain("/home/ann");
	});
});
