// The test data stays out of this repository, in two sets, each pinned to a commit by its manifest
// with every file's SHA-256 checked before anything is kept:
//   golden         obsidian-tasks' Tasks-Demo vault and the metadata it captured from real Obsidian
//                  (MIT; test/fixtures-manifest.json): every test suite needs it.
//   obsidian-help  the English Obsidian Help vault (test/fixtures-manifest-obsidian-help.json, whose
//                  `license` says on what terms): the unseen judged search queries and the bench read it.
//   obsidian-hub   the Obsidian Hub community vault, 6,571 notes and 29 MB (test/fixtures-manifest-obsidian-hub.json):
//                  only its judged queries read it (the bench, and searchRanking.test.ts where it is), so it is fetched only when named with --set.
//   cargo-book     The Cargo Book, 99 Markdown pages of rust-lang/cargo (MIT or Apache-2.0; test/fixtures-manifest-cargo-book.json):
//                  the eleventh held-out judged queries read it, fetched only when named with --set, as the Hub is.
//   foam-docs      Foam's documentation, 86 Markdown pages of foambubble/foam (MIT; test/fixtures-manifest-foam-docs.json):
//                  the twelfth held-out judged queries read it, fetched only when named with --set, as the Hub is.
//   jekyll-docs    Jekyll's documentation, 91 Markdown pages of jekyll/jekyll's docs/_docs (MIT; test/fixtures-manifest-jekyll-docs.json):
//                  the thirteenth held-out judged queries read it, fetched only when named with --set, as the Hub is.
//   homebrew-docs  Homebrew's documentation, 85 Markdown pages of Homebrew/brew's docs (BSD-2-Clause; test/fixtures-manifest-homebrew-docs.json):
//                  the fourteenth held-out judged queries read it, fetched only when named with --set, as the Hub is.
//   nushell-book   The Nushell Book, 65 Markdown pages of nushell/nushell.github.io's book (MIT; test/fixtures-manifest-nushell-book.json):
//                  the fifteenth held-out judged queries read it, fetched only when named with --set, as the Hub is.
//
//   npm run fixtures                          download the sets every checkout wants (golden, obsidian-help) into .fixtures/
//   npm run fixtures -- --set NAME            only that set (golden, obsidian-help, obsidian-hub, cargo-book, foam-docs, jekyll-docs, homebrew-docs, nushell-book)
//   npm run fixtures -- --tarball FILE        use a codeload tarball of the set's pinned commit fetched by other means
//   npm run fixtures -- --from DIR            use a checkout of the set's repository, or a copy laid out like .fixtures/
//   npm run fixtures -- --out DIR             write somewhere else (then set VAULT_MCP_FIXTURES=DIR)
//   node scripts/fixtures.mjs verify DIR      check a folder against a set's manifest (--set, default golden)
//   node scripts/fixtures.mjs manifest DIR    write a set's manifest from a trusted copy (maintainers only)
//
// A source (--tarball, --from, --raw-base) is one repository, so with one the set is golden unless
// --set names another. A set is written into its own folders of the output, leaving the other set's.
//
// Exit codes: 0 done, 1 a file is missing or wrong (nothing is written), 2 a usage mistake.
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_OUT = path.join(PROJECT_ROOT, ".fixtures");
const RAW_BASE = "https://raw.githubusercontent.com";
const DOWNLOADS_AT_ONCE = 8;
const DOWNLOAD_ATTEMPTS = 3;
const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * The sets of test data. For each: its manifest, where each of our folders comes from in its
 * repository (longest prefix first), the folders it owns in the output (replaced whole when it is
 * written), the folder that tells a checkout of its repository, and which tests read which files
 * (what to tell someone when a file cannot be had).
 */
const SETS = {
	golden: {
		manifestPath: path.join(PROJECT_ROOT, "test", "fixtures-manifest.json"),
		upstreamFolders: [
			["LICENSE-obsidian-tasks-MIT.txt", "LICENSE"],
			["vaults/tasks-demo/", "resources/sample_vaults/Tasks-Demo/"],
			["obsidian-cache/", "tests/Obsidian/__test_data__/"],
		],
		ownedFolders: ["LICENSE-obsidian-tasks-MIT.txt", "obsidian-cache", "vaults/tasks-demo"],
		checkoutMarker: "resources/sample_vaults/Tasks-Demo",
		readBy: [
			["obsidian-cache/metadataCache/", ["test/golden/links.test.ts", "test/integration/readTools.test.ts", "test/e2e/inspect.test.ts"]],
			["obsidian-cache/", ["test/golden/metadata.test.ts", "test/e2e/inspect.test.ts"]],
			[
				"vaults/tasks-demo/",
				[
					"test/golden/links.test.ts",
					"test/integration/readTools.test.ts",
					"test/integration/searchIndex.test.ts",
					"test/integration/writeTools.test.ts",
					"test/e2e/inspect.test.ts",
					"npm run bench",
				],
			],
			["LICENSE-obsidian-tasks-MIT.txt", ["(none: the license travels with the data)"]],
		],
		defaults: {
			repository: "obsidian-tasks-group/obsidian-tasks",
			commit: "521edd52e5526520d161fa0090c1a9a5801c10fe",
			license: "MIT (LICENSE-obsidian-tasks-MIT.txt)",
		},
	},
	"obsidian-help": {
		manifestPath: path.join(PROJECT_ROOT, "test", "fixtures-manifest-obsidian-help.json"),
		upstreamFolders: [["vaults/obsidian-help-en/", "en/"]],
		ownedFolders: ["vaults/obsidian-help-en"],
		checkoutMarker: "en/Home.md",
		readBy: [["vaults/obsidian-help-en/", ["test/integration/searchRanking.test.ts", "npm run bench"]]],
		defaults: { repository: "obsidianmd/obsidian-help", commit: "fa179e91e86eaff5859226cc045c81000d64e3cd", license: "none stated" },
	},
	"obsidian-hub": {
		manifestPath: path.join(PROJECT_ROOT, "test", "fixtures-manifest-obsidian-hub.json"),
		upstreamFolders: [["vaults/obsidian-hub/", ""]],
		ownedFolders: ["vaults/obsidian-hub"],
		checkoutMarker: "00 - Start here.md",
		readBy: [["vaults/obsidian-hub/", ["test/integration/searchRanking.test.ts", "npm run bench"]]],
		defaults: { repository: "obsidian-community/obsidian-hub", commit: "dae4bcf14d27eb3691aa73b2e906e0d1dc7b1e0c", license: "none stated" },
		// Thousands of files a download: only when asked for by name.
		onlyWhenNamed: true,
	},
	"cargo-book": {
		manifestPath: path.join(PROJECT_ROOT, "test", "fixtures-manifest-cargo-book.json"),
		upstreamFolders: [
			["LICENSE-cargo-MIT.txt", "LICENSE-MIT"],
			["LICENSE-cargo-APACHE.txt", "LICENSE-APACHE"],
			["vaults/cargo-book/", "doc/book/src/"],
		],
		ownedFolders: ["LICENSE-cargo-MIT.txt", "LICENSE-cargo-APACHE.txt", "vaults/cargo-book"],
		checkoutMarker: "doc/book/src/SUMMARY.md",
		readBy: [
			["vaults/cargo-book/", ["test/integration/searchRanking.test.ts", "npm run bench"]],
			["LICENSE-cargo-", ["(none: the license travels with the data)"]],
		],
		defaults: { repository: "rust-lang/cargo", commit: "af373f761aa4e42b093c2e453078fd73c8ce54dd", license: "MIT OR Apache-2.0" },
		// Read by the held-out judged queries only: only when asked for by name.
		onlyWhenNamed: true,
	},
	"foam-docs": {
		manifestPath: path.join(PROJECT_ROOT, "test", "fixtures-manifest-foam-docs.json"),
		upstreamFolders: [
			["LICENSE-foam-MIT.txt", "LICENSE"],
			["vaults/foam-docs/", "docs/"],
		],
		ownedFolders: ["LICENSE-foam-MIT.txt", "vaults/foam-docs"],
		checkoutMarker: "docs/user/features/wikilinks.md",
		readBy: [
			["vaults/foam-docs/", ["test/integration/searchRanking.test.ts", "npm run bench"]],
			["LICENSE-foam-", ["(none: the license travels with the data)"]],
		],
		defaults: { repository: "foambubble/foam", commit: "9f56a23523ff9eafc9cd770c731f9ee2dafb385f", license: "MIT" },
		// Read by the held-out judged queries only: only when asked for by name.
		onlyWhenNamed: true,
	},
	"jekyll-docs": {
		manifestPath: path.join(PROJECT_ROOT, "test", "fixtures-manifest-jekyll-docs.json"),
		upstreamFolders: [
			["LICENSE-jekyll-MIT.txt", "LICENSE"],
			["vaults/jekyll-docs/", "docs/_docs/"],
		],
		ownedFolders: ["LICENSE-jekyll-MIT.txt", "vaults/jekyll-docs"],
		checkoutMarker: "docs/_docs/configuration/front-matter-defaults.md",
		readBy: [
			["vaults/jekyll-docs/", ["test/integration/searchRanking.test.ts", "npm run bench"]],
			["LICENSE-jekyll-", ["(none: the license travels with the data)"]],
		],
		defaults: { repository: "jekyll/jekyll", commit: "202df571314ba1d18e9fccd81d12aaad4a703c38", license: "MIT" },
		// Read by the held-out judged queries only: only when asked for by name.
		onlyWhenNamed: true,
	},
	"homebrew-docs": {
		manifestPath: path.join(PROJECT_ROOT, "test", "fixtures-manifest-homebrew-docs.json"),
		upstreamFolders: [
			["LICENSE-homebrew-BSD-2-Clause.txt", "LICENSE.txt"],
			["vaults/homebrew-docs/", "docs/"],
		],
		ownedFolders: ["LICENSE-homebrew-BSD-2-Clause.txt", "vaults/homebrew-docs"],
		checkoutMarker: "docs/Formula-Cookbook.md",
		readBy: [
			["vaults/homebrew-docs/", ["test/integration/searchRanking.test.ts", "npm run bench"]],
			["LICENSE-homebrew-", ["(none: the license travels with the data)"]],
		],
		defaults: { repository: "Homebrew/brew", commit: "aad366ffaf6a8c94c66d35e4b990d42ac4195305", license: "BSD-2-Clause" },
		// Read by the held-out judged queries only: only when asked for by name.
		onlyWhenNamed: true,
	},
	"nushell-book": {
		manifestPath: path.join(PROJECT_ROOT, "test", "fixtures-manifest-nushell-book.json"),
		upstreamFolders: [
			["LICENSE-nushell-MIT.txt", "LICENSE"],
			["vaults/nushell-book/", "book/"],
		],
		ownedFolders: ["LICENSE-nushell-MIT.txt", "vaults/nushell-book"],
		checkoutMarker: "book/thinking_in_nu.md",
		readBy: [
			["vaults/nushell-book/", ["test/integration/searchRanking.test.ts", "npm run bench"]],
			["LICENSE-nushell-", ["(none: the license travels with the data)"]],
		],
		defaults: { repository: "nushell/nushell.github.io", commit: "72e298f7d579c20cebede45c861d63cbb689838f", license: "MIT" },
		// Read by the held-out judged queries only: only when asked for by name.
		onlyWhenNamed: true,
	},
};

class UsageError extends Error {}
class DataError extends Error {}

function upstreamPathOf(set, localPath) {
	for (const [local, upstream] of set.upstreamFolders) {
		if (localPath === local) return upstream;
		if (local.endsWith("/") && localPath.startsWith(local)) return upstream + localPath.slice(local.length);
	}
	throw new DataError(`No upstream folder for ${localPath}`);
}

function readersOf(set, localPath) {
	return set.readBy.find(([prefix]) => localPath.startsWith(prefix))?.[1] ?? [];
}

/** A list for the terminal: the first few lines, then how many more. */
function listLines(lines, label = "") {
	const SHOWN = 20;
	const shown = lines.slice(0, SHOWN).map((line) => `  ${label}${line}`);
	if (lines.length > SHOWN) shown.push(`  … and ${lines.length - SHOWN} more`);
	return shown.join("\n");
}

function sha256(bytes) {
	return createHash("sha256").update(bytes).digest("hex");
}

async function loadManifest(set) {
	return JSON.parse(await fs.readFile(set.manifestPath, "utf8"));
}

async function listFiles(root) {
	const entries = await fs.readdir(root, { withFileTypes: true, recursive: true });
	return entries
		.filter((entry) => entry.isFile())
		.map((entry) =>
			path
				.relative(root, path.join(entry.parentPath ?? entry.path, entry.name))
				.split(path.sep)
				.join("/"),
		)
		.sort();
}

// --- sources: each answers upstreamPath → Buffer, or null when it has no such file ---

/** A folder: a checkout of the set's repository (upstream paths) or a copy laid out like ours (local paths). */
async function folderSource(set, manifest, dir) {
	const root = path.resolve(dir);
	const isCheckout = await fs.stat(path.join(root, ...set.checkoutMarker.split("/"))).then(
		() => true,
		() => false,
	);
	const isCopy = await fs.stat(path.join(root, ...set.ownedFolders[set.ownedFolders.length - 1].split("/"))).then(
		() => true,
		() => false,
	);
	if (!isCheckout && !isCopy) throw new UsageError(`${root} is neither a checkout of ${manifest.repository} nor a copy of the test data.`);
	return {
		describe: root,
		read: async (file) =>
			fs.readFile(path.join(root, ...(isCheckout ? file.from : file.path).split("/"))).catch((error) => {
				if (error.code === "ENOENT") return null;
				throw error;
			}),
	};
}

/**
 * A tarball of the repository at the pinned commit, as GitHub's codeload serves it: one top folder
 * (`<name>-<commit>/`), long names in pax headers. Gzipped or not.
 */
async function tarballSource(file) {
	let bytes = await fs.readFile(file);
	if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
	const files = readTar(bytes);
	return {
		describe: path.resolve(file),
		read: async (entry) => files.get(entry.from) ?? null,
	};
}

/**
 * The regular files of a tar archive, by path with the top folder removed when every file sits in
 * one (whatever its name: GitHub's `obsidian-tasks-<commit>/`, a renamed or re-packed copy);
 * an archive of several top folders or loose files keeps its paths.
 */
function readTar(bytes) {
	const files = new Map();
	const text = (start, length) => {
		const field = bytes.subarray(start, start + length);
		const end = field.indexOf(0);
		return field.subarray(0, end === -1 ? length : end).toString("utf8");
	};
	let offset = 0;
	let nextName = null;
	while (offset + 512 <= bytes.length) {
		if (bytes.subarray(offset, offset + 512).every((byte) => byte === 0)) break;
		const size = parseInt(text(offset + 124, 12).trim() || "0", 8);
		const type = String.fromCharCode(bytes[offset + 156] || 0x30);
		const prefix = text(offset + 345, 155);
		const name = nextName ?? (prefix ? `${prefix}/${text(offset, 100)}` : text(offset, 100));
		const body = bytes.subarray(offset + 512, offset + 512 + size);
		if (body.length < size) throw new DataError("The tarball is cut short.");
		offset += 512 + Math.ceil(size / 512) * 512;
		if (type === "x") {
			nextName = paxPath(body) ?? null;
			continue;
		}
		if (type === "L") {
			nextName = body.toString("utf8").replace(/\0+$/, "");
			continue;
		}
		nextName = null;
		if (type !== "0" && type !== "\0") continue;
		files.set(name.replace(/^\.\//, ""), Buffer.from(body));
	}
	const tops = new Set([...files.keys()].map((name) => (name.includes("/") ? name.split("/")[0] : "")));
	if (tops.size !== 1 || tops.has("")) return files;
	return new Map([...files].map(([name, body]) => [name.split("/").slice(1).join("/"), body]));
}

/** The `path` record of a pax extended header ("<length> path=<value>\n" records). */
function paxPath(body) {
	let rest = body.toString("utf8");
	while (rest.length > 0) {
		const space = rest.indexOf(" ");
		const length = Number(rest.slice(0, space));
		if (!Number.isInteger(length) || length <= 0) return undefined;
		const record = rest.slice(space + 1, length - 1);
		rest = rest.slice(length);
		if (record.startsWith("path=")) return record.slice("path=".length);
	}
	return undefined;
}

/** GitHub's raw file service at the pinned commit; `base` is replaceable so tests can serve files locally. */
function rawSource(manifest, base) {
	const repoBase = `${base}/${manifest.repository}/${manifest.commit}`;
	return {
		describe: repoBase,
		read: async (file) => {
			const url = `${repoBase}/${file.from.split("/").map(encodeURIComponent).join("/")}`;
			let lastError;
			for (let attempt = 1; attempt <= DOWNLOAD_ATTEMPTS; attempt++) {
				try {
					// Node's fetch, named through globalThis: the lint rule that points plugins at Obsidian's
					// requestUrl is about code in Obsidian, and this script never runs there.
					const response = await globalThis.fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
					if (response.status === 404) return null;
					if (!response.ok) throw new Error(`HTTP ${response.status}`);
					return Buffer.from(await response.arrayBuffer());
				} catch (error) {
					lastError = error;
					await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
				}
			}
			const reason = lastError?.cause?.code ?? lastError?.message ?? String(lastError);
			throw new DataError(
				`Could not download ${url} (${reason}). Without network access, download ` +
					`https://codeload.github.com/${manifest.repository}/tar.gz/${manifest.commit} some other way and run ` +
					`"npm run fixtures -- --tarball FILE"; or run "npm run fixtures -- --from DIR" with a checkout of ${manifest.repository} ` +
					`(or a copy laid out like .fixtures/); or set VAULT_MCP_FIXTURES to a folder that holds the data.`,
			);
		},
	};
}

// --- commands ---

/** Reads every manifest file from the source and checks it; returns the bytes only if all are right. */
async function collect(set, manifest, source) {
	const got = new Map();
	const missing = [];
	const wrong = [];
	let next = 0;
	const worker = async () => {
		while (next < manifest.files.length) {
			const file = manifest.files[next++];
			const bytes = await source.read(file);
			if (bytes === null) missing.push(file.path);
			else if (bytes.length !== file.bytes || sha256(bytes) !== file.sha256)
				wrong.push(`${file.path} (expected SHA-256 ${file.sha256}, got ${sha256(bytes)})`);
			else got.set(file.path, bytes);
		}
	};
	await Promise.all(Array.from({ length: DOWNLOADS_AT_ONCE }, worker));
	if (wrong.length > 0) {
		throw new DataError(`${wrong.length} file(s) differ from the manifest; nothing was written:\n${listLines(wrong.sort(), "checksum mismatch: ")}`);
	}
	if (missing.length > 0) {
		const readers = [...new Set(missing.flatMap((file) => readersOf(set, file)))].sort();
		throw new DataError(
			`${missing.length} file(s) are not in ${source.describe}; nothing was written:\n${listLines(missing.sort(), "missing: ")}\n` +
				`These tests read them: ${readers.join(", ")}. Run them with VAULT_MCP_FIXTURES set to a folder that holds the complete data.`,
		);
	}
	return got;
}

async function fetchCommand(options) {
	const hasSource = options.from || options.tarball || options.rawBase;
	const names = options.set ? [options.set] : hasSource ? ["golden"] : Object.keys(SETS).filter((name) => !SETS[name].onlyWhenNamed);
	for (const name of names) await fetchSet(name, SETS[name], options);
	return 0;
}

async function fetchSet(name, set, options) {
	const manifest = await loadManifest(set);
	const out = path.resolve(options.out ?? DEFAULT_OUT);
	// Nothing to download when the tests already have a matching copy where they look (the same
	// places as test/helpers/fixtures.ts): so the README's one command also works offline in CI.
	const alreadyThere = options.out ? [out] : [process.env.VAULT_MCP_FIXTURES, path.resolve(PROJECT_ROOT, "../shared/data"), out].filter(Boolean);
	for (const candidate of alreadyThere) {
		if ((await verifyFolder(manifest, path.resolve(candidate))).length === 0) {
			process.stdout.write(`The test data (${name}) is already in ${path.resolve(candidate)} and matches the manifest.\n`);
			return;
		}
	}
	const source = options.from
		? await folderSource(set, manifest, options.from)
		: options.tarball
			? await tarballSource(options.tarball)
			: rawSource(manifest, options.rawBase ?? RAW_BASE);
	process.stdout.write(
		`Fetching ${manifest.files.length} files of ${name} (${manifest.repository} at ${manifest.commit.slice(0, 12)}) from ${source.describe} …\n`,
	);
	const files = await collect(set, manifest, source);
	// Write beside the target and swap each of the set's folders in whole, so an interrupted run
	// never leaves half a folder that the tests would take for the real thing, and the other set's
	// folders stay as they are.
	const staging = `${out}.partial-${process.pid}`;
	await fs.rm(staging, { recursive: true, force: true });
	for (const [file, bytes] of files) {
		const target = path.join(staging, ...file.split("/"));
		await fs.mkdir(path.dirname(target), { recursive: true });
		await fs.writeFile(target, bytes);
	}
	for (const owned of set.ownedFolders) {
		const target = path.join(out, ...owned.split("/"));
		await fs.rm(target, { recursive: true, force: true });
		await fs.mkdir(path.dirname(target), { recursive: true });
		await fs.rename(path.join(staging, ...owned.split("/")), target);
	}
	await fs.rm(staging, { recursive: true, force: true });
	process.stdout.write(`Wrote ${files.size} checked files to ${out}${out === DEFAULT_OUT ? "" : `; run the tests with VAULT_MCP_FIXTURES=${out}`}.\n`);
}

/** Problems with a folder that should hold the test data; empty when it matches the manifest. */
async function verifyFolder(manifest, dir) {
	const problems = [];
	for (const file of manifest.files) {
		const bytes = await fs.readFile(path.join(dir, ...file.path.split("/"))).catch(() => null);
		if (bytes === null) problems.push(`missing: ${file.path}`);
		else if (bytes.length !== file.bytes || sha256(bytes) !== file.sha256) problems.push(`checksum mismatch: ${file.path}`);
	}
	return problems;
}

async function verifyCommand(dir, options) {
	if (!dir) throw new UsageError("verify needs a folder.");
	const problems = await verifyFolder(await loadManifest(SETS[options.set ?? "golden"]), path.resolve(dir));
	if (problems.length > 0) throw new DataError(`${path.resolve(dir)} does not match the manifest:\n${listLines(problems)}`);
	process.stdout.write(`${path.resolve(dir)} matches the manifest.\n`);
	return 0;
}

async function manifestCommand(dir, options) {
	if (!dir) throw new UsageError("manifest needs the folder to describe.");
	const set = SETS[options.set ?? "golden"];
	const root = path.resolve(dir);
	const previous = await loadManifest(set).catch(() => ({}));
	const files = [];
	for (const file of await listFiles(root)) {
		if (!set.ownedFolders.some((owned) => file === owned || file.startsWith(`${owned}/`))) continue;
		const bytes = await fs.readFile(path.join(root, file));
		files.push({ path: file, from: upstreamPathOf(set, file), bytes: bytes.length, sha256: sha256(bytes) });
	}
	const manifest = {
		about: previous.about ?? "Test data kept outside the repository. Every file is at the pinned commit, under `from`.",
		repository: previous.repository ?? set.defaults.repository,
		commit: previous.commit ?? set.defaults.commit,
		license: previous.license ?? set.defaults.license,
		files,
	};
	// One file a line, so a changed checksum shows as a one-line diff.
	const { files: entries, ...head } = manifest;
	const headText = JSON.stringify(head, null, "\t").replace(/\n}$/, "");
	await fs.writeFile(set.manifestPath, `${headText},\n\t"files": [\n${entries.map((entry) => `\t\t${JSON.stringify(entry)}`).join(",\n")}\n\t]\n}\n`);
	process.stdout.write(`Wrote ${files.length} entries to ${path.relative(PROJECT_ROOT, set.manifestPath)}.\n`);
	return 0;
}

function parseOptions(args) {
	const options = {};
	for (let index = 0; index < args.length; index++) {
		const flag = args[index];
		const value = args[index + 1];
		const key = { "--from": "from", "--tarball": "tarball", "--out": "out", "--raw-base": "rawBase", "--set": "set" }[flag];
		if (!key) throw new UsageError(`Unknown option: ${flag}`);
		if (value === undefined) throw new UsageError(`${flag} needs a value.`);
		options[key] = value;
		index++;
	}
	if (options.from && options.tarball) throw new UsageError("Give --from or --tarball, not both.");
	if (options.set !== undefined && !Object.hasOwn(SETS, options.set))
		throw new UsageError(`Unknown set: ${options.set} (the sets are ${Object.keys(SETS).join(", ")}).`);
	return options;
}

/** A command's folder argument and its options, in either order. */
function folderAndOptions(args) {
	const folder = args[0] !== undefined && !args[0].startsWith("--") ? args[0] : undefined;
	return [folder, parseOptions(folder === undefined ? args : args.slice(1))];
}

async function main(argv) {
	const [command = "fetch", ...rest] = argv;
	if (command === "fetch") return fetchCommand(parseOptions(rest));
	if (command === "verify") return verifyCommand(...folderAndOptions(rest));
	if (command === "manifest") return manifestCommand(...folderAndOptions(rest));
	if (command.startsWith("--")) return fetchCommand(parseOptions(argv));
	throw new UsageError(`Unknown command: ${command}`);
}

main(process.argv.slice(2)).then(
	(code) => process.exit(code),
	(error) => {
		process.stderr.write(`${error instanceof UsageError ? "usage: " : ""}${error.message}\n`);
		if (error instanceof UsageError) process.stderr.write('Run "npm run fixtures" (see the comment at the top of scripts/fixtures.mjs).\n');
		process.exit(error instanceof UsageError ? 2 : 1);
	},
);
