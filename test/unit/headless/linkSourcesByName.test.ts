import fc from "fast-check";
import { SPLIT_MAP_FIRST_KEYS } from "../../../src/config/limits";
import { askedName, LinkSourcesByName, namesAnsweredBy } from "../../../src/headless/linkSourcesByName";
import { largestTableWhile } from "../../helpers/tableGrowth";

describe("the names links ask for", () => {
	test.each([
		["Plan", "Notes/Home.md", "plan"],
		["Projects/Sub/Plan", "Home.md", "plan"],
		["Plan.md", "Home.md", "plan.md"],
		["./Plan", "A/Home.md", "plan"],
		["../B/Image.PNG", "A/Home.md", "image.png"],
		["", "A/Home.md", "home.md"],
		["../../Out", "A/Home.md", null],
	])("%s from %s asks for %s", (linkpath, source, name) => {
		expect(askedName(linkpath, source)).toBe(name);
	});

	test("a note answers links asking for its name with or without .md; another file only for its name", () => {
		expect(namesAnsweredBy("Plan.md")).toEqual(["plan.md", "plan"]);
		expect(namesAnsweredBy("Image.png")).toEqual(["image.png"]);
	});
});

describe("LinkSourcesByName", () => {
	test("lists each source once per file, whatever its links asked; forgets what is deleted", () => {
		const index = new LinkSourcesByName();
		index.add("plan", "A.md");
		index.add("plan", "A.md");
		index.add("plan.md", "B.md");
		index.add("plan", "C.md");
		index.add("other", "A.md");
		expect(index.sourcesAsking("Plan.md").sort()).toEqual(["A.md", "B.md", "C.md"]);
		expect(index.sourcesAsking("plan")).toEqual(["A.md", "C.md"]);
		index.delete("plan", "A.md");
		index.delete("plan", "Nobody.md");
		expect(index.sourcesAsking("Plan.md").sort()).toEqual(["B.md", "C.md"]);
		index.delete("plan", "C.md");
		index.delete("plan.md", "B.md");
		expect(index.sourcesAsking("Plan.md")).toEqual([]);
		expect(index.sourcesAsking("Other")).toEqual(["A.md"]);
	});

	test("a note linking 20,000 names grows no table past SPLIT_MAP_FIRST_KEYS names (one Map of a planted note's 650,000 was copied whole as it grew: 37–51 ms), and each is found and forgotten", () => {
		const index = new LinkSourcesByName();
		const names = Array.from({ length: 20_000 }, (_, at) => `n${at}`);
		// 19,999 on main: every name in one Map.
		expect(largestTableWhile(() => names.forEach((name) => index.add(name, "Planted.md"))).largest).toBeLessThanOrEqual(SPLIT_MAP_FIRST_KEYS);
		index.compact();
		expect(names.filter((name) => !index.asks("Planted.md", name))).toEqual([]);
		names.slice(1).forEach((name) => index.delete(name, "Planted.md"));
		expect([index.sourcesAsking("n0"), index.sourcesAsking("n1")]).toEqual([["Planted.md"], []]);
	});

	test("compact keeps every source", () => {
		const index = new LinkSourcesByName();
		for (let source = 0; source < 40; source++) index.add("plan", `${source}.md`);
		index.compact();
		expect(index.sourcesAsking("plan")).toHaveLength(40);
		index.add("plan", "new.md");
		expect(index.sourcesAsking("plan")).toContain("new.md");
	});
});

describe("LinkSourcesByName beside names asked by many sources", () => {
	test("as sources are resolved again and go, across the size where a name's sources move into a Set, each name lists exactly the sources asking for it, and each source asked says so", () => {
		const names = ["home", "home.md", "plan"];
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 150 }), fc.subarray(names)), { maxLength: 800 }), (operations) => {
				const index = new LinkSourcesByName();
				// What each source asks for now, as the metadata cache knows it: all of a source's names are forgotten, then its new ones added in one pass.
				const asked = new Map<string, string[]>();
				for (const [source, nowAsked] of operations) {
					const path = `${source}.md`;
					for (const name of asked.get(path) ?? []) index.delete(name, path);
					for (const name of nowAsked) index.add(name, path);
					asked.set(path, nowAsked);
				}
				index.compact();
				for (const fileName of ["Home.md", "home", "Plan.md"]) {
					const answered = namesAnsweredBy(fileName);
					const expected = [...asked].filter(([, nowAsked]) => nowAsked.some((name) => answered.includes(name))).map(([path]) => path);
					expect(index.sourcesAsking(fileName).sort()).toEqual(expected.sort());
					// Asked of one source: a rename's look at each note, in whichever form the name keeps its sources.
					const asking = Array.from({ length: 151 }, (_, source) => `${source}.md`).filter((path) => index.asks(path, fileName));
					expect(asking.sort()).toEqual(expected.sort());
				}
			}),
			{ numRuns: 200 },
		);
	});
});
