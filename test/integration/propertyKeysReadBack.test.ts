import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { parse } from "yaml";
import { splitFrontmatter } from "../../src/markdown/frontmatter";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * Property names YAML reads specially, set over HTTP: each must read back as the name and value
 * asked for, by this server (YAML 1.2 core) and by a YAML 1.1 reader with merge keys (js-yaml's
 * default schema is one; which Obsidian's parser is, is not known here). Written plain, `<<` made
 * the 1.1 reader refuse the whole frontmatter ("Merge sources must be maps"), `yes` came back as
 * `true`, `2024-01-01` as a Date's long text, `1_000` as 1000, `1:20` as 80.
 * Cost: 2 notes × 24 set_property and one read_note each, about 0.3 s of CPU.
 */
const SPECIAL_NAMES = [
	"<<",
	"yes",
	"No",
	"on",
	"OFF",
	"y",
	"2024-01-01",
	"1_000",
	"1:20",
	"? x",
	"- a",
	":a",
	"#c",
	"&h",
	"*i",
	"!j",
	"|k",
	"a: b",
	"a #b",
	"true",
	"null",
	"~",
	"123",
	"x".repeat(256),
];

test.each([
	["a note without frontmatter", "Body only.\n"],
	["a note with properties and an anchor", "---\nbase: &b {x: 1}\nother: 1\n---\nBody.\n"],
])("set_property with names YAML reads specially, on %s: each reads back as written, in YAML 1.2 and 1.1", async (_label, start) => {
	const vault = await makeVault({ "Keys.md": start });
	const running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
	});
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		for (const [index, name] of SPECIAL_NAMES.entries()) await callOk(client, "set_property", { path: "Keys.md", name, value: `v${index}` });
		const text = readFileSync(nodePath.join(vault, "Keys.md"), "utf8");
		const yaml = splitFrontmatter(text)?.yaml ?? "";
		const expected = Object.fromEntries(SPECIAL_NAMES.map((name, index) => [name, `v${index}`]));
		const asYaml11 = parse(yaml, { version: "1.1", merge: true }) as Record<string, unknown>;
		expect(asYaml11).toEqual(expect.objectContaining(expected));
		const asCore = parse(yaml, { schema: "core" }) as Record<string, unknown>;
		expect(asCore).toEqual(expect.objectContaining(expected));
		const { frontmatter } = await callOk<{ frontmatter: Record<string, unknown> }>(client, "read_note", { path: "Keys.md" });
		expect(frontmatter).toEqual(expect.objectContaining(expected));
		expect(splitFrontmatter(text)?.body).toBe(splitFrontmatter(start)?.body ?? start);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});

/**
 * U+FFFE and U+FFFF are valid Unicode (JSON and UTF-8 carry them) but not printable in YAML 1.2 (`c-printable`
 * stops at U+FFFD). The yaml package wrote them plain, and a reader that holds to the rule (js-yaml: "the stream
 * contains non-printable characters") refused the whole frontmatter: every property of the note lost to it. Inside
 * double quotes every reader reads them back. Cost: one server, 3 set_property and one read_note, 0.13-0.16 s of CPU (the suite's modules loaded).
 */
test("set_property with noncharacters in a name, a value and a list item writes each inside double quotes, and reads each back", async () => {
	const vault = await makeVault({ "Odd.md": "---\nfirst: 1\n---\nBody.\n" });
	const running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true, writeDisclosureAccepted: true, rateLimitPerMinute: 100_000 },
	});
	const client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		const expected = { first: 1, "mark\uFFFE": "a\uFFFFb", list: ["x\uFFFE", "plain"], "\uFFFFlead": "block\n\uFFFE" };
		for (const [name, value] of Object.entries(expected).slice(1)) await callOk(client, "set_property", { path: "Odd.md", name, value });
		const yaml = splitFrontmatter(readFileSync(nodePath.join(vault, "Odd.md"), "utf8"))?.yaml ?? "";
		// What stands outside every double-quoted scalar: no noncharacter may (a strict reader refuses the frontmatter).
		expect(yaml.replace(/"(?:[^"\\]|\\.)*"/g, '""')).not.toMatch(/[\uFFFE\uFFFF]/);
		expect(parse(yaml, { schema: "core" })).toEqual(expected);
		const { frontmatter } = await callOk<{ frontmatter: Record<string, unknown> }>(client, "read_note", { path: "Odd.md" });
		expect(frontmatter).toEqual(expected);
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
