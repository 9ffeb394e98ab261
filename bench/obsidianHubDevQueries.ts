import type { JudgedQuery } from "./judgedQueries";

/**
 * A development set over the Obsidian Hub community vault, separate from the held-out Hub set
 * (`obsidianHubJudgedQueries.ts`): different questions over the same kind of vault (one note per
 * plugin, theme or person, named by an id and aliased by a display name; category lists; guides
 * and concepts), for looking at misses and trying ranking changes. The held-out set is only measured.
 *
 * Written on 2026-12-02 from the vault's file names, aliases, first headings and descriptions,
 * before the engine was run on these questions; the expected pages are those a person would want
 * among the first three (where several plugins do the same thing, any of them).
 */
const PLUGINS = "02 - Community Expansions/02.05 All Community Expansions/Plugins/";
const PLUGIN_CATEGORIES = "02 - Community Expansions/02.01 Plugins by Category/";
const THEME_CATEGORIES = "02 - Community Expansions/02.02 Themes by Category/";
const GUIDES = "04 - Guides, Workflows, & Courses/Guides/";
const TALKS = "04 - Guides, Workflows, & Courses/Community Talks/";
const WORKFLOWS = "04 - Guides, Workflows, & Courses/";
const CONCEPTS = "05 - Concepts/";
const VAULTS = "03 - Showcases & Templates/Vaults/";
const EVENTS = "01 - Community/Events/";
const CHANNELS = "01 - Community/Video Channels/";
const hub = (query: string, expected: string[]): JudgedQuery => ({ vault: "obsidian-hub", query, expected });

export const OBSIDIAN_HUB_DEV_QUERIES: JudgedQuery[] = [
	hub("periodic notes", [PLUGINS + "periodic-notes.md"]),
	hub("outliner", [PLUGINS + "obsidian-outliner.md"]),
	hub("excalidraw", [PLUGINS + "obsidian-excalidraw-plugin.md"]),
	hub("day planner", [PLUGINS + "obsidian-day-planner.md", PLUGINS + "day-planner-og.md"]),
	hub("omnisearch", [PLUGINS + "omnisearch.md"]),
	hub("style settings plugin", [PLUGINS + "obsidian-style-settings.md"]),
	hub("hover editor", [PLUGINS + "obsidian-hover-editor.md"]),
	hub("andy matuschak sliding panes", [PLUGINS + "sliding-panes-obsidian.md"]),
	hub("open a specific note when obsidian starts", [PLUGINS + "homepage.md"]),
	hub("import my kindle highlights", [PLUGINS + "obsidian-kindle-plugin.md", PLUGINS + "kindle-highlights-import.md", PLUGINS + "kindle-html-importer.md"]),
	hub("encrypt a secret in a note", [
		PLUGINS + "meld-encrypt.md",
		PLUGINS + "inline-encrypter.md",
		PLUGINS + "global-markdown-encrypt.md",
		PLUGIN_CATEGORIES + "Plugins for Security and Privacy.md",
	]),
	hub("pomodoro timer", [
		PLUGINS + "obsidian-pomodoro-plugin.md",
		PLUGINS + "pomodoro-timer.md",
		PLUGINS + "obsidian-statusbar-pomo.md",
		PLUGINS + "obsidian-flexible-pomo.md",
		PLUGINS + "pomodoro-widget.md",
		PLUGINS + "pomodoro-planner.md",
	]),
	hub("advanced tables", [PLUGINS + "table-editor-obsidian.md"]),
	hub("count the words in my note", [
		PLUGINS + "better-word-count.md",
		PLUGINS + "novel-word-count.md",
		PLUGINS + "efficient-word-count.md",
		PLUGINS + "custom-selected-word-count.md",
	]),
	hub("sync readwise highlights", [PLUGINS + "readwise-official.md", PLUGINS + "obsidian-readwise.md", PLUGINS + "readwise-mirror.md"]),
	hub("ocr plugins", [PLUGIN_CATEGORIES + "OCR Plugins.md"]),
	hub("play chess in obsidian", [PLUGIN_CATEGORIES + "Plugins for Chess.md"]),
	hub("make a mind map from my notes", [
		PLUGIN_CATEGORIES + "Mindmapping plugins.md",
		PLUGINS + "mindmap.md",
		PLUGINS + "obsidian-mind-map.md",
		PLUGINS + "obsidian-enhancing-mindmap.md",
		PLUGINS + "obsidian-mindmap-nextgen.md",
	]),
	hub("japanese language", [PLUGIN_CATEGORIES + "Japanese Language Plugins.md"]),
	hub("track my finances and budget", [PLUGIN_CATEGORIES + "Finance plugins.md"]),
	hub("plugins that add things to the status bar", [PLUGIN_CATEGORIES + "Status bar plugins.md"]),
	hub("convert other formats to markdown", [PLUGIN_CATEGORIES + "Plugins to convert content into markdown.md"]),
	hub("manage workspaces", [PLUGIN_CATEGORIES + "Plugins to Enhance Workspaces.md", TALKS + "Customizable workspaces.md"]),
	hub("paid plugins that need a subscription", [PLUGIN_CATEGORIES + "Paid and subscription-based plugins.md"]),
	hub("work with video and audio files", [PLUGIN_CATEGORIES + "Plugins for Video and Audio files.md"]),
	hub("collaborate on notes with other people", [PLUGIN_CATEGORIES + "Plugins for collaboration.md"]),
	hub("breadcrumbs plugin guide", [
		GUIDES + "Breadcrumbs Quickstart Guide.md",
		GUIDES + "How to get the most out of the Breadcrumbs plugin.md",
		TALKS + "Breadcrumbs Showcase.md",
	]),
	hub("control obsidian from another app", [GUIDES + "Controlling Obsidian via a Third-party App.md"]),
	hub("tips for working remotely", [GUIDES + "Effective Remote Work.md"]),
	hub("join the obsidian discord", [GUIDES + "Using Discord.md"]),
	hub("develop themes in visual studio code", [GUIDES + "Using Visual Studio Code for Theme Development.md"]),
	hub("how many plugins and themes are there", [GUIDES + "Obsidian ecosystem statistics.md"]),
	hub("journaling setup", [VAULTS + "SlRvb's Journaling Setup.md", TALKS + "Journaling Showcase.md"]),
	hub("qualitative research analysis", [VAULTS + "Qualitative Analysis Environment by Ryan Murphy.md"]),
	hub("obsidian for academic writing", [WORKFLOWS + "for Academic Writing.md"]),
	hub("using obsidian for bible study", [WORKFLOWS + "for Religious Uses.md"]),
	hub("minimalist themes", [THEME_CATEGORIES + "Minimalistic Themes.md"]),
	hub("light mode themes", [THEME_CATEGORIES + "Light-mode themes.md"]),
	hub("obsidian roundup newsletter", ["01 - Community/Obsidian Roundup/🗂️ Obsidian Roundup.md"]),
	hub("what is mermaid", [CONCEPTS + "Mermaid.md"]),
	hub("obsidian october event", [EVENTS + "Obsidian October 2021.md", EVENTS + "Obsidian October 2022.md"]),
	hub("youtube channels about obsidian", [CHANNELS + "YouTube Channels.md", CHANNELS + "YouTube.md"]),
	hub("office hours", [CHANNELS + "Obsidian Office Hours.md"]),
	hub("obsidian course in russian", ["04 - Guides, Workflows, & Courses/Courses/Obsidian Training Course in Russian.md"]),
	hub("add a note to the hub through github", [GUIDES + "How to add content through GitHub.md"]),
	hub("core plugins", [CONCEPTS + "Obsidian Core Plugins.md"]),
	hub("write latex math", [CONCEPTS + "LaTeX.md", PLUGIN_CATEGORIES + "Mathjax and LaTeX Plugins.md"]),
	hub("sponsor a plugin developer", [CONCEPTS + "GitHub sponsors.md", CONCEPTS + "Buy me a coffee.md", CONCEPTS + "Patreon.md"]),
	hub("spellcheck in other languages", [PLUGIN_CATEGORIES + "Dictionary and Spellchecking Plugins.md"]),
];
