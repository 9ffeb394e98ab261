import { MAX_PORT, MIN_FIXED_PORT } from "../../../src/config/limits";
import { parsePort } from "../../../src/ui/SettingsTab";

describe("parsePort: a port typed in the settings tab", () => {
	const refusal = `Use a whole number from ${MIN_FIXED_PORT} to ${MAX_PORT}.`;
	test.each<[string, number | string]>([
		["27150", 27150],
		[" 28000 ", 28000],
		[String(MIN_FIXED_PORT), MIN_FIXED_PORT],
		[String(MAX_PORT), MAX_PORT],
		[String(MIN_FIXED_PORT - 1), refusal],
		[String(MAX_PORT + 1), refusal],
		["0", refusal],
		["80", refusal],
		["27150.5", refusal],
		["-1", refusal],
		["port", refusal],
		["", refusal],
	])("%j", (typed, expected) => {
		expect(parsePort(typed)).toBe(expected);
	});
});
