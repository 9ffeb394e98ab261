import { existsSync, promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { runProcess, CLI_PRELOADS } from "../helpers/cli";
import { makeTempDir, removeDir } from "../helpers/vault";

const ROOT = nodePath.resolve(__dirname, "../..");
/** Variables, so TypeScript does not look for types of the built files. */
const PLUGIN_BUNDLE: string = nodePath.join(ROOT, "main.js");
const CLI_BUNDLE: string = nodePath.join(ROOT, "dist/cli.js");

/**
 * Failures inside the built bundles point at src/ lines: the plugin bundle has its map beside it
 * (never inside it, and never named by it: the released main.js stays lean), and the CLI bundle
 * names its linked map, which `node --enable-source-maps` reads, and so does the preload the tests start
 * the CLI with (scripts/lazy-source-maps.cjs, which reads it only when a stack is printed).
 */
describe("source maps of the built bundles", () => {
	test("the released main.js holds no map and names none; the map beside it maps a failure to src/", () => {
		const bundle = readFileSync(PLUGIN_BUNDLE, "utf8");
		expect(bundle).not.toContain("sourceMappingURL");
		expect(existsSync(`${PLUGIN_BUNDLE}.map`)).toBe(true);
		const Plugin = jest.requireActual<{ default: new (...args: unknown[]) => { onload(): Promise<void> } }>(PLUGIN_BUNDLE).default;
		// An app without a vault: onload fails at its first use of the vault (the check of the plugin's folder name, in main.ts).
		const failure = new Plugin({}, { id: "vault-mcp", dir: "" }).onload().then(
			() => null,
			(error: unknown) => error as Error,
		);
		return failure.then((error) => {
			expect(error).toBeInstanceOf(TypeError);
			expect(error?.stack).toMatch(/src[\\/]main\.ts:\d+/);
		});
	});

	test("dist/cli.js names its linked map, and a stack printed from it with --enable-source-maps names src/ lines", async () => {
		expect(readFileSync(CLI_BUNDLE, "utf8")).toMatch(/\/\/# sourceMappingURL=cli\.js\.map\s*$/);
		// A failure inside the CLI: standard output refuses to be written, so `--version` throws with the bundle's frames in its stack.
		const dir = await makeTempDir("vault-mcp-source-maps-");
		try {
			const preload = nodePath.join(dir, "refuseOutput.cjs");
			await fs.writeFile(preload, 'process.stdout.write = () => { throw new Error("standard output refused"); };\n');
			const run = await runProcess(process.execPath, ["--enable-source-maps", "--require", preload, CLI_BUNDLE, "--version"]);
			expect(run.code).not.toBe(0);
			expect(run.stderr).toContain("standard output refused");
			expect(run.stderr).toMatch(/src[\\/]headless[\\/]cli\.ts:\d+/);
			expect(run.stderr).not.toMatch(/dist[\\/]cli\.js:\d+/);
		} finally {
			await removeDir(dir);
		}
	});

	test("a stack printed from dist/cli.js as the tests start it (the map read only then) names src/ lines, and the frames outside the bundle as before", async () => {
		const dir = await makeTempDir("vault-mcp-source-maps-");
		try {
			const preload = nodePath.join(dir, "refuseOutput.cjs");
			await fs.writeFile(preload, 'process.stdout.write = () => { throw new Error("standard output refused"); };\n');
			const run = await runProcess(process.execPath, [...CLI_PRELOADS, "--require", preload, CLI_BUNDLE, "--version"]);
			expect(run.code).not.toBe(0);
			expect(run.stderr).toContain("Error: standard output refused\n");
			expect(run.stderr).toMatch(/src[\\/]headless[\\/]cli\.ts:\d+:\d+/);
			expect(run.stderr).not.toMatch(/dist[\\/]cli\.js:\d+/);
			expect(run.stderr).toContain(`at process.stdout.write (${preload}:1:`);
		} finally {
			await removeDir(dir);
		}
	});
});
