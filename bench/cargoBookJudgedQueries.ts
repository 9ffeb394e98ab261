import type { JudgedQuery } from "./judgedQueries";

/**
 * The eleventh held-out judged set: questions a developer new to Rust's package manager would type
 * over The Cargo Book (repository rust-lang/cargo, folder `doc/book/src` at commit
 * af373f761aa4e42b093c2e453078fd73c8ce54dd; MIT or Apache-2.0, © the Rust Project Developers),
 * fetched by `npm run fixtures -- --set cargo-book` (test/fixtures-manifest-cargo-book.json). 99
 * Markdown pages: the getting-started and guide pages (`guide/build-performance.md`,
 * `guide/cargo-home.md`…), 31 reference pages, four of them 57–449 kB (`reference/config.md`,
 * `reference/semver.md`, `reference/unstable.md`, and the whole `CHANGELOG.md`), 47 command pages
 * generated from the man pages (`commands/cargo-build.md`, titled `cargo-build(1)`, most repeating
 * the same option sections word for word), the FAQ and a glossary. No front matter; titles are the
 * `#` heading, file names are slugs.
 *
 * Written on 2026-12-04 (rank46) from the pages' titles, headings and text, in a new user's own
 * words (everyday ones, other forms and synonyms of the pages' words, some short), before the
 * engine was run on them; scored once, on main `65a69d4`, and only the totals were read, not which
 * questions miss. Held out: do not tune ranking on these queries, and do not edit them to match
 * what the engine answers. New queries go into a new set.
 */
export const CARGO_BOOK_JUDGED_QUERIES: JudgedQuery[] = [
	// Getting started and the guide
	{ vault: "cargo-book", query: "how do I install cargo", expected: ["getting-started/installation.md"] },
	{
		vault: "cargo-book",
		query: "start a new rust project",
		expected: ["guide/creating-a-new-project.md", "commands/cargo-new.md", "getting-started/first-steps.md"],
	},
	{ vault: "cargo-book", query: "difference between Cargo.toml and Cargo.lock", expected: ["guide/cargo-toml-vs-cargo-lock.md"] },
	{ vault: "cargo-book", query: "should I commit the lock file to git", expected: ["faq.md", "guide/cargo-toml-vs-cargo-lock.md"] },
	{
		vault: "cargo-book",
		query: "which folder do integration tests go in",
		expected: ["guide/project-layout.md", "reference/cargo-targets.md", "guide/tests.md"],
	},
	{
		vault: "cargo-book",
		query: "add a crate as a dependency",
		expected: ["guide/dependencies.md", "commands/cargo-add.md", "reference/specifying-dependencies.md"],
	},
	{ vault: "cargo-book", query: "my builds are slow, how can I make compiling faster", expected: ["guide/build-performance.md"] },
	{ vault: "cargo-book", query: "use a faster linker", expected: ["guide/build-performance.md"] },
	{ vault: "cargo-book", query: "run cargo in github actions", expected: ["guide/continuous-integration.md"] },
	{ vault: "cargo-book", query: "where are downloaded crates stored on my machine", expected: ["guide/cargo-home.md"] },
	{ vault: "cargo-book", query: "why does the target folder take up so much disk space", expected: ["faq.md", "reference/build-cache.md"] },
	{ vault: "cargo-book", query: "cargo keeps recompiling everything every time", expected: ["faq.md"] },
	{ vault: "cargo-book", query: "build without an internet connection", expected: ["faq.md", "commands/cargo-fetch.md"] },

	// Dependencies
	{ vault: "cargo-book", query: "depend on a crate straight from a git repo", expected: ["reference/specifying-dependencies.md"] },
	{ vault: "cargo-book", query: "use a library from a local folder", expected: ["reference/specifying-dependencies.md"] },
	{ vault: "cargo-book", query: "what does the ^ in a version requirement mean", expected: ["reference/specifying-dependencies.md"] },
	{ vault: "cargo-book", query: "dependencies only needed for tests and examples", expected: ["reference/specifying-dependencies.md"] },
	{ vault: "cargo-book", query: "dependency that is only used on windows", expected: ["reference/specifying-dependencies.md"] },
	{ vault: "cargo-book", query: "point a dependency at my fork to try a bug fix", expected: ["reference/overriding-dependencies.md"] },
	{ vault: "cargo-book", query: "same crate shows up twice with different versions", expected: ["reference/resolver.md", "commands/cargo-tree.md"] },
	{ vault: "cargo-book", query: "print a tree of all my dependencies", expected: ["commands/cargo-tree.md"] },
	{ vault: "cargo-book", query: "update just one dependency in the lockfile", expected: ["commands/cargo-update.md"] },
	{ vault: "cargo-book", query: "remove a dependency from Cargo.toml", expected: ["commands/cargo-remove.md"] },
	{
		vault: "cargo-book",
		query: "copy all dependencies into my repository so builds work offline",
		expected: ["commands/cargo-vendor.md", "reference/source-replacement.md", "guide/cargo-home.md"],
	},
	{ vault: "cargo-book", query: "use a mirror instead of crates.io", expected: ["reference/source-replacement.md"] },
	{
		vault: "cargo-book",
		query: "fetch a private git dependency with ssh keys",
		expected: ["appendix/git-authentication.md", "reference/specifying-dependencies.md"],
	},

	// Features and workspaces
	{ vault: "cargo-book", query: "make a dependency optional behind a feature flag", expected: ["reference/features.md"] },
	{ vault: "cargo-book", query: "turn off a dependency's default features", expected: ["reference/features.md", "reference/specifying-dependencies.md"] },
	{ vault: "cargo-book", query: "examples of how crates use features", expected: ["reference/features-examples.md"] },
	{ vault: "cargo-book", query: "share dependency versions between several packages in one repo", expected: ["reference/workspaces.md"] },
	{ vault: "cargo-book", query: "workspace with no root package", expected: ["reference/workspaces.md"] },

	// Profiles, build scripts, configuration
	{ vault: "cargo-book", query: "enable link time optimization in release builds", expected: ["reference/profiles.md"] },
	{ vault: "cargo-book", query: "keep debug symbols in release mode", expected: ["reference/profiles.md"] },
	{ vault: "cargo-book", query: "abort on panic instead of unwinding", expected: ["reference/profiles.md"] },
	{ vault: "cargo-book", query: "compile some C code as part of my build", expected: ["reference/build-script-examples.md", "reference/build-scripts.md"] },
	{ vault: "cargo-book", query: "link against a system library in build.rs", expected: ["reference/build-scripts.md", "reference/build-script-examples.md"] },
	{ vault: "cargo-book", query: "only rerun the build script when a file changes", expected: ["reference/build-scripts.md"] },
	{ vault: "cargo-book", query: "environment variables cargo sets while compiling my crate", expected: ["reference/environment-variables.md"] },
	{ vault: "cargo-book", query: "get the package version in my code at compile time", expected: ["reference/environment-variables.md"] },
	{ vault: "cargo-book", query: "pass rustflags to every build", expected: ["reference/config.md", "reference/environment-variables.md"] },
	{ vault: "cargo-book", query: "make a shortcut for a long cargo command", expected: ["reference/config.md"] },
	{ vault: "cargo-book", query: "several binaries in one package", expected: ["reference/cargo-targets.md", "guide/project-layout.md"] },
	{ vault: "cargo-book", query: "see how long each crate takes to compile", expected: ["reference/timings.md"] },
	{ vault: "cargo-book", query: "minimum supported rust version", expected: ["reference/rust-version.md"] },
	{ vault: "cargo-book", query: "write my own cargo subcommand", expected: ["reference/external-tools.md"] },
	{ vault: "cargo-book", query: "list the packages of the workspace as json", expected: ["commands/cargo-metadata.md"] },

	// Publishing and registries
	{ vault: "cargo-book", query: "publish my crate to crates.io", expected: ["reference/publishing.md", "commands/cargo-publish.md"] },
	{ vault: "cargo-book", query: "pull back a broken release so nobody new depends on it", expected: ["commands/cargo-yank.md", "reference/publishing.md"] },
	{ vault: "cargo-book", query: "let a teammate publish new versions of my crate", expected: ["commands/cargo-owner.md", "reference/publishing.md"] },
	{ vault: "cargo-book", query: "log in with an api token", expected: ["commands/cargo-login.md", "reference/registry-authentication.md"] },
	{ vault: "cargo-book", query: "leave files out of the published package", expected: ["reference/manifest.md", "commands/cargo-package.md"] },
	{ vault: "cargo-book", query: "host a private registry for my company", expected: ["reference/running-a-registry.md", "reference/registries.md"] },
	{ vault: "cargo-book", query: "is adding a field to a public struct a breaking change", expected: ["reference/semver.md"] },

	// Commands
	{ vault: "cargo-book", query: "install a command line tool written in rust", expected: ["commands/cargo-install.md"] },
	{ vault: "cargo-book", query: "automatically fix compiler warnings", expected: ["commands/cargo-fix.md"] },
	{ vault: "cargo-book", query: "check that my code compiles without building a binary", expected: ["commands/cargo-check.md"] },
	{ vault: "cargo-book", query: "run only one test by its name", expected: ["commands/cargo-test.md", "guide/tests.md"] },
	{ vault: "cargo-book", query: "delete the target directory", expected: ["commands/cargo-clean.md"] },
	{ vault: "cargo-book", query: "build the docs of my crate and open them in a browser", expected: ["commands/cargo-doc.md"] },

	// Terms, lints, what changed
	{ vault: "cargo-book", query: "what is the difference between a crate and a package", expected: ["appendix/glossary.md"] },
	{ vault: "cargo-book", query: "configure lints for the whole workspace", expected: ["reference/workspaces.md", "reference/manifest.md"] },
	{ vault: "cargo-book", query: "what changed in recent cargo releases", expected: ["CHANGELOG.md"] },
	{ vault: "cargo-book", query: "nightly only features", expected: ["reference/unstable.md"] },
];
