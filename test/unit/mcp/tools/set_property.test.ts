import { openToolVault, WRITES_ALLOWED, type ToolVault } from "../../../helpers/toolVault";

describe("set_property", () => {
	let tv: ToolVault;
	beforeEach(async () => {
		tv = await openToolVault({ "Plan.md": "---\nstatus: active\n---\n# Plan\n", "Bare.md": "# Bare\n" }, { canWrite: true, rights: WRITES_ALLOWED });
	});
	afterEach(() => tv.close());

	test("sets a property in the frontmatter, adding the frontmatter when there is none", async () => {
		expect(await tv.ok("set_property", { path: "Plan", name: "status", value: "done" })).toMatchObject({ name: "status", value: "done", changed: true });
		expect(await tv.read("Plan.md")).toBe("---\nstatus: done\n---\n# Plan\n");
		await tv.ok("set_property", { path: "Bare", name: "tags", value: ["a", "b"] });
		expect(await tv.read("Bare.md")).toMatch(/^---\ntags:\n {2}- a\n {2}- b\n---\n# Bare\n$/);
	});

	test("the same value again changes nothing; null removes the property", async () => {
		expect(await tv.ok("set_property", { path: "Plan", name: "status", value: "active" })).toMatchObject({ changed: false });
		await tv.ok("set_property", { path: "Plan", name: "status", value: null });
		expect(await tv.read("Plan.md")).not.toContain("status");
	});

	test("a property name over the bound is refused naming it, and the note is unchanged", async () => {
		const before = await tv.read("Plan.md");
		expect(await tv.error("set_property", { path: "Plan", name: "n".repeat(200_000), value: "x" })).toContain(
			"at most 256 characters; this one has 200000",
		);
		expect(await tv.read("Plan.md")).toBe(before);
		await tv.ok("set_property", { path: "Plan", name: "n".repeat(256), value: "x" });
		expect(await tv.read("Plan.md")).toContain(`${"n".repeat(256)}: x`);
	});
});
