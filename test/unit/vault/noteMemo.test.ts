import type { NodeHost } from "../../../src/headless/NodeHost";
import { graphStats } from "../../../src/vault/links";
import { NoteMemo } from "../../../src/vault/noteMemo";
import type { Scope } from "../../../src/vault/scope";
import { notesWithTag } from "../../../src/vault/tags";
import { TagCountWalk } from "../../../src/vault/tagCounts";
import { findTasks } from "../../../src/vault/tasks";
import { openVault, type OpenVault } from "../../helpers/hostVault";
import { seededRandom } from "../../../bench/syntheticVault";

const FOLDERS = ["", "A/", "B/", "Private/"];
const TAGS = ["#alpha", "#Alpha/beta", "#gamma", "#project/x", "#project"];

/** A note with a random mix of tasks (with and without dates), tags, links (some to nowhere) and frontmatter. */
function noteText(random: () => number, names: readonly string[]): string {
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
	const lines: string[] = [];
	if (random() < 0.4) lines.push("---", `tags: [${pick(TAGS).slice(1)}]`, `related: "[[${pick(names)}]]"`, "---");
	const count = 1 + Math.floor(random() * 6);
	for (let index = 0; index < count; index++) {
		const roll = random();
		if (roll < 0.3)
			lines.push(
				`- [${pick([" ", "x", "-", "/"])}] task ${Math.floor(random() * 100)}${random() < 0.5 ? ` 📅 2026-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}` : ""}`,
			);
		else if (roll < 0.55) lines.push(`see [[${random() < 0.8 ? pick(names) : `Missing ${Math.floor(random() * 5)}`}]] and ${pick(TAGS)}`);
		else if (roll < 0.7) lines.push(`\t- [ ] nested ${pick(TAGS)}`);
		else lines.push(`plain line ${Math.floor(random() * 1000)}`);
	}
	return lines.join("\n") + "\n";
}

/** Resolves once the metadata cache has been quiet (no `resolved`) for a moment after the last change. */
function settled(host: NodeHost): Promise<void> {
	return new Promise((resolve) => {
		let timer = setTimeout(done, 60);
		const ref = host.metadataCache.on("resolved", () => {
			clearTimeout(timer);
			timer = setTimeout(done, 60);
		});
		function done(): void {
			host.metadataCache.offref(ref);
			resolve();
		}
	});
}

/** Every aggregate the vault-wide tools answer from, computed with the given memo. */
async function aggregates(vault: OpenVault, scope: Scope, memo: NoteMemo): Promise<unknown> {
	return {
		tasks: await findTasks(vault.host, scope, { status: "any" }, undefined, memo),
		openDue: await findTasks(vault.host, scope, { status: "open", dueBefore: "2026-06-01" }, undefined, memo),
		tags: (await (await TagCountWalk.finished(vault.host, scope, undefined, memo)).top("", Number.MAX_SAFE_INTEGER)).tags,
		tagged: await notesWithTag(vault.host, scope, "project", undefined, memo),
		graph: await graphStats(vault.host, scope, 50, undefined, memo),
	};
}

/**
 * Compares the kept aggregates with a recompute made just before and just after them: when those two
 * agree, the vault did not change meanwhile (a slow machine can still be resolving links), and the kept ones must agree too.
 */
async function expectKeptEqualsRecomputed(vault: OpenVault, scope: Scope, kept: NoteMemo): Promise<void> {
	for (;;) {
		const before = await aggregates(vault, scope, new NoteMemo());
		const fromKept = await aggregates(vault, scope, kept);
		const after = await aggregates(vault, scope, new NoteMemo());
		if (JSON.stringify(before) !== JSON.stringify(after)) {
			await settled(vault.host);
			continue;
		}
		expect(fromKept).toEqual(after);
		return;
	}
}

describe("aggregates kept per note", () => {
	let vault: OpenVault;
	const random = seededRandom(24);
	let names: string[] = [];

	beforeAll(async () => {
		const files: Record<string, string> = {};
		names = Array.from({ length: 12 }, (_, index) => `Note ${index}`);
		for (const [index, name] of names.entries()) files[`${FOLDERS[index % FOLDERS.length] ?? ""}${name}.md`] = noteText(random, names);
		vault = await openVault(files);
	});
	afterAll(() => vault.close());

	test("after random edits, creates, renames and deletes, the kept aggregates equal a full recompute, exclusions included", async () => {
		const kept = new NoteMemo();
		const scopes = [vault.scope(), vault.scope("Private"), vault.scope("A", "B")];
		let fresh = 0;
		for (let step = 0; step < 40; step++) {
			// Warm the kept memo with the vault as it is, so the next comparison checks what changed since.
			for (const scope of scopes) await aggregates(vault, scope, kept);
			const notes = vault.host.vault.getMarkdownFiles().filter((file) => !file.path.startsWith(".trash/"));
			const target = notes[Math.floor(random() * notes.length)];
			const roll = random();
			const changed = settled(vault.host);
			if (roll < 0.3 || !target) {
				const name = `New ${fresh++}`;
				names.push(name);
				await vault.host.vault.create(`${FOLDERS[Math.floor(random() * FOLDERS.length)] ?? ""}${name}.md`, noteText(random, names));
			} else if (roll < 0.65) {
				await vault.host.vault.process(target, () => noteText(random, names));
			} else if (roll < 0.85) {
				const name = `Moved ${fresh++}`;
				names.push(name);
				await vault.host.fileManager.renameFile(target, `${FOLDERS[Math.floor(random() * FOLDERS.length)] ?? ""}${name}.md`);
			} else {
				await vault.host.fileManager.trashFile(target);
			}
			await changed;
			for (const scope of scopes) await expectKeptEqualsRecomputed(vault, scope, kept);
		}
	}, 120_000);

	test("a second list of tasks reads no note's text again; a changed note is read again", async () => {
		const memo = new NoteMemo();
		const scope = vault.scope();
		const read = jest.spyOn(vault.host.vault, "cachedRead");
		try {
			const first = await findTasks(vault.host, scope, { status: "any" }, undefined, memo);
			expect(first.length).toBeGreaterThan(0);
			expect(read.mock.calls.length).toBeGreaterThan(0);
			read.mockClear();
			expect(await findTasks(vault.host, scope, { status: "any" }, undefined, memo)).toEqual(first);
			expect(read).not.toHaveBeenCalled();
			const file = vault.host.vault.getFileByPath(first[0]?.path ?? "");
			if (!file) throw new Error("the first task's note is gone");
			const before = vault.host.metadataCache.getFileCache(file);
			await vault.host.vault.process(file, (text) => `- [ ] brand new task\n${text}`);
			// The metadata cache reads the note itself to parse it: wait until it has, and the vault is quiet.
			while (vault.host.metadataCache.getFileCache(file) === before) await settled(vault.host);
			await settled(vault.host);
			read.mockClear();
			const after = await findTasks(vault.host, scope, { status: "any" }, undefined, memo);
			// Only the changed note is read again (on a busy machine its events may have it read more than once).
			expect([...new Set(read.mock.calls.map(([called]) => called.path))]).toEqual([file.path]);
			expect(after.filter((task) => task.path === file.path)[0]).toMatchObject({ line: 0, text: "brand new task", status: "open" });
		} finally {
			read.mockRestore();
		}
	});
});
