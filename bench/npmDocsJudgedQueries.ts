import type { JudgedQuery } from "./judgedQueries";

/**
 * The third judged set, and the one CI always runs: questions a new npm user would type, over the
 * documentation vault that ships inside the npm package itself (`docs/content/`, 91 Markdown pages
 * with frontmatter, npm 11.21.2, The Artistic License 2.0), installed from the npm registry into
 * test/unseen-vaults by `npm test`'s pretest. Nobody tuned this project's search on these pages.
 *
 * Written on 2026-12-02 from the pages' titles, descriptions and text, before the engine was run on
 * them; the expected pages are those a person reading the docs would want in the first three. Do
 * not tune ranking on these queries and do not edit them to match what the engine answers.
 */
export const NPM_DOCS_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "npm-docs", query: "clean install in continuous integration", expected: ["commands/npm-ci.md", "commands/npm-install-ci-test.md"] },
	{ vault: "npm-docs", query: "how do I publish my package", expected: ["commands/npm-publish.md", "using-npm/developers.md"] },
	{ vault: "npm-docs", query: "remove a package I published from the registry", expected: ["commands/npm-unpublish.md"] },
	{ vault: "npm-docs", query: "uninstall a dependency", expected: ["commands/npm-uninstall.md"] },
	{ vault: "npm-docs", query: "check my dependencies for security vulnerabilities", expected: ["commands/npm-audit.md"] },
	{ vault: "npm-docs", query: "fix vulnerabilities automatically", expected: ["commands/npm-audit.md"] },
	{ vault: "npm-docs", query: "bump the version number before a release", expected: ["commands/npm-version.md"] },
	{ vault: "npm-docs", query: "see which packages are out of date", expected: ["commands/npm-outdated.md"] },
	{ vault: "npm-docs", query: "upgrade packages to newer versions", expected: ["commands/npm-update.md", "commands/npm-outdated.md"] },
	{ vault: "npm-docs", query: "run a script from package.json", expected: ["commands/npm-run.md", "using-npm/scripts.md"] },
	{ vault: "npm-docs", query: "what happens in preinstall and postinstall scripts", expected: ["using-npm/scripts.md"] },
	{ vault: "npm-docs", query: "use a private registry", expected: ["configuring-npm/npmrc.md", "using-npm/registry.md", "using-npm/config.md"] },
	{
		vault: "npm-docs",
		query: "where does npm put globally installed packages",
		expected: ["configuring-npm/folders.md", "commands/npm-root.md", "commands/npm-prefix.md"],
	},
	{ vault: "npm-docs", query: "set up a monorepo with several packages", expected: ["using-npm/workspaces.md"] },
	{ vault: "npm-docs", query: "scoped package names like @org/name", expected: ["using-npm/scope.md", "using-npm/package-spec.md"] },
	{ vault: "npm-docs", query: "link a local package for development", expected: ["commands/npm-link.md"] },
	{ vault: "npm-docs", query: "why is this package installed", expected: ["commands/npm-explain.md", "commands/npm-ls.md"] },
	{ vault: "npm-docs", query: "list the dependency tree", expected: ["commands/npm-ls.md", "commands/npm-ll.md"] },
	{ vault: "npm-docs", query: "clear the npm cache", expected: ["commands/npm-cache.md"] },
	{
		vault: "npm-docs",
		query: "lock file",
		expected: ["configuring-npm/package-lock-json.md", "configuring-npm/npm-shrinkwrap-json.md", "commands/npm-shrinkwrap.md"],
	},
	{ vault: "npm-docs", query: "what does the bin field in package.json do", expected: ["configuring-npm/package-json.md"] },
	{ vault: "npm-docs", query: "peer dependencies", expected: ["configuring-npm/package-json.md"] },
	{ vault: "npm-docs", query: "run a package without installing it", expected: ["commands/npx.md", "commands/npm-exec.md"] },
	{ vault: "npm-docs", query: "create a new package.json", expected: ["commands/npm-init.md"] },
	{ vault: "npm-docs", query: "log in to the registry", expected: ["commands/npm-login.md", "commands/npm-adduser.md"] },
	{ vault: "npm-docs", query: "create an access token for automation", expected: ["commands/npm-token.md"] },
	{ vault: "npm-docs", query: "turn on two factor authentication", expected: ["commands/npm-profile.md"] },
	{ vault: "npm-docs", query: "mark a version as deprecated", expected: ["commands/npm-deprecate.md"] },
	{ vault: "npm-docs", query: "tag a release as beta", expected: ["commands/npm-dist-tag.md"] },
	{ vault: "npm-docs", query: "make a tarball of my package", expected: ["commands/npm-pack.md"] },
	{ vault: "npm-docs", query: "publish from GitHub Actions without a long-lived token", expected: ["commands/npm-trust.md"] },
	{ vault: "npm-docs", query: "generate a software bill of materials", expected: ["commands/npm-sbom.md"] },
	{ vault: "npm-docs", query: "remove extraneous packages", expected: ["commands/npm-prune.md"] },
	{ vault: "npm-docs", query: "duplicate packages in node_modules", expected: ["commands/npm-dedupe.md", "commands/npm-find-dupes.md"] },
	{ vault: "npm-docs", query: "make npm output more verbose", expected: ["using-npm/logging.md"] },
	{ vault: "npm-docs", query: "which packages are looking for funding", expected: ["commands/npm-fund.md"] },
	{ vault: "npm-docs", query: "add a team to my organization", expected: ["commands/npm-team.md", "commands/npm-org.md", "using-npm/orgs.md"] },
	{ vault: "npm-docs", query: "give another person permission to publish", expected: ["commands/npm-owner.md", "commands/npm-access.md"] },
	{ vault: "npm-docs", query: "change a config setting", expected: ["commands/npm-config.md", "commands/npm-set.md", "using-npm/config.md"] },
	{ vault: "npm-docs", query: "tab completion in my shell", expected: ["commands/npm-completion.md"] },
	{ vault: "npm-docs", query: "is the registry reachable", expected: ["commands/npm-ping.md", "commands/npm-doctor.md"] },
	{ vault: "npm-docs", query: "uninstall npm completely", expected: ["using-npm/removal.md"] },
	{ vault: "npm-docs", query: "query dependencies with css-like selectors", expected: ["using-npm/dependency-selectors.md", "commands/npm-query.md"] },
	{ vault: "npm-docs", query: "approve install scripts of a dependency", expected: ["commands/npm-approve-scripts.md", "commands/npm-install-scripts.md"] },
	{ vault: "npm-docs", query: "open the repository page of a package", expected: ["commands/npm-repo.md"] },
	{ vault: "npm-docs", query: "which user am I logged in as", expected: ["commands/npm-whoami.md"] },
	{ vault: "npm-docs", query: "rebuild native addons after upgrading node", expected: ["commands/npm-rebuild.md"] },
	{ vault: "npm-docs", query: "download and install node", expected: ["configuring-npm/install.md"] },
	{ vault: "npm-docs", query: "choose which files get published", expected: ["configuring-npm/package-json.md", "using-npm/developers.md"] },
	{ vault: "npm-docs", query: "keep files out of the published package", expected: ["using-npm/developers.md", "configuring-npm/package-json.md"] },
];
