import type { HostFile } from "../../../src/host/Host";
import { stillBeingReadField, stillBeingReadSchema } from "../../../src/mcp/stillBeingRead";
import type { Scope } from "../../../src/vault/scope";

const scope: Scope = { configDir: ".obsidian", excludedFolders: ["Private"] };
const note = (path: string) => ({ path, extension: "md" }) as HostFile;

describe("stillBeingReadField", () => {
	test("is absent when every note was read, and names the notes in path order otherwise", () => {
		expect(stillBeingReadField([], scope)).toEqual({});
		expect(stillBeingReadField([note("b.md"), note("A.md")], scope)).toEqual({ still_being_read: ["A.md", "b.md"] });
		expect(stillBeingReadSchema.safeParse(undefined).success).toBe(true);
	});

	test("names two notes the collator calls equal in one order, whichever came first", () => {
		// A soft hyphen the collator ignores: the order they came in (a server that saw one made again, against a fresh one) decided.
		const plain = "ab.md";
		const soft = "a\u00ADb.md";
		expect(stillBeingReadField([note(soft), note(plain)], scope)).toEqual({ still_being_read: [plain, soft] });
		expect(stillBeingReadField([note(plain), note(soft)], scope)).toEqual({ still_being_read: [plain, soft] });
	});

	test("names a note moved meanwhile where it is now, and leaves out one moved into a folder the caller does not see", () => {
		const moved = note("Inbox/Big.md");
		const hidden = note("Inbox/Secret.md");
		const found = [moved, hidden];
		// Renamed in place while the call paused, as Obsidian and serve's watcher rename the same file object.
		moved.path = "Archive/Big.md";
		hidden.path = "Private/Secret.md";
		expect(stillBeingReadField(found, scope)).toEqual({ still_being_read: ["Archive/Big.md"] });
		expect(stillBeingReadField([note("Projects/x.md"), note("Other/y.md")], { ...scope, tokenFolders: ["Projects"] })).toEqual({
			still_being_read: ["Projects/x.md"],
		});
	});
});
