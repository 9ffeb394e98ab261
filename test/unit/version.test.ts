import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { VERSION } from "../../src/version";

const readJson = (name: string) => JSON.parse(readFileSync(nodePath.resolve(__dirname, "../..", name), "utf8")) as Record<string, unknown>;

test("the version is the same in src/version.ts, package.json, manifest.json and versions.json", () => {
	expect(readJson("package.json").version).toBe(VERSION);
	const manifest = readJson("manifest.json");
	expect(manifest.version).toBe(VERSION);
	expect(readJson("versions.json")[VERSION]).toBe(manifest.minAppVersion);
});

test("the manifest is what Obsidian's review asks for", () => {
	expect(readJson("manifest.json")).toMatchObject({ id: "vault-mcp", name: "Vault MCP", isDesktopOnly: true });
});
