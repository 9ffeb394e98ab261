/**
 * The plugin's own files are in the jail: a journal, plugin folder or data.json replaced by a
 * symbolic link to a place outside the vault stops writes with one clear line, and everything
 * outside stays byte-identical — over real HTTP, with write calls, against the real `serve`.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { addToken } from "../../src/auth/tokenList";
import { FileSettingsStore } from "../../src/config/FileSettingsStore";
import { mcpHeaders, rawRequest } from "../helpers/http";
import { runCli, startServe, type ServingCli } from "../helpers/cli";
import { makeTempDir, makeVault, removeDir } from "../helpers/vault";

const PLUGIN_FOLDER = ".obsidian/plugins/vault-mcp";
const NOTE = "# Home\n";
const DIARY = "Dear diary, nobody outside may read this.\n";

/** Every file under `folder`, by path, with its bytes in hex: to compare before and after. */
async function snapshot(folder: string): Promise<Array<[string, string]>> {
	const names = (await fs.readdir(folder, { recursive: true })).sort();
	return Promise.all(
		names.map(async (name): Promise<[string, string]> => {
			const stats = await fs.lstat(nodePath.join(folder, name));
			return [
				name,
				stats.isFile()
					? `${stats.mode & 0o777}:${(await fs.readFile(nodePath.join(folder, name))).toString("hex")}`
					: stats.isDirectory()
						? "folder"
						: "other",
			];
		}),
	);
}

describe("the plugin's own files are in the jail", () => {
	let root: string;
	let outside: string;
	let token: string;
	let serving: ServingCli | null = null;

	beforeEach(async () => {
		root = await makeVault({ "Home.md": NOTE, "Private/Diary.md": DIARY });
		outside = await makeTempDir();
		await fs.writeFile(nodePath.join(outside, "journal.jsonl"), "outside file\n");
		await fs.writeFile(nodePath.join(outside, "data.json"), '{"outside": true}\n');
		await new FileSettingsStore(root, ".obsidian").update((settings) => {
			const made = addToken(settings, "writer", "write");
			if ("error" in made) throw new Error(made.error);
			token = made.token;
			return made.settings;
		});
	});
	afterEach(async () => {
		await serving?.stop();
		serving = null;
		await removeDir(root);
		await removeDir(outside);
	});

	const post = (path: string) => {
		const port = serving?.port ?? 0;
		return rawRequest(port, {
			headers: mcpHeaders(port, token),
			body: JSON.stringify({
				jsonrpc: "2.0",
				id: 3,
				method: "tools/call",
				params: { name: "append_to_note", arguments: { path, content: "written through the server" } },
			}),
		});
	};
	const append = async (path: string) => {
		const answer = await post(path);
		expect(answer.status).toBe(200);
		return answer.body;
	};

	test("a linked journal: serve says so in one line, every write call is refused with nothing written, and the file outside is byte-identical", async () => {
		await fs.symlink(nodePath.join(outside, "journal.jsonl"), nodePath.join(root, PLUGIN_FOLDER, "journal.jsonl"));
		const before = await snapshot(outside);
		serving = await startServe([root, "--port", "0", "--allow-write"]);
		for (const path of ["Home.md", "Private/Diary.md"]) {
			const body = await append(path);
			expect(body).toContain("Writing to this vault is stopped");
			expect(body).not.toContain(outside);
		}
		expect(await fs.readFile(nodePath.join(root, "Home.md"), "utf8")).toBe(NOTE);
		expect(await fs.readFile(nodePath.join(root, "Private/Diary.md"), "utf8")).toBe(DIARY);
		expect(await snapshot(outside)).toEqual(before);
		expect(serving.stderr()).toContain(`"${PLUGIN_FOLDER}/journal.jsonl" is a symbolic link`);
		// `history` refuses the linked journal too, in one line, and reads nothing outside.
		const history = await runCli(["history", root]);
		expect(history.code).toBe(1);
		expect(history.stderr.trim().split("\n")).toHaveLength(1);
		expect(history.stdout).not.toContain("outside file");
	});

	test("a plugin folder swapped for a link while serve runs: the next write is refused and nothing outside changes", async () => {
		serving = await startServe([root, "--port", "0", "--allow-write"]);
		expect(await append("Home.md")).toContain("Home.md");
		// The folder's contents moved outside, and the folder replaced by a link to them.
		for (const name of await fs.readdir(nodePath.join(root, PLUGIN_FOLDER)))
			await fs.rename(nodePath.join(root, PLUGIN_FOLDER, name), nodePath.join(outside, name));
		await fs.rmdir(nodePath.join(root, PLUGIN_FOLDER));
		await fs.symlink(outside, nodePath.join(root, PLUGIN_FOLDER));
		const before = await snapshot(outside);
		const noteBefore = await fs.readFile(nodePath.join(root, "Private/Diary.md"), "utf8");
		// Refused either way: as a write stopped by the link, or with 401 when the server looked at data.json in the
		// moment between the move and the link, found none and so knows no token (it fails closed).
		const answer = await post("Private/Diary.md");
		if (answer.status === 200) expect(answer.body).toContain("Writing to this vault is stopped");
		else expect(answer.status).toBe(401);
		expect(await fs.readFile(nodePath.join(root, "Private/Diary.md"), "utf8")).toBe(noteBefore);
		// Give the last-use recorder and the settings follower their moment: they must not write outside either.
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		expect(await snapshot(outside)).toEqual(before);
		expect(serving.stderr()).toMatch(new RegExp(`"${PLUGIN_FOLDER}(/data.json)?" is a symbolic link`));
	});

	test("a linked data.json: serve will not start, token commands refuse in one line, and the file outside is byte-identical", async () => {
		await fs.rm(nodePath.join(root, PLUGIN_FOLDER, "data.json"));
		await fs.symlink(nodePath.join(outside, "data.json"), nodePath.join(root, PLUGIN_FOLDER, "data.json"));
		const before = await snapshot(outside);
		for (const args of [
			["serve", root, "--port", "0"],
			["token", "new", root, "--name", "x"],
			["token", "revoke", root, "writer"],
			["token", "rights", root, "writer", "--deny", "read_note"],
		]) {
			const result = await runCli(args);
			expect({ args, code: result.code }).toEqual({ args, code: 1 });
			expect(result.stderr.trim().split("\n")).toEqual([
				`error: "${PLUGIN_FOLDER}/data.json" is a symbolic link, a hard link or outside the vault, and Vault MCP never writes its own files through one: writing to the vault is stopped and nothing was written. Replace it with a plain file or folder to write again.`,
			]);
		}
		expect(await snapshot(outside)).toEqual(before);
	});

	test("data.json swapped for a link while serve runs: the server keeps the settings in force and writes nothing outside", async () => {
		serving = await startServe([root, "--port", "0", "--allow-write"]);
		expect(await append("Home.md")).toContain("Home.md");
		const dataJson = nodePath.join(root, PLUGIN_FOLDER, "data.json");
		await fs.rm(dataJson);
		await fs.symlink(nodePath.join(outside, "data.json"), dataJson);
		const before = await snapshot(outside);
		// Requests make the last-use recorder save; the follower sees the change.
		for (let index = 0; index < 3; index++) await append("Home.md");
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		expect(await snapshot(outside)).toEqual(before);
		expect((await fs.lstat(dataJson)).isSymbolicLink()).toBe(true);
	});

	test("files the server and the CLI create in the plugin folder are owner-only", async () => {
		serving = await startServe([root, "--port", "0", "--allow-write"]);
		await append("Home.md");
		for (const name of ["data.json", "journal.jsonl"])
			expect({ name, mode: (await fs.stat(nodePath.join(root, PLUGIN_FOLDER, name))).mode & 0o077 }).toEqual({ name, mode: 0 });
	});
});
