import { promises as fs } from "node:fs";
import { createServer } from "node:net";
import * as nodePath from "node:path";
import { COMMANDS } from "../../src/headless/cliHelp";
import { ALL_TOOLS } from "../../src/mcp/tools";
import { connectionSnippets, serverNameFor } from "../../src/http/clientSnippets";
import { connectClient, isPortClosed } from "../helpers/http";
import { makeTokenOnce, runCli, startServe, type MadeToken, type ServingCli } from "../helpers/cli";
import { makeTempDir, makeVault, readAllFiles, removeDir } from "../helpers/vault";

/** Waits until stderr holds a line (stdout's listening line can arrive before stderr's last words). */
async function stderrOnceItHas(serving: ServingCli, text: string): Promise<string> {
	for (let waited = 0; waited < 5000 && !serving.stderr().includes(text); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
	return serving.stderr();
}

/** A read token named "laptop", made by `token new` once for the tests that only serve with one (`token new` is tested on its own here). */
let laptop: MadeToken;
/** A write token named "careful" whose write tools but create_note ask: made once for the two tests that serve with a write token. */
let careful: MadeToken;
beforeAll(async () => {
	[laptop, careful] = await Promise.all([
		makeTokenOnce(["--name", "laptop"]),
		makeTokenOnce(["--name", "careful", "--level", "write", "--allow", "create_note"]),
	]);
});

describe("vault-mcp CLI", () => {
	let vault: string;

	beforeEach(async () => {
		vault = await makeVault({ "Home.md": "# Home\n", "Work/Plan.md": "plan", "Private/Diary.md": "diary" });
	});
	afterEach(async () => removeDir(vault));

	test("token new --json prints only the token, and no plaintext token is left anywhere under the vault", async () => {
		const made = await runCli(["token", "new", vault, "--name", "laptop", "--level", "write", "--json"]);
		expect(made.code).toBe(0);
		const printed = JSON.parse(made.stdout) as { name: string; level: string; token: string };
		expect(printed).toEqual({ name: "laptop", level: "write", token: expect.stringMatching(/^vmcp_[A-Za-z0-9_-]{43}$/), rights: expect.any(Object) });
		for (const file of await readAllFiles(vault)) expect(file.text).not.toContain(printed.token);

		const listed = await runCli(["token", "list", vault]);
		expect(listed.stdout).toMatch(/^laptop\twrite\tvmcp_.{4}…\tcreated .+\tlast used never\n$/);
		expect(listed.stdout).not.toContain(printed.token);
	});

	test("serve prints exactly one listening line, answers a client with its token, and exits 0 on SIGTERM and SIGINT", async () => {
		const token = await laptop.putInto(vault);
		for (const signal of ["SIGTERM", "SIGINT"] as const) {
			const serving = await startServe([vault, "--port", "0", "--exclude", "Private"]);
			const client = await connectClient(serving.url, token);
			const status = await client.callTool({ name: "get_vault_status", arguments: {} });
			expect(status.structuredContent).toMatchObject({ note_count: 2, can_write: false });
			await client.close();
			expect(serving.stdout()).toBe(`listening on ${serving.url}\n`);
			expect(await serving.stop(signal)).toBe(0);
			expect(await isPortClosed(serving.port)).toBe(true);
		}
	});

	test("serve on a vault without tokens creates one, prints it once on stderr with the Claude Code command for the port actually bound, and it works", async () => {
		const serving = await startServe([vault, "--port", "0"]);
		try {
			const stderr = await stderrOnceItHas(serving, "claude mcp add");
			const token = /(vmcp_[A-Za-z0-9_-]{43})/.exec(stderr)?.[1];
			expect(token).toBeDefined();
			expect(serving.stdout()).not.toContain(token);
			expect(serving.port).not.toBe(0);
			// The same command the plugin's settings tab shows, for the bound port, never the requested 0.
			const claudeCode =
				connectionSnippets({ port: serving.port, vaultName: nodePath.basename(vault) }, token).find((snippet) => snippet.id === "claude-code")?.text ??
				"";
			expect(stderr).toContain(`\n  ${claudeCode}\n`);
			expect(stderr).not.toContain("127.0.0.1:0/");
			const client = await connectClient(serving.url, token ?? "");
			expect((await client.callTool({ name: "get_vault_status", arguments: {} })).isError).toBeFalsy();
			await client.close();
			for (const file of await readAllFiles(vault)) expect(file.text).not.toContain(token);
		} finally {
			await serving.stop();
		}
	});

	test("--allow-write lets a write token write; without it, even a write token cannot", async () => {
		const token = await careful.putInto(vault);
		for (const [flags, canWrite] of [
			[["--allow-write"], true],
			[[], false],
		] as const) {
			const serving = await startServe([vault, "--port", "0", ...flags]);
			const client = await connectClient(serving.url, token);
			const status = await client.callTool({ name: "get_vault_status", arguments: {} });
			expect((status.structuredContent as { can_write: boolean }).can_write).toBe(canWrite);
			await client.close();
			await serving.stop();
		}
	});

	test("token new --level write sets every write tool to ask and says how to let them run; --allow-all-writes and --allow opt out explicitly", async () => {
		const asked = await runCli(["token", "new", vault, "--name", "careful", "--level", "write"]);
		expect(asked.code).toBe(0);
		expect(asked.stdout).toMatch(/\n {2}append_to_note +ask\n/);
		expect(asked.stdout).toMatch(/\n {2}read_note +allow\n/);
		expect(asked.stdout).toContain(`To let some run without asking: vault-mcp token rights ${vault} careful --allow TOOL,…`);
		const rightsOf = async (args: string[]) =>
			(JSON.parse((await runCli(["token", "new", vault, ...args, "--json"])).stdout) as { rights: Record<string, string> }).rights;
		const writeTools = ALL_TOOLS.filter((tool) => tool.access === "write").map((tool) => tool.name);
		const askedRights = await rightsOf(["--name", "careful2", "--level", "write"]);
		for (const tool of writeTools) expect(askedRights[tool]).toBe("ask");
		const allowedAll = await rightsOf(["--name", "trusting", "--level", "write", "--allow-all-writes"]);
		for (const tool of writeTools) expect(allowedAll[tool]).toBe("allow");
		const allowedOne = await rightsOf(["--name", "one", "--level", "write", "--allow", "append_to_note"]);
		expect(allowedOne).toMatchObject({ append_to_note: "allow", create_note: "ask" });
		const readOnly = await runCli(["token", "new", vault, "--name", "reader", "--allow-all-writes"]);
		expect(readOnly.code).toBe(2);
		expect(readOnly.stderr).toContain("--allow-all-writes is for write tokens: add --level write.");
		expect((await runCli(["token", "list", vault])).stdout).not.toContain("reader");
	}, 120_000);

	test("serve with no terminal says at start which write tools of which token it cannot ask about, and how to let them run; a write made then is refused, not run", async () => {
		const token = await careful.putInto(vault);
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		try {
			const stderr = await stderrOnceItHas(serving, "claude mcp add");
			expect(stderr).toMatch(
				/warning: token "careful" has write tools set to ask \((append_to_note, )?[a-z_, ]+\), and this serve has no terminal to ask in, so those calls will be refused\./,
			);
			expect(stderr).toContain(`or let them run without asking: vault-mcp token rights ${vault} careful --allow append_to_note,`);
			expect(stderr).not.toMatch(/set to ask \([^)]*create_note/);
			const client = await connectClient(serving.url, token);
			const refused = await client.callTool({ name: "append_to_note", arguments: { path: "Home.md", text: "added" } });
			expect(refused.isError).toBe(true);
			await client.close();
			expect(await fs.readFile(nodePath.join(vault, "Home.md"), "utf8")).toBe("# Home\n");
		} finally {
			await serving.stop();
		}
	}, 60_000);

	test("token revoke locks the token out", async () => {
		const { token } = JSON.parse((await runCli(["token", "new", vault, "--name", "gone", "--json"])).stdout) as { token: string };
		expect((await runCli(["token", "revoke", vault, "gone"])).code).toBe(0);
		await runCli(["token", "new", vault, "--name", "other", "--json"]);
		const serving = await startServe([vault, "--port", "0"]);
		try {
			await expect(connectClient(serving.url, token)).rejects.toThrow();
		} finally {
			await serving.stop();
		}
		const again = await runCli(["token", "revoke", vault, "gone"]);
		expect(again.code).toBe(1);
		expect(again.stderr).toBe('error: No token named "gone". The tokens are: "other".\n');
		await runCli(["token", "revoke", vault, "other"]);
		expect((await runCli(["token", "revoke", vault, "other"])).stderr).toBe('error: No token named "other". There are no tokens.\n');
		// Six CLI starts and a serve (about half a second of CPU each): past jest's 30 s beside a second suite
		// and two busy loops (load 25-45 on 2 cores), as the tests above that give themselves 60 s.
	}, 60_000);

	test("a start with tokens already made names them and says how to make another, and --allow-write without a write token says how to make one", async () => {
		await laptop.putInto(vault);
		const serving = await startServe([vault, "--port", "0", "--allow-write"]);
		try {
			const stderr = await stderrOnceItHas(serving, "claude mcp add");
			expect(stderr).toContain("Tokens in data.json: laptop (read).");
			expect(stderr).toContain(`make another: vault-mcp token new ${vault} --name NAME\n`);
			expect(stderr).toContain(
				`warning: --allow-write has no effect without a write token; make one: vault-mcp token new ${vault} --name NAME --level write\n`,
			);
			expect(stderr).toContain(
				`claude mcp add --transport http ${serverNameFor(nodePath.basename(vault))} http://127.0.0.1:${serving.port}/mcp --header "Authorization: Bearer <token>"`,
			);
			// The other clients are one command away, on the port this run actually bound.
			expect(stderr).toContain(
				`Claude Desktop, Cursor or curl: vault-mcp serve ${vault} --port ${serving.port} --print-config claude-desktop|cursor|curl\n`,
			);
			expect(serving.stdout()).toBe(`listening on ${serving.url}\n`);
		} finally {
			await serving.stop();
		}
	});

	test("a folder without .obsidian is refused with one line and left untouched; --init makes it a vault and serves it", async () => {
		const folder = await makeTempDir("vault-mcp-not-a-vault-");
		try {
			await fs.writeFile(nodePath.join(folder, "Note.md"), "text");
			const refused = await runCli(["serve", folder, "--port", "0"]);
			expect(refused.code).toBe(2);
			expect(refused.stderr).toBe(
				`error: ${folder} has no .obsidian folder, so it is not an Obsidian vault yet: check the path, or add --init to make it one.\n`,
			);
			expect(await fs.readdir(folder)).toEqual(["Note.md"]);

			const serving = await startServe([folder, "--port", "0", "--init"]);
			try {
				expect((await fs.stat(nodePath.join(folder, ".obsidian"))).isDirectory()).toBe(true);
				const token = /(vmcp_[A-Za-z0-9_-]{43})/.exec(await stderrOnceItHas(serving, "claude mcp add"))?.[1] ?? "";
				const client = await connectClient(serving.url, token);
				expect((await client.callTool({ name: "get_vault_status", arguments: {} })).structuredContent).toMatchObject({ note_count: 1 });
				await client.close();
			} finally {
				await serving.stop();
			}
		} finally {
			await removeDir(folder);
		}
	});

	test("help lists every command; help <command> and <command> --help list every flag with its default", async () => {
		// Each is its own process: started together, they take one start's time rather than twenty.
		const commands = COMMANDS.filter((candidate) => candidate.name !== "help");
		const [overview, dashOverview, tokenHelp, helps] = await Promise.all([
			runCli(["help"]),
			runCli(["--help"]),
			runCli(["token", "--help"]),
			Promise.all(
				commands.map(
					async (command) => [await runCli(["help", ...command.name.split(" ")]), await runCli([...command.name.split(" "), "--help"])] as const,
				),
			),
		]);
		expect(overview.code).toBe(0);
		for (const command of COMMANDS) expect(overview.stdout).toContain(`  ${command.name} ${command.arguments}`);
		expect(dashOverview.stdout).toBe(overview.stdout);

		for (const [index, command] of commands.entries()) {
			const [help, dashHelp] = helps[index] ?? [];
			if (!help || !dashHelp) throw new Error(`no help run for ${command.name}`);
			expect(help.code).toBe(0);
			expect(help.stdout).toMatch(new RegExp(`^Usage: vault-mcp ${command.name} `));
			for (const [name, flag] of Object.entries(command.flags)) {
				const label = `--${name}${flag.valueName ? ` ${flag.valueName}` : ""}`;
				// The flag's line, then its default on the next line.
				expect(help.stdout).toMatch(
					new RegExp(
						`\\n  (-h, )?${label.replace(/[|]/g, "\\|")} +${flag.what.replace(/[()|{}.]/g, "\\$&")}\\n +default: ${flag.defaultText.replace(/[()|{}.]/g, "\\$&")}\\n`,
					),
				);
			}
			expect(dashHelp).toEqual(help);
		}
		// `serve --help` ran above with the others.
		const serveHelp = helps[commands.findIndex((command) => command.name === "serve")]?.[1].stdout ?? "";
		for (const flag of ["--port N", "--allow-write", "--exclude FOLDER", "--rate-limit N", "--init", "--help"]) expect(serveHelp).toContain(flag);
		expect(serveHelp).toContain("default: the port in data.json (27150 unless changed)");
		expect(tokenHelp.stdout).toContain("Usage: vault-mcp token revoke <vault> NAME");
		// About twenty CLI processes on a shared 2-core machine.
	}, 90_000);

	test("a port in use is one clear line on stderr and exit 1", async () => {
		await laptop.putInto(vault);
		const blocker = createServer();
		await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
		const port = (blocker.address() as { port: number }).port;
		try {
			const result = await runCli(["serve", vault, "--port", String(port)]);
			expect(result.code).toBe(1);
			expect(result.stdout).toBe("");
			expect(result.stderr).toBe(`error: Port ${port} is already in use by another program. Choose another port, or stop the program that uses it.\n`);
		} finally {
			blocker.close();
		}
	});

	test.each([
		[[], 'Run "vault-mcp help" for the commands.'],
		[["frobnicate"], 'Run "vault-mcp help" for the commands.'],
		[["help", "frobnicate"], 'Run "vault-mcp help" for the commands.'],
		[["serve"], 'Run "vault-mcp help serve" for the flags.'],
		[["serve", "/no/such/folder"], 'Run "vault-mcp help serve" for the flags.'],
		[["serve", "VAULT", "--port", "abc"], 'Run "vault-mcp help serve" for the flags.'],
		[["serve", "VAULT", "--bogus"], 'Run "vault-mcp help serve" for the flags.'],
		[["token", "new", "VAULT"], 'Run "vault-mcp help token new" for the flags.'],
		[["token", "new", "VAULT", "--name", "x", "--level", "admin"], 'Run "vault-mcp help token new" for the flags.'],
		[["token", "list", "VAULT", "--name", "x"], 'Run "vault-mcp help token list" for the flags.'],
		[["token", "explode", "VAULT"], 'Run "vault-mcp help token" for the flags.'],
		[["inspect", "VAULT"], 'Run "vault-mcp help inspect" for the flags.'],
	])("usage error %j exits 2 with one line and the hint %j, not the whole usage", async (args, hint) => {
		const result = await runCli(args.map((arg) => (arg === "VAULT" ? vault : arg)));
		expect(result.code).toBe(2);
		expect(result.stdout).toBe("");
		const lines = result.stderr.split("\n");
		expect(lines).toHaveLength(3);
		expect(lines[0]).toMatch(/^error: \S/);
		expect(lines[1]).toBe(hint);
		expect(lines[2]).toBe("");
	});
});
