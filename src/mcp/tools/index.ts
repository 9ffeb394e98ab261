import type { ToolDescriptor } from "../tool";
import { addTaskTool } from "./add_task";
import { appendToNoteTool } from "./append_to_note";
import { completeTaskTool } from "./complete_task";
import { setPropertyTool } from "./set_property";
import { renameNoteTool } from "./rename_note";
import { createNoteTool } from "./create_note";
import { insertUnderBulletTool } from "./insert_under_bullet";
import { findNotesByTagTool } from "./find_notes_by_tag";
import { getGraphStatsTool } from "./get_graph_stats";
import { getNoteLinksTool } from "./get_note_links";
import { getVaultStatusTool } from "./get_vault_status";
import { listNotesTool } from "./list_notes";
import { listTagsTool } from "./list_tags";
import { listTasksTool } from "./list_tasks";
import { listTemplatesTool } from "./list_templates";
import { listBasesTool } from "./list_bases";
import { queryBaseTool } from "./query_base";
import { readCanvasTool } from "./read_canvas";
import { getActiveNoteTool } from "./get_active_note";
import { openNoteTool } from "./open_note";
import { readNoteTool } from "./read_note";
import { searchNotesTool } from "./search_notes";

/** Every tool the server has, in the order clients list them. Registration filters them by the caller's grant. */
export const ALL_TOOLS: readonly ToolDescriptor[] = [
	getVaultStatusTool,
	listNotesTool,
	readNoteTool,
	searchNotesTool,
	getNoteLinksTool,
	listTagsTool,
	findNotesByTagTool,
	listTasksTool,
	getGraphStatsTool,
	listTemplatesTool,
	listBasesTool,
	queryBaseTool,
	readCanvasTool,
	getActiveNoteTool,
	openNoteTool,
	createNoteTool,
	appendToNoteTool,
	insertUnderBulletTool,
	addTaskTool,
	completeTaskTool,
	setPropertyTool,
	renameNoteTool,
];
