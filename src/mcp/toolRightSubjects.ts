import type { ToolRightSubject } from "../auth/rights";

/**
 * Every tool's name and access, in ALL_TOOLS' order, without the tools themselves: what rights are
 * set and shown from. The CLI's token commands read this rather than ALL_TOOLS, whose modules (their
 * schemas, the search, the Markdown parser) were about a fifth of a `token` start's CPU. A unit test
 * holds it equal to ALL_TOOLS, so a tool added there and not here fails it.
 */
export const TOOL_RIGHT_SUBJECTS: readonly ToolRightSubject[] = [
	{ name: "get_vault_status", access: "read" },
	{ name: "list_notes", access: "read" },
	{ name: "read_note", access: "read" },
	{ name: "search_notes", access: "read" },
	{ name: "get_note_links", access: "read" },
	{ name: "list_tags", access: "read" },
	{ name: "find_notes_by_tag", access: "read" },
	{ name: "list_tasks", access: "read" },
	{ name: "get_graph_stats", access: "read" },
	{ name: "list_templates", access: "read" },
	{ name: "list_bases", access: "read" },
	{ name: "query_base", access: "read" },
	{ name: "read_canvas", access: "read" },
	{ name: "get_active_note", access: "read" },
	{ name: "open_note", access: "read" },
	{ name: "create_note", access: "write" },
	{ name: "append_to_note", access: "write" },
	{ name: "insert_under_bullet", access: "write" },
	{ name: "add_task", access: "write" },
	{ name: "complete_task", access: "write" },
	{ name: "set_property", access: "write" },
	{ name: "rename_note", access: "write" },
];
