import type { JudgedQuery } from "./judgedQueries";

/**
 * The second judged set: questions a new user of Obsidian would type, over the English Obsidian
 * Help vault (obsidianmd/obsidian-help, `en/`, fetched by `npm run fixtures` at a pinned commit;
 * see test/fixtures-manifest-obsidian-help.json for its terms). Each lists the pages a person
 * expects among the first three results, judged from the pages' titles and text.
 *
 * Written on 2026-12-02 before the ranking that followed it changed, and measured once on the
 * engine of that day: success@3 0.5625, MRR 0.545 (recorded in test/integration/searchRanking.test.ts). Do
 * not tune ranking on these queries, and do not edit them to match what the engine answers: they
 * stand in for vaults nobody tuned for. New unseen queries go into a new set.
 */
export const UNSEEN_JUDGED_QUERIES: JudgedQuery[] = [
	{
		vault: "obsidian-help",
		query: "how do I sync my notes between my phone and computer",
		expected: [
			"Getting started/Sync your notes across devices.md",
			"Obsidian Sync/Introduction to Obsidian Sync.md",
			"Obsidian Sync/Set up Obsidian Sync.md",
		],
	},
	{ vault: "obsidian-help", query: "link to a heading in another note", expected: ["Linking notes and files/Internal links.md"] },
	{ vault: "obsidian-help", query: "give a note another name with an alias", expected: ["Linking notes and files/Aliases.md"] },
	{ vault: "obsidian-help", query: "embed an image in a note", expected: ["Linking notes and files/Embed files.md"] },
	{ vault: "obsidian-help", query: "where are attachments saved", expected: ["Editing and formatting/Attachments.md"] },
	{ vault: "obsidian-help", query: "change the theme", expected: ["Extending Obsidian/Themes.md", "User interface/Appearance.md"] },
	{ vault: "obsidian-help", query: "install community plugins", expected: ["Extending Obsidian/Community plugins.md"] },
	{
		vault: "obsidian-help",
		query: "what is restricted mode",
		expected: ["Extending Obsidian/Plugin security.md", "Extending Obsidian/Community plugins.md"],
	},
	{ vault: "obsidian-help", query: "change a keyboard shortcut", expected: ["User interface/Hotkeys.md"] },
	{ vault: "obsidian-help", query: "import notes from evernote", expected: ["Import notes/Import from Evernote.md"] },
	{ vault: "obsidian-help", query: "move my pages over from notion", expected: ["Import notes/Import from Notion.md"] },
	{ vault: "obsidian-help", query: "recover a deleted note", expected: ["Plugins/File recovery.md", "Obsidian Sync/Version history.md"] },
	{ vault: "obsidian-help", query: "how much storage does sync give me", expected: ["Obsidian Sync/Plans and storage limits.md"] },
	{ vault: "obsidian-help", query: "can I get a refund", expected: ["Licenses and payment/Refund policy.md"] },
	{ vault: "obsidian-help", query: "student discount", expected: ["Licenses and payment/Education and non-profit discount.md"] },
	{ vault: "obsidian-help", query: "do I need a license to use obsidian at work", expected: ["Teams/Commercial license.md"] },
	{
		vault: "obsidian-help",
		query: "publish my notes as a website",
		expected: [
			"Obsidian Publish/Introduction to Obsidian Publish.md",
			"Obsidian Publish/Publish your content.md",
			"Obsidian Publish/Set up Obsidian Publish.md",
		],
	},
	{ vault: "obsidian-help", query: "use my own domain for my published site", expected: ["Obsidian Publish/Custom domains.md"] },
	{ vault: "obsidian-help", query: "how to make a table in markdown", expected: ["Editing and formatting/Advanced formatting syntax.md"] },
	{ vault: "obsidian-help", query: "write math equations with latex", expected: ["Editing and formatting/Advanced formatting syntax.md"] },
	{ vault: "obsidian-help", query: "make text bold or italic", expected: ["Editing and formatting/Basic formatting syntax.md"] },
	{ vault: "obsidian-help", query: "add a footnote", expected: ["Editing and formatting/Basic formatting syntax.md", "Plugins/Footnotes view.md"] },
	{ vault: "obsidian-help", query: "callouts", expected: ["Editing and formatting/Callouts.md"] },
	{ vault: "obsidian-help", query: "insert today's date with a template", expected: ["Plugins/Templates.md"] },
	{ vault: "obsidian-help", query: "create a daily note every day", expected: ["Plugins/Daily notes.md"] },
	{ vault: "obsidian-help", query: "filter the graph view", expected: ["Plugins/Graph view.md"] },
	{ vault: "obsidian-help", query: "see which notes link to the current note", expected: ["Plugins/Backlinks.md"] },
	{ vault: "obsidian-help", query: "open a note in a separate window", expected: ["User interface/Pop-out windows.md", "User interface/Tabs.md"] },
	{ vault: "obsidian-help", query: "save my layout of open tabs", expected: ["Plugins/Workspaces.md"] },
	{ vault: "obsidian-help", query: "split the screen to see two notes side by side", expected: ["User interface/Tabs.md"] },
	{ vault: "obsidian-help", query: "where is the .obsidian settings folder", expected: ["Files and folders/Configuration folder.md"] },
	{
		vault: "obsidian-help",
		query: "open an existing folder as a vault",
		expected: ["Files and folders/Manage vaults.md", "Getting started/Create a vault.md"],
	},
	{ vault: "obsidian-help", query: "back up my vault", expected: ["Getting started/Back up your Obsidian files.md"] },
	{ vault: "obsidian-help", query: "add custom css", expected: ["Extending Obsidian/CSS snippets.md"] },
	{ vault: "obsidian-help", query: "open a note with a url from another app", expected: ["Extending Obsidian/Obsidian URI.md"] },
	{ vault: "obsidian-help", query: "control obsidian from the command line", expected: ["Extending Obsidian/Obsidian CLI.md"] },
	{
		vault: "obsidian-help",
		query: "is sync end-to-end encrypted",
		expected: ["Obsidian Sync/Security and privacy.md", "Obsidian Sync/Upgrade Sync encryption.md"],
	},
	{
		vault: "obsidian-help",
		query: "sync is not working",
		expected: ["Obsidian Sync/Troubleshoot Obsidian Sync.md", "Obsidian Sync/Status icon and messages.md"],
	},
	{ vault: "obsidian-help", query: "share a vault with my team", expected: ["Obsidian Sync/Collaborate on a shared vault.md", "Teams/Syncing for teams.md"] },
	{ vault: "obsidian-help", query: "create a base", expected: ["Bases/Create a base.md"] },
	{ vault: "obsidian-help", query: "formulas in bases", expected: ["Bases/Formulas.md"] },
	{ vault: "obsidian-help", query: "show notes as cards with images", expected: ["Bases/Layouts/Cards view.md"] },
	{
		vault: "obsidian-help",
		query: "save a web page into my vault",
		expected: ["Obsidian Web Clipper/Clip web pages.md", "Obsidian Web Clipper/Introduction to Obsidian Web Clipper.md"],
	},
	{ vault: "obsidian-help", query: "highlight text on websites", expected: ["Obsidian Web Clipper/Highlighter.md"] },
	{ vault: "obsidian-help", query: "change the app language", expected: ["User interface/Language settings.md"] },
	{ vault: "obsidian-help", query: "count the words in my note", expected: ["Plugins/Word count.md"] },
	{ vault: "obsidian-help", query: "quickly open a file by its name", expected: ["Plugins/Quick switcher.md"] },
	{ vault: "obsidian-help", query: "search operators", expected: ["Plugins/Search.md"] },
	{ vault: "obsidian-help", query: "nested tags", expected: ["Editing and formatting/Tags.md"] },
	{ vault: "obsidian-help", query: "add properties to a note", expected: ["Editing and formatting/Properties.md"] },
	{ vault: "obsidian-help", query: "record a voice memo", expected: ["Plugins/Audio recorder.md"] },
	{ vault: "obsidian-help", query: "make a presentation from my notes", expected: ["Plugins/Slides.md"] },
	{ vault: "obsidian-help", query: "install obsidian on my ipad", expected: ["Obsidian/Obsidian for iOS and iPadOS.md", "Getting started/Mobile app.md"] },
	{ vault: "obsidian-help", query: "update obsidian to the latest version", expected: ["Getting started/Update Obsidian.md"] },
	{ vault: "obsidian-help", query: "try beta versions early", expected: ["Obsidian/Early access versions.md"] },
	{ vault: "obsidian-help", query: "symlinks", expected: ["Files and folders/Symbolic links and junctions.md"] },
	{ vault: "obsidian-help", query: "which file types does obsidian support", expected: ["Files and folders/Accepted file formats.md"] },
	{ vault: "obsidian-help", query: "collapse headings", expected: ["Editing and formatting/Folding.md"] },
	{ vault: "obsidian-help", query: "edit several lines at once", expected: ["Editing and formatting/Multiple cursors.md"] },
	{ vault: "obsidian-help", query: "difference between reading view and live preview", expected: ["Editing and formatting/Views and editing mode.md"] },
	{ vault: "obsidian-help", query: "merge two notes together", expected: ["Plugins/Note composer.md"] },
	{ vault: "obsidian-help", query: "set up two-factor authentication", expected: ["Obsidian/2-factor authentication.md"] },
	{ vault: "obsidian-help", query: "rename a note and keep the links working", expected: ["Files and folders/Manage notes.md"] },
	{ vault: "obsidian-help", query: "catalyst", expected: ["Licenses and payment/Catalyst license.md"] },
];
