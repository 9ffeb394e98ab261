import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { PROMPTS_LIST_READ_BYTES } from "../../src/config/limits";
import { NodeVault } from "../../src/headless/NodeVault";
import type { HostFile } from "../../src/host/Host";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const SUMMARIZE = [
	"---",
	"description: Summarize a note for a reader",
	"arguments:",
	"  note: The note to summarize",
	"---",
	"Summarize {{note}} in a {{ style }} style.",
	"Quote {{note}} where it helps.",
	"",
].join("\n");

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const value = await read();
		if (done(value) || Date.now() > deadline) return value;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe("prompts from the vault's prompts folder, over HTTP with the SDK client", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({
			"Prompts/Summarize.md": SUMMARIZE,
			"Prompts/Plain.md": "Just say hello.\n",
			"Prompts/Work/Standup.md":
				"---\narguments:\n  - name: team\n    description: Which team\n  - name: mood\n    required: false\n---\nStandup for {{team}}. {{mood}}\n",
			"Prompts/Secret/Hidden.md": "A prompt in an excluded folder: {{x}}\n",
			"Notes/Not a prompt.md": "{{nothing}}\n",
		});
		running = await startService(vault, { settings: { excludedFolders: ["Prompts/Secret"] }, host: { watch: true } });
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("prompts/list names each note by file name, with its description and the arguments of its placeholders", async () => {
		expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: false });
		const { prompts } = await client.listPrompts();
		expect(prompts).toEqual([
			{ name: "Plain" },
			{
				name: "Summarize",
				description: "Summarize a note for a reader",
				arguments: [
					{ name: "note", description: "The note to summarize", required: true },
					{ name: "style", required: true },
				],
			},
			{
				name: "Work/Standup",
				arguments: [
					{ name: "team", description: "Which team", required: true },
					{ name: "mood", required: false },
				],
			},
		]);
	});

	test("prompts/get fills the placeholders in, once, and leaves out the frontmatter", async () => {
		const result = await client.getPrompt({ name: "Summarize", arguments: { note: "[[Plan]]", style: "{{note}}-free" } });
		expect(result.description).toBe("Summarize a note for a reader");
		expect(result.messages).toEqual([
			{ role: "user", content: { type: "text", text: "Summarize [[Plan]] in a {{note}}-free style.\nQuote [[Plan]] where it helps.\n" } },
		]);
		const optional = await client.getPrompt({ name: "Work/Standup", arguments: { team: "Garden" } });
		expect(optional.messages[0]?.content).toEqual({ type: "text", text: "Standup for Garden. \n" });
	});

	test("a missing required argument, an unknown prompt, and one in an excluded folder are errors", async () => {
		await expect(client.getPrompt({ name: "Summarize", arguments: { note: "x" } })).rejects.toThrow(/needs "style"/);
		await expect(client.getPrompt({ name: "Nope" })).rejects.toThrow(/No prompt "Nope"/);
		await expect(client.getPrompt({ name: "Secret/Hidden", arguments: { x: "1" } })).rejects.toThrow(/No prompt "Secret\/Hidden"/);
	});

	test("a prompt added or edited in the vault is listed on the next call, without a restart", async () => {
		await fs.writeFile(nodePath.join(vault, "Prompts/New.md"), "---\ndescription: Fresh\n---\nNew {{thing}}\n");
		const added = await waitFor(
			() => client.listPrompts(),
			({ prompts }) => prompts.some((prompt) => prompt.name === "New"),
		);
		expect(added.prompts.find((prompt) => prompt.name === "New")).toEqual({
			name: "New",
			description: "Fresh",
			arguments: [{ name: "thing", required: true }],
		});
		await fs.writeFile(nodePath.join(vault, "Prompts/Plain.md"), "---\ndescription: Now described\n---\nHello {{name}}.\n");
		const edited = await waitFor(
			() => client.listPrompts(),
			({ prompts }) => prompts.some((prompt) => prompt.description === "Now described"),
		);
		expect(edited.prompts.find((prompt) => prompt.name === "Plain")).toEqual({
			name: "Plain",
			description: "Now described",
			arguments: [{ name: "name", required: true }],
		});
	});
});

describe("the prompts folder setting", () => {
	let vault: string;

	beforeAll(async () => {
		vault = await makeVault({ "Prompts/Hello.md": "Hello.\n", "Mine/Hi.md": "Hi {{who}}\n" });
	});
	afterAll(async () => {
		await removeDir(vault);
	});

	test.each([
		["empty: no prompts capability at all", "", null],
		["a folder outside the vault: nothing offered", "../", []],
		["another folder", "Mine", ["Hi"]],
	])("%s", async (_label, promptsFolder, names) => {
		const running = await startService(vault, { settings: { promptsFolder } });
		const client = await connectClient(running.url, running.tokens.read ?? "");
		try {
			if (names === null) {
				expect(client.getServerCapabilities()?.prompts).toBeUndefined();
				await expect(client.listPrompts()).rejects.toThrow();
			} else {
				expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(names);
			}
		} finally {
			await client.close();
			await running.stop();
		}
	});
});

/**
 * A prompt note moved while prompts/list reads the prompts' bodies (by the person in Obsidian, or
 * by another program with `serve` watching: the same file object, renamed in place). The list
 * offers the other prompts, each under the name it has now; the whole list failed when one note
 * went out of sight, and a prompt renamed in the folder was offered under a name prompts/get refused.
 */
describe("a prompt note moved while prompts/list reads the bodies", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	let moves: Map<string, string>;

	beforeEach(async () => {
		vault = await makeVault({
			"Prompts/A first.md": "First {{one}}.\n",
			"Prompts/B second.md": "Second {{two}}.\n",
			"Prompts/C third.md": "Third {{three}}.\n",
		});
		running = await startService(vault, { settings: { excludedFolders: ["Private"] } });
		client = await connectClient(running.url, running.tokens.read ?? "");
		// While the body of the note at each key is read, the note at its value's key is moved there.
		moves = new Map();
		const host = running.host;
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
		const original = NodeVault.prototype.cachedRead;
		jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			const text = await original.call(this, file);
			const move = moves.get(file.path);
			if (move !== undefined) {
				moves.delete(file.path);
				const [from, to] = move.split(" -> ") as [string, string];
				await host.vault.rename(host.vault.getFileByPath(from) as HostFile, to);
			}
			return text;
		});
	});
	afterEach(async () => {
		jest.restoreAllMocks();
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("moved into an excluded folder while its own body is read: the others are listed, it is not", async () => {
		moves.set("Prompts/B second.md", "Prompts/B second.md -> Private/B second.md");
		const { prompts } = await client.listPrompts();
		expect(moves.size).toBe(0);
		expect(prompts.map((prompt) => prompt.name)).toEqual(["A first", "C third"]);
		expect(JSON.stringify(prompts)).not.toMatch(/Private|two/u);
	});

	test("renamed in the folder while an earlier prompt's body is read: not offered under its old name; the next list offers its new one", async () => {
		moves.set("Prompts/A first.md", "Prompts/B second.md -> Prompts/B renamed.md");
		const { prompts } = await client.listPrompts();
		expect(moves.size).toBe(0);
		expect(prompts.map((prompt) => prompt.name)).toEqual(["A first", "C third"]);
		expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["A first", "B renamed", "C third"]);
		expect(await client.getPrompt({ name: "B renamed", arguments: { two: "2" } })).toMatchObject({ messages: [{ content: { text: "Second 2.\n" } }] });
	});
});

/**
 * Every prompts answer stays within MAX_RESPONSE_BYTES as JSON, the form it leaves in. The bound on
 * a filled prompt counted UTF-8, while JSON writes a control character as six bytes (`\u0001`): an
 * argument of them filled three times answered 2.7 MB. A description is the note author's text, read
 * whole from the frontmatter: forty prompt notes of 60 KB descriptions put prompts/list over the
 * bound, and seventy past the transport's body cap, every prompt of the folder gone with them.
 */
describe("prompts answers within MAX_RESPONSE_BYTES as JSON", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	const longDescription = "a described prompt ".repeat(3_150).trim();
	const longNames = Array.from({ length: 70 }, (_, index) => `Long ${String(index).padStart(2, "0")}`);
	// A placeholder's name is as long as its author makes it: six of 400,000 characters are past the bound together.
	const wideArgument = "w".repeat(400_000);
	const wideNames = Array.from({ length: 6 }, (_, index) => `Wide ${index}`);

	beforeAll(async () => {
		vault = await makeVault({
			"Prompts/Thrice.md": "One {{x}}, two {{x}}, three {{x}}.\n",
			"Prompts/Once.md": "Once {{x}}.\n",
			"Prompts/Short.md": "---\ndescription: Short and plain\narguments:\n  z: A plain argument\n---\nShort {{z}}\n",
			...Object.fromEntries(longNames.map((name) => [`Prompts/${name}.md`, `---\ndescription: ${longDescription}\n---\n${name} {{y}}\n`])),
			...Object.fromEntries(wideNames.map((name) => [`Prompts/${name}.md`, `${name} {{${wideArgument}}}\n`])),
		});
		running = await startService(vault);
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("prompts/get with an argument of control characters: refused as too big, not answered over the bound", async () => {
		const x = "\u0001".repeat(150_000);
		const answer = await client.getPrompt({ name: "Thrice", arguments: { x } }).then(
			(result) => ({ bytes: Buffer.byteLength(JSON.stringify(result)) }),
			(error: Error) => ({ error: error.message }),
		);
		expect(answer).toEqual({ error: expect.stringMatching(/filled with these arguments would be over 2097152 bytes/u) });
		// The same argument filled once fits, and comes back whole.
		const once = await client.getPrompt({ name: "Once", arguments: { x } });
		expect(once.messages[0]?.content).toEqual({ type: "text", text: `Once ${x}.\n` });
	});

	test("prompts/list with seventy descriptions of 60 KB and six placeholders of 400,000 characters: every prompt listed, each description's start, the answer within the bound", async () => {
		const list = await client.listPrompts();
		expect(Buffer.byteLength(JSON.stringify(list))).toBeLessThanOrEqual(2 * 1024 * 1024);
		expect(list.prompts.map((prompt) => prompt.name)).toEqual([...longNames, "Once", "Short", "Thrice", ...wideNames]);
		// The wide prompts while they fit, then by their names alone: prompts/get says what they need.
		const wide = list.prompts.filter((prompt) => prompt.name.startsWith("Wide"));
		expect(wide.filter((prompt) => prompt.arguments?.[0]?.name === wideArgument).length).toBeGreaterThanOrEqual(4);
		expect(wide.at(-1)).toEqual({ name: "Wide 5" });
		await expect(client.getPrompt({ name: "Wide 5" })).rejects.toThrow(/needs "w{400000}"/u);
		expect(list.prompts.find((prompt) => prompt.name === "Short")).toEqual({
			name: "Short",
			description: "Short and plain",
			arguments: [{ name: "z", description: "A plain argument", required: true }],
		});
		for (const prompt of list.prompts.filter((listed) => listed.name.startsWith("Long"))) {
			expect(prompt.description?.startsWith("a described prompt a described prompt")).toBe(true);
			expect(prompt.arguments).toEqual([{ name: "y", required: true }]);
		}
		const got = await client.getPrompt({ name: "Long 00", arguments: { y: "why" } });
		expect(got.messages[0]?.content).toEqual({ type: "text", text: "Long 00 why\n" });
	});
});

describe("prompts/list over prompt notes of megabytes", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;
	// Each a third of the bound and a byte: two are read, then the bound would be passed.
	const bigBytes = Math.floor(PROMPTS_LIST_READ_BYTES / 3) + 1;
	const bigNames = ["Big 0", "Big 1", "Big 2", "Big 3"];
	const bigNote = (name: string) => {
		const head = `---\ndescription: ${name}\n---\n${name} on {{topic}}\n`;
		return head + "x".repeat(bigBytes - head.length - 1) + "\n";
	};

	beforeAll(async () => {
		vault = await makeVault({
			...Object.fromEntries(bigNames.map((name) => [`Prompts/${name}.md`, bigNote(name)])),
			"Prompts/Small.md": "Small {{z}}\n",
		});
		running = await startService(vault);
		// Read by the index and the metadata cache first, so that only prompts/list's reads are counted.
		await running.service.search?.whenReady();
		await running.host.metadataCache.settled();
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test("reads notes up to PROMPTS_LIST_READ_BYTES, offers the rest by name and description, and prompts/get still fills them", async () => {
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the vault as `this`
		const original = NodeVault.prototype.cachedRead;
		let bytesRead = 0;
		jest.spyOn(NodeVault.prototype, "cachedRead").mockImplementation(async function (this: NodeVault, file: HostFile) {
			bytesRead += file.stat.size;
			return original.call(this, file);
		});
		try {
			const list = await client.listPrompts();
			// Every note was read, every call: four planted notes of 2.8 MB were 11 MB read for one list.
			expect(bytesRead).toBeLessThanOrEqual(PROMPTS_LIST_READ_BYTES);
			expect(list.prompts).toEqual([
				{ name: "Big 0", description: "Big 0", arguments: [{ name: "topic", required: true }] },
				{ name: "Big 1", description: "Big 1", arguments: [{ name: "topic", required: true }] },
				// Unread: no arguments (only the body names them), the description the frontmatter gives.
				{ name: "Big 2", description: "Big 2" },
				{ name: "Big 3", description: "Big 3" },
				// A small note after them still fits, and is read.
				{ name: "Small", arguments: [{ name: "z", required: true }] },
			]);
		} finally {
			jest.restoreAllMocks();
		}
		await expect(client.getPrompt({ name: "Big 3" })).rejects.toThrow(/needs "topic"/u);
		const got = await client.getPrompt({ name: "Big 3", arguments: { topic: "tides" } });
		const text = (got.messages[0]?.content as { text: string }).text;
		expect(text.startsWith("Big 3 on tides\nxxx")).toBe(true);
	});
});
