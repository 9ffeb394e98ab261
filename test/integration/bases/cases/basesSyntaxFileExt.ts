import type { BaseCase } from "../docsVault";

/** "File properties" in "Bases syntax": `file.ext == "md"` is true for every Markdown file and false otherwise. */
export const basesSyntaxFileExt: BaseCase = {
	page: "Bases/Bases syntax.md",
	example: 'the filter file.ext == "md" (File properties)',
	base: `filters: 'file.ext == "md"'
views:
  - type: table
    name: Notes
    order: [file.path, file.folder, file.basename]
    sort:
      - property: file.path
        direction: ASC
`,
	calls: [
		{
			expect: {
				rows: [
					{ path: "Books/Algebra.md", values: { "file.path": "Books/Algebra.md", "file.folder": "Books", "file.basename": "Algebra" } },
					{ path: "Books/Dune.md" },
					{ path: "Books/Poems.md" },
					{ path: "Inbox/Idea.md" },
					{ path: "People/Frank Herbert.md" },
					{ path: "Projects/Garden.md" },
					{ path: "Projects/Shed.md" },
					{ path: "Required Reading/Essay.md" },
					{ path: "Required Reading/Notes.md" },
					{ path: "Textbook.md", values: { "file.path": "Textbook.md", "file.folder": "/", "file.basename": "Textbook" } },
				],
				// photo.png and Query.base are files of the vault too, but not Markdown.
				total: 10,
			},
		},
	],
};
