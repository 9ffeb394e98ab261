import { generateToken } from "../../../src/auth/tokens";
import { defaultSettings, parseSettings } from "../../../src/settings/settings";

describe("parseSettings", () => {
	test("nothing saved yet gives the defaults: server off, writing off, port 27150", () => {
		expect(parseSettings(null)).toEqual({ settings: defaultSettings(), warnings: [] });
		expect(defaultSettings()).toMatchObject({ serverEnabled: false, writeEnabled: false, port: 27150, rateLimitPerMinute: 240, tokens: [] });
	});

	test("valid values are kept", () => {
		const { record } = generateToken("a", "write");
		const raw = { serverEnabled: true, port: 3000, writeEnabled: true, excludedFolders: ["Private", "Work/Secret"], rateLimitPerMinute: 10, tokens: [record] };
		expect(parseSettings(raw)).toEqual({ settings: { ...defaultSettings(), ...raw }, warnings: [] });
	});

	test("each broken field falls back alone, with a warning naming the field but not its value", () => {
		const { record } = generateToken("good", "read");
		const parsed = parseSettings({ serverEnabled: true, port: "27150", writeEnabled: 1, excludedFolders: "Private", tokens: [record, { name: "bad", hash: "SECRET-ISH" }] });
		expect(parsed.settings).toEqual({ ...defaultSettings(), serverEnabled: true, tokens: [record] });
		expect(parsed.warnings).toHaveLength(4);
		expect(parsed.warnings.join("\n")).not.toContain("SECRET-ISH");
	});

	test.each([["a string"], [42], [[1, 2]]])("a data.json that is %p gives defaults with a warning", (raw) => {
		const parsed = parseSettings(raw);
		expect(parsed.settings).toEqual(defaultSettings());
		expect(parsed.warnings).toHaveLength(1);
	});

	test("excluded folders are normalised: slashes, blanks and repeats", () => {
		expect(parseSettings({ excludedFolders: ["/Private/", "Private", "Work\\Secret", " ", "a//b"] }).settings.excludedFolders).toEqual(["Private", "Work/Secret", "a/b"]);
	});

	test("an unknown older field is ignored, not fatal", () => {
		expect(parseSettings({ legacyThing: true, port: 1234 }).settings.port).toBe(1234);
	});
});
