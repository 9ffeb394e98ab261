import { ActivityLog, errorKind, type ActivityRecord } from "../../src/activity";
import { ACTIVITY_LOG_SIZE } from "../../src/config/limits";

const record = (tool: string): ActivityRecord => ({
	time: "2026-12-02T11:00:00.000Z",
	tokenName: "Claude",
	tool,
	durationMs: 3,
	responseBytes: 120,
	outcome: "ok",
});

describe("ActivityLog: the last calls, newest last", () => {
	test(`keeps the newest ${ACTIVITY_LOG_SIZE}, dropping the oldest first`, () => {
		const log = new ActivityLog();
		for (let index = 0; index < ACTIVITY_LOG_SIZE + 3; index++) log.add(record(`call ${index}`));
		const listed = log.list();
		expect(listed).toHaveLength(ACTIVITY_LOG_SIZE);
		expect(listed[0]?.tool).toBe("call 3");
		expect(listed.at(-1)?.tool).toBe(`call ${ACTIVITY_LOG_SIZE + 2}`);
	});

	test("a full log takes each new call without moving the others: no splice, and the order stays oldest first", () => {
		const log = new ActivityLog();
		for (let index = 0; index < ACTIVITY_LOG_SIZE; index++) log.add(record(`call ${index}`));
		const splices = jest.spyOn(Array.prototype, "splice");
		try {
			for (let index = ACTIVITY_LOG_SIZE; index < 3 * ACTIVITY_LOG_SIZE + 7; index++) log.add(record(`call ${index}`));
			expect(splices).not.toHaveBeenCalled();
		} finally {
			splices.mockRestore();
		}
		const listed = log.list().map((entry) => entry.tool);
		expect(listed).toEqual(Array.from({ length: ACTIVITY_LOG_SIZE }, (_, index) => `call ${2 * ACTIVITY_LOG_SIZE + 7 + index}`));
		log.clear();
		log.add(record("after clear"));
		expect(log.list().map((entry) => entry.tool)).toEqual(["after clear"]);
	});

	test("list() is a copy: changing it changes nothing kept; clear() empties the log", () => {
		const log = new ActivityLog();
		log.add(record("read_note"));
		(log.list() as ActivityRecord[]).pop();
		expect(log.list()).toHaveLength(1);
		log.clear();
		expect(log.list()).toEqual([]);
	});
});

describe("errorKind: what a log line may say about a failure", () => {
	test("the error's class and code, never its message (which can quote note text)", () => {
		const secret = "text from the note: my diary";
		expect(errorKind(new TypeError(secret))).toBe("TypeError");
		const io = Object.assign(new Error(secret), { code: "ENOENT" });
		expect(errorKind(io)).toBe("Error (ENOENT)");
		expect(errorKind(io)).not.toContain("diary");
	});

	test("a thrown non-error is named by its type only", () => {
		expect(errorKind("my diary")).toBe("string");
		expect(errorKind(undefined)).toBe("undefined");
		expect(errorKind({ message: "my diary" })).toBe("object");
	});
});
