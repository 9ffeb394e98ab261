import { promises as fs } from "node:fs";
import * as nodePath from "node:path";

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same vault on every machine. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const QUERY_WORDS = (
	"garden project meeting notes idea plan review draft research reading book chapter summary " +
	"quarter budget design system index search vault link tag task daily weekly archive inbox " +
	"travel recipe health workout journal client invoice release bug feature roadmap zettel " +
	"café naïve résumé 東京 数据 ノート"
).split(" ");
const FOLDERS = ["Inbox", "Projects", "Projects/Alpha", "Projects/Beta", "Areas/Health", "Areas/Work", "Resources", "Archive/2024", "Archive/2025", "Daily"];
const TAGS = ["project", "project/alpha", "project/beta", "idea", "reading", "status/active", "status/done", "area/work", "area/health", "later"];

const SYLLABLES = "ka lo mi ne ru ta po si fe gu da vo re li mo sa tu be ni zo".split(" ");
const VOCABULARY_SIZE = 4000;
/** Zipf's exponent: word frequencies in real text fall off roughly as 1 / rank. */
const ZIPF_EXPONENT = 1.05;

/**
 * A vocabulary with real text's shape: a few very common words and a long tail of rare ones.
 * The words the benchmark queries for sit at ranks spread through the middle, so queries hit
 * some notes, not all of them.
 */
function vocabulary(random: () => number): { words: string[]; cumulative: number[] } {
	const words: string[] = [];
	while (words.length < VOCABULARY_SIZE) {
		const length = 2 + Math.floor(random() * 3);
		words.push(Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(""));
	}
	QUERY_WORDS.forEach((word, index) => words.splice(30 + index * 40, 0, word));
	let total = 0;
	const cumulative = words.map((_, rank) => (total += 1 / Math.pow(rank + 1, ZIPF_EXPONENT)));
	return { words, cumulative: cumulative.map((value) => value / total) };
}

export interface SyntheticVault {
	root: string;
	notes: number;
	bytes: number;
}

/**
 * Writes `count` notes into `root`, distributed like real vaults: most notes short, a few long
 * (a log-normal size), folders a few levels deep, wikilinks to other notes (some unresolved),
 * nested tags, tasks in nested lists, and YAML frontmatter on about half of them.
 */
/** The rank a roll in [0, 1) falls on, given the cumulative shares of each rank (a binary search). */
function rankRolled(cumulative: readonly number[], roll: number): number {
	let low = 0;
	let high = cumulative.length - 1;
	while (low < high) {
		const middle = (low + high) >> 1;
		if ((cumulative[middle] ?? 1) < roll) low = middle + 1;
		else high = middle;
	}
	return low;
}

export async function writeSyntheticVault(root: string, count: number, seed = 42): Promise<SyntheticVault> {
	const random = seededRandom(seed);
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
	const { words: vocabularyWords, cumulative } = vocabulary(random);
	const zipfWord = () => vocabularyWords[rankRolled(cumulative, random())] ?? "";
	const words = (n: number) => Array.from({ length: n }, zipfWord).join(" ");
	const names = Array.from({ length: count }, (_, index) => `${pick(FOLDERS)}/${words(2)} ${index}`);
	await fs.mkdir(nodePath.join(root, ".obsidian"), { recursive: true });
	for (const folder of FOLDERS) await fs.mkdir(nodePath.join(root, folder), { recursive: true });
	let bytes = 0;
	for (let index = 0; index < count; index++) {
		const lines: string[] = [];
		if (random() < 0.5)
			lines.push(
				"---",
				`tags: [${pick(TAGS)}, ${pick(TAGS)}]`,
				`created: 2025-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`,
				`status: ${pick(["active", "done", "someday"])}`,
				"---",
			);
		lines.push(`# ${words(3)}`, "");
		// Log-normal paragraph count: median around 4, a long tail of long notes.
		const paragraphs = Math.max(1, Math.round(Math.exp(1.4 + random() * 1.6 * (random() < 0.9 ? 1 : 2))));
		for (let paragraph = 0; paragraph < paragraphs; paragraph++) {
			const roll = random();
			if (roll < 0.55) {
				const link = random() < 0.92 ? `[[${pick(names).split("/").pop() ?? ""}]]` : `[[Missing ${Math.floor(random() * 100)}]]`;
				lines.push(`${words(12 + Math.floor(random() * 30))} ${link} ${words(6)} #${pick(TAGS)}`, "");
			} else if (roll < 0.8) {
				lines.push(
					`- ${words(5)}`,
					`\t- [ ] ${words(6)} 📅 2026-1${Math.floor(random() * 3)}-1${Math.floor(random() * 9)}`,
					`\t- [x] ${words(4)} ✅ 2026-10-0${1 + Math.floor(random() * 8)}`,
					`- ${words(4)} [[${pick(names).split("/").pop() ?? ""}]]`,
					"",
				);
			} else if (roll < 0.9) {
				lines.push(`## ${words(2)}`, "");
			} else {
				lines.push("```js", `const ${pick(["a", "b", "c"])} = "${words(3)}"; // #not-a-tag`, "```", "");
			}
		}
		const text = lines.join("\n");
		bytes += Buffer.byteLength(text);
		await fs.writeFile(nodePath.join(root, `${names[index]}.md`), text);
	}
	return { root, notes: count, bytes };
}

/** Stems of the common-vocabulary vault: few enough that any of the first few dozen appears in most notes. */
const COMMON_STEM_COUNT = 300;
/** Stems placed at fixed Zipf ranks, so the benchmark's common-word queries know what they ask for. */
const COMMON_QUERY_STEMS = ["garden", "project", "meeting", "review", "plan", "market"];
const COMMON_QUERY_RANKS = [2, 4, 7, 11, 16, 24];
/** Endings a stem takes: a prefix query for the stem finds them all, as it does for real inflections. */
const COMMON_ENDINGS: Array<[string, number]> = [
	["", 0.6],
	["s", 0.2],
	["ing", 0.1],
	["ed", 0.1],
];

export interface CommonVocabularyVault extends SyntheticVault {
	/** The vault's stems, most common first (the rank each word is drawn at). */
	stemsByRank: string[];
}

/**
 * A vault whose vocabulary is small and common: Zipf-distributed words from a few
 * hundred stems, each with a few endings, so a query word appears in most notes. About 2.1 KB a
 * note, 21 MB for 10,000 notes; most notes a few paragraphs, some much longer.
 */
export async function writeCommonVocabularyVault(root: string, count: number, seed = 16): Promise<CommonVocabularyVault> {
	const random = seededRandom(seed);
	const stems = new Set<string>();
	while (stems.size < COMMON_STEM_COUNT) {
		const length = 2 + Math.floor(random() * 2);
		const stem = Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join("");
		if (!COMMON_QUERY_STEMS.some((word) => word.startsWith(stem) || stem.startsWith(word))) stems.add(stem);
	}
	const ranked = [...stems];
	COMMON_QUERY_STEMS.forEach((word, index) => ranked.splice(COMMON_QUERY_RANKS[index] ?? 0, 0, word));
	let total = 0;
	const cumulative = ranked.map((_, rank) => (total += 1 / Math.pow(rank + 1, ZIPF_EXPONENT))).map((value) => value / total);
	const word = () => {
		const rank = rankRolled(cumulative, random());
		let ending = random();
		for (const [suffix, share] of COMMON_ENDINGS) {
			if (ending < share) return `${ranked[rank] ?? ""}${suffix}`;
			ending -= share;
		}
		return ranked[rank] ?? "";
	};
	const words = (n: number) => Array.from({ length: n }, word).join(" ");
	await fs.mkdir(nodePath.join(root, ".obsidian"), { recursive: true });
	for (const folder of FOLDERS) await fs.mkdir(nodePath.join(root, folder), { recursive: true });
	let bytes = 0;
	for (let index = 0; index < count; index++) {
		const lines: string[] = [];
		if (random() < 0.4) lines.push("---", `tags: [${TAGS[Math.floor(random() * TAGS.length)]}]`, `status: ${random() < 0.5 ? "active" : "done"}`, "---");
		lines.push(`# ${words(3)}`, "");
		const paragraphs = Math.max(1, Math.round(Math.exp(0.9 + random() * 1.3 * (random() < 0.9 ? 1 : 1.6))));
		for (let paragraph = 0; paragraph < paragraphs; paragraph++) {
			if (random() < 0.2) lines.push(`## ${words(2)}`, "");
			lines.push(`${words(32 + Math.floor(random() * 44))}.`, "");
		}
		const text = lines.join("\n");
		bytes += Buffer.byteLength(text);
		await fs.writeFile(nodePath.join(root, FOLDERS[index % FOLDERS.length] ?? "", `${words(2)} ${index}.md`), text);
	}
	return { root, notes: count, bytes, stemsByRank: ranked };
}
