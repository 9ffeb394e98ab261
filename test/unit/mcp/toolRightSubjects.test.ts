import { ALL_TOOLS } from "../../../src/mcp/tools";
import { TOOL_RIGHT_SUBJECTS } from "../../../src/mcp/toolRightSubjects";

describe("the tools' names and access, as the CLI's token commands set rights from them", () => {
	test("are every tool the server has, each with its own access, in the order clients list them", () => {
		// A tool added to ALL_TOOLS but not here would be missing from `token new`'s rights; a read tool
		// listed as write here would be set to ask, one listed as read would never be asked about.
		expect(TOOL_RIGHT_SUBJECTS).toEqual(ALL_TOOLS.map(({ name, access }) => ({ name, access })));
	});
});
