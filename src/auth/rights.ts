/**
 * Rights per tool: for each token, whether a tool runs at once (allow), waits for the person
 * (ask) or does not exist for it (deny). Pure: the tool list comes in as names and access levels.
 */

export type ToolRight = "allow" | "ask" | "deny";

export const TOOL_RIGHTS: readonly ToolRight[] = ["allow", "ask", "deny"];

/** What rights need to know of a tool. */
export interface ToolRightSubject {
	name: string;
	access: "read" | "write";
}

/** What rights need to know of a token (a TokenRecord fits). */
export interface RightsHolder {
	level: "read" | "write";
	rights?: ToolRights;
}

/** A token's stored rights, tool name → right. A tool missing from it takes `DEFAULT_RIGHT` of its access. */
export type ToolRights = Record<string, ToolRight>;

/**
 * The right of a tool the token's map does not name: a tool added by an update reads at once and
 * asks before it writes, so an upgrade never lets a new tool change notes unseen.
 */
const DEFAULT_RIGHT: Record<ToolRightSubject["access"], ToolRight> = { read: "allow", write: "ask" };

/**
 * The write tools there were before tokens had rights. A token saved then has no map; reading the
 * settings gives it one that allows these (read tools are allowed when unnamed), so a write tool
 * added since asks, and an upgrade never lets a new tool change notes unseen.
 */
export const WRITE_TOOLS_BEFORE_RIGHTS: readonly string[] = ["create_note", "append_to_note", "insert_under_bullet", "add_task"];

/**
 * What a token may do with a tool now. A tool above the token's level, or a write tool while
 * writing is switched off (`canWrite` false), is deny whatever is set; a read tool is never ask.
 */
export function effectiveRight(token: RightsHolder, tool: ToolRightSubject, canWrite: boolean): ToolRight {
	if (tool.access === "write" && (!canWrite || token.level !== "write")) return "deny";
	// A token record built without a map (not read from settings) may use every tool of its level.
	const stored = token.rights === undefined ? "allow" : (token.rights[tool.name] ?? DEFAULT_RIGHT[tool.access]);
	if (tool.access === "read" && stored === "ask") return "allow";
	return stored;
}

/**
 * The tool whose right governs every other way to read note text: `resources/read`,
 * `resources/list` and the prompts (a prompt is a note's text). A token denied `read_note` gets
 * none of them, so one Deny closes every door to a note's words.
 */
export const NOTE_TEXT_RIGHT: ToolRightSubject = { name: "read_note", access: "read" };

/**
 * The tool whose right governs every note or folder a call makes, whichever tool makes it: add_task's
 * daily note, a move into a folder not there yet. A token denied create_note makes nothing new; one at
 * Ask is asked first, even by a tool it may use without asking.
 */
export const NEW_FILES_RIGHT: ToolRightSubject = { name: "create_note", access: "write" };

/** The stricter of two rights (deny over ask over allow): a call that needs both gets this one. */
export function stricterRight(first: ToolRight, second: ToolRight): ToolRight {
	return TOOL_RIGHTS.indexOf(first) >= TOOL_RIGHTS.indexOf(second) ? first : second;
}

/** Where a token was made: the settings tab can ask a person; the CLI has no window to ask in. */
export type TokenOrigin = "settings-tab" | "cli";

/**
 * The rights a new token starts with: from the settings tab, read tools allow and write tools
 * ask; from the CLI, every tool of its level allow. Tools above its level are stored as deny.
 */
export function initialRights(tools: readonly ToolRightSubject[], level: RightsHolder["level"], origin: TokenOrigin): ToolRights {
	const rights: ToolRights = {};
	for (const tool of tools) {
		if (tool.access === "write" && level !== "write") rights[tool.name] = "deny";
		else rights[tool.name] = tool.access === "write" && origin === "settings-tab" ? "ask" : "allow";
	}
	return rights;
}

/** Tool names to set to each right (from `--allow`, `--ask`, `--deny`). */
export type RightChanges = Partial<Record<ToolRight, readonly string[]>>;

/**
 * The token's rights with `changes` applied, or why they cannot be: an unknown tool name (the message lists
 * the valid ones), a tool named twice, or ask for a read tool.
 */
export function applyRightChanges(token: RightsHolder, changes: RightChanges, tools: readonly ToolRightSubject[]): { rights: ToolRights } | { error: string } {
	const byName = new Map(tools.map((tool) => [tool.name, tool]));
	// The first change to a token without a map writes down what it had: every tool of its level, allowed.
	const next: ToolRights = token.rights === undefined ? rightsTable(token, tools) : { ...token.rights };
	const seen = new Set<string>();
	for (const right of TOOL_RIGHTS) {
		for (const name of changes[right] ?? []) {
			const tool = byName.get(name);
			if (!tool) return { error: `Unknown tool "${name}". The tools are: ${tools.map((known) => known.name).join(", ")}.` };
			if (seen.has(name)) return { error: `"${name}" is given more than one right.` };
			seen.add(name);
			if (right === "ask" && tool.access === "read") return { error: `"${name}" reads only; a read tool is allow or deny, never ask.` };
			next[name] = right;
		}
	}
	return { rights: next };
}

/** Every tool's right for this token, as `token list --json` and the settings tab show them. */
export function rightsTable(token: RightsHolder, tools: readonly ToolRightSubject[]): ToolRights {
	return Object.fromEntries(tools.map((tool) => [tool.name, effectiveRight(token, tool, true)]));
}
