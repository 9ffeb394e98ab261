import { addToken, revokeToken, withToolRight } from "../../../src/auth/tokenList";
import { defaultSettings } from "../../../src/config/settings";
import { ALL_TOOLS } from "../../../src/mcp/tools";

/** "Always allow" from the approval window or the terminal: one tool, one token, nothing else. */
describe("withToolRight", () => {
	const made = () => {
		const laptop = addToken(defaultSettings(), "Laptop", "write", { append_to_note: "ask", create_note: "ask", read_note: "allow" });
		if ("error" in laptop) throw new Error(laptop.error);
		const desk = addToken(laptop.settings, "Desk", "write", { append_to_note: "ask" });
		if ("error" in desk) throw new Error(desk.error);
		return desk.settings;
	};

	test("sets the one right and leaves the token's other rights and the other tokens as they were", () => {
		const settings = made();
		const changed = withToolRight(settings, "Laptop", "append_to_note", "allow", ALL_TOOLS);
		const laptop = changed.tokens.find((token) => token.name === "Laptop");
		expect(laptop?.rights).toEqual({ ...settings.tokens.find((token) => token.name === "Laptop")?.rights, append_to_note: "allow" });
		expect(changed.tokens.find((token) => token.name === "Desk")).toEqual(settings.tokens.find((token) => token.name === "Desk"));
		// The settings held elsewhere are not changed in place.
		expect(settings.tokens.find((token) => token.name === "Laptop")?.rights?.append_to_note).toBe("ask");
	});

	test.each([
		["a token revoked meanwhile", "Laptop", "append_to_note", (settings: ReturnType<typeof defaultSettings>) => revokeToken(settings, "Laptop")],
		["an unknown tool", "Laptop", "no_such_tool", (settings: ReturnType<typeof defaultSettings>) => ({ settings })],
	])("%s: the very same settings come back, so nothing is saved", (_label, tokenName, tool, prepare) => {
		const prepared = prepare(made());
		if ("error" in prepared) throw new Error(prepared.error);
		expect(withToolRight(prepared.settings, tokenName, tool, "allow", ALL_TOOLS)).toBe(prepared.settings);
	});

	test("given the hash of the token asked about, a new token made since with its name is left as it was", () => {
		const settings = made();
		const oldHash = settings.tokens.find((token) => token.name === "Laptop")?.hash;
		const revoked = revokeToken(settings, "Laptop");
		if ("error" in revoked) throw new Error(revoked.error);
		const remade = addToken(revoked.settings, "Laptop", "write", { append_to_note: "ask" });
		if ("error" in remade) throw new Error(remade.error);
		expect(withToolRight(remade.settings, "Laptop", "append_to_note", "allow", ALL_TOOLS, oldHash)).toBe(remade.settings);
		const own = withToolRight(settings, "Laptop", "append_to_note", "allow", ALL_TOOLS, oldHash);
		expect(own.tokens.find((token) => token.name === "Laptop")?.rights?.append_to_note).toBe("allow");
	});
});
