import type { JudgedQuery } from "./judgedQueries";

/**
 * The fourteenth held-out judged set: questions a user, contributor or maintainer of Homebrew (the
 * package manager for macOS and Linux) would type over its documentation (repository
 * Homebrew/brew, folder `docs` at commit aad366ffaf6a8c94c66d35e4b990d42ac4195305; BSD-2-Clause,
 * © Homebrew contributors), fetched by `npm run fixtures -- --set homebrew-docs`
 * (test/fixtures-manifest-homebrew-docs.json). 85 Markdown pages named in hyphenated title case
 * (`Brew-Bundle-and-Brewfile.md`) and titled by their first heading: user guides, a long FAQ whose
 * headings are questions, two 90–100 KB cookbooks (formulae and casks), a 135 KB manual page
 * (`Manpage.md`) that names every command and variable, maintainers' and governance pages, and
 * yearly meeting minutes under `governance/`.
 *
 * Written on 2026-12-05 (rank64) from the pages' titles, headings and opening paragraphs, in a
 * person's own words (everyday ones, other forms and synonyms of the pages' words, some short),
 * before the engine was run on the vault and before any ranking change of that session; scored
 * once on main `c4b0f0f`, and only the totals were read. A question expects the page a person
 * would want; the FAQ too where one of its questions answers it. Held out: do not tune ranking on
 * these queries, and do not edit them to match what the engine answers. New queries go into a new
 * set.
 */
export const HOMEBREW_DOCS_JUDGED_QUERIES: JudgedQuery[] = [
	// Installing and removing Homebrew
	{ vault: "homebrew-docs", query: "how do I get rid of homebrew completely", expected: ["Installation.md", "FAQ.md"] },
	{ vault: "homebrew-docs", query: "install brew without it asking me anything", expected: ["Installation.md"] },
	{ vault: "homebrew-docs", query: "put homebrew in my home folder instead of the default place", expected: ["Installation.md", "FAQ.md"] },
	{ vault: "homebrew-docs", query: "why does it live in /opt/homebrew on apple silicon", expected: ["FAQ.md"] },
	{ vault: "homebrew-docs", query: "using brew on ubuntu", expected: ["Homebrew-on-Linux.md"] },
	{ vault: "homebrew-docs", query: "can I run it on windows", expected: ["Homebrew-on-Linux.md", "Installation.md"] },
	{ vault: "homebrew-docs", query: "which mac os versions still work", expected: ["Support-Tiers.md", "Installation.md"] },
	{ vault: "homebrew-docs", query: "github is blocked where I am, use a mirror", expected: ["Installation.md", "Tips-and-Tricks.md"] },
	{ vault: "homebrew-docs", query: "move my installation to another directory", expected: ["Tips-and-Tricks.md"] },

	// Everyday use
	{ vault: "homebrew-docs", query: "keep a package from being upgraded", expected: ["Versions.md", "FAQ.md"] },
	{ vault: "homebrew-docs", query: "install an older release of a package", expected: ["Versions.md", "Tips-and-Tricks.md"] },
	{ vault: "homebrew-docs", query: "upgrade everything I have installed", expected: ["FAQ.md"] },
	{ vault: "homebrew-docs", query: "why did upgrading one thing update a bunch of other stuff", expected: ["FAQ.md"] },
	{ vault: "homebrew-docs", query: "where are the downloads cached", expected: ["FAQ.md"] },
	{ vault: "homebrew-docs", query: "stop sending usage statistics", expected: ["Analytics.md"] },
	{ vault: "homebrew-docs", query: "a file listing all my apps and tools to set up a new mac", expected: ["Brew-Bundle-and-Brewfile.md"] },
	{ vault: "homebrew-docs", query: "tab completion for brew in zsh", expected: ["Shell-Completion.md"] },
	{ vault: "homebrew-docs", query: "tell me which package provides a missing command", expected: ["Command-Not-Found.md"] },
	{ vault: "homebrew-docs", query: "install just the dependencies of a formula", expected: ["Tips-and-Tricks.md"] },
	{ vault: "homebrew-docs", query: "get package details as json for a script", expected: ["Querying-Brew.md"] },
	{ vault: "homebrew-docs", query: "every command and option brew has", expected: ["Manpage.md"] },
	{ vault: "homebrew-docs", query: "prebuilt binaries instead of compiling from source", expected: ["Bottles.md", "FAQ.md"] },
	{ vault: "homebrew-docs", query: "is running brew with sudo a bad idea", expected: ["FAQ.md"] },
	{ vault: "homebrew-docs", query: "apps that update themselves and brew upgrade", expected: ["FAQ.md"] },
	{ vault: "homebrew-docs", query: "try a formula from a pull request that is not merged yet", expected: ["FAQ.md"] },
	{ vault: "homebrew-docs", query: "what does cellar keg and tap mean", expected: ["Formula-Cookbook.md", "FAQ.md", "Manpage.md"] },

	// Languages and building
	{ vault: "homebrew-docs", query: "pip refuses to install packages into the homebrew python", expected: ["Language-Runtimes-and-Packages.md"] },
	{ vault: "homebrew-docs", query: "switch between java versions", expected: ["Language-Runtimes-and-Packages.md"] },
	{
		vault: "homebrew-docs",
		query: "compile my own code against a library that isn't linked",
		expected: ["How-to-Build-Software-Outside-Homebrew-with-Homebrew-keg-only-Dependencies.md"],
	},
	{ vault: "homebrew-docs", query: "libc++ versus libstdc++ errors", expected: ["C++-Standard-Libraries.md"] },
	{ vault: "homebrew-docs", query: "cross compiler toolchain", expected: ["Custom-GCC-and-cross-compilers.md"] },

	// Trouble
	{ vault: "homebrew-docs", query: "brew broke after I updated macos", expected: ["Common-Issues.md"] },
	{ vault: "homebrew-docs", query: "error about missing command line tools", expected: ["Common-Issues.md"] },
	{ vault: "homebrew-docs", query: "sha256 mismatch when installing an app", expected: ["Common-Issues.md"] },
	{
		vault: "homebrew-docs",
		query: "something is wrong, what should I check before filing a bug",
		expected: ["Troubleshooting.md", "Creating-a-Homebrew-Issue.md"],
	},

	// Taps
	{ vault: "homebrew-docs", query: "add a third party repository of packages", expected: ["Taps.md"] },
	{ vault: "homebrew-docs", query: "publish my own formulae for others to install", expected: ["How-to-Create-and-Maintain-a-Tap.md"] },
	{ vault: "homebrew-docs", query: "is it safe to install from somebody else's tap", expected: ["Tap-Trust.md"] },

	// Contributing packages
	{ vault: "homebrew-docs", query: "package a new command line program", expected: ["Formula-Cookbook.md", "Adding-Software-to-Homebrew.md"] },
	{ vault: "homebrew-docs", query: "package a mac app so people can brew install it", expected: ["Cask-Cookbook.md", "Adding-Software-to-Homebrew.md"] },
	{ vault: "homebrew-docs", query: "will my project be accepted into homebrew core", expected: ["Acceptable-Formulae.md", "Package-Acceptance-Policy.md"] },
	{
		vault: "homebrew-docs",
		query: "send a newer version of an existing package",
		expected: ["How-To-Open-a-Homebrew-Pull-Request.md", "Updating-Software-in-Homebrew.md"],
	},
	{ vault: "homebrew-docs", query: "my pull request is still waiting for review", expected: ["FAQ.md"] },
	{ vault: "homebrew-docs", query: "detect new upstream releases automatically", expected: ["Brew-Livecheck.md", "Autobump.md"] },
	{ vault: "homebrew-docs", query: "patch the source before building", expected: ["Formula-Cookbook.md"] },
	{ vault: "homebrew-docs", query: "run a background daemon from a formula", expected: ["Formula-Cookbook.md"] },
	{ vault: "homebrew-docs", query: "declare which license a formula uses", expected: ["Licence-Guidelines.md", "Formula-Cookbook.md"] },
	{ vault: "homebrew-docs", query: "change a formula's name", expected: ["Rename-A-Formula.md"] },
	{ vault: "homebrew-docs", query: "drop an abandoned formula", expected: ["Deprecating-Disabling-and-Removing.md"] },
	{ vault: "homebrew-docs", query: "move a formula out of core into a tap", expected: ["Migrating-A-Formula-To-A-Tap.md"] },
	{ vault: "homebrew-docs", query: "add my own subcommand to brew", expected: ["External-Commands.md"] },
	{ vault: "homebrew-docs", query: "I develop software that homebrew packages", expected: ["Working-with-Homebrew-as-an-Upstream-Project.md"] },

	// Homebrew's own code and project
	{ vault: "homebrew-docs", query: "let an ai assistant run brew for me", expected: ["MCP-Server.md"] },
	{ vault: "homebrew-docs", query: "may I use chatgpt to write a contribution", expected: ["Responsible-AI-Usage.md"] },
	{ vault: "homebrew-docs", query: "fix sorbet type errors", expected: ["Typechecking.md"] },
	{ vault: "homebrew-docs", query: "the same build output every time", expected: ["Reproducible-Builds.md"] },
	{ vault: "homebrew-docs", query: "protection against malicious packages", expected: ["Homebrew-Security-and-Supply-Chain.md", "Tap-Trust.md"] },
	{ vault: "homebrew-docs", query: "how a new version of brew gets released", expected: ["Releases.md"] },
	{ vault: "homebrew-docs", query: "which ubuntu release the linux bottles are built on", expected: ["Linux-CI.md"] },
	{ vault: "homebrew-docs", query: "how to word the documentation", expected: ["Prose-Style-Guidelines.md"] },
	{ vault: "homebrew-docs", query: "who decides things in the project", expected: ["Homebrew-Governance.md"] },
	{ vault: "homebrew-docs", query: "do maintainers get paid", expected: ["Maintainer-Stipends-and-Grants.md"] },
	{ vault: "homebrew-docs", query: "claim back travel costs", expected: ["Expense-and-Reimbursement-Policy.md", "Maintainer-Stipends-and-Grants.md"] },
	{ vault: "homebrew-docs", query: "just became a maintainer, what now", expected: ["New-Maintainer-Checklist.md"] },
	{ vault: "homebrew-docs", query: "too much work as a maintainer and feeling exhausted", expected: ["Maintainers-Avoiding-Burnout.md"] },
	{ vault: "homebrew-docs", query: "people who funded the kickstarter", expected: ["Kickstarter-Supporters.md"] },
	{ vault: "homebrew-docs", query: "minutes of the 2023 annual meeting", expected: ["governance/2023-agm-minutes.md"] },
];
