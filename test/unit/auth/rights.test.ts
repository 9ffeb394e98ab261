import { applyRightChanges, effectiveRight, initialRights, rightsTable, stricterRight, TOOL_RIGHTS, type RightsHolder } from "../../../src/auth/rights";

const TOOLS = [
	{ name: "read_note", access: "read" as const },
	{ name: "search_notes", access: "read" as const },
	{ name: "append_to_note", access: "write" as const },
	{ name: "create_note", access: "write" as const },
];

describe("rights per tool", () => {
	test("a token from the settings tab reads at once and asks before it writes; one from the CLI allows every tool of its level", () => {
		expect(initialRights(TOOLS, "write", "settings-tab")).toEqual({ read_note: "allow", search_notes: "allow", append_to_note: "ask", create_note: "ask" });
		expect(initialRights(TOOLS, "write", "cli")).toEqual({ read_note: "allow", search_notes: "allow", append_to_note: "allow", create_note: "allow" });
		expect(initialRights(TOOLS, "read", "cli")).toEqual({ read_note: "allow", search_notes: "allow", append_to_note: "deny", create_note: "deny" });
	});

	test("a token made before rights existed keeps every tool of its level allowed", () => {
		const legacy: RightsHolder = { level: "write" };
		expect(TOOLS.map((tool) => effectiveRight(legacy, tool, true))).toEqual(["allow", "allow", "allow", "allow"]);
		expect(TOOLS.map((tool) => effectiveRight({ level: "read" }, tool, true))).toEqual(["allow", "allow", "deny", "deny"]);
	});

	test("writing switched off, or a read token, denies every write tool whatever is stored", () => {
		const token: RightsHolder = { level: "write", rights: { append_to_note: "allow" } };
		expect(effectiveRight(token, TOOLS[2]!, false)).toBe("deny");
		expect(effectiveRight({ level: "read", rights: { append_to_note: "allow" } }, TOOLS[2]!, true)).toBe("deny");
	});

	test("a tool the map does not name (added by an update) reads at once and asks before writing", () => {
		const token: RightsHolder = { level: "write", rights: {} };
		expect(TOOLS.map((tool) => effectiveRight(token, tool, true))).toEqual(["allow", "allow", "ask", "ask"]);
	});

	test("a read tool stored as ask (hand-edited data.json) reads at once: read tools never wait", () => {
		expect(effectiveRight({ level: "read", rights: { read_note: "ask" } }, TOOLS[0]!, true)).toBe("allow");
	});

	test("changes: unknown names list the valid ones; ask for a read tool and a tool named twice are refused; a legacy token's map is written down first", () => {
		expect(applyRightChanges({ level: "write" }, { deny: ["nope"] }, TOOLS)).toEqual({
			error: 'Unknown tool "nope". The tools are: read_note, search_notes, append_to_note, create_note.',
		});
		expect(applyRightChanges({ level: "write" }, { ask: ["read_note"] }, TOOLS)).toEqual({ error: expect.stringContaining("never ask") });
		expect(applyRightChanges({ level: "write" }, { ask: ["create_note"], deny: ["create_note"] }, TOOLS)).toEqual({
			error: expect.stringContaining("more than one right"),
		});
		expect(applyRightChanges({ level: "write" }, { ask: ["create_note"], deny: ["search_notes"] }, TOOLS)).toEqual({
			rights: { read_note: "allow", search_notes: "deny", append_to_note: "allow", create_note: "ask" },
		});
	});

	test("the table shows each tool's right by the token's level, whatever the write switch", () => {
		expect(rightsTable({ level: "read", rights: { read_note: "deny" } }, TOOLS)).toEqual({
			read_note: "deny",
			search_notes: "allow",
			append_to_note: "deny",
			create_note: "deny",
		});
	});

	test("a call that needs two rights (its tool's and create_note's, for a note it makes) gets the stricter: deny over ask over allow", () => {
		const pairs = TOOL_RIGHTS.flatMap((first) => TOOL_RIGHTS.map((second) => `${first}+${second}=${stricterRight(first, second)}`));
		expect(pairs).toEqual([
			"allow+allow=allow",
			"allow+ask=ask",
			"allow+deny=deny",
			"ask+allow=ask",
			"ask+ask=ask",
			"ask+deny=deny",
			"deny+allow=deny",
			"deny+ask=deny",
			"deny+deny=deny",
		]);
	});
});
