import { createServer } from "node:net";
import { connectClient, isPortClosed } from "../helpers/http";
import { runCli, startServe } from "../helpers/cli";
import { makeVault, readAllFiles, removeDir } from "../helpers/vault";

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
		expect(printed).toEqual({ name: "laptop", level: "write", token: expect.stringMatching(/^vmcp_[A-Za-z0-9_-]{43}$/) });
		for (const file of await readAllFiles(vault)) expect(file.text).not.toContain(printed.token);

		const listed = await runCli(["token", "list", vault]);
		expect(listed.stdout).toMatch(/^laptop\twrite\tvmcp_.{4}…\tcreated .+\tlast used never\n$/);
		expect(listed.stdout).not.toContain(printed.token);
	});

	test("serve prints exactly one listening line, answers a client with its token, and exits 0 on SIGTERM and SIGINT", async () => {
		const { token } = JSON.parse((await runCli(["token", "new", vault, "--name", "a", "--json"])).stdout) as { token: string };
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

	test("serve on a vault without tokens creates one, prints it once on stderr, and it works", async () => {
		const serving = await startServe([vault, "--port", "0"]);
		try {
			const token = /(vmcp_[A-Za-z0-9_-]{43})/.exec(serving.stderr())?.[1];
			expect(token).toBeDefined();
			expect(serving.stdout()).not.toContain(token);
			const client = await connectClient(serving.url, token ?? "");
			expect((await client.callTool({ name: "get_vault_status", arguments: {} })).isError).toBeFalsy();
			await client.close();
			for (const file of await readAllFiles(vault)) expect(file.text).not.toContain(token);
		} finally {
			await serving.stop();
		}
	});

	test("--allow-write lets a write token write; without it, even a write token cannot", async () => {
		const { token } = JSON.parse((await runCli(["token", "new", vault, "--name", "w", "--level", "write", "--json"])).stdout) as { token: string };
		for (const [flags, canWrite] of [[["--allow-write"], true], [[], false]] as const) {
			const serving = await startServe([vault, "--port", "0", ...flags]);
			const client = await connectClient(serving.url, token);
			const status = await client.callTool({ name: "get_vault_status", arguments: {} });
			expect((status.structuredContent as { can_write: boolean }).can_write).toBe(canWrite);
			await client.close();
			await serving.stop();
		}
	});

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
		expect(again.stderr).toContain('No token named "gone"');
	});

	test("a port in use is one clear line on stderr and exit 1", async () => {
		await runCli(["token", "new", vault, "--name", "a", "--json"]);
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
		[[]],
		[["frobnicate"]],
		[["serve"]],
		[["serve", "/no/such/folder"]],
		[["serve", "VAULT", "--port", "abc"]],
		[["serve", "VAULT", "--bogus"]],
		[["token", "new", "VAULT"]],
		[["token", "new", "VAULT", "--name", "x", "--level", "admin"]],
		[["token", "explode", "VAULT"]],
	])("usage error %j exits 2 with a message", async (args) => {
		const result = await runCli(args.map((arg) => (arg === "VAULT" ? vault : arg)));
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("Usage:");
	});
});
