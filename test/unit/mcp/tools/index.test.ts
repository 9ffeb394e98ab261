import { readdirSync } from "node:fs";
import * as nodePath from "node:path";
import { ALL_TOOLS } from "../../../../src/mcp/tools";
import { findProjectRoot } from "../../../helpers/fixtures";

describe("the tool registry", () => {
	test("holds every tool file once, each named as its file", () => {
		const files = readdirSync(nodePath.join(findProjectRoot(), "src/mcp/tools"))
			.filter((name) => name.endsWith(".ts") && name !== "index.ts")
			.map((name) => name.replace(/\.ts$/, ""))
			.sort();
		expect(ALL_TOOLS.map((tool) => tool.name).sort()).toEqual(files);
	});

	test("read tools come before write tools, so a client lists what it can look at first", () => {
		const firstWrite = ALL_TOOLS.findIndex((tool) => tool.access === "write");
		expect(firstWrite).toBeGreaterThan(0);
		expect(ALL_TOOLS.slice(firstWrite).every((tool) => tool.access === "write")).toBe(true);
	});

	test("a read tool says it is read-only; a write tool says it is not", () => {
		for (const tool of ALL_TOOLS)
			expect({ name: tool.name, readOnly: tool.annotations.readOnlyHint }).toEqual({ name: tool.name, readOnly: tool.access === "read" });
	});
});
