import { taskText } from "../../../src/markdown/taskLine";

describe("taskText", () => {
	test("text that starts like a list marker stays the task's text (issue 13)", () => {
		expect(taskText("- [ ] - foo")).toBe("- foo");
		expect(taskText("- [ ] 1. foo")).toBe("1. foo");
		expect(taskText("1. [ ] * foo")).toBe("* foo");
		expect(taskText("- [x] + bar")).toBe("+ bar");
		expect(taskText("- [ ] - [ ] foo")).toBe("- [ ] foo");
		expect(taskText("    > - [/] 2) bar")).toBe("2) bar");
	});

	test("items opened on the same line: the task is the innermost item", () => {
		expect(taskText("- - [ ] foo")).toBe("foo");
		expect(taskText("1. - [x] foo")).toBe("foo");
		expect(taskText("- 1) [ ] - foo")).toBe("- foo");
	});
});
