import type { JudgedQuery } from "./judgedQueries";

/**
 * The eighth held-out judged set: questions a React developer new to eslint-plugin-jsx-a11y (an
 * accessibility linter for JSX) would type over its rule pages (`docs/rules/`, 39 Markdown pages, one
 * per rule named by its slug, `rules/alt-text.md`, each opening with the heading `# jsx-a11y/<slug>`,
 * a summary, and sections such as `## Rule options`, `## Rule details`, `## How do I resolve this
 * error?` with `### Case: …` headings, `### Succeed` / `### Fail` examples, `## Accessibility
 * guidelines` and `### Resources` that most pages repeat), from the npm package eslint-plugin-jsx-a11y
 * 6.10.2 (MIT license, by Ethan Cohen and the jsx-eslint contributors; repository
 * jsx-eslint/eslint-plugin-jsx-a11y), installed from the npm registry into test/unseen-vaults by
 * scripts/test-tools.mjs. Questions are in a developer's words about what they are doing (an image,
 * a link, a label, a click handler), not the rule's name. A question expects the page of the rule that
 * answers it; two pages when two rules answer it alike (the deprecated `label-has-for` and its
 * replacement, `html-has-lang` and `lang`).
 *
 * Written on 2026-12-03 (rank39) from each page's title, summary and headings, before the engine was
 * run on them; scored once, on main `136f5ff` (the tree of that day's seventeenth session start), and
 * only the totals were read, not which questions miss. Held out: do not tune ranking on these
 * queries, and do not edit them to match what the engine answers. New queries go into a new set.
 */
export const JSX_A11Y_RULES_JUDGED_QUERIES: JudgedQuery[] = [
	{ vault: "jsx-a11y-rules", query: "images missing an alt attribute", expected: ["rules/alt-text.md"] },
	{ vault: "jsx-a11y-rules", query: "my custom Image component should also be checked for alt text", expected: ["rules/alt-text.md"] },
	{ vault: "jsx-a11y-rules", query: "area elements in an image map need a description", expected: ["rules/alt-text.md"] },
	{ vault: "jsx-a11y-rules", query: "don't put the word photo or picture in the image description", expected: ["rules/img-redundant-alt.md"] },
	{ vault: "jsx-a11y-rules", query: "link text that just says click here or learn more", expected: ["rules/anchor-ambiguous-text.md"] },
	{ vault: "jsx-a11y-rules", query: "an anchor with nothing inside it for a screen reader to read", expected: ["rules/anchor-has-content.md"] },
	{ vault: "jsx-a11y-rules", query: "an a tag with href # and an onClick handler instead of a button", expected: ["rules/anchor-is-valid.md"] },
	{ vault: "jsx-a11y-rules", query: "error on the anchor inside a Next.js Link component", expected: ["rules/anchor-is-valid.md"] },
	{ vault: "jsx-a11y-rules", query: "treat the to prop of my router Link as the href", expected: ["rules/anchor-is-valid.md"] },
	{
		vault: "jsx-a11y-rules",
		query: "keyboard focus in a listbox managed with aria-activedescendant",
		expected: ["rules/aria-activedescendant-has-tabindex.md"],
	},
	{ vault: "jsx-a11y-rules", query: "misspelled aria attribute name like aria-labeledby", expected: ["rules/aria-props.md"] },
	{ vault: "jsx-a11y-rules", query: "aria-hidden given a value that is not true or false", expected: ["rules/aria-proptypes.md"] },
	{ vault: "jsx-a11y-rules", query: "role attribute set to something that is not a real ARIA role", expected: ["rules/aria-role.md"] },
	{ vault: "jsx-a11y-rules", query: "let my own components take a role prop without checking it", expected: ["rules/aria-role.md"] },
	{ vault: "jsx-a11y-rules", query: "aria props on meta, script or style tags", expected: ["rules/aria-unsupported-elements.md"] },
	{ vault: "jsx-a11y-rules", query: "wrong autocomplete value on an email input", expected: ["rules/autocomplete-valid.md"] },
	{ vault: "jsx-a11y-rules", query: "onClick without an onKeyDown or onKeyUp handler", expected: ["rules/click-events-have-key-events.md"] },
	{ vault: "jsx-a11y-rules", query: "icon-only button with no text for assistive technology", expected: ["rules/control-has-associated-label.md"] },
	{ vault: "jsx-a11y-rules", query: "an h2 rendered empty or hidden from screen readers", expected: ["rules/heading-has-content.md"] },
	{ vault: "jsx-a11y-rules", query: "the html element does not say which language the page is in", expected: ["rules/html-has-lang.md", "rules/lang.md"] },
	{ vault: "jsx-a11y-rules", query: "is en-XX a valid language code for the html tag", expected: ["rules/lang.md"] },
	{ vault: "jsx-a11y-rules", query: "embedded iframe needs a title", expected: ["rules/iframe-has-title.md"] },
	{ vault: "jsx-a11y-rules", query: "a div with role button can't be reached with the Tab key", expected: ["rules/interactive-supports-focus.md"] },
	{ vault: "jsx-a11y-rules", query: "form label not connected to its input", expected: ["rules/label-has-associated-control.md", "rules/label-has-for.md"] },
	{
		vault: "jsx-a11y-rules",
		query: "nest the input inside the label or use htmlFor with an id",
		expected: ["rules/label-has-associated-control.md", "rules/label-has-for.md"],
	},
	{
		vault: "jsx-a11y-rules",
		query: "which rule replaced the deprecated label htmlFor check",
		expected: ["rules/label-has-for.md", "rules/label-has-associated-control.md"],
	},
	{ vault: "jsx-a11y-rules", query: "video and audio players need captions for deaf users", expected: ["rules/media-has-caption.md"] },
	{ vault: "jsx-a11y-rules", query: "muted video without a track element", expected: ["rules/media-has-caption.md"] },
	{ vault: "jsx-a11y-rules", query: "onMouseOver needs a matching onFocus", expected: ["rules/mouse-events-have-key-events.md"] },
	{ vault: "jsx-a11y-rules", query: "keyboard shortcuts defined with accessKey clash with screen readers", expected: ["rules/no-access-key.md"] },
	{ vault: "jsx-a11y-rules", query: "hiding a focusable button from screen readers", expected: ["rules/no-aria-hidden-on-focusable.md"] },
	{ vault: "jsx-a11y-rules", query: "an input that grabs focus as soon as the page loads", expected: ["rules/no-autofocus.md"] },
	{ vault: "jsx-a11y-rules", query: "stop people using marquee and blink", expected: ["rules/no-distracting-elements.md"] },
	{
		vault: "jsx-a11y-rules",
		query: "giving a button or a link the role of presentation or listitem",
		expected: ["rules/no-interactive-element-to-noninteractive-role.md"],
	},
	{ vault: "jsx-a11y-rules", query: "click handler on an li or an img", expected: ["rules/no-noninteractive-element-interactions.md"] },
	{ vault: "jsx-a11y-rules", query: "turning a heading into a button with a role", expected: ["rules/no-noninteractive-element-to-interactive-role.md"] },
	{ vault: "jsx-a11y-rules", query: "tabIndex on list items so users can tab to them", expected: ["rules/no-noninteractive-tabindex.md"] },
	{ vault: "jsx-a11y-rules", query: "use onBlur instead of onChange on a select", expected: ["rules/no-onchange.md"] },
	{ vault: "jsx-a11y-rules", query: "role navigation on a nav element is unnecessary", expected: ["rules/no-redundant-roles.md"] },
	{ vault: "jsx-a11y-rules", query: "span that handles mouse clicks but has no semantic role", expected: ["rules/no-static-element-interactions.md"] },
	{ vault: "jsx-a11y-rules", query: "use a real button element rather than role=button", expected: ["rules/prefer-tag-over-role.md"] },
	{ vault: "jsx-a11y-rules", query: "role checkbox without aria-checked", expected: ["rules/role-has-required-aria-props.md"] },
	{ vault: "jsx-a11y-rules", query: "an aria attribute the element's role does not support", expected: ["rules/role-supports-aria-props.md"] },
	{ vault: "jsx-a11y-rules", query: "scope attribute used on a td instead of a table header", expected: ["rules/scope.md"] },
	{ vault: "jsx-a11y-rules", query: "tab order broken by tabIndex values above zero", expected: ["rules/tabindex-no-positive.md"] },
	{ vault: "jsx-a11y-rules", query: "emoji should be wrapped in a span with role img and a label", expected: ["rules/accessible-emoji.md"] },
	{ vault: "jsx-a11y-rules", query: "abstract roles like widget are not allowed", expected: ["rules/aria-role.md"] },
];
