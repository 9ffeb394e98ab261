import { SearchEngine } from "../../../src/search/engine";
import { packValue, type ResolvedTerm } from "../../../src/search/postingValues";
import { parseQuery, stopWordSet, withStopWords } from "../../../src/search/query";
import { ENGLISH_STOP_WORDS } from "../../../src/search/stopWords";
import { TEMPLATE_MIN_NOTES, templateWord, withoutTemplate } from "../../../src/search/templates";

/** Postings of a word said `counts[i]` times in note i. */
function postings(counts: readonly number[]): ResolvedTerm {
	return {
		slots: Uint32Array.from(counts, (_, slot) => slot),
		values: Uint32Array.from(counts, (count) => packValue(count, 0, false)),
		length: counts.length,
		phrase: null,
	};
}

describe("a template's word: in most notes, said as many times in each", () => {
	test("a footer's word said twice in nearly every note is one; the notes saying it otherwise are its real holders", () => {
		const counts = [...Array.from({ length: 95 }, () => 2), 5, 1, 3, 4, 7];
		expect(templateWord(postings(counts), null, 120)).toEqual({ low: 2, high: 2, notes: 5 });
	});

	test("a word the notes are about, said a different number of times in each, is not one", () => {
		const counts = Array.from({ length: 100 }, (_, index) => 1 + (index % 7));
		expect(templateWord(postings(counts), null, 120)).toBeNull();
	});

	test("said once in most notes is not a template's count: in short notes most words are said once", () => {
		expect(templateWord(postings(Array.from({ length: 100 }, () => 1)), null, 120)).toBeNull();
	});

	test("a word in few notes, or in a small share of them, is not looked at", () => {
		expect(templateWord(postings(Array.from({ length: TEMPLATE_MIN_NOTES - 1 }, () => 2)), null, TEMPLATE_MIN_NOTES)).toBeNull();
		expect(templateWord(postings(Array.from({ length: 100 }, () => 2)), null, 1000)).toBeNull();
	});

	test("only the accepted notes count: a folder searched alone is judged by its own notes", () => {
		const counts = [...Array.from({ length: 60 }, () => 2), ...Array.from({ length: 60 }, (_, index) => 3 + (index % 5))];
		const accepted = Uint8Array.from(counts, (_, slot) => (slot < 60 ? 1 : 0));
		expect(templateWord(postings(counts), null, 120)).toBeNull();
		expect(templateWord(postings(counts), accepted, 60)).toEqual({ low: 2, high: 2, notes: 0 });
	});

	test("a note's count loses the template's; a note saying it fewer times keeps its own", () => {
		const template = { low: 2, high: 2, notes: 5 };
		expect(withoutTemplate(packValue(5, 1, true), template)).toBe(packValue(3, 1, true));
		expect(withoutTemplate(packValue(2, 0, false), template)).toBe(0);
		expect(withoutTemplate(packValue(1, 0, false), template)).toBe(packValue(1, 0, false));
	});

	test("two templates (plugin notes say it twice, people notes three times): both counts are copies", () => {
		const counts = [...Array.from({ length: 60 }, () => 2), ...Array.from({ length: 55 }, () => 3), 6, 1, 9, 4, 5];
		const template = templateWord(postings(counts), null, 150);
		expect(template).toEqual({ low: 2, high: 3, notes: 5 });
		if (!template) return;
		expect(withoutTemplate(packValue(3, 0, false), template)).toBe(0);
		expect(withoutTemplate(packValue(6, 0, false), template)).toBe(packValue(3, 0, false));
		expect(withoutTemplate(packValue(1, 0, false), template)).toBe(packValue(1, 0, false));
	});

	test("a note titled for the word holds it beyond the template, even saying it the template's count", () => {
		const counts = [...Array.from({ length: 95 }, () => 2), 5, 1, 3, 4, 7];
		const term = postings(counts);
		// Notes 0-2 say it twice, as the template does, and hold it in their titles; note 95 (five times) does too.
		for (const slot of [0, 1, 2, 95]) term.values[slot] = packValue(counts[slot] ?? 0, 1, true);
		expect(templateWord(term, null, 120)).toEqual({ low: 2, high: 2, notes: 8 });
		const accepted = Uint8Array.from(counts, (_, slot) => (slot === 1 || slot === 96 ? 0 : 1));
		expect(templateWord(term, accepted, 118)).toEqual({ low: 2, high: 2, notes: 6 });
	});

	test("said once or twice in most notes is no template either", () => {
		const counts = Array.from({ length: 100 }, (_, index) => 1 + (index % 2));
		expect(templateWord(postings(counts), null, 120)).toBeNull();
	});
});

describe("search over notes made from one template", () => {
	const people = Array.from({ length: 80 }, (_, index) => ({
		path: `People/person${index}.md`,
		text: `Person number ${index} writes about topic${index}.\n\nDiscord: \nGitHub: \n\nFooter: find us on Discord and GitHub.`,
	}));
	const docs = [
		...people,
		{ path: "Using Discord.md", text: "The chat server: how to get an invite and talk in its channels." },
		{ path: "Events.md", text: "Join the meetups. Anyone can join; join early, join often." },
	];

	async function search(query: string): Promise<string[]> {
		const engine = new SearchEngine();
		for (const doc of docs) engine.index.add(doc.path, doc.path.replace(/\.md$/, "").split("/").pop() ?? doc.path, 0, doc.text, []);
		const answer = await engine.search(withStopWords(parseQuery(query), stopWordSet(ENGLISH_STOP_WORDS)), null, 10, () => Promise.resolve(""));
		return answer.results.map((hit) => hit.path);
	}

	test("the note titled for a word every template says ranks first: the template's copies do not make the word worthless", async () => {
		expect((await search("join the discord"))[0]).toBe("Using Discord.md");
		expect((await search("discord"))[0]).toBe("Using Discord.md");
	});

	test("every note holding the word is still found", async () => {
		expect(await search("discord")).toHaveLength(10);
		const engine = new SearchEngine();
		for (const doc of docs) engine.index.add(doc.path, doc.path, 0, doc.text, []);
		expect((await engine.search(parseQuery("discord"), null, 100, () => Promise.resolve(""))).total).toBe(81);
	});
});
