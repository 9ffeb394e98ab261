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

/**
 * Runs a change to the vault and resolves once the metadata cache has taken it in (parsed, links
 * resolved). Until then a note's metadata still describes its old text while the vault already
 * reads the new one, and a fresh recompute pairs the two (the old task lines read from the new text).
 */
async function changed(vault: OpenVault, change: () => Promise<unknown>): Promise<void> {
	await change();
	await vault.host.metadataCache.settled();
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
			await vault.host.metadataCache.settled();
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
			if (roll < 0.3 || !target) {
				const name = `New ${fresh++}`;
				names.push(name);
				const path = `${FOLDERS[Math.floor(random() * FOLDERS.length)] ?? ""}${name}.md`;
				await changed(vault, () => vault.host.vault.create(path, noteText(random, names)));
			} else if (roll < 0.65) {
				await changed(vault, () => vault.host.vault.process(target, () => noteText(random, names)));
			} else if (roll < 0.85) {
				const name = `Moved ${fresh++}`;
				names.push(name);
				const path = `${FOLDERS[Math.floor(random() * FOLDERS.length)] ?? ""}${name}.md`;
				await changed(vault, () => vault.host.fileManager.renameFile(target, path));
			} else {
				await changed(vault, () => vault.host.fileManager.trashFile(target));
			}
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
			// The metadata cache reads the note itself to parse it: wait until it has.
			await changed(vault, () => vault.host.vault.process(file, (text) => `- [ ] brand new task\n${text}`));
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

// The property's smallest failing case (seen 4 of 5 runs on a loaded machine): a note's task moves down
// when frontmatter is put above it. The property used to wait for 60 ms without a `resolved` event,
// counted from before the edit; when the edit's write and parse took longer, the "full recompute" read
// the new text at the old metadata's task line and expected `tags: [alpha]` as a task. Reads slowed
// here stand for that busy machine, so the case fails every time with a timed wait.
describe("an edit the metadata cache is slow to take in", () => {
	const before = "plain\n- [ ] task 37\n";
	const after = "---\ntags: [alpha]\n---\nplain\n- [ ] task 37\n";
	let vault: OpenVault;

	beforeAll(async () => {
		vault = await openVault({ "Note.md": before });
	});
	afterAll(() => vault.close());

	test("once it is in, the kept tasks and a full recompute both name the task at its new line", async () => {
		const scope = vault.scope();
		const kept = new NoteMemo();
		expect(await findTasks(vault.host, scope, { status: "any" }, undefined, kept)).toMatchObject([{ line: 1, text: "task 37" }]);
		const file = vault.host.vault.getFileByPath("Note.md");
		if (!file) throw new Error("Note.md is missing");
		const read = vault.host.vault.cachedRead.bind(vault.host.vault);
		const slowRead = jest.spyOn(vault.host.vault, "cachedRead").mockImplementation(async (note) => {
			await new Promise((resolve) => setTimeout(resolve, 150));
			return read(note);
		});
		try {
			await changed(vault, () => vault.host.vault.process(file, () => after));
		} finally {
			slowRead.mockRestore();
		}
		const recomputed = await findTasks(vault.host, scope, { status: "any" }, undefined, new NoteMemo());
		expect(recomputed).toMatchObject([{ line: 4, text: "task 37", status: "open" }]);
		expect(await findTasks(vault.host, scope, { status: "any" }, undefined, kept)).toEqual(recomputed);
	});
});
