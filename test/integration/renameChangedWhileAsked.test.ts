/**
 * A rename approved in Ask mode writes what the person saw: a linking note another program edits
 * while the approval window is open is not relinked on text nobody saw. Over real HTTP with the SDK
 * client and a scripted approver, as red81 probed the other write tools' Ask flows.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { MAX_WRITE_ATTEMPTS, WRITE_RETRY_BUDGET_MS } from "../../src/config/limits";
import type { ApprovalRequest, Approver } from "../../src/mcp/approval";
import { setTokenRights } from "../../src/auth/tokenList";
import type { VaultMcpSettings } from "../../src/config/settings";
import { until } from "../helpers/dom";
import { connectClient } from "../helpers/http";
import { startService, type RunningService } from "../helpers/service";
import { callOk, callTool } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A service whose approver runs `meanwhile` (another program's edit) on the first request only, then approves each;
 * with `linkersThen`, it approves that first request once the server's link index lists exactly those notes as
 * linking to the note (the other program's edit seen, as Obsidian would have seen it while the window was open).
 */
async function renameWhileEdited(
	files: Record<string, string>,
	meanwhile: (vault: string, running: RunningService) => unknown,
	linkersThen?: readonly string[],
	{ to = "Garden/Beans.md", newLinkFormat = "absolute" } = {},
) {
	const vault = await makeVault({ ...files, ".obsidian/app.json": JSON.stringify({ newLinkFormat }) });
	const requests: ApprovalRequest[] = [];
	let client: Awaited<ReturnType<typeof connectClient>> | undefined;
	let running: RunningService | undefined;
	const linkersNow = async () => {
		const links = await callOk(client!, "get_note_links", { path: "Old/Plan.md" });
		return (links.backlinks as Array<{ path: string }>).map((backlink) => backlink.path).sort();
	};
	const approver: Approver = {
		decide: async (request) => {
			requests.push(request);
			if (requests.length === 1) {
				await meanwhile(vault, running!);
				if (linkersThen !== undefined) await until(async () => JSON.stringify(await linkersNow()) === JSON.stringify(linkersThen), 10_000);
			}
			return "approve";
		},
	};
	running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true },
		approver,
		rights: { write: { rename_note: "ask" } },
		// Following other programs' edits, as the CLI server does: the index learns of a note that starts linking.
		host: { watch: true },
	});
	client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		const answer = await callOk<{ notes_not_read?: string[] }>(client, "rename_note", { path: "Old/Plan.md", new_path: to });
		const read = (path: string) => (existsSync(nodePath.join(vault, path)) ? readFileSync(nodePath.join(vault, path), "utf8") : null);
		const written = Object.fromEntries([...new Set([...Object.keys(files), "C.md", to])].map((path) => [path, read(path)]));
		const shown = requests.map((request) => Object.fromEntries(request.changes.map((change) => [change.path, change.after])));
		return { requests, shown, written, answer };
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
}

describe("rename_note in Ask mode, a linking note edited while the window is open", () => {
	test("links added meanwhile are shown in a second window, and what that window showed is written", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Old/Plan]]\n", "B.md": "[[Old/Plan]] too\n" };
		const { requests, shown, written } = await renameWhileEdited(files, (vault) => {
			writeFileSync(nodePath.join(vault, "A.md"), "[[Old/Plan]]\n[Plan](Old/Plan.md) and [[Old/Plan|Plan]]\n");
		});
		// On lead4: one window, and A.md had a Markdown link rewritten nobody saw and a wikilink left at the old path.
		expect(requests).toHaveLength(2);
		expect(shown[1]?.["A.md"]).toBe("[[Garden/Beans]]\n[Beans](Garden/Beans.md) and [[Garden/Beans|Beans]]\n");
		expect(written["A.md"]).toBe(shown[1]?.["A.md"]);
		expect(written["B.md"]).toBe("[[Garden/Beans]] too\n");
		expect([written["Old/Plan.md"], written["Garden/Beans.md"]]).toEqual([null, "# Plan\n"]);
	});

	test("an edit away from the links keeps the approved change: written over the edit without asking again", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Old/Plan]]\n" };
		const { requests, written } = await renameWhileEdited(files, (vault) => {
			writeFileSync(nodePath.join(vault, "A.md"), "[[Old/Plan]]\nA line added meanwhile.\n");
		});
		expect(requests).toHaveLength(1);
		expect(written["A.md"]).toBe("[[Garden/Beans]]\nA line added meanwhile.\n");
	});

	test("a note that starts linking while the window is open is shown in a second window and relinked", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Old/Plan]]\n" };
		const { requests, shown, written } = await renameWhileEdited(files, (vault) => writeFileSync(nodePath.join(vault, "C.md"), "Now see [[Old/Plan]].\n"), [
			"A.md",
			"C.md",
		]);
		// On lead4: one window without C.md, and C.md kept a link to a path that no longer exists.
		expect(Object.keys(shown[0] ?? {}).sort()).toEqual(["A.md", "Garden/Beans.md"]);
		expect(requests).toHaveLength(2);
		expect(shown[1]?.["C.md"]).toBe("Now see [[Garden/Beans]].\n");
		expect(written["C.md"]).toBe("Now see [[Garden/Beans]].\n");
		expect(written["A.md"]).toBe("[[Garden/Beans]]\n");
		expect([written["Old/Plan.md"], written["Garden/Beans.md"]]).toEqual([null, "# Plan\n"]);
	});

	test("a note written on disk just before the approval, not yet seen by the watcher, is shown in a second window and relinked", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Old/Plan]]\n" };
		// Approved at once after the write: no wait for the server's index to list C.md.
		const { requests, shown, written } = await renameWhileEdited(files, (vault) => writeFileSync(nodePath.join(vault, "C.md"), "Now see [[Old/Plan]].\n"));
		// On main: one window, and C.md kept a link to a path that no longer exists.
		expect(requests).toHaveLength(2);
		expect(shown[1]?.["C.md"]).toBe("Now see [[Garden/Beans]].\n");
		expect(written["C.md"]).toBe("Now see [[Garden/Beans]].\n");
		expect(written["A.md"]).toBe("[[Garden/Beans]]\n");
	});

	test("a note written while the window is open, its parse not done a second after the approval, is shown in a second window and relinked", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Old/Plan]]\n" };
		// The index's first read of C.md (its parse) is held until the call has returned, as behind a slow parse of a big note:
		// C.md is listed, its links unknown, when the approval's wait for the index (RENAME_CATCH_UP_MS) gives up.
		let releaseParse = () => {};
		const parseHeld = new Promise<void>((resolve) => (releaseParse = resolve));
		const { requests, shown, written } = await renameWhileEdited(files, async (vault, running) => {
			const hostVault = running.host.vault;
			const cachedRead = hostVault.cachedRead.bind(hostVault);
			let parseBegun = false;
			hostVault.cachedRead = async (file) => {
				if (file.path === "C.md" && !parseBegun) {
					parseBegun = true;
					await parseHeld;
				}
				return cachedRead(file);
			};
			writeFileSync(nodePath.join(vault, "C.md"), "Now see [[Old/Plan]].\n");
			await until(() => parseBegun, 10_000);
		}).finally(releaseParse);
		// On lead5: one window, and C.md kept a link to a path that no longer exists.
		expect(requests).toHaveLength(2);
		expect(shown[1]?.["C.md"]).toBe("Now see [[Garden/Beans]].\n");
		expect(written["C.md"]).toBe("Now see [[Garden/Beans]].\n");
		expect(written["A.md"]).toBe("[[Garden/Beans]]\n");
	});

	test("notes written while the window is open, not yet parsed and past the bytes a rename looks through, are named in notes_not_read", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Old/Plan]]\n" };
		// Three notes of 6 MiB (under the 8 MiB read bound): the look after the window reads two, 12 of its 16 MiB, and not the third.
		const big = `${"x".repeat(1023)}\n`.repeat(6 * 1024);
		const bigPaths = ["Big 1.md", "Big 2.md", "Big 3.md"];
		let releaseParse = () => {};
		const parseHeld = new Promise<void>((resolve) => (releaseParse = resolve));
		const { requests, written, answer } = await renameWhileEdited(files, async (vault, running) => {
			// The index's first parse of them is held until the call has returned (parses run one at a time: the others wait behind it).
			const hostVault = running.host.vault;
			const cachedRead = hostVault.cachedRead.bind(hostVault);
			let parseBegun = false;
			hostVault.cachedRead = async (file) => {
				if (bigPaths.includes(file.path) && !parseBegun) {
					parseBegun = true;
					await parseHeld;
				}
				return cachedRead(file);
			};
			for (const path of bigPaths) writeFileSync(nodePath.join(vault, path), big);
			await until(() => parseBegun && bigPaths.every((path) => hostVault.getFileByPath(path)?.stat.size === big.length), 10_000);
		}).finally(releaseParse);
		expect(requests).toHaveLength(1);
		expect(written["A.md"]).toBe("[[Garden/Beans]]\n");
		// On main: no notes_not_read, though a link to the old path in the third note was never looked for.
		expect(answer.notes_not_read).toHaveLength(1);
		expect(bigPaths).toContain(answer.notes_not_read?.[0]);
	});

	test("a note edited on disk to link just before the approval is shown in a second window and relinked", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Old/Plan]]\n", "B.md": "No link yet.\n" };
		const { requests, shown, written } = await renameWhileEdited(files, (vault) =>
			writeFileSync(nodePath.join(vault, "B.md"), "No link yet. [[Old/Plan]]\n"),
		);
		// On main: one window, and B.md kept a link to a path that no longer exists.
		expect(requests).toHaveLength(2);
		expect(shown[1]?.["B.md"]).toBe("No link yet. [[Garden/Beans]]\n");
		expect(written["B.md"]).toBe("No link yet. [[Garden/Beans]]\n");
	});

	test("a note that stops linking while the window is open is left as it is now, without asking again", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Old/Plan]]\n", "B.md": "[[Old/Plan]] too\n" };
		const { requests, written } = await renameWhileEdited(files, (vault) => writeFileSync(nodePath.join(vault, "B.md"), "No link now.\n"), ["A.md"]);
		expect(requests).toHaveLength(1);
		expect(written["B.md"]).toBe("No link now.\n");
		expect(written["A.md"]).toBe("[[Garden/Beans]]\n");
		expect([written["Old/Plan.md"], written["Garden/Beans.md"]]).toEqual([null, "# Plan\n"]);
	});

	test("linking notes the move leaves as they are, one new meanwhile, are not a changed plan: asked once", async () => {
		const files = { "Old/Plan.md": "# Plan\n", "A.md": "[[Plan]]\n" };
		const { requests, written } = await renameWhileEdited(
			files,
			(vault) => writeFileSync(nodePath.join(vault, "C.md"), "Now see [[Plan]].\n"),
			["A.md", "C.md"],
			{
				to: "Garden/Plan.md",
				newLinkFormat: "shortest",
			},
		);
		expect(requests).toHaveLength(1);
		expect([written["A.md"], written["C.md"]]).toEqual(["[[Plan]]\n", "Now see [[Plan]].\n"]);
		expect([written["Old/Plan.md"], written["Garden/Plan.md"]]).toEqual([null, "# Plan\n"]);
	});
});

describe("rename_note in Ask mode, notes that keep starting to link while each window is open", () => {
	/** A rename at Ask whose approver, in window n, makes `linker(n)` link to the note, waits until the index lists it, then approves. */
	/** With `onApproved`, run once the first window is approved, before the call is planned again (a revocation, say). */
	async function renameWithNewLinkers(
		linker: (n: number) => string,
		{ excludedFolders = [] as string[], firstWindowMs = 0, onApproved = (_running: RunningService) => {}, files = {} } = {},
	) {
		const vault = await makeVault({
			...files,
			"Old/Plan.md": "# Plan\n",
			"A.md": "[[Old/Plan]]\n",
			"Private/Diary.md": "Dear diary\n",
			".obsidian/app.json": JSON.stringify({ newLinkFormat: "absolute" }),
		});
		const requests: ApprovalRequest[] = [];
		let running: Awaited<ReturnType<typeof startService>> | undefined;
		const approver: Approver = {
			decide: async (request) => {
				requests.push(request);
				// The person takes their time over the first window: the call's retry budget is spent by the time they approve.
				if (requests.length === 1) await new Promise((resolve) => setTimeout(resolve, firstWindowMs));
				const path = linker(requests.length);
				writeFileSync(nodePath.join(vault, path), "Now see [[Old/Plan|Plan]].\n");
				await until(() => (running?.host.metadataCache.resolvedLinks[path]?.["Old/Plan.md"] ?? 0) > 0, 10_000);
				// The call's own turn comes first: it sees the approval and the right as it was, then plans again.
				if (requests.length === 1) setImmediate(() => onApproved(running!));
				return "approve";
			},
		};
		running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true, excludedFolders },
			approver,
			rights: { write: { rename_note: "ask" } },
			host: { watch: true },
		});
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			// A revoked token's answer is not sent: the client hears 401.
			const outcome = await callTool(client, "rename_note", { path: "Old/Plan.md", new_path: "Garden/Beans.md" }).catch((error: unknown) => ({
				ok: false as const,
				error: String(error),
			}));
			const read = (path: string) => (existsSync(nodePath.join(vault, path)) ? readFileSync(nodePath.join(vault, path), "utf8") : null);
			const files = Object.fromEntries(["Old/Plan.md", "Garden/Beans.md", "A.md", "Private/Later.md"].map((path) => [path, read(path)]));
			return { outcome, requests, files };
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
		}
	}

	test("a new linking note in every window: asked at most MAX_WRITE_ATTEMPTS times, then refused naming the last one, nothing written", async () => {
		const { outcome, requests, files } = await renameWithNewLinkers((n) => `C${n}.md`, { firstWindowMs: WRITE_RETRY_BUDGET_MS + 100 });
		expect(requests).toHaveLength(MAX_WRITE_ATTEMPTS);
		// On main: `"" kept changing while this rename_note call waited`, naming no note.
		expect(outcome.ok ? "" : outcome.error).toMatch(new RegExp(`^"C${MAX_WRITE_ATTEMPTS}\\.md" kept changing .*Nothing was written`));
		expect([files["Old/Plan.md"], files["Garden/Beans.md"], files["A.md"]]).toEqual(["# Plan\n", null, "[[Old/Plan]]\n"]);
	}, 30_000);

	test("a note in an excluded folder that starts linking is neither shown, asked about again, nor written", async () => {
		const { outcome, requests, files } = await renameWithNewLinkers(() => "Private/Later.md", { excludedFolders: ["Private"] });
		expect(outcome.ok).toBe(true);
		expect(requests).toHaveLength(1);
		expect(requests[0]?.changes.map((change) => change.path).sort()).toEqual(["A.md", "Garden/Beans.md"]);
		expect([files["A.md"], files["Private/Later.md"]]).toEqual(["[[Garden/Beans]]\n", "Now see [[Old/Plan|Plan]].\n"]);
	});

	test.each([
		["the tool denied", (settings: VaultMcpSettings) => withRights(settings, { rename_note: "deny" })],
		["the token revoked", (settings: VaultMcpSettings) => ({ ...settings, tokens: [] })],
	])("%s while the call is planned again after the first window: the person is not asked again, nothing written", async (_kind, change) => {
		const { outcome, requests, files } = await renameWithNewLinkers((n) => `C${n}.md`, {
			onApproved: (running) => void running.service.apply(change(running.settings)),
		});
		// On main: a second window for a call that could no longer be written.
		expect(requests).toHaveLength(1);
		expect(outcome.ok ? "" : outcome.error).toMatch(/no longer allowed .*Nothing was written|bearer token is required/);
		expect([files["Old/Plan.md"], files["Garden/Beans.md"], files["A.md"]]).toEqual(["# Plan\n", null, "[[Old/Plan]]\n"]);
	});

	test("a linking note's folder excluded while the call is planned again: the person is not shown that note, nothing written", async () => {
		const { outcome, requests, files } = await renameWithNewLinkers(() => "C1.md", {
			files: { "Notes/B.md": "[[Old/Plan]] too\n" },
			// The plan reads its notes in path order: C1.md, new since the first window, then Notes/B.md, whose folder is then excluded.
			onApproved: (running) => {
				const vault = running.host.vault;
				const read = vault.cachedReadPastRewrite.bind(vault);
				vault.cachedReadPastRewrite = async (file) => {
					if (file.path === "C1.md") await running.service.apply({ ...running.settings, excludedFolders: ["Notes"] });
					return read(file);
				};
			},
		});
		// On main: a second window showing Notes/B.md's diff, then the call refused once approved.
		expect(requests).toHaveLength(1);
		expect(outcome.ok ? "" : outcome.error).toMatch(/no longer allowed .*Nothing was written/);
		expect([files["Old/Plan.md"], files["A.md"]]).toEqual(["# Plan\n", "[[Old/Plan]]\n"]);
	});
});
/** `settings` with the write token's rights set to `rights`. */
function withRights(settings: VaultMcpSettings, rights: Parameters<typeof setTokenRights>[2]): VaultMcpSettings {
	const changed = setTokenRights(settings, "write", rights);
	if ("error" in changed) throw new Error(changed.error);
	return changed.settings;
}

describe("rename_note in Ask mode, the target folder made a link out of the vault while the window is open", () => {
	test("refused for the link, not as the token's rights changed; nothing moved in or out", async () => {
		const vault = await makeVault({ "Old/Plan.md": "# Plan\n", "Garden/Seeds.md": "# Seeds\n" });
		const outside = await mkdtemp(nodePath.join(tmpdir(), "vault-mcp-outside-"));
		const approver: Approver = {
			decide: async () => {
				await rm(nodePath.join(vault, "Garden"), { recursive: true });
				await symlink(outside, nodePath.join(vault, "Garden"));
				return "approve";
			},
		};
		const running = await startService(vault, {
			levels: ["write"],
			settings: { writeEnabled: true },
			approver,
			rights: { write: { rename_note: "ask" } },
			// Following the disk, as the CLI server does: the link is seen and hidden like an excluded folder.
			host: { watch: true },
		});
		const client = await connectClient(running.url, running.tokens.write ?? "");
		try {
			const outcome = await callTool(client, "rename_note", { path: "Old/Plan.md", new_path: "Garden/Beans.md" });
			// On lead11: "rename_note is no longer allowed for this token (its rights, its folders, …)", though nothing about the token changed.
			expect(outcome.ok ? "" : outcome.error).toBe(
				"rename_note was not written: a folder it writes in was replaced by a link meanwhile, and this server never writes through a link (in or out of the vault). Nothing was written.",
			);
			expect(readFileSync(nodePath.join(vault, "Old/Plan.md"), "utf8")).toBe("# Plan\n");
			expect(await readdir(outside)).toEqual([]);
		} finally {
			await client.close();
			await running.stop();
			await removeDir(vault);
			await removeDir(outside);
		}
	});
});
