// Copies the built plugin into a vault: npm run deploy -- <vault>
import { promises as fs } from "node:fs";
import path from "node:path";
import process from "node:process";

const vault = process.argv[2];
if (!vault) {
	process.stderr.write("Usage: npm run deploy -- <vault folder>\n");
	process.exit(2);
}
const configDir = process.env.OBSIDIAN_CONFIG_DIR ?? ".obsidian";
const target = path.join(path.resolve(vault), configDir, "plugins", "vault-mcp");
try {
	await fs.access(path.join(path.resolve(vault), configDir));
} catch {
	process.stderr.write(`${vault} has no ${configDir} folder: open it in Obsidian once first.\n`);
	process.exit(1);
}
await fs.mkdir(target, { recursive: true });
for (const file of ["main.js", "manifest.json", "styles.css"]) {
	await fs.copyFile(file, path.join(target, file));
}
process.stdout.write(`Installed into ${target}. In Obsidian: Settings → Community plugins → enable Vault MCP.\n`);
