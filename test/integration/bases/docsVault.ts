import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "../../helpers/http";
import { startService, type RunningService } from "../../helpers/service";
import { makeVault, removeDir } from "../../helpers/vault";

/**
 * A small vault for the examples of Obsidian's Bases documentation (the help vault's pages under
 * `en/Bases/`): books with prices and ages, a textbook they link to, a folder called "Required
 * Reading", a project with dates, an attachment, and a `Private` folder that the server excludes.
 * `Private/Secret Book.md` would match most examples: it must never appear.
 */
const DOCS_VAULT_FILES: Record<string, string> = {
	"Books/Dune.md": '---\ntags: [book]\nprice: 12.5\nage: 2\nstatus: reading\nauthor: "[[Frank Herbert]]"\n---\nRead with [[Textbook]] open.\n',
	"Books/Poems.md": "---\ntags: [book]\nprice: 4\nage: 8\nstatus: reading\n---\nCompare with [[Textbook]].\n",
	"Books/Algebra.md": "---\ntags: [book]\nprice: 40\nage: 10\nstatus: done\n---\nExercises from [[Textbook]].\n",
	"Required Reading/Essay.md": "---\ntags: [book]\nprice: 3\nage: 1\nstatus: todo\n---\nAn essay.\n",
	"Required Reading/Notes.md": "---\nprice: 1.5\n---\nNotes.\n",
	"Textbook.md": "---\ntags: [tag]\n---\nThe textbook. ![[Query.base]]\n",
	"Inbox/Idea.md": "An idea #tag/nested\n",
	"Projects/Garden.md":
		"---\nstatus: Done\nprice: 2\nstart_date: 2025-01-06\ndue_date: 2025-01-20\nimpact: 3\nurgency: 4\neffort: 2\nfirst_name: Ada\nlast_name: Lovelace\ntasks: [dig, sow, water]\n---\nThe garden.\n",
	"Projects/Shed.md": "---\nstatus: todo\ndue_date: 2025-01-20\n---\nThe shed.\n",
	"People/Frank Herbert.md": "Author.\n",
	"photo.png": "not really a picture",
	"Private/Secret Book.md": "---\ntags: [book, tag]\nprice: 99\nage: 5\nstatus: reading\n---\n[[Textbook]] [[Dune]]\n",
};

/** The folder the server is told to exclude. */
const EXCLUDED = ["Private"];

/** One example of the documentation: the page it comes from, the base a reader would write, the rows they would expect. */
export interface BaseCase {
	page: string;
	example: string;
	base: string;
	/** Extra files for this example (vault path → text). */
	files?: Record<string, string>;
	/** Runs after the vault is written, before the server starts (to age a file, say). */
	setup?: (root: string) => Promise<void>;
	calls: Array<{ args?: { view?: string; limit?: number }; expect: Record<string, unknown> }>;
}

/** A server over the docs vault plus `Query.base`, with a read token's client; `close` removes everything. */
export async function openDocsVault(
	base: string,
	extra: Record<string, string> = {},
	setup?: (root: string) => Promise<void>,
): Promise<{ client: Client; running: RunningService; root: string; close(): Promise<void> }> {
	const root = await makeVault({ ...DOCS_VAULT_FILES, ...extra, "Query.base": base });
	if (setup) await setup(root);
	const running = await startService(root, { settings: { excludedFolders: EXCLUDED } });
	const client = await connectClient(running.url, running.tokens.read ?? "");
	return {
		client,
		running,
		root,
		close: async () => {
			await client.close();
			await running.stop();
			await removeDir(root);
		},
	};
}
