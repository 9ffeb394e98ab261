import { linkpathOf } from "../../../src/markdown/inline";

describe("linkpathOf", () => {
	test("keeps the path part of a link", () => {
		expect(linkpathOf("Note#Heading")).toBe("Note");
		expect(linkpathOf("#Heading")).toBe("");
		expect(linkpathOf("Folder/Note")).toBe("Folder/Note");
	});
});
