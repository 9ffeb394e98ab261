import { z } from "zod";
import { filePlacesAt, filePlacesOf, type FilePlaces } from "../../../src/mcp/filePlaces";
import { ALL_TOOLS } from "../../../src/mcp/tools";

/** Every place an answer names a file, as a JSON Pointer with `*` for any item. */
function pointers(places: FilePlaces | null, prefix = ""): string[] {
	if (places === null) return [];
	if (places.names) return [prefix];
	return [...[...places.keys].flatMap(([key, inner]) => pointers(inner, `${prefix}/${key}`)), ...pointers(places.items, `${prefix}/*`)];
}

function placesOfTool(name: string): string[] {
	const tool = ALL_TOOLS.find((candidate) => candidate.name === name);
	if (!tool) throw new Error(name);
	return pointers(filePlacesOf(tool.outputSchema)).sort();
}

describe("filePlacesOf: where a tool's answer names a file", () => {
	test.each([
		["list_tasks", ["/next_cursor", "/still_being_read", "/tasks/*/path"]],
		["list_tags", ["/next_cursor", "/still_being_read"]],
		["list_notes", ["/next_cursor", "/notes/*/path"]],
		["find_notes_by_tag", ["/next_cursor", "/notes", "/still_being_read"]],
		["get_note_links", ["/backlinks/*/path", "/next_cursor", "/outgoing/*/link", "/outgoing/*/target", "/path", "/still_being_read", "/unresolved"]],
		["read_canvas", ["/next_cursor", "/nodes/*/background", "/nodes/*/file", "/path"]],
		["rename_note", ["/frontmatter_not_rewritten", "/new_path", "/notes_not_read", "/path"]],
		["create_note", ["/backup", "/path"]],
		["query_base", ["/filter_errors/*/path", "/next_cursor", "/path", "/rows/*/path", "/still_being_read"]],
		["search_notes", ["/results/*/path"]],
		["list_templates", ["/folder", "/next_cursor", "/templates/*/path"]],
		["get_vault_status", ["/unsearched_notes"]],
	])("%s: %j", (name, expected) => {
		expect(placesOfTool(name)).toEqual(expected);
	});

	test("a note's own text is never taken for a path: its frontmatter's `path`, a base's cells; a link as written and an unresolved link name a note as a link does", () => {
		expect(placesOfTool("read_note")).toEqual(["/path"]);
		const links = filePlacesOf(ALL_TOOLS.find((tool) => tool.name === "get_note_links")!.outputSchema);
		expect(filePlacesAt(filePlacesAt(filePlacesAt(links, "outgoing"), 0), "link")?.names).toBe("link");
		expect(filePlacesAt(filePlacesAt(filePlacesAt(links, "outgoing"), 0), "target")?.names).toBe("path");
		expect(filePlacesAt(filePlacesAt(links, "unresolved"), 0)?.names).toBe("link");
		const base = filePlacesOf(ALL_TOOLS.find((tool) => tool.name === "query_base")!.outputSchema);
		expect(filePlacesAt(filePlacesAt(filePlacesAt(base, "rows"), 3), "values")).toBeNull();
	});

	test("optional, nullable and default wrappers are looked through; records and unknowns are not", () => {
		const places = filePlacesOf({
			a: z.array(z.object({ target: z.string().nullable().optional() })).optional(),
			b: z.record(z.string(), z.object({ path: z.string() })),
			c: z.unknown(),
			d: z.number(),
		});
		expect(pointers(places)).toEqual(["/a/*/target"]);
		expect(filePlacesOf({ d: z.number() })).toBeNull();
	});
});
