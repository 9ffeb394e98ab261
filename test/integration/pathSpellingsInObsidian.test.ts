/**
 * A note asked for by another spelling of its path is found the same in Obsidian as headless. Obsidian's
 * `getFileByPath` looks a path up as given (obsidian.d.ts 1.12.3: `getAbstractFileByPath` is "case sensitive", and
 * callers are told to `normalizePath` beforehand); NodeVault's also finds the file at the normalised spelling. The
 * host double now looks up as Obsidian does (asks180), so code that leaned on NodeVault's folding would find a note
 * headless and none in the plugin. Cost: one plugin load and one headless server, a dozen reads each.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import { connectClient } from "../helpers/http";
import { withPluginClient } from "../helpers/pluginClient";
import { startService } from "../helpers/service";
import { callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/** Names on disk: composed é (NFC), a no-break space kept in the name, a plain space, a note in a folder. */
const FILES: Record<string, string> = {
	"Caf\u00e9.md": "composed\n",
	"c\u00a0d.md": "no-break space\n",
	"a b.md": "plain space\n",
	"Notes/Inner.md": "inner\n",
};
/** Other spellings a client may send: decomposed é, the names as spelt, a no-break space for a plain one, slashes doubled or at the ends, another letter case. */
const ASKED = [
	"Cafe\u0301.md",
	"Caf\u00e9.md",
	"c\u00a0d.md",
	"c d.md",
	"a\u00a0b.md",
	"a\u202fb.md",
	"a b.md",
	"/a b.md",
	"Notes//Inner.md",
	"Notes/Inner.md/",
	"notes/inner.md",
	"A B.md",
];

/** What read_note answers for each spelling: the note's path and text, or that it failed. */
async function answers(client: Client): Promise<string[]> {
	const found: string[] = [];
	for (const path of ASKED) {
		const outcome = await callTool(client, "read_note", { path });
		found.push(outcome.ok ? `${JSON.stringify(outcome.value.path)} ${JSON.stringify(outcome.value.content)}` : "not read");
	}
	return found;
}

test("read_note finds the same note for each spelling of its path in Obsidian (the host double) as headless", async () => {
	const vault = await makeVault(FILES);
	const headless = await startService(vault, { levels: ["read"] });
	const headlessClient = await connectClient(headless.url, headless.tokens.read ?? "");
	let headlessAnswers: string[];
	try {
		headlessAnswers = await answers(headlessClient);
	} finally {
		await headlessClient.close();
		await headless.stop();
	}
	const made = addToken({ ...defaultSettings(), port: 0 }, "reader", "read");
	if ("error" in made) throw new Error(made.error);
	try {
		await withPluginClient(vault, made.settings, made.token, async (client) => {
			const inObsidian = await answers(client);
			expect(inObsidian.map((answer, index) => `${ASKED[index]} → ${answer}`)).toEqual(
				headlessAnswers.map((answer, index) => `${ASKED[index]} → ${answer}`),
			);
			// What both answer: the spellings Obsidian's normalizePath makes one (NFC, U+00A0 and U+202F as spaces) reach the
			// note; a name holding a no-break space is reached as spelt only; another letter case by the tools' own fallback.
			const CAFE = '"Caf\u00e9.md" "composed\\n"';
			const PLAIN = '"a b.md" "plain space\\n"';
			const INNER = '"Notes/Inner.md" "inner\\n"';
			expect(headlessAnswers).toEqual([
				CAFE,
				CAFE,
				'"c\u00a0d.md" "no-break space\\n"',
				"not read",
				PLAIN,
				PLAIN,
				PLAIN,
				"not read",
				"not read",
				INNER,
				INNER,
				PLAIN,
			]);
		});
	} finally {
		await removeDir(vault);
	}
});
