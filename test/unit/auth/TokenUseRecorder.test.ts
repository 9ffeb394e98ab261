import { promises as fs } from "node:fs";
import { TokenUseRecorder } from "../../../src/auth/TokenUseRecorder";
import { addToken } from "../../../src/auth/tokenList";
import { FileSettingsStore } from "../../../src/config/FileSettingsStore";
import { defaultSettings, type VaultMcpSettings } from "../../../src/config/settings";
import { makeTempDir, removeDir } from "../../helpers/vault";

/** Settings with the named read tokens, and the records' hashes by name. */
function withTokens(...names: string[]): VaultMcpSettings {
	let settings = defaultSettings();
	for (const name of names) {
		const made = addToken(settings, name, "read");
		if ("error" in made) throw new Error(made.error);
		settings = made.settings;
	}
	return settings;
}

describe("TokenUseRecorder over the CLI's data.json", () => {
	let root: string;
	let store: FileSettingsStore;
	beforeEach(async () => {
		root = await makeTempDir();
		store = new FileSettingsStore(root, ".obsidian");
	});
	afterEach(() => removeDir(root));

	test("a use is saved on flush, only for the token used, and nothing is written before", async () => {
		const settings = withTokens("laptop", "phone");
		await store.save(settings);
		const recorder = new TokenUseRecorder(store, () => undefined);
		const [laptop] = settings.tokens;
		if (!laptop) throw new Error("no token");
		recorder.touch(laptop, Date.parse("2026-12-01T04:00:00.000Z"));
		expect((await store.read()).settings.tokens.map((token) => token.lastUsed)).toEqual([null, null]);
		await recorder.flush();
		expect((await store.read()).settings.tokens.map((token) => [token.name, token.lastUsed])).toEqual([
			["laptop", "2026-12-01T04:00:00.000Z"],
			["phone", null],
		]);
	});

	test("a token revoked in the file after its use stays revoked", async () => {
		const settings = withTokens("laptop", "phone");
		await store.save(settings);
		const recorder = new TokenUseRecorder(store, () => undefined);
		for (const token of settings.tokens) recorder.touch(token, Date.parse("2026-12-01T04:00:00.000Z"));
		await store.save({ ...settings, tokens: settings.tokens.filter((token) => token.name !== "laptop") });
		await recorder.flush();
		expect((await store.read()).settings.tokens.map((token) => [token.name, token.lastUsed])).toEqual([["phone", "2026-12-01T04:00:00.000Z"]]);
	});

	test("uses are saved by themselves once the interval has passed", async () => {
		const settings = withTokens("laptop");
		await store.save(settings);
		const recorder = new TokenUseRecorder(store, () => undefined, 20);
		const [laptop] = settings.tokens;
		if (!laptop) throw new Error("no token");
		recorder.touch(laptop, Date.parse("2026-12-01T04:00:00.000Z"));
		for (let waited = 0; waited < 2000 && (await store.read()).settings.tokens[0]?.lastUsed === null; waited += 20)
			await new Promise((resolve) => setTimeout(resolve, 20));
		expect((await store.read()).settings.tokens[0]?.lastUsed).toBe("2026-12-01T04:00:00.000Z");
	});

	test("a data.json that cannot be read is left as it is, and the failure is reported, not thrown", async () => {
		const settings = withTokens("laptop");
		await store.save(settings);
		await fs.writeFile(store.path, "{ broken");
		const warnings: string[] = [];
		const recorder = new TokenUseRecorder(store, (message) => warnings.push(message));
		const [laptop] = settings.tokens;
		if (!laptop) throw new Error("no token");
		recorder.touch(laptop);
		await recorder.flush();
		expect(await fs.readFile(store.path, "utf8")).toBe("{ broken");
		expect(warnings).toEqual([expect.stringMatching(/^token last-used times were not saved: .*not valid JSON/)]);
	});
});
