import { MAX_PROMPT_PLACEHOLDERS, PROMPTS_LISTED } from "../../../src/config/limits";
import fc from "fast-check";
import { describedArguments, filledPlaceholderBytes, fillPlaceholders, promptPlaceholders } from "../../../src/mcp/prompts";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { connectInMemory, NO_SEARCH, type InMemoryConnection } from "../../helpers/inMemoryClient";
import { countWorkPerPiece } from "../../helpers/workPieces";
import { replaceMethod } from "../../helpers/replaceMethod";

describe("filledPlaceholderBytes", () => {
	test("is the byte length of the filled prompt as a JSON string, for generated notes and arguments, repeated and unknown placeholders, control characters and lone surrogates included", () => {
		const name = fc.constantFrom("a", "topic", "x_1", "missing");
		// Control characters are six bytes as JSON (`\u0001`), a lone surrogate too: counted as UTF-8 they were one to three.
		const text = fc.oneof(
			fc.string({ unit: "grapheme", maxLength: 8 }),
			fc.string({ unit: "binary", maxLength: 8 }),
			fc.constantFrom("\u0001", "\n", '"', "\\", "\ud800"),
		);
		const piece = fc.oneof(
			text,
			name.map((n) => `{{${n}}}`),
			name.map((n) => `{{\u2028${n}\t}}`),
			fc.constant("{{"),
			fc.constant("}}"),
		);
		const args = fc.dictionary(
			fc.constantFrom("a", "topic", "x_1"),
			fc.array(text, { maxLength: 4 }).map((parts) => parts.join("")),
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 30 }), args, (pieces, values) => {
				const note = pieces.join("");
				expect(filledPlaceholderBytes(note, values)).toBe(Buffer.byteLength(JSON.stringify(fillPlaceholders(note, values))) - 2);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("prompt notes: placeholders and declared arguments", () => {
	test("promptPlaceholders: each name once, in order of first use; malformed braces are text", () => {
		expect(promptPlaceholders("Review {{topic}} for {{ audience }}; again {{topic}}. {{1bad}} {{ }} {{a b}}")).toEqual(["topic", "audience"]);
	});

	test("promptPlaceholders: a text using more placeholders than the bound has none to offer (null), at the bound it has them", () => {
		expect(promptPlaceholders("{{x}} ".repeat(MAX_PROMPT_PLACEHOLDERS))).toEqual(["x"]);
		expect(promptPlaceholders("{{x}} ".repeat(MAX_PROMPT_PLACEHOLDERS + 1))).toBeNull();
	});

	test("describedArguments: a map of descriptions or a list of {name, description, required}; anything else says nothing", () => {
		expect(describedArguments({ topic: "What to review", n: 3 })).toEqual(new Map([["topic", { description: "What to review" }]]));
		expect(describedArguments([{ name: "tone", description: "How", required: false }, { name: 5 }, null, "x"])).toEqual(
			new Map([["tone", { description: "How", required: false }]]),
		);
		expect(describedArguments("topic").size).toBe(0);
		expect(describedArguments(null).size).toBe(0);
	});
});

describe("prompts/list and prompts/get over a real client", () => {
	let vault: OpenVault;
	let connection: InMemoryConnection;
	beforeAll(async () => {
		vault = await openVault({
			"Prompts/Review.md":
				"---\ndescription: Review a note\narguments:\n  - name: tone\n    required: false\n    values: [friendly, frank]\n---\nReview {{note}} in a {{tone}} tone.\n",
			"Prompts/Sub/Plain.md": "Just text.\n",
			"Prompts/Private/Hidden.md": "Never listed {{x}}.\n",
			"Elsewhere/NotAPrompt.md": "{{y}}\n",
		});
		connection = await connectInMemory(vault.host, { promptsFolder: "Prompts", scope: vault.scope("Prompts/Private") });
	});
	afterAll(async () => {
		await connection.close();
		await vault.close();
	});

	test("the notes of the prompts folder the caller may see, named by their path inside it, with their arguments", async () => {
		const { prompts } = await connection.client.listPrompts();
		expect(prompts).toEqual([
			{
				name: "Review",
				description: "Review a note",
				arguments: [
					{ name: "note", required: true },
					{ name: "tone", required: false },
				],
			},
			{ name: "Sub/Plain" },
		]);
	});

	test("get fills the placeholders, without the frontmatter; a missing required argument or an unknown prompt is refused", async () => {
		const filled = await connection.client.getPrompt({ name: "Review", arguments: { note: "[[Plan]]", tone: "{{note}}" } });
		expect(filled.messages).toEqual([{ role: "user", content: { type: "text", text: "Review [[Plan]] in a {{note}} tone.\n" } }]);
		await expect(connection.client.getPrompt({ name: "Review", arguments: {} })).rejects.toThrow(/needs "note"/);
		await expect(connection.client.getPrompt({ name: "Private/Hidden", arguments: {} })).rejects.toThrow(/No prompt "Private\/Hidden"/);
		await expect(connection.client.getPrompt({ name: "../Elsewhere/NotAPrompt", arguments: {} })).rejects.toThrow(/No prompt/);
	});
});

describe("a prompt note of 80,000 placeholders", () => {
	let vault: OpenVault;
	let connection: InMemoryConnection;
	beforeAll(async () => {
		vault = await openVault({ "Prompts/Many.md": "{{x}} {{y}} ".repeat(40_000), "Prompts/Fine.md": "Do {{x}}.\n" });
		connection = await connectInMemory(vault.host, { promptsFolder: "Prompts" });
	});
	afterAll(async () => {
		await connection.close();
		await vault.close();
	});

	test("is listed without arguments, and get refuses it naming the bound; the other prompts work", async () => {
		const { prompts } = await connection.client.listPrompts();
		expect(prompts).toEqual([{ name: "Fine", arguments: [{ name: "x", required: true }] }, { name: "Many" }]);
		await expect(connection.client.getPrompt({ name: "Many", arguments: { x: "a", y: "b" } })).rejects.toThrow(
			`uses more than ${MAX_PROMPT_PLACEHOLDERS} placeholders`,
		);
		const filled = await connection.client.getPrompt({ name: "Fine", arguments: { x: "it" } });
		expect(filled.messages).toEqual([{ role: "user", content: { type: "text", text: "Do it.\n" } }]);
	});
});

describe("a prompts folder of 12,000 notes", () => {
	test("prompts/list and prompts/get pick the first ones by path in pieces (sorting the folder of 12,000 compared paths 150,000 times in one piece)", async () => {
		// Enough notes that sorting them whole compares paths about 70,000 times in one piece, past the bound below.
		const NOTES = 6_000;
		const files: Record<string, string> = {};
		// Made in an order far from their order by path.
		for (let index = 0; index < NOTES; index++) files[`Prompts/p${(index * 7919) % NOTES}.md`] = `Prompt ${index} {{a}}\n`;
		const vault = await openVault(files);
		const connection = await connectInMemory(vault.host, { promptsFolder: "Prompts", search: NO_SEARCH });
		const names = Object.keys(files)
			.sort((a, b) => a.localeCompare(b))
			.slice(0, PROMPTS_LISTED)
			.map((path) => path.slice("Prompts/".length, -".md".length));
		const pieces = countWorkPerPiece();
		const compare = Object.getOwnPropertyDescriptor(String.prototype, "localeCompare")?.value as (this: string, other: string) => number;
		const compared = replaceMethod(String.prototype, "localeCompare", function (this: string, other: string) {
			pieces.count();
			return compare.call(this, other);
		});
		try {
			const { prompts } = await connection.client.listPrompts();
			expect(prompts.map((prompt) => prompt.name)).toEqual(names);
			const last = names.at(-1) ?? "";
			expect((await connection.client.getPrompt({ name: last, arguments: { a: "x" } })).messages).toHaveLength(1);
			// Past the listed ones: not offered, as before.
			await expect(connection.client.getPrompt({ name: `p${NOTES - 1}`, arguments: { a: "x" } })).rejects.toThrow(/No prompt/);
			expect(Math.max(...pieces.perPiece)).toBeLessThan(4096 * 10);
		} finally {
			compared.restore();
			pieces.restore();
			await connection.close();
			await vault.close();
		}
	}, 180_000);
});
