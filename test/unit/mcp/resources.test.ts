import { FIRST_IN_ORDER_CHECK_MASK, RESOURCE_LIST_SIZE } from "../../../src/config/limits";
import type { HostFile } from "../../../src/host/Host";
import { NOTE_URI_TEMPLATE, noteUri } from "../../../src/mcp/resources";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { connectInMemory, NO_SEARCH, type InMemoryConnection } from "../../helpers/inMemoryClient";
import { countWorkPerPiece } from "../../helpers/workPieces";

describe("notes as MCP resources", () => {
	test("noteUri percent-encodes each part of the path and keeps the slashes", () => {
		expect(noteUri("Projects/Plan 2026 #1?.md")).toBe("vault-mcp://note/Projects/Plan%202026%20%231%3F.md");
		expect(NOTE_URI_TEMPLATE).toBe("vault-mcp://note/{+path}");
	});

	describe("over a real client", () => {
		let vault: OpenVault;
		let connection: InMemoryConnection;
		beforeAll(async () => {
			const files: Record<string, string> = { "Projects/Plan #1.md": "# Plan\n", "Odd/Plan #1 100%.md": "odd\n", "Private/Diary.md": "secret\n" };
			for (let index = 0; index < RESOURCE_LIST_SIZE + 5; index++) files[`Many/Note ${index}.md`] = `${index}\n`;
			vault = await openVault(files);
			connection = await connectInMemory(vault.host, { scope: vault.scope("Private") });
		});
		afterAll(async () => {
			await connection.close();
			await vault.close();
		});

		test(`the list holds at most ${RESOURCE_LIST_SIZE} notes, never one of an excluded folder`, async () => {
			const { resources } = await connection.client.listResources();
			expect(resources).toHaveLength(RESOURCE_LIST_SIZE);
			expect(resources.every((resource) => resource.mimeType === "text/markdown" && resource.uri === noteUri(resource.name))).toBe(true);
			expect(resources.map((resource) => resource.name)).not.toContain("Private/Diary.md");
		});

		test("reading a note's URI gives its text; an excluded note answers as one that does not exist", async () => {
			const read = await connection.client.readResource({ uri: noteUri("Projects/Plan #1.md") });
			expect(read.contents).toEqual([{ uri: noteUri("Projects/Plan #1.md"), mimeType: "text/markdown", text: "# Plan\n" }]);
			const excluded: string = await connection.client.readResource({ uri: noteUri("Private/Diary.md") }).then(
				() => "read",
				(error: Error) => error.message,
			);
			expect(excluded).toMatch(/^MCP error -32602: No note "Private\/Diary\.md"\. Closest: /);
			expect(excluded.slice(excluded.indexOf("Closest"))).not.toContain("Private");
		});

		test("every note the list offers can be read by its URI, a name with # or % in it included", async () => {
			const { resources } = await connection.client.listResources();
			const odd = await connection.client.readResource({ uri: noteUri("Odd/Plan #1 100%.md") });
			expect(odd.contents).toEqual([{ uri: noteUri("Odd/Plan #1 100%.md"), mimeType: "text/markdown", text: "odd\n" }]);
			for (const resource of resources) expect((await connection.client.readResource({ uri: resource.uri })).contents).toHaveLength(1);
		});

		test("a URI that is not valid percent-encoding is refused as such", async () => {
			await expect(connection.client.readResource({ uri: "vault-mcp://note/%E0%A4%A" })).rejects.toThrow(/not valid percent-encoding/);
		});
	});

	test("the list of 6,000 notes is picked in pieces: their times are read at most 65,536 times between pauses (sorted whole, 300,000 times in one piece at 12,000 notes)", async () => {
		// Enough notes that sorting them whole reads their times about 140,000 times in one piece, twice the bound below.
		const NOTES = 6_000;
		const files: Record<string, string> = {};
		for (let index = 0; index < NOTES; index++) files[`N/n${index}.md`] = `${index}\n`;
		const vault = await openVault(files);
		const connection = await connectInMemory(vault.host, { search: NO_SEARCH });
		const pieces = countWorkPerPiece();
		// Each note's time read through a counting getter; the times shuffled, and some alike, as a synced vault's are.
		for (const [index, file] of vault.host.vault.getMarkdownFiles().entries()) {
			const stat = { ...file.stat, mtime: ((index * 7919) % NOTES) >> 1 };
			Object.defineProperty(file, "stat", {
				configurable: true,
				get: () => {
					pieces.count();
					return stat;
				},
			});
		}
		const expected = vault.host.vault
			.getMarkdownFiles()
			.sort((a, b) => b.stat.mtime - a.stat.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
			.slice(0, RESOURCE_LIST_SIZE)
			.map((file) => file.path);
		pieces.perPiece.splice(0, pieces.perPiece.length, 0);
		try {
			const { resources } = await connection.client.listResources();
			expect(resources.map((resource) => resource.name)).toEqual(expected);
			expect(Math.max(...pieces.perPiece)).toBeLessThan(4096 * 16);
		} finally {
			pieces.restore();
			await connection.close();
			await vault.close();
		}
	}, 180_000);

	test("a caller whose read_note right is Deny gets 'method not found', as if there were no resources", async () => {
		const vault = await openVault({ "A.md": "a\n" });
		const connection = await connectInMemory(vault.host, { rights: { read_note: "deny" } });
		try {
			await expect(connection.client.listResources()).rejects.toThrow(/Method not found/);
		} finally {
			await connection.close();
			await vault.close();
		}
	});
});

// The lists a client asks for (the newest notes, the prompt notes, a completion's note paths) keep nothing when stopped at
// their work budget, and said "try again": an agent that believes it asks again forever.
describe("a list of notes stopped at its work budget", () => {
	let vault: OpenVault;
	let connection: InMemoryConnection;
	beforeAll(async () => {
		vault = await openVault({ "Prompts/Summarize.md": "Summarize {{note}}\n" });
		const [file] = vault.host.vault.getMarkdownFiles();
		// As many notes as the walks look at the clock after (FIRST_IN_ORDER_CHECK_MASK + 1), without making them.
		const many = Array.from({ length: FIRST_IN_ORDER_CHECK_MASK + 1 }, () => file as HostFile);
		vault.host.vault.getMarkdownFiles = () => many;
		connection = await connectInMemory(vault.host, {
			search: NO_SEARCH,
			promptsFolder: "Prompts",
			callBudget: { pause: () => Promise.resolve(), sliceMs: 0, callWorkMs: 0 },
		});
	});
	afterAll(async () => {
		await connection.close();
		await vault.close();
	});

	test("says the same call again would need as much, not to try again", async () => {
		const { client } = connection;
		const redoes = /needed more work than one call may do, and the same call again would need as much/;
		await expect(client.listResources()).rejects.toThrow(redoes);
		await expect(client.listPrompts()).rejects.toThrow(redoes);
		await expect(client.complete({ ref: { type: "ref/resource", uri: NOTE_URI_TEMPLATE }, argument: { name: "path", value: "Pro" } })).rejects.toThrow(
			redoes,
		);
	});
});
