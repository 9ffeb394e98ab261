// Run by `npm version <patch|minor|major>` (the "version" script), after npm has written the new
// version into package.json and before it commits and tags: Obsidian reads the version from
// manifest.json, and versions.json tells older Obsidian apps which plugin version they can use.
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

// package.json, not npm_package_version: the file is the truth whichever way this was started.
const { version } = readJson("package.json");
if (!/^\d+\.\d+\.\d+$/.test(version)) {
	// Obsidian compares plain x.y.z versions; a pre-release suffix would never be offered as an update.
	process.stderr.write(`version-bump: ${version} is not x.y.z, which Obsidian needs.\n`);
	process.exit(1);
}

const manifest = readJson("manifest.json");
manifest.version = version;
writeJson("manifest.json", manifest);

const versions = readJson("versions.json");
versions[version] = manifest.minAppVersion;
writeJson("versions.json", versions);

process.stdout.write(`manifest.json and versions.json now say ${version} (Obsidian ${manifest.minAppVersion} or later).\n`);
