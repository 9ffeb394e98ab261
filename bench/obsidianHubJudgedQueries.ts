import type { JudgedQuery } from "./judgedQueries";

/**
 * A judged set over a large community vault: the Obsidian Hub (obsidian-community/obsidian-hub,
 * 6,571 Markdown notes, most of them one note per community plugin, theme or person; fetched by
 * `npm run fixtures -- --set obsidian-hub` at a pinned commit, see
 * test/fixtures-manifest-obsidian-hub.json for its terms). Questions a new user would type, each
 * with the pages a person expects among the first three results, judged from the vault's titles
 * and pages before the engine was run on it.
 *
 * Written on 2026-12-02, before the ranking changes that followed it. Do not tune ranking on these
 * queries and do not edit them to match what the engine answers: they stand in for vaults nobody
 * tuned for, and are only measured. New queries go into a new set.
 */
const PLUGINS = "02 - Community Expansions/02.05 All Community Expansions/Plugins/";
const THEMES = "02 - Community Expansions/02.05 All Community Expansions/Themes/";
const PLUGIN_CATEGORIES = "02 - Community Expansions/02.01 Plugins by Category/";
const THEME_CATEGORIES = "02 - Community Expansions/02.02 Themes by Category/";
const GUIDES = "04 - Guides, Workflows, & Courses/Guides/";
const TALKS = "04 - Guides, Workflows, & Courses/Community Talks/";
const CONCEPTS = "05 - Concepts/";

export const OBSIDIAN_HUB_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "obsidian-hub", query: "back up my vault with git", expected: [PLUGINS + "obsidian-git.md", PLUGIN_CATEGORIES + "Backup plugins.md"] },
	{ vault: "obsidian-hub", query: "kanban board", expected: [PLUGINS + "obsidian-kanban.md"] },
	{ vault: "obsidian-hub", query: "dataview", expected: [PLUGINS + "dataview.md", GUIDES + "An Introduction to Dataview.md"] },
	{
		vault: "obsidian-hub",
		query: "how do I write dataview queries",
		expected: [
			GUIDES + "An Introduction to Dataview.md",
			PLUGINS + "dataview.md",
			TALKS + "YT - An Introduction to Dataview.md",
			GUIDES + "YT - Dataview Plugin - How to Use this Powerful Obsidian Plugin (With Examples).md",
			GUIDES + "YT  - Intro to Dataview Plugin.md",
		],
	},
	{ vault: "obsidian-hub", query: "templater", expected: [PLUGINS + "templater-obsidian.md"] },
	{ vault: "obsidian-hub", query: "plugins for templates", expected: [PLUGIN_CATEGORIES + "Template plugins.md"] },
	{
		vault: "obsidian-hub",
		query: "draw diagrams and sketches",
		expected: [PLUGINS + "obsidian-excalidraw-plugin.md", PLUGIN_CATEGORIES + "Plugins for Diagrams.md"],
	},
	{
		vault: "obsidian-hub",
		query: "flashcards with spaced repetition",
		expected: [
			PLUGINS + "obsidian-spaced-repetition.md",
			PLUGIN_CATEGORIES + "Spaced Repetition Plugins.md",
			CONCEPTS + "Spaced repetition.md",
			TALKS + "Spaced repetition - An Introduction.md",
		],
	},
	{ vault: "obsidian-hub", query: "what is a map of content", expected: [CONCEPTS + "Maps of Content (MOC).md"] },
	{ vault: "obsidian-hub", query: "zettelkasten", expected: [CONCEPTS + "Zettelkasten.md", TALKS + "Zettelkasten 101.md"] },
	{
		vault: "obsidian-hub",
		query: "PARA method",
		expected: [CONCEPTS + "PARA.md", "03 - Showcases & Templates/Vaults/PARA Starter Kit.md", "03 - Showcases & Templates/Vaults/Periodic PARA.md"],
	},
	{
		vault: "obsidian-hub",
		query: "what is a digital garden",
		expected: [CONCEPTS + "Digital garden.md", CONCEPTS + "A Brief History and Ethos of the Digital Garden.md"],
	},
	{ vault: "obsidian-hub", query: "dark themes", expected: [THEME_CATEGORIES + "Dark-mode themes.md"] },
	{ vault: "obsidian-hub", query: "who made the minimal theme", expected: [THEMES + "Minimal.md"] },
	{
		vault: "obsidian-hub",
		query: "change how obsidian looks with css",
		expected: [GUIDES + "How to Style Obsidian.md", TALKS + "CSS 101 - Community Talk.md", "06 - Inbox/Obsidian CSS.md"],
	},
	{ vault: "obsidian-hub", query: "obsidian is running slow", expected: [GUIDES + "How to debug why Obsidian is running slowly.md"] },
	{
		vault: "obsidian-hub",
		query: "how do I make my own plugin",
		expected: [
			GUIDES + "How to get started developing plugins.md",
			TALKS + "Create Your Own Obsidian Plugin - How To Get Started.md",
			TALKS + "How to create your own Obsidian plugin.md",
			"04 - Guides, Workflows, & Courses/for Plugin Developers.md",
		],
	},
	{
		vault: "obsidian-hub",
		query: "submit my plugin to the community plugin list",
		expected: [GUIDES + "How to add your plugin to the community plugin list.md"],
	},
	{ vault: "obsidian-hub", query: "publish my theme in the theme store", expected: [GUIDES + "How to add your theme to the community theme store.md"] },
	{
		vault: "obsidian-hub",
		query: "release a new version of my plugin",
		expected: [GUIDES + "How to release a new version of your plugin.md", GUIDES + "Using GitHub actions to create releases for plugins.md"],
	},
	{
		vault: "obsidian-hub",
		query: "write automated tests for my plugin",
		expected: [
			GUIDES + "How to add automated tests to your plugin.md",
			GUIDES + "Why automate tests for plugins.md",
			"04 - Guides, Workflows, & Courses/for Plugin Developers to Automate Tests.md",
			GUIDES + "How to test plugin code that uses Obsidian APIs.md",
			TALKS + "Plugin Testing for Developers.md",
		],
	},
	{ vault: "obsidian-hub", query: "self hosted sync between devices", expected: [PLUGINS + "obsidian-livesync.md"] },
	{
		vault: "obsidian-hub",
		query: "use obsidian to run a dungeons and dragons campaign",
		expected: [
			GUIDES + "Using Obsidian as a TTRPG Campaign Manager.md",
			"04 - Guides, Workflows, & Courses/for TTRPG.md",
			PLUGIN_CATEGORIES + "Plugins for TTRPG.md",
			TALKS + "Obsidian and TTRPG.md",
		],
	},
	{ vault: "obsidian-hub", query: "character sheet template", expected: ["03 - Showcases & Templates/Templates/TTRPG notes/DnD Character Sheet.md"] },
	{
		vault: "obsidian-hub",
		query: "zotero citations",
		expected: [PLUGINS + "obsidian-citation-plugin.md", PLUGINS + "obsidian-zotero-desktop-connector.md", TALKS + "Zotero 101.md"],
	},
	{
		vault: "obsidian-hub",
		query: "export notes to word or pdf with pandoc",
		expected: [
			TALKS + "YT - Pandoc and Obsidian - Create slideshows, PDFs and Word documents.md",
			GUIDES + "Using Pandoc inside Obsidian.md",
			PLUGINS + "obsidian-pandoc.md",
		],
	},
	{
		vault: "obsidian-hub",
		query: "vim keybindings",
		expected: [PLUGIN_CATEGORIES + "Vim-related Plugins.md", "04 - Guides, Workflows, & Courses/for Vim users.md", PLUGINS + "obsidian-vimrc-support.md"],
	},
	{
		vault: "obsidian-hub",
		query: "which plugins work on my phone",
		expected: [
			PLUGIN_CATEGORIES + "Mobile-compatible plugins.md",
			PLUGIN_CATEGORIES + "Plugins Designed for Mobile.md",
			"04 - Guides, Workflows, & Courses/for Using Obsidian on Mobile.md",
		],
	},
	{ vault: "obsidian-hub", query: "add icons to folders", expected: [PLUGINS + "obsidian-icon-folder.md"] },
	{ vault: "obsidian-hub", query: "admonition callouts", expected: [PLUGINS + "obsidian-admonition.md"] },
	{
		vault: "obsidian-hub",
		query: "format my notes automatically",
		expected: [PLUGINS + "obsidian-linter.md", PLUGIN_CATEGORIES + "Refactoring and auto-formatting plugins.md"],
	},
	{
		vault: "obsidian-hub",
		query: "make a slide presentation from markdown",
		expected: [PLUGINS + "obsidian-advanced-slides.md", TALKS + "YT - Pandoc and Obsidian - Create slideshows, PDFs and Word documents.md"],
	},
	{ vault: "obsidian-hub", query: "find similar notes with openai", expected: [PLUGINS + "smart-connections.md"] },
	{ vault: "obsidian-hub", query: "markdown syntax cheat sheet", expected: [GUIDES + "Markdown Syntax.md", CONCEPTS + "Markdown.md"] },
	{ vault: "obsidian-hub", query: "what is yaml frontmatter", expected: [CONCEPTS + "YAML frontmatter.md"] },
	{
		vault: "obsidian-hub",
		query: "how can I contribute to the hub",
		expected: [
			"CONTRIBUTING.md",
			"00 - Contribute to the Obsidian Hub/🗂️ 00 - Contribute to the Obsidian Hub.md",
			GUIDES + "How to add content through GitHub.md",
		],
	},
	{ vault: "obsidian-hub", query: "where do I report a broken link", expected: ["00 - Contribute to the Obsidian Hub/FAQ.md"] },
	{
		vault: "obsidian-hub",
		query: "community talks videos",
		expected: ["01 - Community/Events/Obsidian Community Talks.md", "01 - Community/Video Channels/Community Talks.md", TALKS + "🗂️ Community Talks.md"],
	},
	{ vault: "obsidian-hub", query: "coworking sessions", expected: ["01 - Community/Events/Obsidian Community Coworking.md"] },
	{ vault: "obsidian-hub", query: "best plugins and themes of 2021", expected: ["01 - Community/Events/Gems of the Year 2021.md"] },
	{
		vault: "obsidian-hub",
		query: "linking your thinking course",
		expected: ["04 - Guides, Workflows, & Courses/Courses/Linking Your Thinking.md", "03 - Showcases & Templates/Vaults/LYT Kit.md"],
	},
	{
		vault: "obsidian-hub",
		query: "getting started with obsidian as a beginner",
		expected: [
			"04 - Guides, Workflows, & Courses/for Beginners.md",
			"04 - Guides, Workflows, & Courses/Courses/Course for Getting Started with Obsidian.md",
			TALKS + "Obsidian 101.md",
		],
	},
	{
		vault: "obsidian-hub",
		query: "calendar for daily notes",
		expected: [PLUGINS + "calendar.md", PLUGIN_CATEGORIES + "Plugins for daily notes.md", PLUGIN_CATEGORIES + "Date and calendar plugins.md"],
	},
	{ vault: "obsidian-hub", query: "type dates like next friday in natural language", expected: [PLUGINS + "nldates-obsidian.md"] },
	{ vault: "obsidian-hub", query: "plugins that are no longer maintained", expected: [PLUGIN_CATEGORIES + "Discontinued plugins.md"] },
	{ vault: "obsidian-hub", query: "what does sherlocked mean", expected: [CONCEPTS + "Sherlocking.md"] },
	{
		vault: "obsidian-hub",
		query: "customize the graph view colors",
		expected: [GUIDES + "Graph view customization.md", "03 - Showcases & Templates/Plugin Showcases/Graph view.md"],
	},
	{ vault: "obsidian-hub", query: "default theme color variables", expected: [GUIDES + "Default Obsidian Theme Colors.md"] },
	{ vault: "obsidian-hub", query: "can I keep patient notes in obsidian under hipaa", expected: [GUIDES + "HIPAA Requirements and Obsidian Primer.md"] },
	{
		vault: "obsidian-hub",
		query: "track habits and numbers in charts",
		expected: [PLUGINS + "obsidian-tracker.md", PLUGIN_CATEGORIES + "Plugins to create charts.md"],
	},
	{
		vault: "obsidian-hub",
		query: "annotate pdf files",
		expected: [PLUGIN_CATEGORIES + "Plugins to manage or annotate PDF files.md", PLUGINS + "obsidian-annotator.md"],
	},
	{ vault: "obsidian-hub", query: "edit markdown tables easily", expected: [PLUGINS + "table-editor-obsidian.md"] },
	{
		vault: "obsidian-hub",
		query: "remind me of my todos",
		expected: [PLUGINS + "obsidian-reminder-plugin.md", PLUGIN_CATEGORIES + "Task management plugins.md"],
	},
	{
		vault: "obsidian-hub",
		query: "plugins for writing a novel",
		expected: [
			PLUGIN_CATEGORIES + "Plugins for Writers.md",
			"04 - Guides, Workflows, & Courses/for Creative Writing.md",
			TALKS + "Project management for fiction writing.md",
		],
	},
	{ vault: "obsidian-hub", query: "right to left languages like arabic or hebrew", expected: [PLUGIN_CATEGORIES + "Plugins for Right-To-Left Languages.md"] },
	{
		vault: "obsidian-hub",
		query: "use sass to build a theme",
		expected: [GUIDES + "Want some Sass with your obsidian theme‽ here's How and Why.md", CONCEPTS + "SCSS.md"],
	},
	{ vault: "obsidian-hub", query: "lint theme css with stylelint", expected: [GUIDES + "Why and How to use Stylelint for your Obsidian Theme.md"] },
];
