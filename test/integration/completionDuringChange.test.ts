import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from "@modelcontextprotocol/client";
import { CallBudget } from "../../src/vault/workBudget";
import { startService } from "../helpers/service";
import { makeVault, removeDir } from "../helpers/vault";

const MODERN = "2026-07-28";
const NOTE_TEMPLATE = "vault-mcp://note/{+path}";

async function waitUntil(check: () => boolean, ms = 10_000): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
	return check();
}

/**
 * The first completion sorts the vault's note paths in slices, with other work between them. A
 * list sorted while another program deleted or renamed a note is used for that one answer (and not
 * kept): it must not offer a note that is no longer there, under the name it no longer has.
 */
describe("a completion whose note list is sorted while another program deletes and renames notes", () => {
	test("offers no note that is gone, and the next completion offers the new name", async () => {
		const files: Record<string, string> = { "Projects/Alpha.md": "alpha\n", "Projects/Beta.md": "beta\n" };
		// Enough notes that the sort looks at its budget a few times.
		for (let index = 0; index < 600; index++) files[`Many/Note ${String(index).padStart(3, "0")}.md`] = `note ${index}\n`;
		const vault = await makeVault(files);
		const server = await startService(vault, { host: { watch: true }, settings: { rateLimitPerMinute: 100_000 } });
		// The server's own warm-up searches pause through the same budget the spies below hook: let them end first.
		await server.service.search?.whenWarmedUp();
		const client = new ClientV2({ name: "completer", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the budget as `this`
		const original = CallBudget.prototype.checkpoint;
		const due = jest.spyOn(CallBudget.prototype, "due");
		const checkpoint = jest.spyOn(CallBudget.prototype, "checkpoint");
		try {
			await client.connect(
				new HttpTransportV2(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.tokens.read ?? ""}` } } }),
			);
			const completes = async (value: string) =>
				(await client.complete({ ref: { type: "ref/resource", uri: NOTE_TEMPLATE }, argument: { name: "path", value } })).completion.values;
			// Every look at the budget pauses; in the first pause another program deletes Alpha and renames Beta.
			due.mockReturnValue(true);
			let changed = false;
			checkpoint.mockImplementation(async function (this: CallBudget) {
				if (!changed) {
					changed = true;
					await fs.rm(nodePath.join(vault, "Projects/Alpha.md"));
					await fs.rename(nodePath.join(vault, "Projects/Beta.md"), nodePath.join(vault, "Projects/Gamma.md"));
					const reported = await waitUntil(
						() =>
							server.host.vault.getFileByPath("Projects/Alpha.md") === null &&
							server.host.vault.getFileByPath("Projects/Beta.md") === null &&
							server.host.vault.getFileByPath("Projects/Gamma.md") !== null,
					);
					expect(reported).toBe(true);
				}
				return original.call(this);
			});
			const during = await completes("pro");
			expect(changed).toBe(true);
			due.mockRestore();
			checkpoint.mockRestore();
			// Before: ["Projects/Alpha.md", "Projects/Beta.md"], a deleted note and a name no note has.
			expect(during).toEqual([]);
			expect(await completes("pro")).toEqual(["Projects/Gamma.md"]);
		} finally {
			due.mockRestore();
			checkpoint.mockRestore();
			await client.close().catch(() => undefined);
			await server.stop();
			await removeDir(vault);
		}
	});
});
