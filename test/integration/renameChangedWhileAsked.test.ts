/**
 * A rename approved in Ask mode writes what the person saw: a linking note another program edits
 * while the approval window is open is not relinked on text nobody saw. Over real HTTP with the SDK
 * client and a scripted approver, as red81 probed the other write tools' Ask flows.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { ApprovalRequest, Approver } from "../../src/mcp/approval";
import { until } from "../helpers/dom";
import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

/**
 * A service whose approver runs `meanwhile` (another program's edit) on the first request only, then approves each;
 * with `linkersThen`, it approves that first request once the server's link index lists exactly those notes as
 * linking to the note (the other program's edit seen, as Obsidian would have seen it while the window was open).
 */
async function renameWhileEdited(
	files: Record<string, string>,
	meanwhile: (vault: string) => void,
	linkersThen?: readonly string[],
	{ to = "Garden/Beans.md", newLinkFormat = "absolute" } = {},
) {
	const vault = await makeVault({ ...files, ".obsidian/app.json": JSON.stringify({ newLinkFormat }) });
	const requests: ApprovalRequest[] = [];
	let client: Awaited<ReturnType<typeof connectClient>> | undefined;
	const linkersNow = async () => {
		const links = await callOk(client!, "get_note_links", { path: "Old/Plan.md" });
		return (links.backlinks as Array<{ path: string }>).map((backlink) => backlink.path).sort();
	};
	const approver: Approver = {
		decide: async (request) => {
			requests.push(request);
			if (requests.length === 1) {
				meanwhile(vault);
				if (linkersThen !== undefined) await until(async () => JSON.stringify(await linkersNow()) === JSON.stringify(linkersThen), 10_000);
			}
			return "approve";
		},
	};
	const running = await startService(vault, {
		levels: ["write"],
		settings: { writeEnabled: true },
		approver,
		rights: { write: { rename_note: "ask" } },
		// Following other programs' edits, as the CLI server does: the index learns of a note that starts linking.
		host: { watch: true },
	});
	client = await connectClient(running.url, running.tokens.write ?? "");
	try {
		await callOk(client, "rename_note", { path: "Old/Plan.md", new_path: to });
		const read = (path: string) => (existsSync(nodePath.join(vault, path)) ? readFileSync(nodePath.join(vault, path), "utf8") : null);
		const written = Object.fromEntries([...new Set([...Object.keys(files), "C.md", to])].map((path) => [path, read(path)]));
		const shown = requests.map((request) => Object.fromEntries(request.changes.map((change) => [change.path, change.after])));
		return { requests, shown, written };
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
