import type { JudgedQuery } from "./judgedQueries";

/**
 * The thirteenth held-out judged set: questions a new user of Jekyll (a static site generator
 * written in Ruby: Markdown and Liquid templates in, a website out) would type over its
 * documentation (repository jekyll/jekyll, folder `docs/_docs` at commit
 * 202df571314ba1d18e9fccd81d12aaad4a703c38; MIT, © Tom Preston-Werner and Jekyll contributors),
 * fetched by `npm run fixtures -- --set jekyll-docs` (test/fixtures-manifest-jekyll-docs.json).
 * 91 Markdown pages titled in front matter: concept pages (`posts.md`, `collections.md`,
 * `permalinks.md`…), short hub pages that list their sub-pages (`configuration.md`,
 * `installation.md`, `deployment.md`, `plugins.md`, `upgrading.md`), a ten-step tutorial
 * (`step-by-step/…`, titled `Setup`, `Liquid`, `Layouts`… like the concept pages), guides for one
 * system or service each (`installation/macos.md`, `continuous-integration/travis-ci.md`),
 * maintainers' pages, Liquid and templating pages full of `{% raw %}` markup, and a 300 KB
 * changelog (`history.md`) that names nearly every word.
 *
 * Written on 2026-12-05 (rank57) from the pages' titles, headings and opening paragraphs, in a new
 * user's own words (everyday ones, other forms and synonyms of the pages' words, some short),
 * before the engine was run on the vault and before any ranking change of that session; scored on
 * main `22fe750`, and only the totals were read. Held out: do not tune ranking on these queries,
 * and do not edit them to match what the engine answers. New queries go into a new set.
 */
export const JEKYLL_DOCS_JUDGED_QUERIES: JudgedQuery[] = [
	// Getting started and installing
	{ vault: "jekyll-docs", query: "quickest way to get a site running", expected: ["index.md", "step-by-step/01-setup.md"] },
	{ vault: "jekyll-docs", query: "what do I need before installing jekyll", expected: ["installation.md", "index.md"] },
	{ vault: "jekyll-docs", query: "install jekyll on a mac with homebrew", expected: ["installation/macos.md"] },
	{ vault: "jekyll-docs", query: "setting up jekyll on windows", expected: ["installation/windows.md"] },
	{ vault: "jekyll-docs", query: "install on ubuntu", expected: ["installation/ubuntu.md"] },
	{ vault: "jekyll-docs", query: "jekyll on fedora or arch linux", expected: ["installation/other-linux.md"] },
	{ vault: "jekyll-docs", query: "what is a gem and what does bundler do", expected: ["ruby-101.md"] },
	{ vault: "jekyll-docs", query: "permission error installing gems without sudo", expected: ["troubleshooting.md"] },
	{ vault: "jekyll-docs", query: "commands of the jekyll executable", expected: ["usage.md", "configuration/options.md"] },
	{ vault: "jekyll-docs", query: "which folders does a jekyll site have", expected: ["structure.md"] },

	// Writing content
	{ vault: "jekyll-docs", query: "write a blog post", expected: ["posts.md", "step-by-step/08-blogging.md"] },
	{ vault: "jekyll-docs", query: "keep unfinished posts out of the published site", expected: ["posts.md"] },
	{ vault: "jekyll-docs", query: "show a short summary of each post on the home page", expected: ["posts.md"] },
	{ vault: "jekyll-docs", query: "tags and categories for posts", expected: ["posts.md"] },
	{ vault: "jekyll-docs", query: "add an about page", expected: ["pages.md", "step-by-step/04-layouts.md"] },
	{ vault: "jekyll-docs", query: "the yaml block at the top of a file", expected: ["front-matter.md", "step-by-step/03-front-matter.md"] },
	{ vault: "jekyll-docs", query: "set the same layout for every post without repeating it", expected: ["configuration/front-matter-defaults.md"] },
	{ vault: "jekyll-docs", query: "group related content like team members", expected: ["collections.md", "step-by-step/09-collections.md"] },
	{ vault: "jekyll-docs", query: "sort documents in a collection in my own order", expected: ["collections.md"] },
	{ vault: "jekyll-docs", query: "load a list of people from a yaml or csv file", expected: ["datafiles.md", "step-by-step/06-data-files.md"] },
	{ vault: "jekyll-docs", query: "images and pdfs that are copied without processing", expected: ["static_files.md"] },
	{ vault: "jekyll-docs", query: "split the list of posts over several pages", expected: ["pagination.md"] },
	{ vault: "jekyll-docs", query: "change the url a page is written to", expected: ["permalinks.md", "pages.md"] },
	{ vault: "jekyll-docs", query: "move my blog from wordpress", expected: ["migrations.md"] },

	// Templates
	{ vault: "jekyll-docs", query: "reuse a footer on every page", expected: ["includes.md", "layouts.md", "step-by-step/05-includes.md"] },
	{ vault: "jekyll-docs", query: "pass parameters to an include", expected: ["includes.md"] },
	{ vault: "jekyll-docs", query: "a layout that inherits from another layout", expected: ["layouts.md"] },
	{ vault: "jekyll-docs", query: "which variables can I use in a template like site and page", expected: ["variables.md"] },
	{ vault: "jekyll-docs", query: "format a date in liquid", expected: ["liquid/filters.md"] },
	{ vault: "jekyll-docs", query: "highlight code with line numbers", expected: ["liquid/tags.md"] },
	{ vault: "jekyll-docs", query: "link to another post from a post", expected: ["liquid/tags.md"] },
	{ vault: "jekyll-docs", query: "use sass for my stylesheets", expected: ["assets.md", "step-by-step/07-assets.md", "configuration/sass.md"] },

	// Configuration
	{ vault: "jekyll-docs", query: "list of all settings in _config.yml", expected: ["configuration/options.md", "configuration/default.md"] },
	{ vault: "jekyll-docs", query: "what are the default config values", expected: ["configuration/default.md"] },
	{ vault: "jekyll-docs", query: "show comments only in production", expected: ["configuration/environments.md"] },
	{ vault: "jekyll-docs", query: "only rebuild the pages that changed", expected: ["configuration/incremental-regeneration.md"] },
	{ vault: "jekyll-docs", query: "switch markdown renderer from kramdown to commonmark", expected: ["configuration/markdown.md"] },
	{ vault: "jekyll-docs", query: "add custom http headers to the local dev server", expected: ["configuration/webrick.md"] },
	{ vault: "jekyll-docs", query: "liquid errors for undefined variables", expected: ["configuration/liquid.md"] },

	// Themes and plugins
	{ vault: "jekyll-docs", query: "change how my site looks with a theme", expected: ["themes.md"] },
	{ vault: "jekyll-docs", query: "override one file of a gem theme", expected: ["themes.md"] },
	{ vault: "jekyll-docs", query: "how do I install a plugin", expected: ["plugins/installation.md", "plugins.md"] },
	{ vault: "jekyll-docs", query: "run my own code when a page is rendered", expected: ["plugins/hooks.md"] },
	{ vault: "jekyll-docs", query: "make a custom liquid tag", expected: ["plugins/tags.md"] },
	{ vault: "jekyll-docs", query: "support a new markup language", expected: ["plugins/converters.md"] },
	{ vault: "jekyll-docs", query: "generate extra pages at build time", expected: ["plugins/generators.md"] },
	{ vault: "jekyll-docs", query: "add a subcommand to jekyll", expected: ["plugins/commands.md"] },
	{ vault: "jekyll-docs", query: "writing my first plugin", expected: ["plugins/your-first-plugin.md"] },

	// Publishing
	{ vault: "jekyll-docs", query: "host my site for free on github", expected: ["github-pages.md"] },
	{ vault: "jekyll-docs", query: "upload the site with rsync or ftp", expected: ["deployment/manual.md"] },
	{ vault: "jekyll-docs", query: "deploy automatically when I push", expected: ["deployment/automated.md", "continuous-integration/github-actions.md"] },
	{ vault: "jekyll-docs", query: "netlify or vercel hosting", expected: ["deployment/third-party.md"] },
	{ vault: "jekyll-docs", query: "build and test the site on travis", expected: ["continuous-integration/travis-ci.md"] },
	{
		vault: "jekyll-docs",
		query: "check for broken links in ci with html proofer",
		expected: ["continuous-integration/travis-ci.md", "continuous-integration/circleci.md"],
	},

	// Upgrading, help, project
	{ vault: "jekyll-docs", query: "what breaks when moving from jekyll 3 to 4", expected: ["upgrading/3-to-4.md"] },
	{ vault: "jekyll-docs", query: "my posts disappeared after upgrading to 3", expected: ["upgrading/2-to-3.md"] },
	{ vault: "jekyll-docs", query: "site works locally but css is missing under a subpath", expected: ["troubleshooting.md", "github-pages.md"] },
	{ vault: "jekyll-docs", query: "where can I ask for help", expected: ["support.md", "community/community.md"] },
	{ vault: "jekyll-docs", query: "report a security vulnerability", expected: ["security.md"] },
	{ vault: "jekyll-docs", query: "send a pull request to improve the docs", expected: ["contributing.md"] },
	{ vault: "jekyll-docs", query: "how to become a maintainer", expected: ["maintaining/becoming-a-maintainer.md"] },
	{ vault: "jekyll-docs", query: "steps to cut a new release", expected: ["maintaining/releasing-a-new-version.md"] },
	{ vault: "jekyll-docs", query: "in what order are liquid and markdown applied", expected: ["rendering-process.md"] },
];
