import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { addToken } from "../../src/auth/tokenList";
import { defaultSettings } from "../../src/config/settings";
import { NodeHost } from "../../src/headless/NodeHost";
import { JournalFile } from "../../src/journal/JournalFile";
import { parseTokenFolders } from "../../src/paths/tokenFolders";
import { McpService } from "../../src/service";
import { connectClient } from "../helpers/http";
import { RecordingLogger } from "../helpers/service";
import { callError, callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

// A person may limit a token to one note (`token folders agent Notes/Plan.md`: accepted, with a warning that no
// such folder exists). No backup name beside that note is one the token may write: create_note's overwrite
// looked for one without end, in one piece, and the server answered nothing to anyone again.
test("create_note overwrite by a token limited to the note itself: refused in words, nothing changed, the server still answers", async () => {
	const vault = await makeVault({ "Notes/Plan.md": "the person's plan\n", "Notes/Other.md": "other\n" });
	const host = await NodeHost.open(vault, { watch: false });
	const parsed = parseTokenFolders(["Notes/Plan.md"], vault);
	if ("error" in parsed) throw new Error(parsed.error);
	const made = addToken(
		{ ...defaultSettings(), serverEnabled: true, port: 0, writeEnabled: true, writeDisclosureAccepted: true },
		"limited",
		"write",
		undefined,
		parsed.folders,
	);
	if ("error" in made) throw new Error(made.error);
	const service = new McpService({ host, serverVersion: "test", logger: new RecordingLogger(), journal: JournalFile.forVault(vault, ".obsidian") });
	const status = await service.apply(made.settings);
	if (status.state !== "listening") throw new Error(JSON.stringify(status));
	const client = await connectClient(status.url, made.token);
	try {
		const error = await callError(client, "create_note", { path: "Notes/Plan.md", content: "the new plan", overwrite: true });
		expect(error).toMatch(/backup.*Nothing was written/i);
		expect(readFileSync(nodePath.join(vault, "Notes/Plan.md"), "utf8")).toBe("the person's plan\n");
		expect(readdirSync(nodePath.join(vault, "Notes")).sort()).toEqual(["Other.md", "Plan.md"]);
		// The server is still there for the next call.
		expect(await callOk<{ content: string }>(client, "read_note", { path: "Notes/Plan.md" })).toMatchObject({
			content: expect.stringContaining("the person's plan"),
		});
	} finally {
		await client.close();
		await service.stop();
		await host.close();
		await removeDir(vault);
	}
});
