import { endpointUrl } from "../../../src/http/server";
import { splitFrontmatter } from "../../../src/markdown/frontmatter";
import { linkpathOf } from "../../../src/markdown/inline";
import { dateProblem, formatTaskLine, ISO_DATE } from "../../../src/markdown/taskLine";
import { isTagOrNested } from "../../../src/vault/tags";

// The functions that replaced duplicates (issue 13): each is now the one place its rule lives.

describe("linkpathOf", () => {
	test("keeps the path part of a link", () => {
		expect(linkpathOf("Note#Heading")).toBe("Note");
		expect(linkpathOf("#Heading")).toBe("");
		expect(linkpathOf("Folder/Note")).toBe("Folder/Note");
	});
});

describe("dates", () => {
	test("ISO_DATE takes YYYY-MM-DD only", () => {
		expect(ISO_DATE.test("2025-01-31")).toBe(true);
		expect(ISO_DATE.test("2025-1-31")).toBe(false);
	});
	test("dateProblem names a date that is not real, and passes a real one", () => {
		expect(dateProblem("2025-01-31")).toBeNull();
		expect(dateProblem("2025-13-01")).toBe('"2025-13-01" is not a real date. Use YYYY-MM-DD.');
	});
	test.each(["2026-02-30", "2026-02-29", "2026-04-31", "2026-00-10", "2026-01-00"])("%s, a day its month does not have, is not real (JavaScript's Date would roll it into the next month)", (date) => {
		expect(dateProblem(date)).toBe(`"${date}" is not a real date. Use YYYY-MM-DD.`);
	});
	test("29 February of a leap year is real", () => {
		expect(dateProblem("2028-02-29")).toBeNull();
	});
});

describe("formatTaskLine", () => {
	test("writes the due date in the Tasks plugin's emoji or Dataview's field", () => {
		expect(formatTaskLine("-", "Water the herbs", undefined, "emoji")).toBe("- [ ] Water the herbs");
		expect(formatTaskLine("*", "Water the herbs", "2026-12-01", "emoji")).toBe("* [ ] Water the herbs 📅 2026-12-01");
		expect(formatTaskLine("-", "Water the herbs", "2026-12-01", "dataview")).toBe("- [ ] Water the herbs [due:: 2026-12-01]");
	});
});

describe("splitFrontmatter", () => {
	test("splits YAML from body, line endings kept", () => {
		expect(splitFrontmatter("---\ntitle: x\n---\nbody\n")).toEqual({ yaml: "title: x\n", body: "body\n" });
		expect(splitFrontmatter("---\r\na: 1\r\n---\r\nbody")).toEqual({ yaml: "a: 1\r\n", body: "body" });
		expect(splitFrontmatter("---\n---\n")).toEqual({ yaml: "", body: "" });
		expect(splitFrontmatter("---\na: 1\n---")).toEqual({ yaml: "a: 1\n", body: "" });
	});
	test("is null without a closed block at the start", () => {
		expect(splitFrontmatter("body\n---\na: 1\n---\n")).toBeNull();
		expect(splitFrontmatter("---\na: 1\n")).toBeNull();
	});
});

describe("isTagOrNested", () => {
	test("matches the tag and tags nested under it, not tags that only share a prefix", () => {
		expect(isTagOrNested("project", "project")).toBe(true);
		expect(isTagOrNested("project/alpha", "project")).toBe(true);
		expect(isTagOrNested("projects", "project")).toBe(false);
	});
});

describe("endpointUrl", () => {
	test("is the loopback MCP endpoint on the port", () => {
		expect(endpointUrl(27150)).toBe("http://127.0.0.1:27150/mcp");
	});
});
