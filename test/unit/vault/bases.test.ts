import type { HostFile } from "../../../src/host/Host";
import { baseVault, findFileWithExtension, readBoundedFile, visibleBases } from "../../../src/vault/bases";
import { CallBudget } from "../../../src/vault/workBudget";
import { openVault, type OpenVault } from "../../helpers/hostVault";

describe("bases and canvases in the vault, as this caller may see them", () => {
	let vault: OpenVault;
	beforeAll(async () => {
		vault = await openVault({
			"Books.base": "views: []\n",
			"Archive/Old.base": "",
			"Private/Secret.base": "",
			"Board.canvas": "{}",
			"Dune.md": '---\nauthor: "[[Herbert]]"\ntags: [book]\n---\nSee [[Herbert]] and [[Private/Notes]].\n',
			"People/Herbert.md": "# Herbert\n",
			"Private/Notes.md": "[[Dune]]\n",
		});
	});
	afterAll(() => vault.close());

	test("findFileWithExtension: by path with or without the extension; excluded, hidden and missing alike", () => {
		const scope = vault.scope("Private");
		expect(findFileWithExtension(vault.host, scope, "Books", "base")).toMatchObject({ ok: true, value: { path: "Books.base" } });
		expect(findFileWithExtension(vault.host, scope, "Board.canvas", "canvas")).toMatchObject({ ok: true, value: { path: "Board.canvas" } });
		expect(findFileWithExtension(vault.host, scope, "Private/Secret", "base")).toEqual({
			ok: false,
			error: 'No base "Private/Secret.base". Call list_bases to find the right path.',
		});
		expect(findFileWithExtension(vault.host, scope, "Nope", "canvas")).toEqual({
			ok: false,
			error: 'No canvas "Nope.canvas". Call list_notes to find the right path.',
		});
		expect(findFileWithExtension(vault.host, scope, "../outside", "base").ok).toBe(false);
	});

	test("visibleBases: the visible .base files, by path", async () => {
		expect((await visibleBases(vault.host, vault.scope("Private"), new CallBudget())).map((file) => file.path)).toEqual(["Archive/Old.base", "Books.base"]);
	});

	test("readBoundedFile: the text, or a refusal naming the size, before reading a file past the bound", async () => {
		const file = vault.host.vault.getFileByPath("Books.base") as HostFile;
		expect(await readBoundedFile(vault.host, file, 1000)).toEqual({ ok: true, value: "views: []\n" });
		expect(await readBoundedFile(vault.host, file, 4)).toEqual({ ok: false, error: '"Books.base" is 10 bytes; at most 4 are read.' });
	});

	test("baseVault: visible files as rows; links resolve among visible files only; backlinks from visible notes", async () => {
		const { vault: view, files } = await baseVault(vault.host, vault.scope("Private"));
		expect(files.map((file) => file.path).sort()).toEqual(["Archive/Old.base", "Board.canvas", "Books.base", "Dune.md", "People/Herbert.md"]);
		const dune = view.file("Dune.md");
		expect(dune?.properties()).toMatchObject({ author: "[[Herbert]]", tags: ["book"] });
		expect(dune?.tags()).toContain("#book");
		expect(dune?.folder).toBe("/");
		expect(view.resolveLink("Herbert", "Dune.md")).toBe("People/Herbert.md");
		expect(view.resolveLink("Private/Notes", "Dune.md")).toBeNull();
		expect(view.file("Private/Notes.md")).toBeNull();
		expect(view.backlinks("Dune.md")).toEqual([]);
		expect(view.backlinks("People/Herbert.md")).toEqual(["Dune.md"]);
	});

	test("baseVault makes its rows a file at a time, pausing whenever the query's slice is used up: the same rows, excluded files still out", async () => {
		let pauses = 0;
		const clock = {
			due: () => true,
			checkpoint: () => {
				pauses++;
				return Promise.resolve();
			},
		};
		const { files } = await baseVault(vault.host, vault.scope("Private"), clock);
		expect(files.map((file) => file.path).sort()).toEqual(["Archive/Old.base", "Board.canvas", "Books.base", "Dune.md", "People/Herbert.md"]);
		expect(pauses).toBe(vault.host.vault.getFiles().length);
	});

	test("the backlinks built ahead, a link at a time, are where every visible note's file.links lead, as built inside an expression", async () => {
		const linked = await openVault({
			"A.md": "---\nup: '[[B]]'\nrel: '[[./Sub/C]]'\n---\n[[B]] [[B#Part|b]] ![[C]] ![[pic.png]] [[nowhere]] [[Private/S]]\n",
			"B.md": "[[A]] [[./A]] [[../A]] [[Sub/C.md]]\n",
			"Sub/C.md": "[[C]] [[./D]] [[../B]] [[./a1/../../Private/S]]\n",
			"Sub/D.md": "",
			"pic.png": "",
			"Other.base": "",
			"Private/S.md": "[[A]] [[B]] [[Sub/C]]\n",
		});
		try {
			const scope = linked.scope("Private");
			const ahead = await baseVault(linked.host, scope, undefined, { backlinks: true });
			const inside = await baseVault(linked.host, scope);
			// The index as an expression built it before: from each visible note's file.links.
			const expected = new Map<string, string[]>();
			for (const source of inside.files.filter((file) => file.extension === "md"))
				for (const target of new Set(source.links().map((entry) => entry.target)))
					if (target !== null) expected.set(target, [...(expected.get(target) ?? []), source.path]);
			const paths = [...inside.files.map((file) => file.path), "Private/S.md", "nowhere.md"];
			expect(Object.fromEntries(paths.map((path) => [path, ahead.vault.backlinks(path)]))).toEqual(
				Object.fromEntries(paths.map((path) => [path, expected.get(path) ?? []])),
			);
			expect(paths.map((path) => inside.vault.backlinks(path))).toEqual(paths.map((path) => ahead.vault.backlinks(path)));
			expect(ahead.vault.backlinks("A.md")).toEqual(["B.md"]);
		} finally {
			await linked.close();
		}
	});
});
