import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { actBetweenPieces } from "../helpers/betweenPieces";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const PLAN = [
	"---",
	"tags: [plan]",
	"---",
	"# Title",
	"",
	"Intro.",
	"",
	"## Goals",
	"",
	"Goal text.",
	"",
	"### Detail: the *fine* print",
	"",
	"Deep.",
	"",
	"## Plan",
	"",
	"- step one ^step1",
	"- step two",
	"",
	"Paragraph with an id. ^Para-2",
	"",
	"# Other",
	"## Goals",
	"",
	"Second goals.",
	"",
].join("\n");

interface Read {
	path: string;
	content: string;
	section?: string;
	hash: string;
	size: number;
	truncated: boolean;
	tags: string[];
}

describe("read_note with a heading or block in the link (Note#Heading, Note#^block)", () => {
	let vault: string;
	let running: RunningService;
	let client: Client;

	beforeAll(async () => {
		vault = await makeVault({ "Plan.md": PLAN, "Flat.md": "No headings at all.\n", "Notes/Moving.md": "Intro.\n# Goal\n\nText.\n" });
		running = await startService(vault, { settings: { excludedFolders: ["Private"] } });
		client = await connectClient(running.url, running.tokens.read ?? "");
	});
	afterAll(async () => {
		await client.close();
		await running.stop();
		await removeDir(vault);
	});

	test.each([
		["Plan#Goals", "Goals", "## Goals\n\nGoal text.\n\n### Detail: the *fine* print\n\nDeep.\n\n"],
		["Plan#goals", "Goals", "## Goals\n\nGoal text.\n\n### Detail: the *fine* print\n\nDeep.\n\n"],
		["Plan.md#Title", "Title", PLAN.slice(PLAN.indexOf("# Title"), PLAN.indexOf("# Other"))],
		["Plan#Detail  the *fine* print", "Detail: the *fine* print", "### Detail: the *fine* print\n\nDeep.\n\n"],
		["Plan#Other#Goals", "Goals", "## Goals\n\nSecond goals.\n"],
		["Plan#Title#Plan|shown text", "Plan", "## Plan\n\n- step one ^step1\n- step two\n\nParagraph with an id. ^Para-2\n\n"],
		["Plan#^step1", "^step1", "- step one ^step1"],
		["Plan#^para-2", "^Para-2", "Paragraph with an id. ^Para-2"],
	])("%s returns only that part, named in section", async (path, section, content) => {
		const whole = await callOk<Read>(client, "read_note", { path: "Plan" });
		const read = await callOk<Read>(client, "read_note", { path });
		expect(read).toMatchObject({ path: "Plan.md", section, content, truncated: false, tags: ["#plan"] });
		// The hash and size stay the whole note's: they identify the version, as a write's expected hash.
		expect({ hash: read.hash, size: read.size }).toEqual({ hash: whole.hash, size: whole.size });
	});

	test("without a subpath the whole note comes back, with no section", async () => {
		const read = await callOk<Read>(client, "read_note", { path: "Plan#" });
		expect(read.content).toBe(PLAN);
		expect(read.section).toBeUndefined();
	});

	test.each([
		[
			"Plan#Budget",
			/No heading "Budget" in "Plan\.md"\. Its headings: # Title \(line 3\); ## Goals \(line 7\); ### Detail: the \*fine\* print \(line 11\); ## Plan \(line 15\); # Other \(line 22\); ## Goals \(line 23\)\./,
		],
		["Plan#Detail#Goals", /No heading "Detail#Goals"/],
		["Plan#^nope", /No block "\^nope" in "Plan\.md"\. Its headings: # Title/],
		["Flat#Anything", /No heading "Anything" in "Flat\.md"\. The note has no headings\./],
	])("%s is an error naming the note's headings, never the whole note", async (path, message) => {
		const error = await callError(client, "read_note", { path });
		expect(error).toMatch(message);
		expect(error).not.toContain("Goal text");
	});
	test("a note saved by another program, then moved into an excluded folder while its section is checked against its heading, is answered as a missing note: never named there (it was)", async () => {
		const file = running.host.vault.getFileByPath("Notes/Moving.md");
		if (!file) throw new Error("no Notes/Moving.md");
		// Another program's save, not parsed yet (this server does not watch the disk): the cache's heading line is no longer the heading.
		await fs.writeFile(nodePath.join(vault, "Notes/Moving.md"), "# Goal\n\nText.\n");
		// The section's check against the heading (the run answering true or false; it pauses on a long heading): the person moves the note meanwhile.
		const moving = actBetweenPieces(
			() => running.host.vault.rename(file, "Private/Moving.md"),
			(value) => typeof value === "boolean",
		);
		let error: string;
		try {
			error = await callError(client, "read_note", { path: "Notes/Moving#Goal" });
		} finally {
			moving.restore();
		}
		expect(moving.acted()).toBe(true);
		expect(error).not.toContain("Private");
		// The answer a note not there gets.
		expect(error).toBe(await callError(client, "read_note", { path: "Notes/Moving#Goal" }));
	});
});
