// rename_note of a note of 90,000 distinct links (bench's Names.md), over real HTTP: longest CPU piece between 1 ms turns.
import { promises as fs } from "node:fs";
import { startService } from "../test/helpers/service";
import { settingsWithWriteTokens } from "../test/helpers/service";
import { connectClient } from "../test/helpers/http";
import { callOk } from "../test/helpers/tools";
import { makeVault, removeDir } from "../test/helpers/vault";
const gaps: number[][] = [];
function cpuBetweenTurns() {
	const cpuMs = () => {
		const { user, system } = process.cpuUsage();
		return (user + system) / 1000;
	};
	const first = cpuMs();
	let last = first;
	let longestMs = 0;
	let lastHr = process.hrtime.bigint();
	const timer = setInterval(() => {
		const now = cpuMs();
		const hr = process.hrtime.bigint();
		if (now - last > 40) gaps.push([Number(lastHr / 1000n), Number(hr / 1000n)]);
		lastHr = hr;
		longestMs = Math.max(longestMs, now - last);
		last = now;
	}, 1);
	return {
		stop: () => {
			clearInterval(timer);
			const now = cpuMs();
			return { longestMs: Math.max(longestMs, now - last), totalMs: now - first };
		},
	};
}
async function main() {
	const N = Number(process.env.H31_LINES ?? "45000");
	const lines = Array.from({ length: N }, (_, index) => `[[T${2 * index}]] [[T${2 * index + 1}]]`).join("\n") + "\n";
	const files: Record<string, string> = { "Hostile/Names.md": lines, "Other.md": "[[Names]]\n" };
	for (let i = 0; i < 50; i++) files[`N${i}.md`] = `# N${i}\n[[N${(i + 1) % 50}]]\n`;
	const vault = await makeVault(files);
	const running = await startService(vault, {
		levels: ["write"],
		settings: settingsWithWriteTokens([]).settings,
		rights: { write: { rename_note: "allow" } },
	});
	await running.host.metadataCache.settled();
	const client = await connectClient(running.url, running.tokens.write ?? "");
	let path = "Hostile/Names.md";
	for (let round = 0; round < 4; round++) {
		const next = round % 2 === 0 ? "Hostile/Names moved.md" : "Hostile/Names.md";
		const turns = cpuBetweenTurns();
		const t = performance.now();
		const answer = await callOk<Record<string, unknown>>(client, "rename_note", { path, new_path: next });
		const wall = performance.now() - t;
		await running.host.metadataCache.settled();
		const { longestMs, totalMs } = turns.stop();
		console.log(
			`round ${round}: call ${wall.toFixed(0)} ms wall; longest ${longestMs.toFixed(0)} / total ${totalMs.toFixed(0)} ms CPU (incl. settle)`,
			JSON.stringify(answer).slice(0, 120),
		);
		path = next;
	}
	await client.close();
	await running.stop();
	await removeDir(vault);
	await fs.writeFile("/tmp/hold31/gaps.json", JSON.stringify(gaps));
}
void main();
