import { readdirSync, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import ts from "typescript";

const ROOT = nodePath.resolve(__dirname, "../..");
const OBSIDIAN_TYPES = nodePath.join(ROOT, "node_modules/obsidian/obsidian.d.ts");

/** The files that reach Obsidian's `App` itself (architecture: only they import Obsidian's runtime values); the rest goes through the seam they fill. */
const OBSIDIAN_FACING = ["src/main.ts", "src/host/ObsidianHost.ts", ...readdirSync(nodePath.join(ROOT, "src/ui")).map((name) => `src/ui/${name}`)].filter(
	(path) => path.endsWith(".ts"),
);

/** `1.6.6` → [1, 6, 6], for comparing versions part by part. */
function versionParts(version: string): number[] {
	return version.split(".").map(Number);
}

function isNewer(version: string, than: string): boolean {
	const [a, b] = [versionParts(version), versionParts(than)];
	for (let index = 0; index < Math.max(a.length, b.length); index++) {
		const difference = (a[index] ?? 0) - (b[index] ?? 0);
		if (difference !== 0) return difference > 0;
	}
	return false;
}

/**
 * Every member of Obsidian's API the files use (a property read, a call, a class), as `Owner.member`,
 * with the version its `@since` tag in obsidian.d.ts names (null when it has none). The program
 * holds those files and obsidian.d.ts only, unresolved imports aside, so it is built in about two
 * seconds rather than the whole source's type check.
 */
function obsidianMembersUsed(files: readonly string[]): Map<string, string | null> {
	const program = ts.createProgram([...files.map((file) => nodePath.join(ROOT, file)), OBSIDIAN_TYPES], {
		noResolve: true,
		noEmit: true,
		skipLibCheck: true,
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.ESNext,
		moduleResolution: ts.ModuleResolutionKind.Bundler,
		types: [],
		lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
	});
	const checker = program.getTypeChecker();
	const used = new Map<string, string | null>();
	for (const file of files) {
		const source = program.getSourceFile(nodePath.join(ROOT, file));
		if (!source) throw new Error(`not in the program: ${file}`);
		const visit = (node: ts.Node): void => {
			const name = ts.isPropertyAccessExpression(node) ? node.name : ts.isIdentifier(node) ? node : null;
			const symbol = name ? checker.getSymbolAtLocation(name) : undefined;
			for (const declaration of symbol?.declarations ?? []) {
				if (nodePath.resolve(declaration.getSourceFile().fileName) !== OBSIDIAN_TYPES) continue;
				const since = ts.getJSDocTags(declaration).find((tag) => tag.tagName.text === "since");
				const owner = declaration.parent && "name" in declaration.parent ? (declaration.parent.name as ts.Node | undefined) : undefined;
				const key = `${owner && ts.isIdentifier(owner) ? `${owner.text}.` : ""}${name?.text ?? ""}`;
				used.set(key, since ? (ts.getTextOfJSDocComment(since.comment)?.trim() ?? null) : null);
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return used;
}

const manifest = JSON.parse(readFileSync(nodePath.join(ROOT, "manifest.json"), "utf8")) as { minAppVersion: string };

/**
 * Obsidian loads a plugin only on versions at or after its manifest's `minAppVersion`; a member added
 * later is undefined there, and the plugin fails at its first use (an unload half done, a call that
 * throws). Each member used must be as old as the manifest says the plugin needs.
 */
test("every Obsidian API member the plugin uses is as old as manifest.json's minAppVersion", () => {
	const used = obsidianMembersUsed(OBSIDIAN_FACING);
	// The listing works: members the plugin is known to use are in it, with their versions.
	expect(used.get("FileManager.trashFile")).toBe("1.6.6");
	expect(used.get("Vault.process")).toBe("1.1.0");
	expect(used.get("Vault.getFileByPath")).toBe("1.5.7");
	const tooNew = [...used].filter(([, since]) => since !== null && isNewer(since, manifest.minAppVersion)).map(([member, since]) => `${member} (${since})`);
	expect(tooNew).toEqual([]);
});
