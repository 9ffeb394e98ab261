/**
 * A note whose name holds `#` or `|` (made outside Obsidian, or kept despite its warning) could not
 * be named by any tool: `a#b.md` was read as note `a`'s heading `b.md`, `x|y.md` as note `x` shown
 * as `y.md`. Its whole path with `.md` now names it, in every tool that takes a note's path; link
 * text without `.md` still reaches headings and aliases, and an excluded such note stays unnamed.
 * The real SDK client over real HTTP.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startWriteClient } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

const FILES = {
	"a.md": "# b\nnote a's section\n",
	"a#b.md": "---\nstatus: draft\n---\nthe hash note [[x]]\n- [ ] hash task\n",
	"x.md": "plain x\n",
	"x|y.md": "the bar note\n- [ ] bar task\n",
	"Private/s.md": "secret s\n",
	"Private/s#t.md": "secret s#t\n",
	" lead.md": "the name opens with a space\n## H\nits section\n",
	"lead.md": "the name without it\n",
	"n\u00a0b.md": "the name holds a no-break space\n",
	"n b.md": "the name holds a plain space\n",
};

describe("notes whose names hold # or |", () => {
	let vault: string;
	let stopClient: () => Promise<void>;
	let client: Client;
	const read = (path: string) => readFileSync(nodePath.join(vault, path), "utf8");

	beforeAll(async () => {
		vault = await makeVault(FILES);
		({ client, stop: stopClient } = await startWriteClient(vault, { excludedFolders: ["Private"] }));
	}, 60_000);
	afterAll(async () => {
		await stopClient();
		await removeDir(vault);
	});

	test("read_note and get_note_links of 'a#b.md' and 'x|y.md' answer those notes (they answered a.md's heading and x.md)", async () => {
		expect(await callOk(client, "read_note", { path: "a#b.md" })).toMatchObject({
			path: "a#b.md",
			content: FILES["a#b.md"],
			frontmatter: { status: "draft" },
		});
		expect(await callOk(client, "read_note", { path: "x|y.md" })).toMatchObject({ path: "x|y.md", content: FILES["x|y.md"] });
		expect(await callOk(client, "get_note_links", { path: "a#b.md" })).toMatchObject({ path: "a#b.md", outgoing: [{ link: "x", target: "x.md" }] });
	});

	test("link text without .md still reaches a heading and an alias, beside a note of that name", async () => {
		expect(await callOk(client, "read_note", { path: "a#b" })).toMatchObject({ path: "a.md", content: "# b\nnote a's section\n", section: "b" });
		expect(await callOk(client, "read_note", { path: "x|shown" })).toMatchObject({ path: "x.md", content: "plain x\n" });
	});

	test("append_to_note, set_property and complete_task write the named note, and only it", async () => {
		await callOk(client, "append_to_note", { path: "x|y.md", content: "appended" });
		await callOk(client, "set_property", { path: "a#b.md", name: "status", value: "done" });
		await callOk(client, "complete_task", { path: "a#b.md", line: 4, text: "hash task" });
		expect(read("x|y.md")).toBe(`${FILES["x|y.md"]}\nappended\n`);
		expect(read("a#b.md")).toMatch(/^---\nstatus: done\n---\nthe hash note \[\[x\]\]\n- \[x\] hash task ✅ \d{4}-\d\d-\d\d\n$/);
		expect(read("a.md")).toBe(FILES["a.md"]);
		expect(read("x.md")).toBe(FILES["x.md"]);
	});

	test("its path in other letter case, or with spaces around it, names the same note, not another (A#B.md reached a.md, X|Y.md wrote x.md)", async () => {
		expect(await callOk(client, "read_note", { path: "A#B.md" })).toMatchObject({ path: "a#b.md", content: read("a#b.md") });
		expect(await callOk(client, "read_note", { path: " a#b.MD " })).toMatchObject({ path: "a#b.md", content: read("a#b.md") });
		const xBefore = read("x.md");
		const barBefore = read("x|y.md");
		expect(await callOk(client, "append_to_note", { path: "X|Y.md", content: "case aside" })).toMatchObject({ path: "x|y.md" });
		expect(read("x|y.md")).toBe(`${barBefore}\ncase aside\n`);
		expect(read("x.md")).toBe(xBefore);
		// An excluded one in other case is still answered as a missing one.
		expect(await callError(client, "read_note", { path: "private/S#T.md" })).toBe(await callError(client, "read_note", { path: "private/S#nothing.md" }));
	});

	test("an excluded note named so is answered exactly as a missing one, and never read", async () => {
		const excluded = await callError(client, "read_note", { path: "Private/s#t.md" });
		expect(excluded).toBe(await callError(client, "read_note", { path: "Private/s#nothing.md" }));
		expect(excluded).not.toContain("secret");
		expect(await callError(client, "append_to_note", { path: "Private/s#t.md", content: "x" })).toBe(
			await callError(client, "append_to_note", { path: "Private/s#nothing.md", content: "x" }),
		);
		expect(read("Private/s#t.md")).toBe(FILES["Private/s#t.md"]);
		expect(read("Private/s.md")).toBe(FILES["Private/s.md"]);
	});

	// A name may open with a space (only a closing one is refused), and create_note makes one: trimmed as link text is,
	// its path named `lead.md`, another note, so list_notes listed a note no tool could read and a write landed beside it.
	test("a note whose name opens with a space is named by its path as listed, and a write lands in it, not in the note named without the space", async () => {
		const { notes } = await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", {});
		expect(notes.map((note) => note.path)).toContain(" lead.md");
		expect(await callOk(client, "read_note", { path: " lead.md" })).toMatchObject({ path: " lead.md", content: FILES[" lead.md"] });
		expect(await callOk(client, "read_note", { path: " lead#H" })).toMatchObject({ path: " lead.md", section: "H", content: "## H\nits section\n" });
		expect(await callOk(client, "append_to_note", { path: " lead", content: "appended" })).toMatchObject({ path: " lead.md" });
		expect(read(" lead.md")).toBe(`${FILES[" lead.md"]}\nappended\n`);
		expect(read("lead.md")).toBe(FILES["lead.md"]);
		expect(await callOk(client, "read_note", { path: "lead.md" })).toMatchObject({ path: "lead.md", content: FILES["lead.md"] });
	});

	// As `A#B.md` names `a#b.md`: looked up by its exact spelling only, ` Lead` fell back to the trimmed `Lead`, which
	// named `lead.md`, another note, and the append landed there.
	test("a note whose name opens with a space, named in other letter case, is that note, and a write lands in it, not in the note named without the space", async () => {
		const leadBefore = read(" lead.md");
		expect(await callOk(client, "read_note", { path: " LEAD.md" })).toMatchObject({ path: " lead.md", content: leadBefore });
		expect(await callOk(client, "append_to_note", { path: " Lead", content: "in other case" })).toMatchObject({ path: " lead.md" });
		expect(read(" lead.md")).toBe(`${leadBefore}\nin other case\n`);
		expect(read("lead.md")).toBe(FILES["lead.md"]);
	});

	// The path policy reads U+00A0 as a plain space (as Obsidian's normalizePath does): list_notes listed `n\u00a0b.md`, but
	// read_note of that path answered `n b.md`, another note, and an append landed there.
	test("a note whose name holds a no-break space is named by its path as listed, in any letter case, and a write lands in it, not in the note named with a plain space", async () => {
		const listed = (await callOk<{ notes: Array<{ path: string }> }>(client, "list_notes", {})).notes.map((note) => note.path);
		expect(listed).toEqual(expect.arrayContaining(["n\u00a0b.md", "n b.md"]));
		expect(await callOk(client, "read_note", { path: "n\u00a0b.md" })).toMatchObject({ path: "n\u00a0b.md", content: FILES["n\u00a0b.md"] });
		expect(await callOk(client, "read_note", { path: "N\u00a0B" })).toMatchObject({ path: "n\u00a0b.md", content: FILES["n\u00a0b.md"] });
		expect(await callOk(client, "append_to_note", { path: "n\u00a0b", content: "appended" })).toMatchObject({ path: "n\u00a0b.md" });
		expect(read("n\u00a0b.md")).toBe(`${FILES["n\u00a0b.md"]}\nappended\n`);
		expect(read("n b.md")).toBe(FILES["n b.md"]);
		expect(await callOk(client, "read_note", { path: "n b" })).toMatchObject({ path: "n b.md", content: FILES["n b.md"] });
	});

	// rename_note refused a new path read as another note's (letter case, spaces and look-alikes aside), but create_note made
	// `X.md` beside `x.md` (one file on a disk that folds case) and ` x.md` or `\u3000x.md` (which a link could not tell apart).
	test("create_note refuses a path read as another note's in other case or spacing, as rename_note does, and writes nothing", async () => {
		for (const path of ["X.md", " x", "\u3000X"])
			expect(await callError(client, "create_note", { path, content: "twin" })).toBe(
				`A note already exists at "x.md", read as the same name as "${path.endsWith(".md") ? path : `${path}.md`}" (letter case and spaces aside). Nothing was written. Use append_to_note to add to it, or choose another path.`,
			);
		expect(await callError(client, "rename_note", { path: "a.md", new_path: " X" })).toBe(
			'A note already exists at "x.md". Nothing was changed. Choose another new_path.',
		);
		expect(readdirSync(vault).filter((name) => /^\s*x\.md$/i.test(name))).toEqual(["x.md"]);
		expect(read("x.md")).toBe(FILES["x.md"]);
	});
});
