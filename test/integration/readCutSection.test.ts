import { connectClient } from "../helpers/http";
import { startService } from "../helpers/service";
import { callOk } from "../helpers/tools";
import { makeVault, removeDir } from "../helpers/vault";

interface Read {
	content: string;
	section?: string;
	truncated: boolean;
	read_further?: string;
}

/**
 * A section larger than read_note's answer holds comes back as its start, cut, with what to read
 * next. A heading of 400,000 `"` (800 KB as JSON) was echoed whole as `section`, three times in the
 * answer's bound, and left the section no room: content "" and truncated, like an empty section.
 * A heading after the cut is named by a path that reads it: a second `## Details` named alone read the first.
 * Cost: a 400 KB and two 600 KB notes, six reads, about 0.7 s of main-thread CPU.
 */
test("a section over the read bound answers its start, cut, and the headings to read the rest with", async () => {
	const quotes = '"'.repeat(400_000);
	const vault = await makeVault({
		"Quoted.md": `# ${quotes}\n\nFirst paragraph.\n`,
		// `## Details` is named twice: named alone, read_note reads the first (the first match wins).
		"Twice.md": `# Early\n\n## Details\n\nread already\n\n# Late\n\n${"word ".repeat(120_000)}\n\n## Details\n\nthe rest\n`,
		"Long.md": `# Intro\n\nshort\n\n# Big\n\n${"word ".repeat(120_000)}\n\n## Inside\n\nthe rest\n\n# After\n\nnot in Big\n`,
	});
	const running = await startService(vault, { levels: ["read"] });
	const client = await connectClient(running.url, running.tokens.read ?? "");
	try {
		const quoted = await callOk<Read>(client, "read_note", { path: `Quoted.md#${quotes}` });
		expect(quoted.truncated).toBe(true);
		expect(quoted.content.length).toBeGreaterThan(100_000);
		expect(quoted.content.startsWith(`# ${quotes.slice(0, 1000)}`)).toBe(true);
		expect(quoted.section?.length).toBeLessThan(2_000);
		expect(quoted.read_further).toMatch(/content holds the first \d+ of the section's 400021 characters\. No heading starts after the cut/);

		const big = await callOk<Read>(client, "read_note", { path: "Long.md#Big" });
		expect(big).toMatchObject({ section: "Big", truncated: true });
		expect(big.content.startsWith("# Big\n\nword word")).toBe(true);
		expect(big.read_further).toContain("'Long.md#Inside' (line ");
		expect(big.read_further).not.toContain("After");
		const inside = await callOk<Read>(client, "read_note", { path: "Long.md#Inside" });
		expect(inside).toMatchObject({ content: "## Inside\n\nthe rest\n\n", truncated: false });
		expect(inside.read_further).toBeUndefined();

		const whole = await callOk<Read>(client, "read_note", { path: "Long.md" });
		expect(whole.truncated).toBe(true);
		expect(whole.read_further).toMatch(/of the note's \d+ characters.*'Long\.md#Inside'.*'Long\.md#After'/);

		const late = await callOk<Read>(client, "read_note", { path: "Twice.md#Late" });
		expect(late.read_further).toContain("'Twice.md#Late#Details' (line 10)");
		const named = await callOk<Read>(client, "read_note", { path: "Twice.md#Late#Details" });
		expect(named.content).toBe("## Details\n\nthe rest\n");
	} finally {
		await client.close();
		await running.stop();
		await removeDir(vault);
	}
});
