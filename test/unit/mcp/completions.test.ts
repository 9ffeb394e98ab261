import { completeFromList, withinBytes } from "../../../src/mcp/completions";
import { COMPLETION_MAX_BYTES, COMPLETION_MAX_VALUES } from "../../../src/config/limits";
import { NOTE_URI_TEMPLATE } from "../../../src/mcp/resources";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { connectInMemory, type InMemoryConnection } from "../../helpers/inMemoryClient";

describe("completeFromList: a prompt argument's declared values", () => {
	test("by prefix, letter case ignored, in declared order, at most `max` with hasMore", () => {
		expect(completeFromList(["Friendly", "frank", "formal", "harsh"], "FR", 10)).toEqual({ values: ["Friendly", "frank"], hasMore: false });
		expect(completeFromList(["a1", "a2", "a3"], "a", 2)).toEqual({ values: ["a1", "a2"], hasMore: true });
		expect(completeFromList(["x"], "", 5)).toEqual({ values: ["x"], hasMore: false });
	});
});

describe("completion/complete over a real client", () => {
	let vault: OpenVault;
	let connection: InMemoryConnection;
	const complete = (ref: { type: "ref/resource"; uri: string } | { type: "ref/prompt"; name: string }, name: string, value: string) =>
		connection.client.complete({ ref, argument: { name, value } }).then((answer) => answer.completion);
	beforeAll(async () => {
		vault = await openVault({
			"Projects/Plan.md": "a\n",
			"Projects/Pitch.md": "b\n",
			"Private/Project secrets.md": "c\n",
			"Prompts/Review.md":
				"---\narguments:\n  - name: tone\n    values: [friendly, frank, 3]\n  - name: note\n    values: notes\n---\n{{tone}} {{note}}\n",
		});
		connection = await connectInMemory(vault.host, { promptsFolder: "Prompts", scope: vault.scope("Private") });
	});
	afterAll(async () => {
		await connection.close();
		await vault.close();
	});

	test("the note template's path completes to visible notes only", async () => {
		const answer = await complete({ type: "ref/resource", uri: NOTE_URI_TEMPLATE }, "path", "Pr");
		expect(answer.values).toEqual(expect.arrayContaining(["Projects/Pitch.md", "Projects/Plan.md"]));
		expect(answer.values.join()).not.toContain("Private");
	});

	test("a prompt argument completes to its declared text values, or to note paths when it says `values: notes`", async () => {
		expect((await complete({ type: "ref/prompt", name: "Review" }, "tone", "f")).values).toEqual(["friendly", "frank"]);
		expect((await complete({ type: "ref/prompt", name: "Review" }, "note", "Projects/Pl")).values).toEqual(["Projects/Plan.md"]);
	});

	test("an unknown prompt or argument gets no suggestions, the same as an argument without values", async () => {
		const none = { values: [], hasMore: false };
		expect(await complete({ type: "ref/prompt", name: "Nope" }, "tone", "f")).toMatchObject(none);
		expect(await complete({ type: "ref/prompt", name: "Review" }, "other", "f")).toMatchObject(none);
	});

	test("another resource template is refused naming the one there is", async () => {
		await expect(complete({ type: "ref/resource", uri: "file:///{path}" }, "path", "x")).rejects.toThrow(
			/The one template is vault-mcp:\/\/note\/\{\+path\}/,
		);
	});
});

describe("completion values within COMPLETION_MAX_BYTES (inside Obsidian a prompt note's frontmatter has no size bound)", () => {
	test("declared values past the bound are left out whole, a too-long one skipped for a shorter after it, and the answer says there is more", () => {
		const long = (letter: string) => `${letter}${"x".repeat(10 * 1024)}`;
		const declared = [...Array.from({ length: 20 }, (_, index) => long(`a${index}`)), "a".repeat(2 * COMPLETION_MAX_BYTES), "ab"];
		const answer = completeFromList(declared, "A", COMPLETION_MAX_VALUES);
		expect(Buffer.byteLength(JSON.stringify(answer.values))).toBeLessThanOrEqual(COMPLETION_MAX_BYTES);
		expect(answer.values.length).toBeGreaterThan(0);
		expect(answer.values).toContain("ab");
		expect(answer.values.every((value) => declared.includes(value))).toBe(true);
		expect(answer.hasMore).toBe(true);
	});

	test("note paths past the bound: the first that fit, and more", () => {
		const paths = Array.from({ length: COMPLETION_MAX_VALUES }, (_, index) => `${"Deep/".repeat(400)}Note ${index}.md`);
		const answer = withinBytes({ values: paths, hasMore: false }, COMPLETION_MAX_BYTES);
		expect(Buffer.byteLength(JSON.stringify(answer.values))).toBeLessThanOrEqual(COMPLETION_MAX_BYTES);
		expect(answer.values).toEqual(paths.slice(0, answer.values.length));
		expect(answer.values.length).toBeGreaterThan(0);
		expect(answer.hasMore).toBe(true);
		expect(withinBytes({ values: ["a.md"], hasMore: false }, COMPLETION_MAX_BYTES)).toEqual({ values: ["a.md"], hasMore: false });
	});
});
